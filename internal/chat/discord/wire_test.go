package discord_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// Issue 23 point 5 (acceptance 5): what Croupier sends Discord is valid
// against Discord's published OpenAPI description and its documented
// limits (discordspec), for each ruleset. The harness's recorder checks
// every body as it passes: the bulk overwrite of the ruleset's commands
// (sent twice: the second, compared with what Discord lists back, sends
// nothing), and then every registered slash command and subcommand sent
// with its required options (autocomplete asked for each option that has
// it, the first suggestion used), every button of every reply pressed
// (on a shared message when the reply is public, on the presser's own
// when private), the first choice of every select, the context menus,
// and each interaction finished again as a deferred one would be
// (Handler.Finish edits the original response, and a shared message).
func TestWireValidAgainstDiscordSpec(t *testing.T) {
	for _, id := range []string{"gilded-hall", "obelisk", "turns"} {
		t.Run(id, func(t *testing.T) {
			hs, api := sharedHarness(t)
			w := wireWalk{t: t, hs: hs, api: api, ruleset: id}
			w.register()
			w.setUp()
			w.walk()
			counts := hs.wire.Counts()
			checked, failed := hs.wire.Total()
			t.Logf("%s: %d bodies checked, %d refused:\n%s", id, checked, failed, hs.wire.Summary())
			for _, kind := range []string{
				"PUT /applications/{application_id}/guilds/{guild_id}/commands",
				"response type 4 to interaction type 2",                           // command replies
				"response type 8 to interaction type 4",                           // autocomplete
				"response type 1 to interaction type 1",                           // PING
				"response type 4 to interaction type 5",                           // a modal's submission
				"response type 4 to interaction type 3",                           // presses on shared messages
				"response type 7 to interaction type 3",                           // presses on private messages
				"PATCH /channels/{channel_id}/messages/{message_id}",              // shared messages' public state
				"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", // deferred replies
			} {
				if counts[kind] == 0 {
					t.Errorf("%s: no %s was checked", id, kind)
				}
			}
			if api.Overwrites() != 1 {
				t.Errorf("%d overwrites of the commands, want 1 (the second registration sends nothing)", api.Overwrites())
			}
		})
	}
}

type wireWalk struct {
	t       *testing.T
	hs      *harness
	api     *discordtest.API
	ruleset string
	cmds    []discord.AppCommand
	game    string
	msgs    int
}

// register registers the ruleset's commands in the guild, twice.
func (w *wireWalk) register() {
	w.t.Helper()
	cmds, err := discord.AppCommands(chat.CommandsFor(rulesets.Registry(), w.ruleset))
	if err != nil {
		w.t.Fatal(err)
	}
	w.cmds = cmds
	c := &discord.Client{Base: w.api.Base(), Token: botToken}
	for i, want := range []bool{true, false} {
		reg, err := discord.Register(context.Background(), c, app, guild, cmds)
		if err != nil || reg.Changed != want {
			w.t.Fatalf("registration %d: %+v %v, want changed %v", i+1, reg, err, want)
		}
	}
}

// setUp binds a game of the ruleset with players who hold something.
func (w *wireWalk) setUp() {
	w.t.Helper()
	switch w.ruleset {
	case "gilded-hall":
		w.game = "hall"
		w.hs.bind()
		for _, u := range []string{ada, grace, cy} {
			w.hs.cmd(u, "join")
		}
		w.hs.give(ada, 5, "2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds", "King of Hearts")
		w.hs.give(grace, 5, "7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds")
		if _, err := gildedhall.On(w.hs.svc).Grant(context.Background(), game.Request{Game: "hall", Actor: "discord:" + admin, Key: "grant-v"},
			gildedhall.Grant{Player: "discord:" + ada, Vertebrae: 60, Packs: []gildedhall.PackGrant{{Pack: "handy-pack"}}, Reason: "test"}); err != nil {
			w.t.Fatal(err)
		}
	case "obelisk":
		w.game = "stone"
		obeliskGame(w.t, w.hs)
		w.hs.cmd(cy, "join")
	case "turns":
		w.game = "nomic"
		turnsGame(w.t, w.hs)
		// A proposal of Cy's to vote on, and a case the administrator
		// ruled, which Ada may appeal.
		w.hs.cmd(grace, "pool-enter")
		w.pressAll(w.hs.cmd(cy, "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended."))), cy)
		w.hs.cmd(ada, "judgment-request", opt("statement", "Is rule 210 fair?"))
		w.hs.cmd(grace, "case", sub("recuse", opt("case", 5301)))
		w.hs.cmd(admin, "case", sub("rule", opt("case", 5301), opt("ruling", "FALSE"), opt("reasons", "It is.")))
	}
}

// leaf is one slash command path with its options.
type leaf struct {
	top, sub string
	admin    bool
	opts     []discord.AppOption
}

