package discord_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
)

// Issue 23 point 1 (acceptance 1): a message others use too stays theirs.
// Each scenario posts a shared message, then two players press its
// buttons in turn, with the message object Discord sends (id, channel,
// no ephemeral flag): each presser is answered privately (type 4, flags
// 64), and the message is edited through Edit Message with the bot token
// to its public state, keeping its valid buttons and never a presser's
// holdings or private answer.

const botToken = "bot-token"

// sharedHarness is the handler with the loopback Discord as its API.
func sharedHarness(t *testing.T) (*harness, *discordtest.API) {
	hs := newHarness(t)
	api := discordtest.NewAPI(t, botToken, hs.wire.Server)
	hs.h.API = &discord.Client{Base: api.Base(), Token: botToken}
	return hs, api
}

// pressOn presses a button as user on message msg of channel 700 (flags:
// the message's flags, FlagEphemeral for a private one).
func (hs *harness) pressOn(user, customID, msg string, flags int) result {
	hs.t.Helper()
	in := interaction(hs.nextID(), user, discord.InteractionComponent, map[string]any{"custom_id": customID, "component_type": discord.ComponentButton})
	in["message"] = map[string]any{"id": msg, "channel_id": "700", "flags": flags, "content": "", "author": map[string]any{"id": app, "username": "Croupier"}}
	return hs.send(in)
}

// sharedPress checks one press on the shared message msg: a private
// answer holding private, and (unless refused) one more edit of msg
// showing public with exactly buttons; no edit of msg ever shows a
// private answer.
type sharedCheck struct {
	t   *testing.T
	hs  *harness
	api *discordtest.API
	msg string
}

func (c sharedCheck) press(what, user, customID string, private []string, public []string, buttons []string) discordtest.Msg {
	c.t.Helper()
	m, _ := c.pressing(what, user, customID, private, public, buttons)
	return m
}

// pressing is press, with the presser's private answer.
func (c sharedCheck) pressing(what, user, customID string, private []string, public []string, buttons []string) (discordtest.Msg, result) {
	c.t.Helper()
	before := len(c.api.Edits("700", c.msg))
	r := c.hs.pressOn(user, customID, c.msg, 0)
	if r.Type != discord.ResponseMessage || !r.ephemeral() {
		c.t.Fatalf("%s: answered %s, want the presser's private message (type 4, flags 64)", what, r.Raw)
	}
	contains(c.t, what+" (private answer)", r, private...)
	edits := c.api.Edits("700", c.msg)
	if len(edits) != before+1 {
		c.t.Fatalf("%s: %d edits of the shared message, want %d", what, len(edits), before+1)
	}
	last := edits[len(edits)-1]
	for _, s := range public {
		if !strings.Contains(last.Text(), s) {
			c.t.Errorf("%s: the shared message reads %q, lacking %q", what, last.Text(), s)
		}
	}
	if got := last.Buttons(); !slices.Equal(got, buttons) {
		c.t.Errorf("%s: the shared message's buttons are %q, want %q", what, got, buttons)
	}
	c.clean(what, r)
	return last, r
}

// refused checks a refused press: a private refusal, the shared message
// untouched.
func (c sharedCheck) refused(what, user, customID, sentence string) {
	c.t.Helper()
	before := len(c.api.Edits("700", c.msg))
	r := c.hs.pressOn(user, customID, c.msg, 0)
	if r.Type != discord.ResponseMessage || !r.ephemeral() || !strings.Contains(r.all(), sentence) {
		c.t.Errorf("%s: %s, want a private refusal saying %q", what, r.Raw, sentence)
	}
	if n := len(c.api.Edits("700", c.msg)); n != before {
		c.t.Errorf("%s: a refusal edited the shared message (%d edits, %d before)", what, n, before)
	}
}

// clean checks that no edit of the shared message shows a private answer.
func (c sharedCheck) clean(what string, private result) {
	c.t.Helper()
	for _, e := range c.api.Edits("700", c.msg) {
		if strings.Contains(e.Text(), "You hold") || strings.Contains(e.Text(), private.content()) && private.content() != "" {
			c.t.Errorf("%s: the shared message shows a private answer: %q", what, e.Text())
		}
		if e.Flags&discord.FlagEphemeral != 0 {
			c.t.Errorf("%s: the shared message's edit sets the ephemeral flag", what)
		}
	}
}

var voteLabels = []string{"👍 For", "👎 Against"}

