package bridge_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/chat/bridge"
	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
)

// RULINGS O9 through the bridge's pushed reactions: on a Gathering's
// message, adding a component's emoji contributes it as the reactor and
// removing it withdraws it; the relay's event id keys each, so a retried
// event applies once; a removal with nothing contributed is refused and
// changes nothing; in a Gilded Hall game the same emoji is ignored.
func TestO9_BridgeReactionsContributeAndWithdraw(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	admin := game.Request{Game: "ob", Actor: "matrix:admin"}
	if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c-ob"}, game.CreateGame{ID: "ob", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	admin.Key = "amend"
	if _, err := e.svc.Amend(ctx, admin, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	admin.Key = "b-ob"
	if _, err := e.svc.Bind(ctx, admin, game.Bind{Platform: "matrix", Space: "room2"}); err != nil {
		t.Fatal(err)
	}
	for i, u := range []string{"ada", "bob"} {
		c := bridge.Command{ID: "join-" + u, Platform: "matrix", Space: "room2", Channel: "general", User: u, UserName: strings.ToUpper(u[:1]) + u[1:], Command: "join"}
		if r := e.command(c); r.Refusal {
			t.Fatalf("join %d: %+v", i, r)
		}
	}
	if _, err := obelisk.On(e.svc).StartGathering(ctx, game.Request{Game: "ob", Actor: "matrix:ada", Key: "start"},
		obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "msg-7"}); err != nil {
		t.Fatal(err)
	}
	resolve := func(id string) int {
		t.Helper()
		v, err := e.svc.Player(ctx, "ob", id)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := obelisk.StateOf(v)
		if !ok {
			t.Fatalf("no Obelisk state in %+v", v)
		}
		return s.Components.Resolve
	}
	contributions := func() int {
		t.Helper()
		g, err := obelisk.On(e.svc).Gathering(ctx, "ob", "msg-7")
		if err != nil {
			t.Fatal(err)
		}
		return len(g.Contributions)
	}
	logLen := func() int {
		t.Helper()
		p, err := e.svc.Log(ctx, "ob", "", 500)
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Entries)
	}
	event := func(id, typ, emoji string) (int, string, string) {
		t.Helper()
		body, _ := json.Marshal(bridge.Event{ID: id, Platform: "matrix", Space: "room2", Type: typ, Channel: "rituals", Message: "msg-7", User: "bob", Emoji: emoji})
		s, b, h := e.send("/bridge/v1/events", body, bridge.Sign(secret, e.clk.Now(), body))
		return s, string(b), h.Get("Idempotent-Replayed")
	}

	if got := resolve("matrix:bob"); got != 1 {
		t.Fatalf("Bob holds %d⚡ after joining, want 1", got)
	}
	if s, b, _ := event("ev-1", bridge.ReactionAdded, "⚡"); s != 200 || !strings.Contains(b, "Bob contributed 1⚡ to the Gathering of Cut the Obelisk") {
		t.Fatalf("add ⚡: %d %s", s, b)
	}
	if resolve("matrix:bob") != 0 || contributions() != 1 {
		t.Fatalf("after the add: Bob holds %d⚡, %d contributions", resolve("matrix:bob"), contributions())
	}
	if s, _, replayed := event("ev-1", bridge.ReactionAdded, "⚡"); s != 200 || replayed != "true" {
		t.Fatalf("the same event again: %d, replayed %q", s, replayed)
	}
	if resolve("matrix:bob") != 0 || contributions() != 1 {
		t.Fatalf("a retried add applied twice: Bob holds %d⚡, %d contributions", resolve("matrix:bob"), contributions())
	}
	if s, b, _ := event("ev-2", bridge.ReactionRemoved, ":zap:"); s != 200 || !strings.Contains(b, "Bob withdrew 1⚡") {
		t.Fatalf("remove ⚡: %d %s", s, b)
	}
	if resolve("matrix:bob") != 1 || contributions() != 0 {
		t.Fatalf("after the removal: Bob holds %d⚡, %d contributions", resolve("matrix:bob"), contributions())
	}
	before := logLen()
	if s, b, _ := event("ev-3", bridge.ReactionRemoved, "⚡"); s != 422 || !strings.Contains(b, `"not_contributing"`) || !strings.Contains(b, "nothing to withdraw") {
		t.Fatalf("removal with no contribution: %d %s, want 422 not_contributing", s, b)
	}
	if logLen() != before || resolve("matrix:bob") != 1 {
		t.Errorf("the refused removal changed the game: log %d→%d, Bob holds %d⚡", before, logLen(), resolve("matrix:bob"))
	}
	// 🌿 without a herb to give is refused, and Slack's ❤️ ("heart") is
	// no component: it is acknowledged and ignored.
	if s, b, _ := event("ev-4", bridge.ReactionAdded, "🌿"); s != 422 || !strings.Contains(b, `"no_component"`) {
		t.Errorf("add 🌿 with none held: %d %s", s, b)
	}
	if s, b, _ := event("ev-5", bridge.ReactionAdded, "heart"); s != 200 || !strings.Contains(b, "ignored") {
		t.Errorf("heart: %d %s", s, b)
	}
	if logLen() != before {
		t.Errorf("refused or ignored reactions wrote %d log entries", logLen()-before)
	}

	// The Gilded Hall has no Gatherings: a component's emoji is not a vote
	// and is ignored there.
	e.command(bridge.Command{ID: "j-hall", Platform: "matrix", Space: "room1", User: "bob", Command: "join"})
	body, _ := json.Marshal(bridge.Event{ID: "ev-h", Platform: "matrix", Space: "room1", Type: bridge.ReactionAdded, Channel: "c", Message: "m", User: "bob", Emoji: "⚡"})
	if s, b, _ := e.send("/bridge/v1/events", body, bridge.Sign(secret, e.clk.Now(), body)); s != 200 || !strings.Contains(string(b), "ignored") {
		t.Errorf("⚡ in the Gilded Hall: %d %s", s, b)
	}
}

