package nomic

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
)

// TestU1_TurnIDsAndWhatComesNext: turn 1 of round 1 is the first turn that
// begins at or after the game's creation; each part of a turn says what
// comes next.
func TestU1_TurnIDsAndWhatComesNext(t *testing.T) {
	g := newGame(t)
	for _, tc := range []struct {
		name     string
		at       time.Time
		id, part string
		next     Moment
	}{
		{"created on a Wednesday: no turn yet", created, "", BeforeFirstTurn,
			Moment{MomentBegin, "1-1", chicago(2026, 3, 2, 22, 0)}},
		{"turn 1 begins Monday 22:00", chicago(2026, 3, 2, 22, 0), "1-1", FirstHalf,
			Moment{MomentMiddle, "1-1", chicago(2026, 3, 5, 10, 0)}},
		{"its middle, Thursday 10:00", chicago(2026, 3, 5, 10, 0), "1-1", LatterHalf,
			Moment{MomentEnd, "1-1", chicago(2026, 3, 7, 22, 0)}},
		{"its end, Saturday 22:00, starts the interim", chicago(2026, 3, 7, 22, 0), "1-1", Interim,
			Moment{MomentBegin, "1-2", chicago(2026, 3, 9, 22, 0)}},
		{"turn 2 begins in daylight time", chicago(2026, 3, 9, 22, 0), "1-2", FirstHalf,
			Moment{MomentMiddle, "1-2", chicago(2026, 3, 12, 10, 0)}},
	} {
		info := g.s.Turn(tc.at)
		if info.ID != tc.id || info.Part != tc.part || info.Next.Kind != tc.next.Kind || info.Next.Turn != tc.next.Turn || !info.Next.At.Equal(tc.next.At) {
			t.Errorf("%s: TurnAt = %s %s next %+v; want %q %s next %+v", tc.name, info.ID, info.Part, info.Next, tc.id, tc.part, tc.next)
		}
	}
}

// TestU1_TurnsAcrossBothDSTChanges (acceptance 2): every turn of 2026 that
// the round walks through, across both US daylight-saving changes, begins
// Monday 22:00, reaches its middle Thursday 10:00 and ends Saturday 22:00
// Chicago wall time; and a turn end applied late is applied as of its
// moment (T4).
func TestU1_TurnsAcrossBothDSTChanges(t *testing.T) {
	g := newGame(t)
	for ord := 1; ord <= 45; ord++ { // 2026-03-02 to 2027-01-04: both changes
		b, m, e := g.turn(ord)
		for _, c := range []struct {
			what string
			at   time.Time
			day  time.Weekday
			hour int
		}{{"begin", b, time.Monday, 22}, {"middle", m, time.Thursday, 10}, {"end", e, time.Saturday, 22}} {
			l := c.at.In(calendar.Chicago())
			if l.Weekday() != c.day || l.Hour() != c.hour || l.Minute() != 0 {
				t.Errorf("turn 1-%d %s at %s Chicago, want %s %02d:00", ord, c.what, l, c.day, c.hour)
			}
		}
		if info := g.s.Turn(b); info.Ordinal != ord || !info.Begin.Equal(b) {
			t.Errorf("turn 1-%d: TurnAt(begin) = %s", ord, info.ID)
		}
	}
	// The UTC instants move with daylight saving: 1-1 ends 04:00 UTC (CST),
	// 1-2 begins 03:00 UTC (CDT); 1-35 ends 03:00 UTC (CDT, Oct 31), 1-36
	// begins 04:00 UTC (CST, Nov 2).
	for _, c := range []struct {
		ord   int
		begin bool
		want  time.Time
	}{
		{1, false, time.Date(2026, 3, 8, 4, 0, 0, 0, time.UTC)},
		{2, true, time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC)},
		{35, false, time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)},
		{36, true, time.Date(2026, 11, 3, 4, 0, 0, 0, time.UTC)},
	} {
		b, _, e := g.turn(c.ord)
		got := e
		if c.begin {
			got = b
		}
		if !got.Equal(c.want) {
			t.Errorf("turn 1-%d: %s UTC, want %s", c.ord, got.UTC(), c.want)
		}
	}
	// Applied weeks late, each turn end is applied once, as of its moment.
	evs := g.advance(chicago(2026, 11, 20, 12, 0), nil)
	ends := kinds(evs, EvTurnEnded)
	if len(ends) != 37 {
		t.Fatalf("%d turn ends applied by 2026-11-20, want 37", len(ends))
	}
	for i, e := range ends {
		_, _, end := g.turn(i + 1)
		if !e.At.Equal(end) || e.Turn != TurnID(1, i+1) {
			t.Errorf("turn end %d: %s at %s, want %s at %s", i+1, e.Turn, e.At, TurnID(1, i+1), end)
		}
	}
	if again := g.advance(chicago(2026, 11, 20, 12, 0), nil); len(again) != 0 {
		t.Errorf("a second run applied %d more effects: %+v", len(again), again)
	}
}

// TestU2_OnlyActivePlayersTakePart: a player is active from joining until
// they declare themselves inactive; an inactive player cannot propose, vote,
// request judgment or sit in the pool, and may become active again.
func TestU2_OnlyActivePlayersTakePart(t *testing.T) {
	g := newGame(t, "a", "b")
	if p := g.s.Player("a"); !p.Active || p.InPool {
		t.Fatalf("a new player: active %v, in pool %v; want active, not in the pool", p.Active, p.InPool)
	}
	if _, err := g.s.EnterPool("a", created); err != nil {
		t.Fatal(err)
	}
	evs, err := g.s.SetActive("a", false, created, &script{})
	if err != nil {
		t.Fatal(err)
	}
	if g.s.Player("a").InPool || len(kinds(evs, EvPoolLeft)) != 1 {
		t.Errorf("becoming inactive left Ada in the pool (events %+v)", evs)
	}
	at := g.inFirstHalf(1)
	p := g.propose("p1", "b", at)
	_, err = g.s.Submit(Submission{ID: "p2", Changes: []RuleChange{{Op: RuleRepealed, Rule: 224}}}, "a", at, g.rs)
	wantCode(t, err, "not_active")
	if !strings.Contains(err.Error(), "Ada is inactive") {
		t.Errorf("refusal %q does not name Ada", err)
	}
	wantCode(t, g.s.Vote(p.ID, "a", true, at), "not_active")
	_, _, err = g.s.RequestJudgment(Request{Statement: "x"}, "a", at, g.rs, &script{})
	wantCode(t, err, "not_active")
	_, err = g.s.EnterPool("a", at)
	wantCode(t, err, "not_active")
	_, err = g.s.SetActive("a", false, at, &script{})
	wantCode(t, err, "already_inactive")
	if _, err := g.s.SetActive("a", true, at, &script{}); err != nil {
		t.Fatal(err)
	}
	if err := g.s.Vote(p.ID, "a", true, at); err != nil {
		t.Errorf("active again, Ada cannot vote: %v", err)
	}
	if g.s.Player("a").InPool {
		t.Error("becoming active again put Ada back in the pool")
	}
	_, err = g.s.Submit(Submission{ID: "p3", Changes: []RuleChange{{Op: RuleRepealed, Rule: 224}}}, "z", at, g.rs)
	wantCode(t, err, "not_a_player")
}

