package turns_test

import (
	"fmt"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
)

// bigGame is a turns game of n players, discord:100000 onwards, named
// "Player <i>".
func bigGame(t tb, n int) (*env, []string) { return bigGameOn(t, boltStore(t.(testing.TB)), n) }

func bigGameOn(t tb, st store.Store, n int) (*env, []string) {
	e := newEnv(t, st)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("discord:%d", 100000+i)
		if _, err := e.svc.Join(e.ctx, e.req(ids[i]), game.JoinGame{Name: fmt.Sprintf("Player %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return e, ids
}

// TestIssue22_ATurnEndOfMoreProposalsThanOneCommitHolds is issue 22's
// point 2: 120 players each submit a proposal in one turn (the limit is
// one per player), more than DynamoDB's 100 operations in one
// transaction. The turn end must still apply (every proposal decided, the
// scheduler reporting no failure) and the game go on: a proposal and a
// vote in the next turn are accepted.
func TestIssue22_ATurnEndOfMoreProposalsThanOneCommitHolds(t *testing.T) {
	const n = 120
	e, ids := bigGame(t, n)
	begin, _, end := turnTimes(1)
	e.at(begin.Add(time.Hour))
	for i, id := range ids {
		e.must(id, "turns-propose", turns.Propose{Op: "enact", Text: fmt.Sprint("Rule of player ", i)}, nil)
	}
	for i, id := range ids[:10] {
		e.must(id, "turns-vote", turns.Ballot{Proposal: fmt.Sprint("P", i+1), Vote: "for"}, nil)
	}
	e.clk.Set(end)
	rep, err := e.svc.RunDue(e.ctx)
	if err != nil || len(rep.Failed) > 0 {
		t.Fatalf("the turn end failed: %v %v", err, rep.Failed)
	}
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	adopted, defeated := 0, 0
	for _, p := range ps {
		switch p.Status {
		case "adopted":
			adopted++
		case "defeated":
			defeated++
		}
	}
	if adopted != 10 || defeated != n-10 {
		t.Fatalf("%d adopted and %d defeated of %d; want 10 and %d", adopted, defeated, len(ps), n-10)
	}
	b2, _, _ := turnTimes(2)
	e.at(b2.Add(time.Hour))
	var p struct {
		ID string `json:"id"`
	}
	e.must(ids[0], "turns-propose", turns.Propose{Op: "enact", Text: "After the big turn."}, &p)
	e.must(ids[1], "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	if pts := e.status().Players; len(pts) != n {
		t.Fatalf("%d players in the status, want %d", len(pts), n)
	}
}

// TestIssue22_ANewRoundAfterManyOpenProposalsStarts: a round that ends
// mid-turn (a paradox ruled TRUE, U11) with 120 proposals still open; the
// next round must start (it once voided every open proposal in its one
// commit, over 100 operations), and the proposals read void.
func TestIssue22_ANewRoundAfterManyOpenProposalsStarts(t *testing.T) {
	const n = 120
	e, ids := bigGame(t, n)
	begin, _, _ := turnTimes(1)
	e.at(begin.Add(time.Hour))
	for i, id := range ids {
		e.must(id, "turns-propose", turns.Propose{Op: "enact", Text: fmt.Sprint("Rule of player ", i)}, nil)
	}
	var c turns.CaseView
	e.must(ids[0], "judgment-request", turns.Judgment{Statement: "This is a paradox.", Paradox: true}, &c)
	if !c.Administrator {
		t.Fatalf("case %d: %+v; the pool is empty, the administrator judges", c.Number, c)
	}
	e.must(admin, "judge-rule", turns.Ruling{Case: c.Number, Ruling: "TRUE"}, nil)
	if st := e.status(); !st.Round.Over || st.Round.Winner != ids[0] {
		t.Fatalf("round %+v; the paradox's petitioner wins it", st.Round)
	}
	e.must(admin, "round-start", nil, nil)
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Status != "void" {
			t.Fatalf("proposal %s of the ended round is %s, want void", p.ID, p.Status)
		}
	}
	if st := e.status(); st.Round.Number != 2 || len(st.Proposals) != 0 {
		t.Fatalf("round %d with %d open proposals; want round 2 and none", st.Round.Number, len(st.Proposals))
	}
	e.refused(ids[1], "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, "voting_closed")
}
