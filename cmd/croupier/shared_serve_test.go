package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Issue 23 point 1 (acceptance 1) on `croupier serve`: buttons pressed on
// a shared message (a turns proposal and an appeal, a duel invitation to
// two players, a trade offer, an Obelisk Gathering) by two players in turn
// answer each privately, and the message is edited through
// Discord's Edit Message with the bot token (CROUPIER_DISCORD_BOT_TOKEN,
// CROUPIER_DISCORD_API_BASE) to its public state, keeping its buttons and
// never showing a presser's holdings.
func TestServeSharedMessagesStayShared(t *testing.T) {
	api := discordtest.NewAPI(t, "serve-bot", discordspec.NewRecorder(t).Server)
	h := newHarnessWith(t, "manual", func(c *serveConfig) {
		c.discordKey, c.discordApp = discordtest.PublicKey(), "4242"
		c.discordToken, c.discordAPI = "serve-bot", api.Base()
	})
	ctx := context.Background()
	n := 0
	post := func(user string, typ int, data any, msg map[string]any) discord.Response {
		t.Helper()
		n++
		d, _ := json.Marshal(data)
		in := map[string]any{"id": fmt.Sprint(7000 + n), "application_id": "4242", "type": typ, "token": fmt.Sprint("tok-", n), "version": 1,
			"guild_id": "900", "channel_id": "700",
			"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": map[string]string{"2": "Ada", "3": "Bob", "5": "Cy"}[user]}},
			"data":   json.RawMessage(d)}
		if msg != nil {
			in["message"] = msg
		}
		b, _ := json.Marshal(in)
		code, r, raw := h.discordPost(b, true)
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, raw)
		}
		return r
	}
	slash := func(user, name string, opts ...any) discord.Response {
		t.Helper()
		data := map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput}
		if len(opts) > 0 {
			data["options"] = opts
		}
		return post(user, discord.InteractionCommand, data, nil)
	}
	sub := func(name string, opts ...any) map[string]any {
		return map[string]any{"name": name, "type": discord.OptSubCommand, "options": opts}
	}
	str := func(name string, v any) map[string]any {
		typ := discord.OptString
		if _, ok := v.(int); ok {
			typ = discord.OptInteger
		}
		return map[string]any{"name": name, "type": typ, "value": v}
	}
	button := func(r discord.Response, label string) string {
		t.Helper()
		if r.Data != nil && r.Data.Components != nil {
			for _, row := range *r.Data.Components {
				for _, c := range row.Components {
					if strings.HasPrefix(c.Label, label) {
						return c.CustomID
					}
				}
			}
		}
		t.Fatalf("no button %q in %+v", label, r.Data)
		return ""
	}
	labels := func(r discord.Response) []string {
		var out []string
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				out = append(out, c.Label)
			}
		}
		return out
	}
	// press presses on the shared message msg and checks the private
	// answer and the message's new public state.
	press := func(what, user, customID, msg string, private, public string, buttons []string) {
		t.Helper()
		before := len(api.Edits("700", msg))
		r := post(user, discord.InteractionComponent, map[string]any{"custom_id": customID, "component_type": discord.ComponentButton},
			map[string]any{"id": msg, "channel_id": "700", "author": map[string]any{"id": "4242"}})
		if r.Type != discord.ResponseMessage || r.Data == nil || r.Data.Flags&discord.FlagEphemeral == 0 || !strings.Contains(replyText(r), private) {
			t.Fatalf("%s: answered %+v, want the presser's ephemeral answer with %q", what, r.Data, private)
		}
		es := api.Edits("700", msg)
		if len(es) != before+1 {
			t.Fatalf("%s: %d edits of the shared message, want %d", what, len(es), before+1)
		}
		last := es[len(es)-1]
		if !strings.Contains(last.Text(), public) || !slices.Equal(last.Buttons(), buttons) {
			t.Errorf("%s: the shared message reads %q with buttons %q; want %q and %q", what, last.Text(), last.Buttons(), public, buttons)
		}
		for _, e := range es {
			if strings.Contains(e.Text(), "You hold") {
				t.Errorf("%s: the shared message shows holdings: %q", what, e.Text())
			}
		}
	}

	// A turns proposal.
	if _, err := h.srv.svc.Create(ctx, game.Request{Actor: "discord:1", Key: "create-nomic"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.svc.Bind(ctx, game.Request{Game: "nomic", Actor: "discord:1", Key: "bind-nomic"}, game.Bind{Platform: "discord", Space: "900"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"2", "3", "5"} {
		slash(u, "join")
	}
	p := slash("2", "turns", sub("propose", str("op", "amend"), str("rule", 210), str("text", "Rule 210, amended.")))
	votes := []string{"👍 For", "👎 Against"}
	press("Bob's 👍", "3", button(p, "👍 For"), "9201", "Bob voted for proposal P1", "For: Bob. Against: nobody.", votes)
	press("Cy's 👍", "5", button(p, "👍 For"), "9201", "Cy voted for proposal P1", "For: Bob and Cy. Against: nobody.", votes)

	// The appeal of a case's ruling, voted on during its turn.
	slash("3", "pool-enter")
	slash("2", "judgment-request", str("statement", "Is rule 210 fair?"))
	slash("3", "case", sub("recuse", str("case", 5301)))
	slash("1", "case", sub("rule", str("case", 5301), str("ruling", "FALSE"), str("reasons", "It is.")))
	a := slash("5", "case", sub("appeal", str("case", 5301), str("ruling", "TRUE"), str("reasons", "It is not.")))
	st, err := turns.TurnsStatus(ctx, h.srv.svc, "nomic")
	if err != nil || len(st.Cases) == 0 || len(st.Cases[0].Appeals) == 0 {
		t.Fatalf("the appeal: %+v %v", st.Cases, err)
	}
	begin := nomic.TurnOf(st.Round.Start, st.Cases[0].Appeals[0].Ordinal).Begin
	h.must("play", "clock", "--set", begin.Add(time.Hour).Format(time.RFC3339))
	press("Ada's 👍 on the appeal", "2", button(a, "👍 For"), "9203", "Ada voted for the appeal A1 of case 5301", "For: Ada. Against: nobody.", votes)
	press("Bob's 👎 on the appeal", "3", button(a, "👎 Against"), "9203", "Bob voted against the appeal A1 of case 5301", "For: Ada. Against: Bob.", votes)

	// A duel invitation to two players and a trade offer, in a Gilded
	// Hall game.
	if _, err := h.srv.svc.Create(ctx, game.Request{Actor: "discord:1", Key: "create-hall"}, game.CreateGame{ID: "hall2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.svc.Bind(ctx, game.Request{Game: "hall2", Actor: "discord:1", Key: "bind-hall"}, game.Bind{Platform: "discord", Space: "900"}); err != nil {
		t.Fatal(err)
	}
	decks := map[string][]string{"2": {"2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds"},
		"3": {"7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds"}, "5": {"2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs"}}
	for _, u := range []string{"2", "3", "5"} {
		slash(u, "join")
		g := gildedhall.Grant{Player: "discord:" + u, Chips: 5, Reason: "test deck"}
		for _, c := range decks[u] {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
		}
		if _, err := gildedhall.On(h.srv.svc).Grant(ctx, game.Request{Game: "hall2", Actor: "discord:1", Key: "deck-" + u}, g); err != nil {
			t.Fatal(err)
		}
	}
	user := func(name, id string) map[string]any {
		return map[string]any{"name": name, "type": discord.OptUser, "value": id}
	}
	d := slash("2", "duel", sub("request", user("player", "3"), user("player2", "5")))
	press("Bob accepts", "3", button(d, "Accept"), "9204", "<@3> accepted duel", "Accepted: <@3>; waiting for: <@5>.", []string{"Accept", "Decline"})
	press("Cy accepts", "5", button(d, "Accept"), "9204", "has started", "Everyone accepted: the duel has started.", nil)
	ada, err := gildedhall.On(h.srv.svc).Player(ctx, "hall2", "discord:2")
	if err != nil || len(ada.Inventory.Cards) == 0 {
		t.Fatalf("Ada: %+v %v", ada, err)
	}
	o := slash("2", "trade", sub("offer", user("player", "3"), str("give_cards", ada.Inventory.Cards[0].ID)))
	before := len(api.Edits("700", "9205"))
	if r := post("5", discord.InteractionComponent, map[string]any{"custom_id": button(o, "Accept"), "component_type": discord.ComponentButton},
		map[string]any{"id": "9205", "channel_id": "700", "author": map[string]any{"id": "4242"}}); r.Data == nil || r.Data.Flags&discord.FlagEphemeral == 0 || len(api.Edits("700", "9205")) != before {
		t.Errorf("Cy's Accept of Bob's trade: %+v, %d edits; want a private refusal and no edit", r.Data, len(api.Edits("700", "9205"))-before)
	}
	press("Bob accepts the trade", "3", button(o, "Accept"), "9205", "You accepted Trade", ": executed", nil)

	// An Obelisk Gathering, in a guild of its own.
	if _, err := h.srv.svc.Create(ctx, game.Request{Actor: "discord:1", Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := h.srv.svc.Amend(ctx, game.Request{Game: "stone", Actor: "discord:1", Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.srv.svc.Bind(ctx, game.Request{Game: "stone", Actor: "discord:1", Key: "bind-stone"}, game.Bind{Platform: "discord", Space: "900"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"2", "3"} {
		slash(u, "join")
	}
	slash("2", "task", str("task", "herbalism"))
	slash("3", "observe")
	g := slash("2", "gathering", sub("start", str("ritual_type", "cut-the-obelisk")))
	all := labels(g)
	press("Ada's 🌿", "2", button(g, "🌿"), "9202", "You hold", "contributed: 1🌿 by Ada.", all)
	press("Bob's ⚡", "3", button(g, "⚡"), "9202", "You hold", "contributed: 1🌿 by Ada, 1⚡ by Bob.", all)
	if api.Refused() != 0 {
		t.Errorf("%d edits were sent without the bot token", api.Refused())
	}
}