// TestU3_InitialRulesAreSeed003: the mutable rules are seed 003's
// paragraphs in order, numbered from 201; the unanimity rule is 206.
func TestU3_InitialRulesAreSeed003(t *testing.T) {
	raw, err := os.ReadFile("testdata/003_8d1b87f7c1c3f326.txt")
	if err != nil {
		t.Fatal(err)
	}
	var paras []string
	for _, l := range strings.Split(string(raw), "\n") {
		if l = strings.TrimSpace(l); l != "" && l != "Mutable" {
			paras = append(paras, l)
		}
	}
	g := newGame(t)
	if len(g.s.Rules) != len(paras) || len(paras) != 24 {
		t.Fatalf("%d rules, seed has %d paragraphs (want 24)", len(g.s.Rules), len(paras))
	}
	for i, r := range g.s.Rules {
		if r.Number != 201+i || r.Text != paras[i] || len(r.History) != 1 || r.History[0].Kind != RuleEnacted {
			t.Errorf("rule %d = %+v\nwant number %d, text %q, enacted at creation", i, r, 201+i, paras[i])
		}
	}
	if u := g.s.unanimityRule(); u != 206 || !strings.HasPrefix(g.s.Rule(206).Text, "A rule-change is adopted if and only if the vote is unanimous") {
		t.Errorf("the unanimity rule is %d", u)
	}
}

// TestU3_ProposalWindowAndRuleHistory: one proposal per active player per
// turn, from the end of the previous turn until the turn's middle; adopted
// changes enact, amend and repeal numbered rules with their history, and
// a data change amends the ruleset data.
func TestU3_ProposalWindowAndRuleHistory(t *testing.T) {
	g := newGame(t, "a", "b")
	_, _, end1 := g.turn(1)
	// In the interim after turn 1, a proposal is for turn 2.
	p := g.propose("p1", "a", end1, RuleChange{Op: RuleAmended, Rule: 210, Text: "The winner of the round is the first player to achieve 150 points."},
		RuleChange{Op: RuleRepealed, Rule: 212}, RuleChange{Op: RuleEnacted, Text: "Players shall be polite."})
	if p.Turn != "1-2" {
		t.Errorf("proposal made at turn 1's end is for turn %s, want 1-2", p.Turn)
	}
	_, err := g.s.Submit(Submission{ID: "p1b", Changes: []RuleChange{{Op: RuleRepealed, Rule: 213}}}, "a", end1.Add(time.Hour), g.rs)
	wantCode(t, err, "proposal_limit")
	// What a proposal says is checked before the limit (issue 24 point 6):
	// a proposer at the limit is told their bad proposal's fault.
	_, err = g.s.Submit(Submission{ID: "p1c", Changes: []RuleChange{{Op: "rewrite", Rule: 203, Text: "x"}}}, "a", end1.Add(time.Hour), g.rs)
	wantCode(t, err, "invalid_rule_change")
	_, err = g.s.Submit(Submission{ID: "p1d", Changes: []RuleChange{{Op: RuleAmended, Rule: 999, Text: "x"}}}, "a", end1.Add(time.Hour), g.rs)
	wantCode(t, err, "unknown_rule")
	_, mid2, end2 := g.turn(2)
	_, err = g.s.Submit(Submission{ID: "late", Changes: []RuleChange{{Op: RuleRepealed, Rule: 213}}}, "b", mid2, g.rs)
	wantCode(t, err, "submission_closed")
	for _, bad := range []struct {
		c    RuleChange
		code string
	}{
		{RuleChange{Op: RuleAmended, Rule: 199, Text: "x"}, "unknown_rule"},
		{RuleChange{Op: RuleAmended, Rule: 203}, "invalid_rule_change"},
		{RuleChange{Op: "rewrite", Rule: 203, Text: "x"}, "invalid_rule_change"},
	} {
		_, err := g.s.Submit(Submission{ID: "bad", Changes: []RuleChange{bad.c}}, "b", mid2.Add(-time.Minute), g.rs)
		wantCode(t, err, bad.code)
	}
	_, err = g.s.Submit(Submission{ID: "data", Data: []byte(`[{"op":"replace","path":"/turns/winPoints","value":150}]`)}, "b", mid2.Add(-time.Minute), g.rs)
	if err != nil {
		t.Fatal(err)
	}
	g.vote("p1", mid2, true, "a", "b")
	g.vote("data", mid2, true, "a", "b")
	g.advance(end2, nil)
	if r := g.s.Rule(210); !strings.Contains(r.Text, "150 points") || r.History[1].Proposal != "p1" || r.History[1].Turn != "1-2" || r.History[1].Kind != RuleAmended {
		t.Errorf("rule 210 after p1: %+v", r)
	}
	if r := g.s.Rule(212); !r.Repealed || r.History[1].Kind != RuleRepealed {
		t.Errorf("rule 212 after p1: %+v", r)
	}
	if r := g.s.Rule(225); r == nil || r.Text != "Players shall be polite." || r.History[0].Proposal != "p1" {
		t.Errorf("enacted rule 225: %+v", r)
	}
	if len(g.s.InForce()) != 24 {
		t.Errorf("%d rules in force, want 24 (one repealed, one enacted)", len(g.s.InForce()))
	}
	if g.rs.Turns.WinPoints != 150 {
		t.Errorf("winPoints after the data change = %d, want 150", g.rs.Turns.WinPoints)
	}
	_, err = g.s.Submit(Submission{ID: "p9", Changes: []RuleChange{{Op: RuleAmended, Rule: 212, Text: "x"}}}, "a", g.inFirstHalf(3), g.rs)
	wantCode(t, err, "rule_repealed")
}

