package turns_test

import (
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// rulesAt are the numbered rules as the rules view of the game at m reads
// them, by number.
func (e *env) rulesAt(m string) map[int]nomic.Rule {
	e.t.Helper()
	mo, err := game.ParseMoment(m)
	if err != nil {
		e.t.Fatal(err)
	}
	past, _, err := e.svc.Past(e.ctx, e.g, mo)
	if err != nil {
		e.t.Fatalf("the game at %s: %v", m, err)
	}
	rs, err := turns.Rules(e.ctx, past, e.g)
	if err != nil {
		e.t.Fatalf("the rules at %s: %v", m, err)
	}
	out := map[int]nomic.Rule{}
	for _, r := range rs {
		out[r.Number] = r
	}
	return out
}

// entryOf is the log entry whose event of kind typ names proposal id.
func (e *env) entryOf(typ, id string) game.Entry {
	e.t.Helper()
	for _, l := range e.eventsOf(typ) {
		var ev nomic.Event
		if err := jsonUnmarshal(l.Event.Data, &ev); err == nil && ev.Proposal == id {
			return l.Entry
		}
	}
	e.t.Fatalf("no %s event of %s in the log", typ, id)
	return game.Entry{}
}

// U5 ("Results apply at the turn's end, in submission order"), seen in the
// past (issue 25, acceptance 4): two proposals adopted at one turn end
// are applied one after the other, each in a log entry of its own, so the
// moment between them can be named. After the first's entry the rules
// show its amendment and not the second's; before the second's, the same;
// after the second's, both; before the first's, neither.
func TestU5_TheRulesBetweenTwoAdoptionsInOneTurnEndInSubmissionOrder(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea, cy)
	var p1, p2 turns.ProposalView
	e.must(ada, "turns-propose", turns.Propose{Op: "amend", Rule: 210, Text: "Rule 210, as Ada would have it."}, &p1)
	e.must(bea, "turns-propose", turns.Propose{Op: "amend", Rule: 211, Text: "Rule 211, as Bea would have it."}, &p2)
	for _, v := range []string{ada, bea, cy} {
		e.must(v, "turns-vote", turns.Ballot{Proposal: p1.ID, Vote: "for"}, nil)
		e.must(v, "turns-vote", turns.Ballot{Proposal: p2.ID, Vote: "for"}, nil)
	}
	_, _, end1 := turnTimes(1)
	e.at(end1.Add(time.Hour))
	first, second := e.entryOf("turns_proposal_adopted", p1.ID), e.entryOf("turns_proposal_adopted", p2.ID)
	if first.ID == second.ID {
		t.Fatalf("both adoptions are in entry %s: the moment between them cannot be named", first.ID)
	}
	orig := e.rulesAt(game.Moment{At: end1.Add(-time.Minute)}.String())
	cases := []struct {
		moment     string
		r210, r211 string
	}{
		{"before:" + first.ID, orig[210].Text, orig[211].Text},
		{"after:" + first.ID, "Rule 210, as Ada would have it.", orig[211].Text},
		{"before:" + second.ID, "Rule 210, as Ada would have it.", orig[211].Text},
		{"after:" + second.ID, "Rule 210, as Ada would have it.", "Rule 211, as Bea would have it."},
		{game.Moment{At: end1}.String(), "Rule 210, as Ada would have it.", "Rule 211, as Bea would have it."},
	}
	for _, c := range cases {
		rs := e.rulesAt(c.moment)
		if rs[210].Text != c.r210 || rs[211].Text != c.r211 {
			t.Errorf("at %s: rule 210 reads %q and rule 211 %q; want %q and %q", c.moment, rs[210].Text, rs[211].Text, c.r210, c.r211)
		}
	}
}

// entropy is a log id source of one repeated byte: a runner whose ids
// sort high (0xf0) or low (0x00) within a millisecond.
type entropy byte

