package slack_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
)

// turnsScenario plays the turns ruleset's commands through Slack in a
// workspace bound to a turns game: a proposal and its For button, a typed
// vote (by position, as the declaration orders it: turns vote P1 against),
// a Request for Judgment through recusal and the administrator's ruling
// (case rule 5301 FALSE "It is."), an appeal whose button is pressed during the next turn, a typed
// appeal vote, and the turns view.
func turnsScenario(t *testing.T) *env {
	e := newEnv(t)
	if _, err := e.svc.Create(context.Background(), game.Request{Actor: "slack:" + admin, Key: "create-nomic"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind nomic")
	const cy = "U0CY"
	for _, u := range []string{ada, grace, cy} {
		e.ok(u, "join")
	}
	m := e.ok(ada, `turns propose op=amend rule=210 text="Rule 210, amended."`)
	has(t, "turns-propose", m, "Proposal P1", "amend rule 210")
	if st := e.press(grace, actionOf(t, m, "For"), "trig-turns-1"); st != http.StatusOK {
		t.Fatalf("pressing For: %d", st)
	}
	has(t, "turns-vote", e.ok(cy, "turns vote P1 against"), "voted against proposal P1")
	// The button cast the presser's vote, the command the typist's.
	ps, err := turns.Proposals(context.Background(), e.svc, "nomic")
	if err != nil || len(ps) != 1 || len(ps[0].VotesFor) != 1 || len(ps[0].VotesAgainst) != 1 {
		t.Fatalf("votes after the button and the command: %+v %v", ps, err)
	}
	e.ok(grace, "pool-enter")
	e.ok(ada, `judgment-request statement="Is rule 210 fair?"`)
	has(t, "judge-recuse", e.ok(grace, "case recuse case=5301"), "the administrator judges it")
	has(t, "judge-rule", e.ok(admin, `case rule 5301 FALSE "It is."`), `ruled case 5301 FALSE: "It is"`)
	m = e.ok(cy, `case appeal case=5301 ruling=TRUE reasons="It is not."`)
	has(t, "ruling-appeal", m, "Appeal A1 of case 5301")
	e.clk.Set(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)) // turn 1-1, when the appeal is voted on
	if st := e.press(ada, actionOf(t, m, "For"), "trig-turns-2"); st != http.StatusOK {
		t.Fatalf("pressing the appeal's For: %d", st)
	}
	has(t, "appeal-vote", e.ok(grace, "case vote case=5301 vote=against"), "voted against the appeal A1 of case 5301")
	has(t, "turns", e.ok(ada, "turns status"), "Round 1, turn 1-1")
	has(t, "case show", e.ok(ada, "case show 5301"), "Case 5301: FALSE", "Ruled FALSE by the administrator", "Appeal A1 by")
	cs, err := turns.Cases(context.Background(), e.svc, "nomic")
	if err != nil || len(cs) != 1 || !strings.Contains(fmt.Sprint(cs[0].Appeals), "A1") {
		t.Fatalf("cases: %+v %v", cs, err)
	}
	return e
}