// TestU4_OneStandingVoteChangeableUntilTheEnd: a vote can be changed until
// the turn ends; the standing one counts. Reactions count for players who
// cast no vote otherwise (both 👍 and 👎 is against); a player no longer
// active does not count.
func TestU4_OneStandingVoteChangeableUntilTheEnd(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d", "e")
	at := g.inFirstHalf(3)
	g.propose("p", "a", at)
	g.vote("p", at, false, "a")
	g.vote("p", at.Add(time.Hour), true, "a")
	g.vote("p", at, true, "e")
	if n := len(g.s.Proposal("p").Votes); n != 2 {
		t.Fatalf("%d votes after Ada voted twice and Eve once, want 2", n)
	}
	if _, err := g.s.SetActive("e", false, at.Add(2*time.Hour), &script{}); err != nil {
		t.Fatal(err)
	}
	_, _, end := g.turn(3)
	wantCode(t, g.s.Vote("p", "b", true, end), "voting_closed")
	g.advance(end.Add(-time.Nanosecond), nil)
	rs, _, err := g.s.Advance(end, g.rs, &script{}, map[string]Reactions{"p": {Up: []string{"a", "b", "c", "c"}, Down: []string{"a", "c", "zz"}}})
	if err != nil {
		t.Fatal(err)
	}
	g.rs = rs
	res := g.s.Proposal("p").Result
	if res.For != 2 || res.Against != 1 || !slices.Equal(res.ForVoters, []string{"a", "b"}) || !slices.Equal(res.AgainstVoters, []string{"c"}) {
		t.Errorf("result %+v; want for Ada (command, not her 👎) and Bea (👍), against Cy (both); Eve inactive and zz ignored", res)
	}
}

// TestU5_Turn2FourForOneAgainstFails (acceptance 1): in turn 2 unanimity is
// needed, so 4 for and 1 against defeats the proposal and its proposer
// loses 10; the dissenter gains nothing.
func TestU5_Turn2FourForOneAgainstFails(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d", "e")
	at := g.inFirstHalf(2)
	g.propose("p", "a", at)
	g.vote("p", at, true, "a", "b", "c", "d")
	g.vote("p", at, false, "e")
	_, _, end := g.turn(2)
	evs := g.advance(end, nil)
	if st := g.s.Proposal("p").Status; st != ProposalDefeated {
		t.Fatalf("status %s, want defeated", st)
	}
	if g.points("a") != -10 || g.points("e") != 0 {
		t.Errorf("points Ada %d, Eve %d; want -10, 0", g.points("a"), g.points("e"))
	}
	if pe := kinds(evs, EvPoints); len(pe) != 1 || pe[0].Reason != PointsDefeat || pe[0].At != end {
		t.Errorf("point events %+v; want one defeat at the turn's end", pe)
	}
}

// TestU5_Turn3FourForOneAgainstPasses (acceptance 1): from turn 3 a simple
// majority adopts, and the dissenter gains 10.
func TestU5_Turn3FourForOneAgainstPasses(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d", "e")
	at := g.inFirstHalf(3)
	g.propose("p", "a", at)
	g.vote("p", at, true, "a", "b", "c", "d")
	g.vote("p", at, false, "e")
	_, _, end := g.turn(3)
	g.advance(end, nil)
	if p := g.s.Proposal("p"); p.Status != ProposalAdopted || p.Result.Mode != Majority {
		t.Fatalf("status %s (%+v), want adopted by majority", p.Status, p.Result)
	}
	if g.points("a") != 0 || g.points("e") != 10 {
		t.Errorf("points Ada %d, Eve %d; want 0, 10", g.points("a"), g.points("e"))
	}
	// A unanimous adoption gives no dissent bonus, and no vote at all
	// defeats a proposal even under majority.
	at4 := g.inFirstHalf(4)
	g.propose("q", "b", at4)
	_, _, end4 := g.turn(4)
	g.advance(end4, nil)
	if g.s.Proposal("q").Status != ProposalDefeated || g.points("b") != -10 {
		t.Errorf("a proposal nobody voted on: %s, Bea %d; want defeated, -10", g.s.Proposal("q").Status, g.points("b"))
	}
}

// TestU5_AmendingTheUnanimityRuleInTurn2KeepsUnanimity (acceptance 1).
func TestU5_AmendingTheUnanimityRuleInTurn2KeepsUnanimity(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d", "e")
	at := g.inFirstHalf(2)
	g.propose("keep", "a", at, RuleChange{Op: RuleAmended, Rule: 206, Text: "A rule-change is adopted if and only if the vote is unanimous among the players who vote on the rule-change."})
	g.vote("keep", at, true, "a", "b", "c", "d", "e")
	_, _, end2 := g.turn(2)
	evs := g.advance(end2, nil)
	if len(kinds(evs, EvSwitchCancelled)) != 1 || len(kinds(evs, EvMajority)) != 0 || !g.s.Round.SwitchCancelled {
		t.Fatalf("turn 2 end events %+v; want the switch cancelled", evs)
	}
	at3 := g.inFirstHalf(3)
	g.propose("p", "b", at3)
	g.vote("p", at3, true, "a", "b", "c", "d")
	g.vote("p", at3, false, "e")
	_, _, end3 := g.turn(3)
	g.advance(end3, nil)
	if p := g.s.Proposal("p"); p.Status != ProposalDefeated || p.Result.Mode != Unanimity {
		t.Errorf("turn 3, 4 for 1 against after the amendment: %s by %s, want defeated under unanimity", p.Status, p.Result.Mode)
	}
	if g.points("b") != -10 || g.points("e") != 0 {
		t.Errorf("points Bea %d, Eve %d; want -10, 0", g.points("b"), g.points("e"))
	}
}