func (b entropy) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// RULINGS T6 ("in commit order"): a turn end's steps are all logged at the
// turn's end; when a runner whose ids sort high dies after the first
// adoption and one whose ids sort low applies the rest, the log still
// lists the adoptions in the order they were applied (U5: submission
// order), and the rules between them read as they were.
func TestT6_ATurnEndsStepsAreLoggedInCommitOrderWhicheverRunnerMakesThem(t *testing.T) {
	d := &dying{Store: boltStore(t), left: -1}
	e := newEnv(t, d, ada, bea, cy)
	texts := map[string]string{ada: "Rule 210, as Ada would have it.", bea: "Rule 211, as Bea would have it.", cy: "Rule 212, as Cy would have it."}
	var ids []string
	for i, who := range []string{ada, bea, cy} {
		var p turns.ProposalView
		e.must(who, "turns-propose", turns.Propose{Op: "amend", Rule: 210 + i, Text: texts[who]}, &p)
		ids = append(ids, p.ID)
	}
	for _, id := range ids {
		for _, v := range []string{ada, bea, cy} {
			e.must(v, "turns-vote", turns.Ballot{Proposal: id, Vote: "for"}, nil)
		}
	}
	quiet := game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	high := rulesets.New(d, e.clk, game.WithEntropy(entropy(0xf0)), quiet)
	low := rulesets.New(d, e.clk, game.WithEntropy(entropy(0)), quiet)
	_, _, end1 := turnTimes(1)
	e.at(end1.Add(-time.Minute))
	e.clk.Set(end1.Add(time.Hour))
	// The first runner commits one step a run, and dies at the next,
	// until the first proposal is adopted.
	var ps []turns.ProposalView
	for range 10 {
		d.arm(1)
		if rep, err := high.RunDue(e.ctx); err == nil && len(rep.Failed) == 0 {
			t.Fatal("the first runner did not die")
		}
		d.arm(-1)
		var err error
		if ps, err = turns.Proposals(e.ctx, e.svc, e.g); err != nil {
			t.Fatal(err)
		}
		if ps[0].Status != nomic.ProposalOpen {
			break
		}
	}
	if ps[0].Status != nomic.ProposalAdopted || ps[1].Status != nomic.ProposalOpen {
		t.Fatalf("when the first runner died, P1 was %s and P2 %s; the test wants the first adopted and the second open", ps[0].Status, ps[1].Status)
	}
	if rep, err := low.RunDue(e.ctx); err != nil || len(rep.Failed) > 0 {
		t.Fatalf("the second runner: %v %v", err, rep.Failed)
	}
	var entries []string
	for _, id := range ids {
		entries = append(entries, e.entryOf("turns_proposal_adopted", id).ID)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i] <= entries[i-1] {
			t.Fatalf("the adoption of %s is logged as %s, before that of %s (%s), which was applied first", ids[i], entries[i], ids[i-1], entries[i-1])
		}
	}
	for i, en := range entries {
		rs := e.rulesAt("after:" + en)
		for j, who := range []string{ada, bea, cy} {
			if got := rs[210+j].Text == texts[who]; got != (j <= i) {
				t.Errorf("after the adoption of %s, rule %d reads %q", ids[i], 210+j, rs[210+j].Text)
			}
		}
	}
	diffs, _, err := e.svc.Explain(e.ctx, e.g)
	if err != nil || len(diffs) > 0 {
		t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
	}
}

// caseView is case n as the case views show it.
func (e *env) caseView(n int) turns.CaseView {
	e.t.Helper()
	cs, err := turns.Cases(e.ctx, e.svc, e.g)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, c := range cs {
		if c.Number == n {
			return c
		}
	}
	e.t.Fatalf("no case %d among %d", n, len(cs))
	return turns.CaseView{}
}

