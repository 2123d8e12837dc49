package bridge_test

import (
	"context"
	"strings"
	"testing"

	"croupier/internal/chat/bridge"
	"croupier/internal/game"
)

// RULINGS R3 through the bridge: in a room bound to an Obelisk game, what
// the Obelisk lacks (gifts, battles, duels, the Croupier, grants) is
// refused with the sentence naming the ruleset and what it has, and the
// game's log is unchanged; what it has (a trade offer, a roll) runs.
func TestR3_BridgeRefusesWhatTheRulesetLacks(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c-ob"}, game.CreateGame{ID: "ob", Ruleset: "obelisk"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Bind(ctx, game.Request{Game: "ob", Actor: "matrix:admin", Key: "b-ob"}, game.Bind{Platform: "matrix", Space: "room1"}); err != nil {
		t.Fatal(err)
	}
	cmd := func(id, user, name string, opts map[string]string) bridge.Command {
		return bridge.Command{ID: id, Platform: "matrix", Space: "room1", Channel: "general", User: user, UserName: "Ada", Command: name, Options: opts}
	}
	if r := e.command(cmd("1", "ada", "join", nil)); r.Refusal {
		t.Fatalf("join: %+v", r)
	}
	logLen := func() int {
		p, err := e.svc.Log(ctx, "ob", "", 500)
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Entries)
	}
	before := logLen()
	for i, c := range []bridge.Command{
		cmd("2", "ada", "gift", map[string]string{"player": "matrix:admin"}),
		cmd("3", "ada", "battle", nil),
		cmd("4", "ada", "duel request", map[string]string{"player": "matrix:admin"}),
		cmd("5", "ada", "buy", map[string]string{"item": "random-card"}),
		cmd("6", "ada", "shop", nil),
		cmd("7", "matrix:admin", "grant", map[string]string{"player": "matrix:ada", "vertebrae": "5", "reason": "x"}),
	} {
		r := e.command(c)
		if !r.Refusal || !strings.Contains(r.Text, `The Obelisk game "ob" has no `) || !strings.Contains(r.Text, "Its commands are: join, leave, roll") {
			t.Errorf("command %d (%s): %+v, want the not_in_ruleset refusal", i, c.Command, r)
		}
	}
	if after := logLen(); after != before {
		t.Errorf("the refusals wrote %d log entries", after-before)
	}
	if r := e.command(cmd("8", "ada", "roll", map[string]string{"dice": "1d6"})); r.Refusal {
		t.Errorf("roll in an Obelisk game refused: %+v", r)
	}
}