// TestU5_AmendingItInTurn3IsTooLate: the switch happened at turn 2's end.
func TestU5_AmendingItInTurn3IsTooLate(t *testing.T) {
	g := newGame(t, "a", "b")
	_, _, end2 := g.turn(2)
	if evs := g.advance(end2, nil); len(kinds(evs, EvMajority)) != 1 {
		t.Errorf("turn 2 end without the amendment: %+v; want the switch announced", evs)
	}
	at := g.inFirstHalf(3)
	g.propose("late", "a", at, RuleChange{Op: RuleAmended, Rule: 206, Text: "Unanimity forever."})
	g.vote("late", at, true, "a", "b")
	_, _, end3 := g.turn(3)
	g.advance(end3, nil)
	if m, _ := g.s.Mode(4, g.rs); m != Majority || g.s.Round.SwitchCancelled {
		t.Errorf("after amending rule 206 in turn 3, mode %s; want majority", m)
	}
}

// TestU5_ResultsApplyInSubmissionOrder: of two proposals adopted at one
// turn end, the one submitted first takes effect first.
func TestU5_ResultsApplyInSubmissionOrder(t *testing.T) {
	g := newGame(t, "a", "b")
	at := g.inFirstHalf(1)
	g.propose("repeal", "b", at, RuleChange{Op: RuleRepealed, Rule: 215})
	g.propose("amend", "a", at.Add(time.Minute), RuleChange{Op: RuleAmended, Rule: 215, Text: "Rulings are final."})
	g.vote("amend", at, true, "a", "b")
	g.vote("repeal", at.Add(time.Hour), true, "a", "b")
	_, _, end := g.turn(1)
	g.advance(end, nil)
	r := g.s.Rule(215)
	if !r.Repealed || len(r.History) != 2 || r.History[1].Proposal != "repeal" {
		t.Errorf("rule 215 = %+v; want repealed by the first proposal only", r)
	}
	if res := g.s.Proposal("amend").Result; len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "rule 215 was repealed") {
		t.Errorf("the later amendment's notes %v; want it to say rule 215 was repealed", res.Notes)
	}
}

// TestU6_TheFirstToTheWinningPointsWinsAndTheRoundEnds: where one turn end
// gives two players the winning points, the first dissenter (by vote
// order) wins; the round then refuses commands, and the next round starts
// everyone at 0 with ordinals from 1.
func TestU6_TheFirstToTheWinningPointsWinsAndTheRoundEnds(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d", "e")
	g.rs.Turns.WinPoints = 10 // as a proposal could set it (R4)
	at := g.inFirstHalf(3)
	g.propose("p", "a", at)
	g.vote("p", at, true, "a", "b", "c")
	g.vote("p", at.Add(2*time.Minute), false, "e")
	g.vote("p", at.Add(time.Minute), false, "d")
	_, _, end := g.turn(3)
	evs := g.advance(end.Add(30*24*time.Hour), nil)
	won := kinds(evs, EvRoundWon)
	if len(won) != 1 || won[0].Player != "d" || g.s.Round.Winner != "d" || !g.s.Round.Over || !g.s.Round.EndedAt.Equal(end) {
		t.Fatalf("round %+v, win events %+v; want Dee (voted against first) to win at the turn's end", g.s.Round, won)
	}
	if g.points("d") != 10 || g.points("e") != 0 {
		t.Errorf("points Dee %d, Eve %d; want 10, 0 (the round ended before Eve's bonus)", g.points("d"), g.points("e"))
	}
	if len(kinds(evs, EvTurnEnded)) != 3 {
		t.Errorf("%d turn ends applied; after the win no more turns end", len(kinds(evs, EvTurnEnded)))
	}
	later := g.inFirstHalf(5)
	_, err := g.s.Submit(Submission{ID: "q", Changes: []RuleChange{{Op: RuleRepealed, Rule: 224}}}, "b", later, g.rs)
	wantCode(t, err, "round_over")
	if !strings.Contains(err.Error(), "Dee won") {
		t.Errorf("refusal %q does not say who won", err)
	}
	if _, err := g.s.StartRound(later, g.rs); err != nil {
		t.Fatal(err)
	}
	if g.points("d") != 0 || g.s.Round.Number != 2 || g.s.Round.Over || g.s.Turn(later).Ordinal != 0 {
		t.Errorf("after StartRound: Dee %d, round %+v, turn %+v", g.points("d"), g.s.Round, g.s.Turn(later))
	}
	if p := g.propose("r2", "b", later); p.Turn != "2-1" {
		t.Errorf("first proposal of round 2 is for %s, want 2-1", p.Turn)
	}
	_, err = g.s.StartRound(later, g.rs)
	wantCode(t, err, "round_in_play")
}