// Issue 23 point 3 through the bridge, which maps its commands through
// the chat table: an admin's /components grant and revoke of an Obelisk
// player's components (RULINGS G3) and a trade offer of components, each
// answered in a sentence with names; a player's attempt is refused.
func TestIssue23_BridgeCorrectsAndTradesComponents(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	admin := game.Request{Game: "ob", Actor: "matrix:admin", Key: "b-ob"}
	if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c-ob"}, game.CreateGame{ID: "ob", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Bind(ctx, admin, game.Bind{Platform: "matrix", Space: "room2"}); err != nil {
		t.Fatal(err)
	}
	cmd := func(id, user, name string, opts map[string]string) bridge.Reply {
		return e.command(bridge.Command{ID: id, Platform: "matrix", Space: "room2", Channel: "general", User: user, UserName: strings.ToUpper(user[:1]) + user[1:], Command: name, Options: opts})
	}
	cmd("j-ada", "ada", "join", nil)
	cmd("j-bob", "bob", "join", nil)
	if r := cmd("g1", "admin", "components grant", map[string]string{"player": "matrix:ada", "herbs": "3", "reason": "the wiki"}); r.Refusal || !strings.Contains(r.Text, "granted Ada 3🌿 (the wiki); Ada now holds 1⚡ 3🌿.") {
		t.Errorf("the grant: %+v", r)
	}
	if r := cmd("g2", "bob", "components grant", map[string]string{"player": "matrix:bob", "herbs": "3", "reason": "mine"}); !r.Refusal || !strings.Contains(r.Text, "Only the game's admins") {
		t.Errorf("a player's grant: %+v", r)
	}
	if r := cmd("t1", "ada", "trade offer", map[string]string{"player": "matrix:bob", "give_herbs": "2"}); r.Refusal || !strings.Contains(r.Text, "Ada offers 2🌿 to Bob in exchange for nothing.") || len(r.Buttons) != 2 {
		t.Errorf("the trade offer: %+v", r)
	}
	if r := cmd("r1", "admin", "components revoke", map[string]string{"player": "matrix:ada", "resolve": "1", "reason": "a duplicate"}); r.Refusal || !strings.Contains(r.Text, "revoked 1⚡ from Ada (a duplicate); Ada now holds 3🌿.") {
		t.Errorf("the revocation: %+v", r)
	}
}
