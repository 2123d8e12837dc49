package slack_test

import (
	"context"
	"strings"
	"testing"

	"croupier/internal/game"
)

// RULINGS R3 through Slack: in a team bound to a turns game, what turns
// lacks (gifts, trades, proposals, the Judge, battles, the Croupier) is
// refused with the sentence naming the ruleset and what it has, and the
// game's log is unchanged; what it has (a roll) runs.
func TestR3_SlackRefusesWhatTheRulesetLacks(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "c-tu"}, game.CreateGame{ID: "tu", Ruleset: "turns"}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind game=tu")
	e.ok(ada, "join")
	entries := func() int {
		p, err := e.svc.Log(ctx, "tu", "", 500)
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Entries)
	}
	before := entries()
	for _, text := range []string{"gift player=<@" + grace + ">", "battle", "shop", "trade offer player=<@" + grace + "> give_vertebrae=1",
		"rfj kind=question text=Why? message=1113", "resign", "judge", "banishment propose player=<@" + grace + "> duration=72h message=1116"} {
		m := e.cmd(ada, text)
		if !refused(m) || !strings.Contains(m.Text, `The turns game "tu" has no `) || !strings.Contains(m.Text, "Its commands are: join, leave, roll") {
			t.Errorf("/croupier %s: %q, want the not_in_ruleset refusal", text, m.Text)
		}
	}
	if after := entries(); after != before {
		t.Errorf("the refusals wrote %d log entries", after-before)
	}
	e.ok(ada, "roll dice=1d6")
}