// TestU7_CaseNumbersAndTheJudgeDraw (acceptance 1): cases are numbered from
// 5301; the Judge is drawn from the pool less the petitioner and every
// mentioned player, whatever the draw, and is the administrator when
// nobody is left.
func TestU7_CaseNumbersAndTheJudgeDraw(t *testing.T) {
	for v := range 3 {
		g := newGame(t, "a", "b", "c", "d")
		for _, id := range []string{"a", "b", "c", "d"} {
			if _, err := g.s.EnterPool(id, created); err != nil {
				t.Fatal(err)
			}
		}
		src := &script{vals: []int{v}}
		c, evs, err := g.s.RequestJudgment(Request{Statement: "Bea's move was legal.", Mentioned: []string{"b"}}, "a", created, g.rs, src)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := c.Judge()
		if c.Number != 5301 || a.Judge == "a" || a.Judge == "b" || a.Administrator {
			t.Errorf("draw value %d: case %d judged by %q", v, c.Number, a.Judge)
		}
		// Ada and Bea hold slots 0 and 1: a draw among 2, value v%2 is
		// slot 2+v%2 (Cy, Dee), and the event says so.
		ev := evs[0]
		if want := []string{"c", "d"}[v%2]; !slices.Equal(src.asked, []int{2}) || ev.PoolSize != 4 || !slices.Equal(ev.Excluded, []int{0, 1}) ||
			ev.Slot == nil || *ev.Slot != 2+v%2 || a.Judge != want {
			t.Errorf("draw value %d: asked %v, pool %d less slots %v, slot %v, Judge %s; want one draw among 2 of 4 less 0 and 1, %s", v, src.asked, ev.PoolSize, ev.Excluded, ev.Slot, a.Judge, want)
		}
		if left := kinds(evs, EvPoolLeft); g.s.Player(a.Judge).InPool || len(left) != 1 || left[0].Reason != PoolDrawn || left[0].Player != a.Judge {
			t.Errorf("the drawn Judge %s: in pool %v, pool events %+v; want them out of the pool", a.Judge, g.s.Player(a.Judge).InPool, left)
		}
	}
	// Only excluded players in the pool: the administrator judges, no draw.
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("a", created)
	g.s.EnterPool("b", created)
	src := &script{}
	g.s.RequestJudgment(Request{Statement: "first"}, "c", created, g.rs, &script{}) // 5301, drawn from Ada and Bea
	c, evs, err := g.s.RequestJudgment(Request{Statement: "Ada cheated.", Mentioned: []string{"a", "b"}}, "c", created, g.rs, src)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := c.Judge(); c.Number != 5302 || !a.Administrator || len(src.asked) != 0 || !strings.Contains(evs[0].Text, "administrator") {
		t.Errorf("case %d: appointment %+v, draws %v, event %q; want the administrator, no draw", c.Number, a, src.asked, evs[0].Text)
	}
	_, _, err = g.s.RequestJudgment(Request{Statement: "x", Mentioned: []string{"zz"}}, "c", created, g.rs, src)
	wantCode(t, err, "unknown_player")
	_, _, err = g.s.RequestJudgment(Request{Statement: "  "}, "c", created, g.rs, src)
	wantCode(t, err, "empty_statement")
	if g.s.NextCase != 5303 {
		t.Errorf("refused requests used case numbers: next is %d", g.s.NextCase)
	}
}

// TestU8_PoolLosesAMemberWhoVotedOnNothing (acceptance 1): at the end of a
// turn with proposals, a pool member who voted on none leaves the pool; in
// a turn without proposals nobody does. A Judge who rules returns.
func TestU8_PoolLosesAMemberWhoVotedOnNothing(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	for _, id := range []string{"a", "b"} {
		g.s.EnterPool(id, created)
	}
	_, _, end1 := g.turn(1)
	g.advance(end1, nil)
	if !slices.Equal(g.s.Pool(), []string{"a", "b"}) {
		t.Fatalf("after a turn without proposals the pool is %v", g.s.Pool())
	}
	at := g.inFirstHalf(2)
	g.propose("p", "c", at)
	g.vote("p", at, true, "a")
	_, _, end2 := g.turn(2)
	evs := g.advance(end2, nil)
	if !slices.Equal(g.s.Pool(), []string{"a"}) {
		t.Errorf("pool %v, want only Ada (Bea voted on nothing)", g.s.Pool())
	}
	if left := kinds(evs, EvPoolLeft); len(left) != 1 || left[0].Player != "b" || left[0].Reason != PoolNoVote || !strings.Contains(left[0].Text, "Bea") {
		t.Errorf("pool events %+v", left)
	}
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "c", end2, g.rs, &script{})
	if g.s.Player("a").InPool {
		t.Fatal("Ada, drawn, is still in the pool")
	}
	evs, err := g.s.RuleOn(c.Number, "a", false, "false", "because", end2.Add(time.Hour), g.rs)
	if err != nil {
		t.Fatal(err)
	}
	if !g.s.Player("a").InPool || len(kinds(evs, EvPoolReturned)) != 1 {
		t.Errorf("Ada ruled but is not back in the pool (%+v)", evs)
	}
}

// TestU9_RecusalWithin48Hours: a Judge may recuse until 48 hours after the
// appointment; a new Judge is drawn excluding every Judge already appointed.
func TestU9_RecusalWithin48Hours(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d")
	for _, id := range []string{"b", "c", "d"} {
		g.s.EnterPool(id, created)
	}
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "a", created, g.rs, &script{vals: []int{0}}) // Bea
	_, err := g.s.Recuse(c.Number, "c", created, g.rs, &script{})
	wantCode(t, err, "not_the_judge")
	// Bea left slot 0 for Dee (the last slot's member moves in): slot 1 is Cy.
	if _, err := g.s.Recuse(c.Number, "b", created.Add(48*time.Hour-time.Nanosecond), g.rs, &script{vals: []int{1}}); err != nil {
		t.Fatal(err)
	}
	j, _ := g.s.Case(c.Number).Judge()
	if j.Judge != "c" {
		t.Fatalf("after Bea recused, the Judge is %q, want Cy", j.Judge)
	}
	if g.s.Player("b").InPool {
		t.Error("Bea recused and is back in the pool; only a Judge who rules returns")
	}
	g.s.EnterPool("b", created) // Bea is back in the pool but judged this case before
	_, err = g.s.Recuse(c.Number, "c", j.At.Add(48*time.Hour), g.rs, &script{})
	wantCode(t, err, "recusal_window_closed")
	if _, err := g.s.Recuse(c.Number, "c", j.At.Add(time.Hour), g.rs, &script{vals: []int{0}}); err != nil {
		t.Fatal(err)
	}
	if j, _ := g.s.Case(c.Number).Judge(); j.Judge != "d" {
		t.Errorf("after Cy recused, the Judge is %q, want Dee (Bea and Cy already judged it)", j.Judge)
	}
}

