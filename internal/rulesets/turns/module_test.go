package turns_test

import (
	"testing"
	"time"

	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

const (
	ada = "discord:11"
	bea = "discord:12"
	cy  = "discord:13"
	dee = "discord:14"
	eve = "discord:15"
)

// turn returns turn k's begin, middle and end of round 1 of a game made
// at created.
func turnTimes(k int) (begin, middle, end time.Time) {
	tu := turnsOf(created, k)
	return tu[0], tu[1], tu[2]
}

func turnsOf(start time.Time, k int) [3]time.Time {
	tu := nomic.TurnOf(start, k)
	return [3]time.Time{tu.Begin, tu.Middle, tu.End}
}

// A round played through the module: proposals, votes and the turn ends
// the scheduler applies, with points as U5 gives them.
func TestModule_ProposalsVotesAndTurnEnds(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea, cy, dee, eve)
	var p turns.ProposalView
	e.must(ada, "turns-propose", turns.Propose{Op: "amend", Rule: 210, Text: "Rule 210, amended."}, &p)
	if p.ID != "P1" || p.Turn != "1-1" || p.ProposerName != "Ada" {
		t.Fatalf("proposal = %+v", p)
	}
	for _, v := range []string{ada, bea, cy} {
		e.must(v, "turns-vote", turns.Ballot{Proposal: "P1", Vote: "for"}, nil)
	}
	_, _, end1 := turnTimes(1)
	e.at(end1.Add(time.Minute))
	st := e.status()
	if st.Turn.ID != "1-1" || st.Turn.Part != "interim" {
		t.Fatalf("turn after the end = %+v", st.Turn)
	}
	rules, err := turns.Rules(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	var r210 string
	for _, r := range rules {
		if r.Number == 210 {
			r210 = r.Text
			if len(r.History) != 2 || r.History[1].Proposal != "P1" {
				t.Errorf("rule 210 history = %+v", r.History)
			}
		}
	}
	if r210 != "Rule 210, amended." {
		t.Errorf("rule 210 = %q", r210)
	}
	// Turn 2: 4 for, 1 against fails under unanimity and costs 10.
	e.must(bea, "turns-propose", turns.Propose{Op: "enact", Text: "A new rule."}, &p)
	for _, v := range []string{ada, bea, cy, dee} {
		e.must(v, "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	}
	e.must(eve, "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "against"}, nil)
	_, _, end2 := turnTimes(2)
	e.at(end2)
	if pts := e.points(); pts["Bea"] != -10 || pts["Eve"] != 0 {
		t.Errorf("points after turn 2 = %v", pts)
	}
	// Turn 3: the same passes by majority and gives the dissenter 10.
	e.must(cy, "turns-propose", turns.Propose{Op: "enact", Text: "Another rule."}, &p)
	for _, v := range []string{ada, bea, cy, dee} {
		e.must(v, "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "for"}, nil)
	}
	e.must(eve, "turns-vote", turns.Ballot{Proposal: p.ID, Vote: "against"}, nil)
	_, _, end3 := turnTimes(3)
	e.at(end3)
	if pts := e.points(); pts["Eve"] != 10 || pts["Cy"] != 0 {
		t.Errorf("points after turn 3 = %v", pts)
	}
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[0].Status != "adopted" || ps[1].Status != "defeated" || ps[2].Status != "adopted" || len(ps[2].VotesAgainst) != 1 || ps[2].VotesAgainst[0] != "Eve" {
		t.Errorf("proposals = %+v", ps)
	}
	for _, l := range e.log() {
		if n, ok := e.svc.Narration(l.Event.Type); !ok || n.Sentence == nil {
			if len(l.Event.Type) > 6 && l.Event.Type[:6] == "turns_" {
				t.Errorf("event %s has no narration", l.Event.Type)
			}
		}
	}
	ends := e.eventsOf("turns_turn_ended")
	if len(ends) != 3 {
		t.Fatalf("turn ends logged: %d", len(ends))
	}
	if s := e.sentence(ends[2].Event); s != "Turn 1-3 ends; the interim begins." {
		t.Errorf("sentence = %q", s)
	}
}
