package turns_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
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

	// Round 2's first turn end, with the 120 proposals of round 1 still
	// first in the open proposals' index: they are read void and leave
	// it, the turn's proposal is decided, and the pool loses the member
	// who voted on none (the turn had a proposal: U8).
	tu := nomic.TurnOf(e.status().Round.Start, 1)
	e.at(tu.Begin.Add(time.Hour))
	e.must(ids[1], "pool-enter", nil, nil)
	e.must(ids[2], "pool-enter", nil, nil)
	var p turns.ProposalView
	e.must(ids[1], "turns-propose", turns.Propose{Op: "enact", Text: "A rule of round 2."}, &p)
	e.must(ids[1], "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	e.at(tu.End)
	ps, err = turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range ps {
		if want := map[bool]string{true: "adopted", false: "void"}[q.ID == p.ID]; q.Status != want {
			t.Fatalf("proposal %s is %s, want %s", q.ID, q.Status, want)
		}
	}
	if st := e.status(); len(st.Pool) != 1 || st.Pool[0] != "Player 1" {
		t.Fatalf("the pool after round 2's first turn: %v; only the voter stays", st.Pool)
	}
}

// TestIssue22_AdoptedRulesDoNotOutgrowAnItem: 110 proposals each enact a
// rule of 4,000 characters (the longest a text may be), all adopted in one
// turn end. Kept in one item, the numbered rules would pass DynamoDB's
// 400 KB: every later turn end adopting a rule would fail, for good. Each
// rule is an item of its own; the rules read in number order, whole.
func TestIssue22_AdoptedRulesDoNotOutgrowAnItem(t *testing.T) {
	const n = 110
	e, ids := bigGame(t, n)
	begin, _, end := turnTimes(1)
	e.at(begin.Add(time.Hour))
	long := strings.Repeat("x", turns.MaxText-10)
	for i, id := range ids {
		var p struct {
			ID string `json:"id"`
		}
		e.must(id, "turns-propose", turns.Propose{Op: "enact", Text: fmt.Sprintf("%06d%s", i, long)}, &p)
		e.must(id, "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	}
	e.at(end)
	var p struct {
		ID string `json:"id"`
	}
	b2, _, end2 := turnTimes(2)
	e.at(b2.Add(time.Hour))
	e.must(ids[0], "turns-propose", turns.Propose{Op: "amend", Rule: 230, Text: "Shorter."}, &p)
	e.must(ids[1], "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	e.at(end2)
	rl, err := turns.Rules(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	if len(rl) != 24+n {
		t.Fatalf("%d rules, want %d", len(rl), 24+n)
	}
	for i, r := range rl {
		if r.Number != 201+i {
			t.Fatalf("rule %d at %d: not in number order", r.Number, i)
		}
	}
	if r := rl[230-201]; r.Text != "Shorter." || len(r.History) != 2 {
		t.Fatalf("rule 230: %q with %d changes; want amended by %s", r.Text[:min(20, len(r.Text))], len(r.History), p.ID)
	}
	if r := rl[len(rl)-1]; !strings.HasPrefix(r.Text, fmt.Sprintf("%06d", n-1)) {
		t.Fatalf("the last rule is %q, want the last proposal's", r.Text[:20])
	}
}

// TestIssue22_AGameWithItsRulesInOneItemStillPlays: a game stored before
// each rule was an item of its own (every rule in TRULES, no rule counters
// in the game item) reads its rules, and adopts an amendment and a new
// rule with the right number; the rules read whole, the changed ones from
// their own items.
func TestIssue22_AGameWithItsRulesInOneItemStillPlays(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea)
	begin, _, end := turnTimes(1)
	e.at(begin.Add(time.Hour))
	e.must(ada, "pool-enter", nil, nil) // the game item and its rules exist
	// Back to the old layout.
	page, err := e.st.Query(e.ctx, store.Query{PK: game.GamePK(e.g), Prefix: "TRULE#", Limit: 100})
	if err != nil || len(page.Items) != 24 {
		t.Fatalf("%d rule items: %v", len(page.Items), err)
	}
	var all []json.RawMessage
	var tx store.Tx
	for _, it := range page.Items {
		all = append(all, it.Data)
		tx.Deletes = append(tx.Deletes, store.Check{Key: it.Key, Version: it.Version})
	}
	legacy, _ := json.Marshal(all)
	tx.Puts = append(tx.Puts, store.Put{Item: store.Item{Key: store.Key{PK: game.GamePK(e.g), SK: "TRULES"}, Data: legacy}})
	gk := store.Key{PK: game.GamePK(e.g), SK: "TURNS"}
	gi, err := e.st.Get(e.ctx, gk)
	if err != nil {
		t.Fatal(err)
	}
	var g map[string]any
	_ = json.Unmarshal(gi.Data, &g)
	delete(g, "next_rule")
	delete(g, "unanimity_rule")
	gd, _ := json.Marshal(g)
	tx.Puts = append(tx.Puts, store.Put{Item: store.Item{Key: gk, Data: gd, Due: gi.Due}, Expect: gi.Version})
	if err := e.st.Commit(e.ctx, tx); err != nil {
		t.Fatal(err)
	}
	if rl, err := turns.Rules(e.ctx, e.svc, e.g); err != nil || len(rl) != 24 || rl[4].Number != 205 {
		t.Fatalf("the old layout's rules: %d, %v", len(rl), err)
	}
	var p1, p2 struct {
		ID string `json:"id"`
	}
	e.must(ada, "turns-propose", turns.Propose{Op: "amend", Rule: 205, Text: "Amended."}, &p1)
	e.must(bea, "turns-propose", turns.Propose{Op: "enact", Text: "New."}, &p2)
	for _, id := range []string{p1.ID, p2.ID} {
		e.must(ada, "turns-vote", turns.Ballot{Proposal: id, Vote: "for"}, nil)
	}
	e.at(end)
	rl, err := turns.Rules(e.ctx, e.svc, e.g)
	if err != nil || len(rl) != 25 {
		t.Fatalf("%d rules, %v; want 25", len(rl), err)
	}
	if rl[4].Text != "Amended." || rl[24].Number != 225 || rl[24].Text != "New." || rl[5].Number != 206 || rl[5].Role != "unanimity" {
		t.Fatalf("rules 205 %q, 225 %d %q, 206 %q", rl[4].Text, rl[24].Number, rl[24].Text, rl[5].Role)
	}
}

// TestIssue22_ANewRoundAfterManyOpenCasesStarts: 110 Requests for Judgment
// await the administrator's ruling when a paradox ruled TRUE ends the
// round, one with an open appeal. The next round must start (it once
// rewrote every open case in its one commit), each Judge's time runs
// from the new round's start (no deadline runs while no round is in
// play), and the appeal of the ended round is void.
func TestIssue22_ANewRoundAfterManyOpenCasesStarts(t *testing.T) {
	const n = 110
	e, ids := bigGame(t, n)
	begin, _, _ := turnTimes(1)
	e.at(begin.Add(time.Hour))
	e.must(ids[1], "pool-enter", nil, nil)
	var ruled turns.CaseView
	e.must(ids[0], "judgment-request", turns.Judgment{Statement: "Ruled, then appealed."}, &ruled)
	e.must(ids[1], "judge-rule", turns.Ruling{Case: ruled.Number, Ruling: "FALSE"}, nil)
	e.must(ids[2], "ruling-appeal", turns.Ruling{Case: ruled.Number, Ruling: "TRUE", Reasons: "Because."}, nil)
	for _, id := range ids[:n] {
		e.must(id, "judgment-request", turns.Judgment{Statement: "Is it so?"}, nil)
	}
	var px turns.CaseView
	e.must(ids[3], "judgment-request", turns.Judgment{Statement: "This is a paradox.", Paradox: true}, &px)
	e.must(admin, "judge-rule", turns.Ruling{Case: px.Number, Ruling: "TRUE"}, nil)
	restart := begin.Add(30 * 24 * time.Hour)
	e.at(restart)
	e.must(admin, "round-start", nil, nil)
	cases, err := turns.Cases(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	judged := 0
	for _, c := range cases {
		if c.Number == ruled.Number {
			if len(c.Appeals) != 1 || c.Appeals[0].Status != "void" {
				t.Fatalf("case %d's appeal: %+v, want void", c.Number, c.Appeals)
			}
			continue
		}
		if a, ok := c.Case.Judge(); ok {
			judged++
			if !a.At.Equal(restart) {
				t.Fatalf("case %d: its Judge is appointed as of %s, want the round's start %s", c.Number, a.At, restart)
			}
		}
	}
	if judged < n {
		t.Fatalf("%d cases await a ruling, want %d", judged, n)
	}
	// A case's item catches up when a command writes it.
	for _, c := range cases {
		if c.Administrator {
			e.must(admin, "judge-rule", turns.Ruling{Case: c.Number, Ruling: "TRUE"}, nil)
			break
		}
	}
}