// TestU9_LateJudgeLoses25AtExactlySevenDays (acceptance 1): nothing happens
// a nanosecond before the deadline; at exactly 7 days the Judge loses 25,
// as of that moment even when applied later (T4), and a new Judge is drawn.
func TestU9_LateJudgeLoses25AtExactlySevenDays(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	g.s.EnterPool("c", created)
	appointed := chicago(2026, 3, 3, 9, 0)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "a", appointed, g.rs, &script{vals: []int{0}}) // Bea
	due := appointed.Add(7 * 24 * time.Hour)
	if evs := g.advance(due.Add(-time.Nanosecond), nil); len(kinds(evs, EvPoints)) != 0 {
		t.Fatalf("before the deadline: %+v", evs)
	}
	_, err := g.s.RuleOn(c.Number, "b", false, "TRUE", "", due, g.rs)
	wantCode(t, err, "judge_late")
	evs := g.advance(due.Add(3*time.Hour), nil)
	pe := kinds(evs, EvPoints)
	if len(pe) != 1 || pe[0].Player != "b" || pe[0].Delta != -25 || !pe[0].At.Equal(due) || pe[0].Reason != PointsLateJudge {
		t.Fatalf("point events %+v; want Bea -25 at exactly 7 days", pe)
	}
	j, _ := g.s.Case(c.Number).Judge()
	if j.Judge != "c" || !j.At.Equal(due) {
		t.Errorf("new Judge %+v; want Cy appointed at the deadline", j)
	}
	if again := g.advance(due.Add(3*time.Hour), nil); len(again) != 0 {
		t.Errorf("applied twice: %+v", again)
	}
	if g.points("b") != -25 {
		t.Errorf("Bea has %d points, want -25", g.points("b"))
	}
}

// TestU10_RulingsAndAppealsAtTwoThirds (acceptance 1): a ruling is TRUE or
// FALSE; an appeal is voted on in the next turn and replaces the ruling
// with exactly 2/3 of those voting; with less it fails.
func TestU10_RulingsAndAppealsAtTwoThirds(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d")
	g.s.EnterPool("b", created)
	at := g.inFirstHalf(1)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "Cy may vote twice."}, "a", at, g.rs, &script{})
	_, err := g.s.RuleOn(c.Number, "b", false, "maybe", "", at, g.rs)
	wantCode(t, err, "truth_value_required")
	_, err = g.s.RuleOn(c.Number, "c", false, "TRUE", "", at, g.rs)
	wantCode(t, err, "not_the_judge")
	_, err = g.s.Appeal("ap0", c.Number, "c", "FALSE", "no", at)
	wantCode(t, err, "not_ruled")
	if _, err := g.s.RuleOn(c.Number, "b", false, "true", "Rule 217 allows it.", at, g.rs); err != nil {
		t.Fatal(err)
	}
	_, err = g.s.RuleOn(c.Number, "b", false, "FALSE", "", at, g.rs)
	wantCode(t, err, "already_ruled")
	ap, err := g.s.Appeal("ap1", c.Number, "c", "FALSE", "Rule 218 says one vote.", at)
	if err != nil {
		t.Fatal(err)
	}
	if ap.Turn != "1-2" {
		t.Errorf("appeal made in turn 1 is voted on in %s, want 1-2", ap.Turn)
	}
	_, err = g.s.Appeal("ap2", c.Number, "d", "FALSE", "me too", at)
	wantCode(t, err, "appeal_pending")
	wantCode(t, g.s.VoteAppeal("ap1", "a", true, at), "voting_not_open")
	at2 := g.inFirstHalf(2)
	for _, v := range []struct {
		who string
		yes bool
	}{{"a", true}, {"c", true}, {"d", false}} {
		if err := g.s.VoteAppeal("ap1", v.who, v.yes, at2); err != nil {
			t.Fatal(err)
		}
	}
	_, _, end2 := g.turn(2)
	g.advance(end2, nil)
	if st, ok := g.s.Case(c.Number).Standing(); !ok || st.Value != False || st.Appeal != "ap1" || g.s.Case(c.Number).Appeals[0].Status != AppealUpheld {
		t.Fatalf("2 for, 1 against: standing ruling %+v; want the appeal's FALSE", st)
	}
	// Less than 2/3: 1 for, 1 against.
	if _, err := g.s.Appeal("ap3", c.Number, "a", "TRUE", "Back to TRUE.", end2); err != nil {
		t.Fatal(err)
	}
	at3 := g.inFirstHalf(3)
	g.s.VoteAppeal("ap3", "a", true, at3)
	g.s.VoteAppeal("ap3", "b", false, at3)
	_, _, end3 := g.turn(3)
	g.advance(end3, nil)
	if st, _ := g.s.Case(c.Number).Standing(); st.Value != False || g.s.appeal("ap3").Status != AppealRejected {
		t.Errorf("1 for, 1 against: standing %+v, appeal %s; want FALSE to stand", st, g.s.appeal("ap3").Status)
	}
}

// TestU11_ParadoxRuledTrueEndsTheRound (acceptance 1): the petitioner wins
// and the round ends at once; an appeal cannot undo it.
func TestU11_ParadoxRuledTrueEndsTheRound(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	at := g.inFirstHalf(1)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "There is a paradox: rule 209 and rule 210 cannot both hold.", Paradox: true}, "a", at, g.rs, &script{})
	evs, err := g.s.RuleOn(c.Number, "b", false, "TRUE", "They cannot.", at, g.rs)
	if err != nil {
		t.Fatal(err)
	}
	if w := kinds(evs, EvRoundWon); len(w) != 1 || w[0].Player != "a" || g.s.Round.Winner != "a" || g.s.Round.WonBy != WinParadox || !g.s.Round.Over {
		t.Fatalf("round %+v, events %+v; want Ada to win by paradox", g.s.Round, evs)
	}
	_, err = g.s.Appeal("ap", c.Number, "c", "FALSE", "It is fine.", at)
	wantCode(t, err, "round_over")

	// A paradox ruled FALSE ends nothing; an appeal upheld as TRUE does.
	g = newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	c, _, _ = g.s.RequestJudgment(Request{Statement: "Paradox!", Paradox: true}, "a", at, g.rs, &script{})
	g.s.RuleOn(c.Number, "b", false, "FALSE", "", at, g.rs)
	if g.s.Round.Over {
		t.Fatal("a paradox ruled FALSE ended the round")
	}
	g.s.Appeal("ap", c.Number, "c", "TRUE", "It is a paradox.", at)
	at2 := g.inFirstHalf(2)
	g.s.VoteAppeal("ap", "a", true, at2)
	g.s.VoteAppeal("ap", "c", true, at2)
	_, _, end2 := g.turn(2)
	g.advance(end2, nil)
	if g.s.Round.Winner != "a" || g.s.Round.WinCase != c.Number || !g.s.Round.EndedAt.Equal(end2) {
		t.Errorf("after the appeal: round %+v; want Ada to win at turn 2's end", g.s.Round)
	}
}