func TestSharedProposalMessageStaysShared(t *testing.T) {
	hs, api := sharedHarness(t)
	turnsGame(t, hs)
	r := hs.cmd(ada, "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended.")))
	if r.ephemeral() {
		t.Fatalf("a proposal is public: %s", r.Raw)
	}
	c := sharedCheck{t, hs, api, "9101"}
	c.press("Grace's 👍", grace, r.button(t, "👍 For"), []string{"voted for proposal P1"}, []string{"Proposal P1", "For: User 3. Against: nobody."}, voteLabels)
	c.press("Cy's 👎", cy, r.button(t, "👎 Against"), []string{"voted against proposal P1"}, []string{"For: User 3. Against: User 5."}, voteLabels)
}

func TestSharedAppealMessageStaysShared(t *testing.T) {
	hs, api := sharedHarness(t)
	turnsGame(t, hs)
	hs.cmd(grace, "pool-enter")
	hs.cmd(ada, "judgment-request", opt("statement", "Is rule 210 fair?"))
	hs.cmd(grace, "case", sub("recuse", opt("case", 5301)))
	hs.cmd(admin, "case", sub("rule", opt("case", 5301), opt("ruling", "FALSE"), opt("reasons", "It is.")))
	r := hs.cmd(cy, "case", sub("appeal", opt("case", 5301), opt("ruling", "TRUE"), opt("reasons", "It is not.")))
	contains(t, "appeal", r, "Appeal A1 of case 5301")
	hs.clk.Set(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)) // its voting turn
	c := sharedCheck{t, hs, api, "9102"}
	c.press("Ada's 👍", ada, r.button(t, "👍 For"), []string{"voted for the appeal A1 of case 5301"},
		[]string{"Appeal A1 of case 5301", "User 5 appealed the ruling of case 5301 for TRUE", "For: User 2. Against: nobody."}, voteLabels)
	c.press("Grace's 👎", grace, r.button(t, "👎 Against"), []string{"voted against the appeal A1 of case 5301"},
		[]string{"For: User 2. Against: User 3."}, voteLabels)
}

func TestSharedGatheringMessageStaysShared(t *testing.T) {
	hs, api := sharedHarness(t)
	obeliskGame(t, hs)
	r := hs.cmd(ada, "gathering", sub("start", opt("ritual_type", "cut-the-obelisk")))
	contains(t, "gathering start", r, "Gathering of Cut the Obelisk")
	all := r.buttonLabels()
	if len(all) < 2 || all[len(all)-1] != "Complete" {
		t.Fatalf("the Gathering's buttons: %q", all)
	}
	c := sharedCheck{t, hs, api, "9103"}
	first, mine := c.pressing("Ada's 🌿", ada, r.button(t, "🌿"), []string{"contributed 1🌿", "You hold"},
		[]string{"Gathering of Cut the Obelisk", "User 2 started it", "contributed: 1🌿 by User 2."}, all)
	c.press("Grace's ⚡", grace, first.Button("⚡"), []string{"Grace contributed 1⚡", "You hold"},
		[]string{"contributed: 1🌿 by User 2, 1⚡ by Grace.", "The cost is covered: User 2 may complete it."}, all)
	// Ada withdraws by the button of her private answer: that answer is
	// replaced (it is hers alone), and the Gathering's message follows.
	w := hs.pressOn(ada, mine.button(t, "Withdraw it"), "9199", discord.FlagEphemeral)
	if w.Type != discord.ResponseUpdateMessage || !strings.Contains(w.all(), "withdrew 1🌿") {
		t.Errorf("Withdraw it answered %s, want an update of Ada's private answer", w.Raw)
	}
	if es := api.Edits("700", "9103"); len(es) != 3 || !strings.Contains(es[2].Text(), "contributed: 1⚡ by Grace.") || !slices.Equal(es[2].Buttons(), all) {
		t.Errorf("the Gathering's message after the withdrawal: %+v", es)
	}
	if n := len(api.Edits("700", "9199")); n != 0 {
		t.Errorf("the private answer was edited through the bot (%d edits)", n)
	}
	c.press("Ada's 🌿 again", ada, first.Button("🌿"), []string{"contributed 1🌿"},
		[]string{"contributed: 1⚡ by Grace, 1🌿 by User 2.", "The cost is covered"}, all)
	c.refused("Grace's Complete", grace, first.Button("Complete"), "")
	c.press("Ada's Complete", ada, first.Button("Complete"), []string{"completed the Gathering of Cut the Obelisk"},
		[]string{"Completed."}, nil)
}