// U7 with seed 003's "the Judge should consider the rules in effect at the
// time of the disputed game action" (issue 25, acceptance 4): a Request
// for Judgment names its disputed moment, as a time or a log entry, or
// disputes the moment of the request; the case keeps it, and the case view
// shows the rules in effect then, which are the rules view of the game at
// that moment: the numbers in force then, and each rule changed since as
// it read then. A moment no read of the past could show is refused.
func TestU7_ACaseNamesItsDisputedMomentAndShowsTheRulesInEffectThen(t *testing.T) {
	e := newEnv(t, boltStore(t), ada, bea, cy)
	var p1, p2, p3 turns.ProposalView
	e.must(ada, "turns-propose", turns.Propose{Op: "amend", Rule: 210, Text: "Rule 210, as Ada would have it."}, &p1)
	e.must(bea, "turns-propose", turns.Propose{Op: "amend", Rule: 211, Text: "Rule 211, as Bea would have it."}, &p2)
	e.must(cy, "turns-propose", turns.Propose{Op: "enact", Text: "A rule Cy would have."}, &p3)
	for _, id := range []string{p1.ID, p2.ID, p3.ID} {
		for _, v := range []string{ada, bea, cy} {
			e.must(v, "turns-vote", turns.Ballot{Proposal: id, Vote: "for"}, nil)
		}
	}
	_, _, end1 := turnTimes(1)
	e.at(end1.Add(time.Hour))
	first, second := e.entryOf("turns_proposal_adopted", p1.ID), e.entryOf("turns_proposal_adopted", p2.ID)
	now := e.rulesAt(game.Moment{At: e.clk.Now()}.String())
	enacted := 0
	for n := range now {
		enacted = max(enacted, n)
	}
	before := end1.Add(-24 * time.Hour).In(calendar.Chicago()).Format(time.RFC3339)

	type want struct {
		disputed string
		since    []turns.RuleSince
	}
	orig := e.rulesAt(before)
	requests := []struct {
		at   string
		want want
	}{
		// A time, in the game's zone: before the turn end, every change since.
		{before, want{game.Moment{At: end1.Add(-24 * time.Hour)}.String(), []turns.RuleSince{
			{Number: 210, Change: nomic.RuleAmended, Text: orig[210].Text},
			{Number: 211, Change: nomic.RuleAmended, Text: orig[211].Text},
			{Number: enacted, Change: nomic.RuleEnacted}}}},
		// A bare entry: the moment just before it, the first adoption not applied.
		{first.ID, want{"before:" + first.ID, []turns.RuleSince{
			{Number: 210, Change: nomic.RuleAmended, Text: orig[210].Text},
			{Number: 211, Change: nomic.RuleAmended, Text: orig[211].Text},
			{Number: enacted, Change: nomic.RuleEnacted}}}},
		// Between two adoptions of one turn end, at the same time.
		{"after:" + first.ID, want{"after:" + first.ID, []turns.RuleSince{
			{Number: 211, Change: nomic.RuleAmended, Text: orig[211].Text},
			{Number: enacted, Change: nomic.RuleEnacted}}}},
		{"after:" + second.ID, want{"after:" + second.ID, []turns.RuleSince{
			{Number: enacted, Change: nomic.RuleEnacted}}}},
		// No moment: the request's.
		{"", want{game.Moment{At: e.clk.Now()}.String(), []turns.RuleSince{}}},
	}
	for _, r := range requests {
		var c turns.CaseView
		res, err := e.call(ada, "judgment-request", turns.Judgment{Statement: "Ada's amendment was legal.", At: r.at})
		if err != nil {
			t.Fatalf("a request disputing %q: %v", r.at, err)
		}
		if err := jsonUnmarshal(res.Body, &c); err != nil {
			t.Fatal(err)
		}
		v := e.caseView(c.Number)
		rt := v.RulesThen
		if rt == nil || rt.Moment != r.want.disputed {
			t.Fatalf("case %d (at %q) shows the rules at %+v; want the moment %s", c.Number, r.at, rt, r.want.disputed)
		}
		if r.at != "" && v.Disputed != r.want.disputed {
			t.Errorf("case %d keeps the disputed moment %q; want %q", c.Number, v.Disputed, r.want.disputed)
		}
		if !reflect.DeepEqual(rt.Since, r.want.since) {
			t.Errorf("case %d (at %s): changed since %+v; want %+v", c.Number, rt.Moment, rt.Since, r.want.since)
		}
		// The same as the rules view of the game at that moment.
		t.Logf("case %d: %s", c.Number, rt.Words())
		then := e.rulesAt(rt.Moment)
		var inForce []int
		for n, rl := range then {
			if !rl.Repealed {
				inForce = append(inForce, n)
			}
		}
		slices.Sort(inForce)
		if !slices.Equal(inForce, rt.InForce) {
			t.Errorf("case %d: in force at %s %v; the rules view then says %v", c.Number, rt.Moment, rt.InForce, inForce)
		}
		for _, s := range rt.Since {
			if s.Text != then[s.Number].Text {
				t.Errorf("case %d: rule %d read %q at %s; the rules view then says %q", c.Number, s.Number, s.Text, rt.Moment, then[s.Number].Text)
			}
		}
		if r.at == "after:"+first.ID {
			words := rt.Words()
			if want := fmt.Sprintf("Rules in effect at %s: 201-%d (since then: rule 211 amended and rule %d enacted).", turns.When(end1), enacted-1, enacted); words != want {
				t.Errorf("case %d reads %q; want %q", c.Number, words, want)
			}
			if says := e.svc.Registry.Says("judgment-request", res.Body, func(id string) string { return names[id] }); !strings.Contains(says, "The Judge considers the rules in effect at "+turns.When(end1)+" (after:"+first.ID+").") {
				t.Errorf("the request's answer says %q", says)
			}
		}
	}
	for at, code := range map[string]string{
		e.clk.Now().Add(time.Hour).Format(time.RFC3339): "moment_in_future",
		created.Add(-time.Hour).Format(time.RFC3339):    "before_game",
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":                    "entry_not_found",
		"last Tuesday":                                  "bad_moment",
	} {
		e.refused(ada, "judgment-request", turns.Judgment{Statement: "Something.", At: at}, code)
	}
}