// TestU2_AJudgeWhoBecomesInactiveIsReplaced: only active players judge, so
// a Judge who declares themselves inactive (or leaves) is replaced by a
// new draw, without a penalty; with nobody left, the administrator judges.
func TestU2_AJudgeWhoBecomesInactiveIsReplaced(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	g.s.EnterPool("c", created)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "a", created, g.rs, &script{vals: []int{0}}) // Bea
	evs, err := g.s.SetActive("b", false, created.Add(time.Hour), &script{})
	if err != nil {
		t.Fatal(err)
	}
	if j, _ := g.s.Case(c.Number).Judge(); j.Judge != "c" || len(kinds(evs, EvPoints)) != 0 {
		t.Fatalf("after Bea became inactive: Judge %+v, events %+v; want Cy, no points", j, evs)
	}
	if _, err := g.s.Leave("c", created.Add(2*time.Hour), &script{}); err != nil {
		t.Fatal(err)
	}
	if j, _ := g.s.Case(c.Number).Judge(); !j.Administrator {
		t.Errorf("after Cy left: Judge %+v, want the administrator", j)
	}
	_, err = g.s.RuleOn(c.Number, "c", false, "TRUE", "", created.Add(3*time.Hour), g.rs)
	wantCode(t, err, "not_the_judge")
	if _, err := g.s.RuleOn(c.Number, "admin", true, "FALSE", "No rule allows it.", created.Add(3*time.Hour), g.rs); err != nil {
		t.Errorf("the administrator cannot rule: %v", err)
	}
	if st, _ := g.s.Case(c.Number).Standing(); st.Value != False || !st.Administrator {
		t.Errorf("standing ruling %+v, want the administrator's FALSE", st)
	}
}

// TestU9_RecusalWithNobodyLeftFallsBackToTheAdministrator.
func TestU9_RecusalWithNobodyLeftFallsBackToTheAdministrator(t *testing.T) {
	g := newGame(t, "a", "b")
	g.s.EnterPool("b", created)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "a", created, g.rs, &script{})
	src := &script{}
	if _, err := g.s.Recuse(c.Number, "b", created.Add(time.Hour), g.rs, src); err != nil {
		t.Fatal(err)
	}
	if j, _ := g.s.Case(c.Number).Judge(); !j.Administrator || len(src.asked) != 0 {
		t.Errorf("after the only pool member recused: %+v (draws %v), want the administrator", j, src.asked)
	}
	// The administrator has no deadline: nothing is due for the case.
	if d, _ := g.s.NextDue(g.rs); d.Kind != DueTurnEnd {
		t.Errorf("next due %+v, want only the turn end", d)
	}
}

// TestU5_LaterResultsUseTheRulesInForce: a data change adopted first at a
// turn end is in force for the proposals decided after it (seed 003: an
// adopted rule-change takes effect when its vote completes; R4).
func TestU5_LaterResultsUseTheRulesInForce(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	at := g.inFirstHalf(3)
	if _, err := g.s.Submit(Submission{ID: "bonus", Data: []byte(`{"turns":{"dissentBonus":20}}`)}, "a", at, g.rs); err != nil {
		t.Fatal(err)
	}
	g.propose("p", "b", at.Add(time.Minute))
	g.vote("bonus", at, true, "a", "b", "c")
	g.vote("p", at, true, "a", "b")
	g.vote("p", at, false, "c")
	_, _, end := g.turn(3)
	g.advance(end, nil)
	if g.rs.Turns.DissentBonus != 20 || g.points("c") != 20 {
		t.Errorf("dissentBonus %d, Cy %d points; want 20 and 20", g.rs.Turns.DissentBonus, g.points("c"))
	}
}

// TestU6_LoweringTheWinningPointsBelowSomeonesWins: a player who has the
// winning points once a data change lowers them achieves them then.
func TestU6_LoweringTheWinningPointsBelowSomeonesWins(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	at := g.inFirstHalf(3)
	g.propose("p", "a", at)
	g.vote("p", at, true, "a", "b")
	g.vote("p", at, false, "c")
	_, _, end3 := g.turn(3)
	g.advance(end3, nil) // Cy: 10
	at4 := g.inFirstHalf(4)
	if _, err := g.s.Submit(Submission{ID: "low", Data: []byte(`[{"op":"replace","path":"/turns/winPoints","value":10}]`)}, "b", at4, g.rs); err != nil {
		t.Fatal(err)
	}
	g.vote("low", at4, true, "a", "b", "c")
	_, _, end4 := g.turn(4)
	evs := g.advance(end4, nil)
	if w := kinds(evs, EvRoundWon); len(w) != 1 || w[0].Player != "c" || !w[0].At.Equal(end4) {
		t.Errorf("win events %+v; want Cy to win at turn 4's end", w)
	}
}