func TestSharedDuelInvitationStaysShared(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.bind()
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}
	hs.give(ada, 5, "2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds")
	hs.give(grace, 5, "7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds")
	hs.give(cy, 5, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs")
	r := hs.cmd(ada, "duel", sub("request", userOpt("player", grace), userOpt("player2", cy)))
	contains(t, "duel request", r, "asks <@3>, <@5> to an Exoptosis duel")
	c := sharedCheck{t, hs, api, "9104"}
	first := c.press("Grace's Accept", grace, r.button(t, "Accept"), []string{"<@3> accepted duel", "waits for <@5>"},
		[]string{"<@2> asks <@3>, <@5>", "Accepted: <@3>; waiting for: <@5>."}, []string{"Accept", "Decline"})
	c.refused("Grace again", grace, first.Button("Accept"), "")
	c.press("Cy's Accept", cy, first.Button("Accept"), []string{"has started"}, []string{"Everyone accepted: the duel has started."}, nil)
}

func TestSharedTradeOfferStaysShared(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.bind()
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}
	hs.give(ada, 0, "King of Hearts")
	r := hs.cmd(ada, "trade", sub("offer", userOpt("player", grace), opt("give_cards", hs.player(ada).Inventory.Cards[0].ID)))
	contains(t, "trade offer", r, "King of Hearts")
	c := sharedCheck{t, hs, api, "9105"}
	c.refused("Cy's Accept", cy, r.button(t, "Accept"), "can accept")
	c.press("Grace's Accept", grace, r.button(t, "Accept"), []string{"You accepted Trade", "the trade is done"}, []string{": executed", "User 3 accepted", "User 2 offers King of Hearts"}, nil)
	c.refused("Ada's withdraw after", ada, r.button(t, "Decline"), "")
}