func (w *wireWalk) leaves() []leaf {
	var out []leaf
	for _, c := range w.cmds {
		if c.Type != discord.CommandChatInput {
			continue
		}
		if len(c.Options) > 0 && c.Options[0].Type == discord.OptSubCommand {
			for _, s := range c.Options {
				out = append(out, leaf{top: c.Name, sub: s.Name, admin: c.DefaultMemberPermissions != nil, opts: s.Options})
			}
			continue
		}
		out = append(out, leaf{top: c.Name, admin: c.DefaultMemberPermissions != nil, opts: c.Options})
	}
	return out
}

func (w *wireWalk) walk() {
	w.t.Helper()
	// /leave last: its confirmation, pressed, ends Ada's part.
	w.menus()
	ls := w.leaves()
	order.Stable(ls, func(a, b leaf) int { return cmp.Compare(boolInt(a.top == "leave"), boolInt(b.top == "leave")) })
	for _, l := range ls {
		user := ada
		if l.admin {
			user = admin
		}
		var sent []map[string]any
		for _, o := range l.opts {
			v, ok := w.value(user, l, sent, o)
			if !ok {
				continue
			}
			sent = append(sent, map[string]any{"name": o.Name, "type": o.Type, "value": v})
		}
		data := map[string]any{"id": "c-" + l.top, "name": l.top, "type": discord.CommandChatInput, "options": sent}
		if l.sub != "" {
			data["options"] = []map[string]any{{"name": l.sub, "type": discord.OptSubCommand, "options": sent}}
		}
		in := interaction(w.hs.nextID(), user, discord.InteractionCommand, data)
		r := w.hs.send(in)
		w.finish(in)
		w.pressAll(r, user)
	}
}