// TestU6_ANewRoundKeepsCasesAndRestartsTheSwitch: cases and their numbers
// belong to the game; the switch to majority is per round; a Judge's
// deadline runs again from the new round's start.
func TestU6_ANewRoundKeepsCasesAndRestartsTheSwitch(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	at := g.inFirstHalf(1)
	g.propose("keep", "a", at, RuleChange{Op: RuleAmended, Rule: 206, Text: "Unanimity, always."})
	g.vote("keep", at, true, "a", "b", "c")
	_, _, end1 := g.turn(1)
	g.advance(end1, nil)
	if !g.s.Round.SwitchCancelled {
		t.Fatal("the amendment in turn 1 did not cancel the switch")
	}
	open, _, _ := g.s.RequestJudgment(Request{Statement: "open"}, "a", end1, g.rs, &script{}) // Bea judges, not ruling
	g.s.EnterPool("c", end1)
	px, _, _ := g.s.RequestJudgment(Request{Statement: "Paradox.", Paradox: true}, "a", end1, g.rs, &script{}) // Cy
	g.s.RuleOn(px.Number, "c", false, "TRUE", "", end1.Add(time.Hour), g.rs)
	next := end1.Add(6 * 24 * time.Hour) // 6 days after Bea's appointment
	if _, err := g.s.StartRound(next, g.rs); err != nil {
		t.Fatal(err)
	}
	if g.s.Round.SwitchCancelled {
		t.Error("round 2 starts with the switch cancelled; it is per round")
	}
	if m, _ := g.s.Mode(3, g.rs); m != Majority {
		t.Errorf("round 2 turn 3 mode %s, want majority", m)
	}
	// Bea's deadline runs from the new round's start, not her appointment.
	g.advance(next.Add(7*24*time.Hour-time.Nanosecond), nil)
	if g.points("b") != 0 {
		t.Errorf("Bea lost points before 7 days of play: %d", g.points("b"))
	}
	g.advance(next.Add(7*24*time.Hour), nil)
	if g.points("b") != -25 {
		t.Errorf("Bea has %d points 7 days into round 2, want -25", g.points("b"))
	}
	c, _, _ := g.s.RequestJudgment(Request{Statement: "round 2"}, "a", next.Add(8*24*time.Hour), g.rs, &script{})
	if open.Number != 5301 || c.Number != 5303 {
		t.Errorf("case numbers %d, %d; want 5301 and, in round 2, 5303", open.Number, c.Number)
	}
}

// TestU10_AnyPlayerAppealsWithReasons: an inactive player may appeal; an
// appeal needs reasons and a truth value.
func TestU10_AnyPlayerAppealsWithReasons(t *testing.T) {
	g := newGame(t, "a", "b", "c")
	g.s.EnterPool("b", created)
	c, _, _ := g.s.RequestJudgment(Request{Statement: "s"}, "a", created, g.rs, &script{})
	g.s.RuleOn(c.Number, "b", false, "TRUE", "", created, g.rs)
	g.s.SetActive("c", false, created, &script{})
	_, err := g.s.Appeal("x", c.Number, "c", "FALSE", "  ", created)
	wantCode(t, err, "reasons_required")
	_, err = g.s.Appeal("x", c.Number, "c", "perhaps", "r", created)
	wantCode(t, err, "truth_value_required")
	_, err = g.s.Appeal("x", c.Number, "zz", "FALSE", "r", created)
	wantCode(t, err, "not_a_player")
	if _, err := g.s.Appeal("x", c.Number, "c", "false", "Rule 220 says otherwise.", created); err != nil {
		t.Errorf("inactive Cy cannot appeal: %v", err)
	}
	wantCode(t, g.s.VoteAppeal("x", "c", true, g.inFirstHalf(1)), "not_active")
}

// TestU7_TheDrawBySlotIsUniformOverTheEligible (issue 22): the draw's
// values 0..n-1 among the n eligible members pick each slot not excluded
// exactly once, so a uniform value is a uniform Judge (U7), whatever the
// excluded slots.
func TestU7_TheDrawBySlotIsUniformOverTheEligible(t *testing.T) {
	for _, c := range []struct {
		size     int
		excluded []int
	}{{1, nil}, {5, nil}, {5, []int{0}}, {5, []int{4}}, {5, []int{0, 1}}, {6, []int{1, 3, 5}}, {7, []int{0, 2, 3, 6}}} {
		var got []int
		for v := range c.size - len(c.excluded) {
			got = append(got, DrawnSlot(v, c.excluded))
		}
		var want []int
		for sl := range c.size {
			if !slices.Contains(c.excluded, sl) {
				want = append(want, sl)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("pool of %d less %v: the values pick slots %v, want each eligible slot once: %v", c.size, c.excluded, got, want)
		}
	}
}

// TestU8_LeavingThePoolMovesTheLastSlotIntoTheFreedOne (issue 22): the
// pool keeps its members in the slots 0..n-1: whoever leaves (by choice,
// drawn as Judge, inactive), the member of the last slot takes their slot,
// and whoever enters takes the next.
func TestU8_LeavingThePoolMovesTheLastSlotIntoTheFreedOne(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d")
	for _, id := range []string{"a", "b", "c", "d"} {
		if _, err := g.s.EnterPool(id, created); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(g.s.Pool(), []string{"a", "b", "c", "d"}) || g.s.PoolSize != 4 {
		t.Fatalf("pool %v of %d; want a, b, c, d in slots 0-3", g.s.Pool(), g.s.PoolSize)
	}
	if _, err := g.s.LeavePool("b", created); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.s.Pool(), []string{"a", "d", "c"}) || g.s.PoolSize != 3 {
		t.Fatalf("after Bea left: pool %v of %d; want Dee in Bea's slot 1", g.s.Pool(), g.s.PoolSize)
	}
	if _, err := g.s.SetActive("d", false, created, &script{}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.s.EnterPool("b", created); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.s.Pool(), []string{"a", "c", "b"}) || g.s.PoolSize != 3 {
		t.Fatalf("after Dee went inactive and Bea came back: pool %v of %d; want a, c, b", g.s.Pool(), g.s.PoolSize)
	}
}

// TestIssue22_APoolWithoutSlotsGetsThemInJoiningOrder: a game stored
// before the pool had slots (members marked, no slots, no size) numbers
// its members in joining order at its first pool change, and draws by
// those slots.
func TestIssue22_APoolWithoutSlotsGetsThemInJoiningOrder(t *testing.T) {
	g := newGame(t, "a", "b", "c", "d")
	for _, id := range []string{"b", "c", "d"} {
		g.s.Player(id).InPool = true // as stored before slots
	}
	data, err := json.Marshal(g.s)
	if err != nil {
		t.Fatal(err)
	}
	g.s = &State{} // as read
	if err := json.Unmarshal(data, g.s); err != nil {
		t.Fatal(err)
	}
	c, evs, err := g.s.RequestJudgment(Request{Statement: "s"}, "a", created, g.rs, &script{vals: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if j, _ := c.Judge(); j.Judge != "d" || evs[0].PoolSize != 3 || !slices.Equal(g.s.Pool(), []string{"b", "c"}) {
		t.Fatalf("Judge %s from a pool of %d, pool now %v; want Dee (slot 2 in joining order), b and c left", j.Judge, evs[0].PoolSize, g.s.Pool())
	}
}