// A press on a message private to the presser (the ephemeral /buy
// confirmation) replaces that message, as before: nothing else is edited.
func TestPrivatePromptIsReplacedByItsAnswer(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.bind()
	hs.cmd(ada, "join")
	if _, err := gildedhall.On(hs.svc).Grant(context.Background(), game.Request{Game: "hall", Actor: "discord:" + admin, Key: "grant"}, gildedhall.Grant{Player: "discord:" + ada, Vertebrae: 10, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	r := hs.cmd(ada, "buy", opt("item", "random-card"))
	if !r.ephemeral() {
		t.Fatalf("/buy's prompt is private: %s", r.Raw)
	}
	p := hs.pressOn(ada, r.button(t, "Buy for"), "9106", discord.FlagEphemeral)
	if p.Type != discord.ResponseUpdateMessage || !strings.Contains(p.all(), "Bought 1 × Random Card") {
		t.Errorf("the confirmation answered %s, want an update of the prompt with the purchase", p.Raw)
	}
	if n := len(api.All()); n != 0 {
		t.Errorf("a private prompt's answer edited %d messages", n)
	}
}

// A deferred press on a shared message (the command outlives the budget):
// the presser's "thinking…" is ephemeral (type 5, flags 64), their answer
// is that response's edit, and the shared message gets its public state
// alone; a deferred refusal edits only the presser's response.
func TestDeferredPressOnASharedMessage(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.h.Budget = 30 * time.Millisecond
	release := make(chan struct{})
	slowRelease.Store(&release)
	in := interaction("8201", ada, discord.InteractionComponent, map[string]any{"custom_id": mustAction(t, "slowshared"), "component_type": discord.ComponentButton})
	in["message"] = map[string]any{"id": "9107", "channel_id": "700", "author": map[string]any{"id": app}}
	r := hs.send(in)
	if r.Type != discord.ResponseDeferredMessage || !r.ephemeral() {
		t.Fatalf("a slow press on a shared message answered %s, want a deferred ephemeral message (type 5, flags 64)", r.Raw)
	}
	close(release)
	deadline := time.Now().Add(5 * time.Second)
	for len(api.Edits("700", "9107")) == 0 || len(api.Originals(app, "tok-8201")) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no edits within 5s: %+v", api.All())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if o := api.Originals(app, "tok-8201")[0]; !strings.Contains(o.Text(), "You hold 3") {
		t.Errorf("the presser's deferred answer: %q", o.Text())
	}
	if s := api.Edits("700", "9107")[0]; s.Text() != "public state" || strings.Contains(s.Text(), "You hold") {
		t.Errorf("the shared message after a deferred press: %q", s.Text())
	}

	// A refusal finished later (the Lambda's deferred invocation): the
	// presser's response says it; the shared message is not touched.
	body, _ := json.Marshal(func() map[string]any {
		in := interaction("8202", cy, discord.InteractionComponent, map[string]any{"custom_id": mustAction(t, "turns vote"), "component_type": discord.ComponentButton})
		in["message"] = map[string]any{"id": "9108", "channel_id": "700", "author": map[string]any{"id": app}}
		return in
	}())
	if err := hs.h.Finish(context.Background(), body); err != nil {
		t.Fatal(err)
	}
	if o := api.Originals(app, "tok-8202"); len(o) != 1 || o[0].Content == "" {
		t.Errorf("the refusal's deferred answer: %+v", o)
	}
	if e := api.Edits("700", "9108"); len(e) != 0 {
		t.Errorf("a deferred refusal edited the shared message: %+v", e)
	}
}

func init() {
	chat.Register(chat.Command{Name: "slowshared", Description: "test only: a slow press on a shared message", NoGame: true, Hidden: true,
		Handler: func(ctx context.Context, _ *game.Service, inv *chat.Invocation) (*chat.Reply, error) {
			var release chan struct{}
			if p := slowRelease.Load(); p != nil {
				release = *p
			}
			select {
			case <-release:
			case <-time.After(5 * time.Second):
			}
			return &chat.Reply{Text: "You hold 3 secrets.", Shared: &chat.Reply{Text: "public state"}}, nil
		}})
}

func mustAction(t *testing.T, cmd string) string {
	s, err := chat.EncodeAction(chat.Action{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// buttonLabels are the labels of the response's buttons.
func (r result) buttonLabels() []string {
	var out []string
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentButton {
					out = append(out, c.Label)
				}
			}
		}
	}
	return out
}

// turnsGame binds a turns game "nomic" that Ada, Grace and Cy joined.
func turnsGame(t *testing.T, hs *harness) {
	t.Helper()
	if _, err := hs.svc.Create(context.Background(), game.Request{Actor: "discord:" + admin, Key: "create-nomic"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	hs.cmd(admin, "bind", opt("game", "nomic"))
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}
}

// obeliskGame binds an Obelisk game "stone" with a ritual costing 1⚡ 1🌿
// that Ada and Grace joined; Ada has gathered herbs.
func obeliskGame(t *testing.T, hs *harness) {
	t.Helper()
	ctx := context.Background()
	if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := hs.svc.Amend(ctx, game.Request{Game: "stone", Actor: "discord:" + admin, Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	hs.cmd(admin, "bind", opt("game", "stone"))
	hs.cmd(ada, "join")
	hs.cmd(grace, "join", opt("name", "Grace"))
	contains(t, "task", hs.cmd(ada, "task", opt("task", "herbalism")), "gained")
	hs.cmd(grace, "observe")
}

// When Discord refuses the edit (a wrong token here; a missing permission
// in a server), the presser still gets their private answer, and the
// shared message is left as it was, never replaced by the answer.
func TestSharedMessageEditRefused(t *testing.T) {
	hs, api := sharedHarness(t)
	hs.h.API.Token = "not-the-bot"
	turnsGame(t, hs)
	r := hs.cmd(ada, "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended.")))
	p := hs.pressOn(grace, r.button(t, "👍 For"), "9111", 0)
	if p.Type != discord.ResponseMessage || !p.ephemeral() || !strings.Contains(p.all(), "voted for proposal P1") {
		t.Errorf("the press answered %s, want Grace's private answer", p.Raw)
	}
	if api.Refused() != 1 || len(api.All()) != 0 {
		t.Errorf("%d edits refused, %d accepted; want the one edit tried and refused", api.Refused(), len(api.All()))
	}
}

// gateStore holds every read and commit of a game's items while its gate
// is set, so that a real command outlives the handler's budget.
type gateStore struct {
	store.Store
	gate atomic.Pointer[chan struct{}]
}

func (g *gateStore) wait(pk string) {
	if p := g.gate.Load(); p != nil && strings.HasPrefix(pk, "GAME#") {
		select {
		case <-*p:
		case <-time.After(5 * time.Second):
		}
	}
}

func (g *gateStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	g.wait(k.PK)
	return g.Store.Get(ctx, k)
}

func (g *gateStore) GetMany(ctx context.Context, ks []store.Key) ([]store.Item, error) {
	for _, k := range ks {
		g.wait(k.PK)
	}
	return g.Store.GetMany(ctx, ks)
}

func (g *gateStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	g.wait(q.PK)
	return g.Store.Query(ctx, q)
}

func (g *gateStore) Commit(ctx context.Context, tx store.Tx) error {
	for _, p := range tx.Puts {
		g.wait(p.Item.Key.PK)
	}
	return g.Store.Commit(ctx, tx)
}

// Issue 23 point 5: a real vote press on a shared proposal that outlives
// Discord's 3 seconds is answered as a quick one is. The presser gets a
// private "thinking…" (type 5, flags 64) that becomes their own answer,
// and the proposal's message is edited to its public state (the tally,
// both buttons), never to the presser's answer; a deferred refusal (a
// press by someone who is not a player) answers the presser alone and
// leaves the proposal's message as it was. Every body is checked against
// Discord's description on the way (the harness's recorder).
func TestDeferredVoteOnASharedProposal(t *testing.T) {
	gs := &gateStore{}
	hs := newHarnessOn(t, func(s store.Store) store.Store { gs.Store = s; return gs })
	api := discordtest.NewAPI(t, botToken, hs.wire.Server)
	hs.h.API = &discord.Client{Base: api.Base(), Token: botToken}
	// The deferred twin runs when the test says (the Lambda's second
	// invocation), so what it edits is known when Finish returns.
	deferred := &bodies{}
	hs.h.Deferrer = deferred
	turnsGame(t, hs)
	r := hs.cmd(cy, "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended.")))
	hs.h.Budget = 30 * time.Millisecond
	press := func(id, user string) {
		t.Helper()
		in := interaction(id, user, discord.InteractionComponent, map[string]any{"custom_id": r.button(t, "👍 For"), "component_type": discord.ComponentButton})
		in["message"] = map[string]any{"id": "9121", "channel_id": "700", "flags": 0, "author": map[string]any{"id": app}}
		gate := make(chan struct{})
		gs.gate.Store(&gate)
		res := hs.send(in)
		gs.gate.Store(nil)
		close(gate)
		if res.Type != discord.ResponseDeferredMessage || !res.ephemeral() {
			t.Fatalf("a slow press on a shared message answered %s, want a deferred private message (type 5, flags 64)", res.Raw)
		}
		if err := hs.h.Finish(context.Background(), deferred.last(t)); err != nil {
			t.Fatal(err)
		}
	}
	publicOnly := func(what string) {
		t.Helper()
		for _, e := range api.Edits("700", "9121") {
			if !strings.Contains(e.Text(), "For: User 3. Against: nobody.") || strings.Contains(e.Text(), "your vote") || !slices.Equal(e.Buttons(), voteLabels) {
				t.Errorf("%s: the proposal's message reads %q with %q, want its tally and both buttons", what, e.Text(), e.Buttons())
			}
		}
	}

	press("8401", grace)
	if o := api.Originals(app, "tok-8401"); len(o) != 1 || !strings.Contains(o[0].Text(), "User 3 voted for proposal P1") {
		t.Errorf("Grace's deferred answer: %+v", o)
	}
	// The handler's own run, finishing in the background, edits it too.
	for deadline := time.Now().Add(5 * time.Second); len(api.Edits("700", "9121")) < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the proposal's message was not edited by both runs of the press: %+v", api.All())
		}
	}
	publicOnly("after Grace's deferred vote")

	press("8402", admin) // the admin never joined: refused
	if o := api.Originals(app, "tok-8402"); len(o) != 1 || o[0].Text() == "" || strings.Contains(o[0].Text(), "For:") {
		t.Errorf("the deferred refusal: %+v", o)
	}
	if n := len(api.Edits("700", "9121")); n != 2 {
		t.Errorf("a deferred refusal edited the proposal's message (%d edits, 2 before)", n)
	}
	publicOnly("after a deferred refusal")
	if checked, failed := hs.wire.Total(); checked == 0 || failed != 0 {
		t.Errorf("%d bodies checked against Discord's description, %d refused", checked, failed)
	}
}

// bodies is a Deferrer that keeps the bodies it is given.
type bodies struct {
	mu sync.Mutex
	bs [][]byte
}

func (b *bodies) Defer(_ context.Context, body []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bs = append(b.bs, body)
	return nil
}

func (b *bodies) last(t *testing.T) []byte {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.bs) == 0 {
		t.Fatal("nothing was deferred")
	}
	return b.bs[len(b.bs)-1]
}