// menus uses the user and message context-menu commands, and sends a
// PING and a modal's submission (the Croupier opens no modal, and says so).
func (w *wireWalk) menus() {
	ping := interaction(w.hs.nextID(), ada, discord.InteractionPing, nil)
	delete(ping, "data")
	w.hs.send(ping)
	w.hs.send(interaction(w.hs.nextID(), ada, discord.InteractionModalSubmit, map[string]any{"custom_id": "form", "components": []any{}}))
	for _, c := range w.cmds {
		switch c.Type {
		case discord.CommandUser:
			in := interaction(w.hs.nextID(), ada, discord.InteractionCommand, map[string]any{"name": c.Name, "type": discord.CommandUser, "target_id": grace,
				"resolved": map[string]any{"users": map[string]any{grace: map[string]any{"id": grace, "username": "grace"}}}})
			w.hs.send(in)
			w.finish(in)
		case discord.CommandMessage:
			w.msgs++
			id := fmt.Sprint(7000 + w.msgs)
			in := interaction(w.hs.nextID(), ada, discord.InteractionCommand, map[string]any{"name": c.Name, "type": discord.CommandMessage, "target_id": id,
				"resolved": map[string]any{"messages": map[string]any{id: map[string]any{"id": id, "channel_id": "700", "content": "Let there be more.", "author": map[string]any{"id": ada}}}}})
			w.pressAll(w.hs.send(in), ada)
			w.finish(in)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// value chooses an option's value: its first choice, the first
// autocomplete suggestion (asking for it checks the autocomplete answer),
// or one that suits its type and name. Optional options without a choice
// or a suggestion are left out.
func (w *wireWalk) value(user string, l leaf, sent []map[string]any, o discord.AppOption) (any, bool) {
	if len(o.Choices) > 0 {
		return o.Choices[0].Value, true
	}
	if o.Autocomplete {
		focused := append(append([]map[string]any{}, sent...), map[string]any{"name": o.Name, "type": o.Type, "value": "", "focused": true})
		data := map[string]any{"name": l.top, "type": discord.CommandChatInput, "options": focused}
		if l.sub != "" {
			data["options"] = []map[string]any{{"name": l.sub, "type": discord.OptSubCommand, "options": focused}}
		}
		r := w.hs.send(interaction(w.hs.nextID(), user, discord.InteractionAutocomplete, data))
		if r.Data != nil && len(r.Data.Choices) > 0 {
			return r.Data.Choices[0].Value, true
		}
	}
	if !o.Required {
		return nil, false
	}
	switch o.Type {
	case discord.OptInteger:
		if o.MinValue != nil {
			return int(*o.MinValue), true
		}
		return 1, true
	case discord.OptBoolean:
		return true, true
	case discord.OptUser:
		return grace, true
	case discord.OptChannel:
		return "701", true
	}
	switch o.Name {
	case "game":
		return w.game, true
	case "dice":
		return "2d6", true
	case "patch":
		return `{"durations":{"rejoinWait":"168h"}}`, true
	case "message":
		w.msgs++
		return fmt.Sprint(7000 + w.msgs), true
	}
	return "A few words.", true
}

// pressAll presses every button of r (as grace on a public message, as
// the presser on a private one), and chooses the first value(s) of every
// select.
func (w *wireWalk) pressAll(r result, user string) {
	if r.Data == nil || r.Data.Components == nil {
		return
	}
	w.msgs++
	msg, flags, presser := fmt.Sprint(9500+w.msgs), 0, grace
	if r.ephemeral() {
		flags, presser = discord.FlagEphemeral, user
	}
	for _, row := range *r.Data.Components {
		for _, c := range row.Components {
			data := map[string]any{"custom_id": c.CustomID, "component_type": c.Type}
			if c.Type == discord.ComponentStringSelect {
				k := max(c.MinValues, 1)
				var vs []string
				for _, o := range c.Options[:min(k, len(c.Options))] {
					vs = append(vs, o.Value)
				}
				data["values"] = vs
			}
			in := interaction(w.hs.nextID(), presser, discord.InteractionComponent, data)
			in["message"] = map[string]any{"id": msg, "channel_id": "700", "flags": flags, "content": "", "author": map[string]any{"id": app, "username": "Croupier"}}
			w.hs.send(in)
			w.finish(in)
		}
	}
}

// finish runs the interaction again as its deferred twin would: it
// replays, and edits the original response (and a shared message).
func (w *wireWalk) finish(in map[string]any) {
	w.t.Helper()
	body, _ := json.Marshal(in)
	if err := w.hs.h.Finish(context.Background(), body); err != nil {
		w.t.Errorf("finishing %s: %v", body, err)
	}
}

// The responses that defer a slow command are valid too: a private slash
// command's and a press on a shared message's "thinking…" (type 5, flags
// 64), a public slash command's (type 5), a press on a private message's
// (type 6); each is finished by an edit of the original response, and the
// shared message gets its public state.
func TestWireDeferredResponsesValid(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.h.Budget = 30 * time.Millisecond
	release := make(chan struct{})
	slowRelease.Store(&release)
	press := func(id, cmd string, flags int) map[string]any {
		in := interaction(id, ada, discord.InteractionComponent, map[string]any{"custom_id": mustAction(t, cmd), "component_type": discord.ComponentButton})
		in["message"] = map[string]any{"id": "9" + id, "channel_id": "700", "flags": flags, "author": map[string]any{"id": app}}
		return in
	}
	for _, c := range []struct {
		what   string
		in     map[string]any
		typ    int
		flags  int
		shared bool
	}{
		{"a private command", slash("8301", ada, "slowtest"), discord.ResponseDeferredMessage, discord.FlagEphemeral, false},
		{"a public command", slash("8302", ada, "slowpublic"), discord.ResponseDeferredMessage, 0, false},
		{"a press on a shared message", press("8303", "slowshared", 0), discord.ResponseDeferredMessage, discord.FlagEphemeral, true},
		{"a press on a private message", press("8304", "slowtest", discord.FlagEphemeral), discord.ResponseDeferredUpdate, 0, false},
	} {
		r := hs.send(c.in)
		if r.Type != c.typ || (r.Data != nil && r.Data.Flags != c.flags) || (r.Data == nil && c.flags != 0) {
			t.Errorf("%s: deferred with %s, want type %d flags %d", c.what, r.Raw, c.typ, c.flags)
		}
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for _, id := range []string{"8301", "8302", "8303", "8304"} {
		for len(api.Originals(app, "tok-"+id)) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("interaction %s: no edit of its original response within 5s: %+v", id, api.All())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for len(api.Edits("700", "98303")) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the shared message was not brought to its public state: %+v", api.All())
		}
		time.Sleep(10 * time.Millisecond)
	}
	counts := hs.wire.Counts()
	for _, kind := range []string{"response type 5 to interaction type 2", "response type 5 to interaction type 3", "response type 6 to interaction type 3",
		"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", "PATCH /channels/{channel_id}/messages/{message_id}"} {
		if counts[kind] == 0 {
			t.Errorf("no %s was checked: %v", kind, counts)
		}
	}
}

func init() {
	chat.Register(chat.Command{Name: "slowpublic", Description: "test only: a public command slower than the budget", NoGame: true, Hidden: true,
		Handler: func(ctx context.Context, _ *game.Service, inv *chat.Invocation) (*chat.Reply, error) {
			var release chan struct{}
			if p := slowRelease.Load(); p != nil {
				release = *p
			}
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return &chat.Reply{Title: "Slow", Text: strings.Repeat("slow ", 3)}, nil
		}})
}

// /status's title is the player's display name alone; the mention, which
// Discord renders only outside titles, opens the text.
func TestStatusTitleIsTheName(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(grace, "join", opt("name", "Grace"))
	r := hs.cmd(ada, "status", userOpt("player", grace))
	if len(r.Data.Embeds) == 0 || r.Data.Embeds[0].Title != "Grace" || !strings.HasPrefix(r.content(), "<@3>, playing since") {
		t.Errorf("/status of Grace: %s, want the title Grace and the mention in the content", r.Raw)
	}
}
