package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/reactions"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// gov drives the game's governance (the shared harness's).
type gov = gametest.Gov

var (
	pl       = gametest.Pl
	pls      = gametest.Pls
	msg      = gametest.Msg
	newGovOn = gametest.NewGov
)

// newGov is a game with ten players who joined at the start, on bolt.
func newGov(t *testing.T) *gov {
	t.Helper()
	return newGovOn(t, gametest.Bolt(t))
}

// Days of ISO week 49 of 2026 (the game starts Monday 30 Nov, 12:00 UTC).
var (
	thursday   = time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	friday     = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	nextMonday = time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
)

func TestG2_StandardProposalOnThursdayTalliedMondayMidnight(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	p := g.Propose(pl(10), "m1", game.SubmitProposal{Title: "More gifts", Text: "Let us gift twice."})
	if p.Class != governance.Standard || !p.VotingStart.Equal(friday) || !p.VotingEnd.Equal(nextMonday) || p.Status != governance.StatusOpen {
		t.Fatalf("a standard proposal made on Thursday is voted on Friday 00:00 to Monday 00:00: %+v", p.Proposal)
	}
	g.Vote("m1", pls(10, 11, 12), pls(13))
	if v := g.Proposal(p.ID); v.Live == nil || v.Live.For != 3 || v.Live.Against != 1 {
		t.Fatalf("open proposal shows current counts: %+v", v.Live)
	}
	g.RunDue(nextMonday.Add(-time.Second))
	if v := g.Proposal(p.ID); v.Status != governance.StatusOpen {
		t.Fatalf("tallied before the period ended: %s", v.Status)
	}
	g.RunDue(nextMonday)
	v := g.Proposal(p.ID)
	if v.Status != governance.StatusAdopted || !v.ClosedAt.Equal(nextMonday) || v.Result.For != 3 || v.Result.Against != 1 || v.Live != nil {
		t.Fatalf("after Monday 00:00: %s closed %v result %+v", v.Status, v.ClosedAt, v.Result)
	}
	if !slices.Equal(v.Result.ForVoters, pls(10, 11, 12)) || !slices.Equal(v.Result.AgainstVoters, pls(13)) {
		t.Fatalf("voters: %+v", v.Result)
	}
	// RULINGS T2: the week's proposals take effect before the season changes.
	var order []string
	for _, e := range g.Entries() {
		for _, ev := range e.Events {
			if ev.Type == "proposal_adopted" || ev.Type == "season_changed" {
				order = append(order, ev.Type)
			}
		}
	}
	if !slices.Equal(order, []string{"proposal_adopted", "season_changed"}) {
		t.Fatalf("log order %v", order)
	}
}

func TestG2_UrgentTwoAgainstPassesThreeFail(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	two := g.Propose(pl(10), "u2", game.SubmitProposal{Class: governance.Urgent})
	three := g.Propose(pl(10), "u3", game.SubmitProposal{Class: governance.Urgent})
	if !two.VotingEnd.Equal(thursday.Add(48 * time.Hour)) {
		t.Fatalf("urgent voting ends 48h after submission: %v", two.VotingEnd)
	}
	g.Vote("u2", nil, pls(11, 12))
	g.Vote("u3", pls(14, 15, 16, 17), pls(11, 12, 13))
	g.RunDue(thursday.Add(48 * time.Hour))
	if v := g.Proposal(two.ID); v.Status != governance.StatusAdopted || v.Result.Against != 2 {
		t.Fatalf("urgent with 2 against: %s %+v", v.Status, v.Result)
	}
	if v := g.Proposal(three.ID); v.Status != governance.StatusFailed || v.Result.Against != 3 || v.Result.For != 4 {
		t.Fatalf("urgent with 3 against (and 4 for): %s %+v", v.Status, v.Result)
	}
}

func TestG2_UrgentByNonReputablePlayerRefused(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday.Add(24 * time.Hour)) // Friday: more than 3 days after the start
	g.Must(g.Svc.Join(g.Ctx, req(pl(30), "join"), game.JoinGame{}))
	_, err := g.Svc.SubmitProposal(g.Ctx, req(pl(30), "u"), game.SubmitProposal{Class: governance.Urgent, Message: msg("x")})
	if gametest.RuleCode(err) != "not_reputable" {
		t.Fatalf("urgent proposal by a new player: %v", err)
	}
	if p := g.Propose(pl(30), "y", game.SubmitProposal{}); p.Class != governance.Standard {
		t.Fatalf("a standard one is fine: %+v", p.Proposal)
	}
	_, err = g.Svc.SubmitProposal(g.Ctx, req(pl(99), "n"), game.SubmitProposal{Message: msg("z")})
	if gametest.RuleCode(err) != "not_a_player" {
		t.Fatalf("a non-player's proposal: %v", err)
	}
}

func TestG1_EditedProposalWithMajorityStillFails(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	p := g.Propose(pl(10), "e1", game.SubmitProposal{})
	g.Vote("e1", pls(10, 11, 12, 13), pls(14))
	g.Must(g.Svc.PushMessageEvent(g.Ctx, req(admin, "edit"), game.MessageEvent{Message: msg("e1"), Event: "edited"}))
	g.RunDue(nextMonday)
	v := g.Proposal(p.ID)
	if v.Status != governance.StatusFailed || !v.Result.Popular || !v.Result.Edited || v.Result.Adopted {
		t.Fatalf("edited proposal: %s %+v", v.Status, v.Result)
	}
	if len(g.Events("proposal_failed")) != 1 {
		t.Fatal("the failure is a log event")
	}
}

// priceOf is the random card's price in the game's current ruleset.
func priceOf(t *testing.T, g *gov) int {
	rs, err := g.Svc.Ruleset(g.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range rs.Shop {
		if it.ID == "random-card" {
			return it.Price
		}
	}
	t.Fatal("no random-card in the shop")
	return 0
}

func pricePatch(t *testing.T, g *gov, price int) json.RawMessage {
	rs, err := g.Svc.Ruleset(g.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	shop := slices.Clone(rs.Shop)
	for i := range shop {
		if shop[i].ID == "random-card" {
			shop[i].Price = price
		}
	}
	b, _ := json.Marshal(map[string]any{"shop": shop})
	return b
}

func TestG1_G3_SimultaneousAdoptionsApplyInCreationOrder(t *testing.T) {
	g := newGov(t)
	before, _ := g.Svc.Game(g.Ctx, "hall")
	g.Clk.Set(thursday)
	first := g.Propose(pl(10), "a1", game.SubmitProposal{Title: "Cards at 3", Amendment: pricePatch(t, g, 3)})
	g.Clk.Advance(time.Minute)
	second := g.Propose(pl(11), "a2", game.SubmitProposal{Title: "Cards at 4", Amendment: pricePatch(t, g, 4)})
	g.Vote("a1", pls(10, 11), nil)
	g.Vote("a2", pls(10, 11), nil)
	g.RunDue(nextMonday.Add(2 * time.Hour))

	after, _ := g.Svc.Game(g.Ctx, "hall")
	if after.RulesetVersion != before.RulesetVersion+2 {
		t.Fatalf("ruleset version %d -> %d, want +2", before.RulesetVersion, after.RulesetVersion)
	}
	if got := priceOf(t, g); got != 4 {
		t.Fatalf("the later proposal's price wins: %d, want 4", got)
	}
	var srcs []string
	for _, ev := range g.Events("ruleset_amended") {
		var am game.Amendment
		json.Unmarshal(ev.Data, &am)
		srcs = append(srcs, am.Source)
		if !am.At.Equal(nextMonday) || am.By != game.SchedulerActor {
			t.Fatalf("amendment dated %v by %s, want the deadline by the scheduler", am.At, am.By)
		}
	}
	if want := []string{"proposal:" + first.ID, "proposal:" + second.ID}; !slices.Equal(srcs, want) {
		t.Fatalf("amendment order %v, want %v", srcs, want)
	}
	if v := g.Proposal(second.ID); v.RulesetVersion != after.RulesetVersion {
		t.Fatalf("the proposal records the version it made: %d", v.RulesetVersion)
	}
	// Acceptance 5: the next purchase costs the new price.
	g.Must(gildedhall.On(g.Svc).Grant(g.Ctx, req(admin, "grant"), gildedhall.Grant{Player: pl(12), Vertebrae: 10, Reason: "test"}))
	res := g.Must(gildedhall.On(g.Svc).Purchase(g.Ctx, req(pl(12), "buy"), gildedhall.Purchase{Item: "random-card"}))
	if got := gametest.Decode[gildedhall.PurchaseResult](t, res); got.Paid != 4 || got.Vertebrae != 6 {
		t.Fatalf("purchase after adoption: paid %d, balance %d", got.Paid, got.Vertebrae)
	}
}

func TestG1_WithdrawnProposalIsNotTallied(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	p := g.Propose(pl(10), "w1", game.SubmitProposal{})
	if _, err := g.Svc.WithdrawProposal(g.Ctx, req(pl(11), "w"), p.ID); gametest.RuleCode(err) != "not_author" {
		t.Fatalf("withdraw by another: %v", err)
	}
	g.Must(g.Svc.WithdrawProposal(g.Ctx, req(pl(10), "w"), p.ID))
	g.Vote("w1", pls(10, 11, 12), nil)
	g.RunDue(nextMonday)
	if v := g.Proposal(p.ID); v.Status != governance.StatusWithdrawn || v.Result != nil {
		t.Fatalf("withdrawn: %+v", v.Proposal)
	}
}

func TestT4_TallyTwiceOrLateGivesOneResultAsOfTheDeadline(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	p := g.Propose(pl(10), "t1", game.SubmitProposal{Class: governance.Urgent})
	end := p.VotingEnd
	g.Vote("t1", pls(11), pls(12, 13))
	// After the deadline, before the late run: another 👎 arrives and a
	// voter leaves. Neither changes the vote (reactions and players as of
	// the deadline).
	g.Clk.Set(end.Add(time.Hour))
	g.Must(g.Svc.PushReactions(g.Ctx, req(admin, "late"), game.PushReactions{Message: msg("t1"), Op: "add", Down: pls(14)}))
	g.Must(g.Svc.Leave(g.Ctx, req(pl(12), "leave")))

	g.RunDue(end.Add(2 * time.Hour))
	v := g.Proposal(p.ID)
	if v.Status != governance.StatusAdopted || v.Result.Against != 2 || !slices.Equal(v.Result.AgainstVoters, pls(12, 13)) || !v.ClosedAt.Equal(end) {
		t.Fatalf("late tally: %s %+v closed %v", v.Status, v.Result, v.ClosedAt)
	}
	adopted := g.Events("proposal_adopted")
	n := len(g.Entries())
	rep := g.RunDue(end.Add(3 * time.Hour))
	if len(g.Entries()) != n || len(rep.Done["proposal"]) != 0 {
		t.Fatalf("a second run changed something: %d -> %d entries, %+v", n, len(g.Entries()), rep)
	}
	if len(adopted) != 1 {
		t.Fatalf("%d proposal_adopted events", len(adopted))
	}
	for _, e := range g.Entries() {
		if e.Command == "proposal-tally" && !e.At.Equal(end) {
			t.Fatalf("the tally is logged at %v, want its deadline %v", e.At, end)
		}
	}
}

func TestG5_ElectionTieGoesToEarliestCandidacy(t *testing.T) {
	g := newGov(t)
	g.Clk.Set(thursday)
	g.Must(g.Svc.StandForJudge(g.Ctx, req(pl(10), "c"), game.StandForJudge{Message: msg("c10")}))
	g.Clk.Advance(time.Hour)
	g.Must(g.Svc.StandForJudge(g.Ctx, req(pl(11), "c"), game.StandForJudge{Message: msg("c11")}))
	g.Must(g.Svc.StandForJudge(g.Ctx, req(pl(12), "c"), game.StandForJudge{Message: msg("c12")}))
	if _, err := g.Svc.StandForJudge(g.Ctx, req(pl(10), "again"), game.StandForJudge{Message: msg("c10b")}); gametest.RuleCode(err) != "already_candidate" {
		t.Fatalf("second candidacy in a week: %v", err)
	}
	g.Vote("c10", pls(13, 14), nil)
	g.Vote("c11", pls(15, 16), nil)
	g.Vote("c12", pls(13, 14, 15), pls(16, 17, 18)) // most 👍 but not popular
	view, err := g.Svc.Candidacies(g.Ctx, "hall", "", game.First)
	if err != nil || view.Week != "2026-W49" || len(view.Candidacies) != 3 || view.Live == nil || view.Live.Judge != pl(10) {
		t.Fatalf("candidacies of the week: %+v, %v", view, err)
	}
	rep := g.RunDue(nextMonday)
	if !slices.Contains(rep.Done["election"], "hall/2026-W49") {
		t.Fatalf("report %+v", rep)
	}
	j, _ := g.Svc.Judge(g.Ctx, "hall")
	if j.Judge != pl(10) || !j.Since.Equal(nextMonday) {
		t.Fatalf("tie goes to the earliest candidacy: %+v", j)
	}
	if ev := g.Events("judge_elected"); len(ev) != 1 || ev[0].Player != pl(10) {
		t.Fatalf("judge_elected events: %+v", ev)
	}
	n := len(g.Entries())
	g.RunDue(nextMonday.Add(time.Hour))
	if len(g.Entries()) != n {
		t.Fatal("a second run held the election again")
	}
	view, _ = g.Svc.Candidacies(g.Ctx, "hall", "2026-W49", game.First)
	if view.Status != game.ElectionHeld || view.Result == nil || view.Result.Winner == "" {
		t.Fatalf("held election: %+v", view)
	}
}

func TestG4_ConfidenceVote(t *testing.T) {
	for _, c := range []struct {
		name           string
		down, up, both []int
		overturned     bool
	}{
		{"4 against 2 and 1 unclear: overturned (4 to 3)", []int{12, 13, 14, 15}, []int{16, 17}, []int{18}, true},
		{"3 against 2 and 1 unclear: stands (3 to 3)", []int{12, 13, 14}, []int{16, 17}, []int{18}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGov(t)
			g.Elect(pl(10))
			rq := gametest.Decode[game.JusticeRecord](t, g.Must(g.Svc.RequestJustice(g.Ctx, req(pl(11), "rq"),
				game.RequestJustice{Kind: governance.KindStatement, Text: "Kings are worth 12.", Message: msg("rq")})))
			ru := gametest.Decode[game.RulingView](t, g.Must(g.Svc.Rule(g.Ctx, req(pl(10), "rule"), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
			if ru.Answer != "TRUE" || ru.ID != rq.Request.ID+"-1" {
				t.Fatalf("ruling %+v", ru)
			}
			opened := g.Clk.Now().Add(time.Hour)
			g.Clk.Set(opened)
			g.Must(g.Svc.OpenConfidence(g.Ctx, req(pl(12), "conf"), game.OpenConfidence{Ruling: ru.ID, Poll: msg("poll")}))
			g.Vote("poll", pls(append(c.up, c.both...)...), pls(append(c.down, c.both...)...))
			g.RunDue(opened.Add(47 * time.Hour))
			if rs, _ := g.Svc.Rulings(g.Ctx, "hall"); rs[0].Confidence.Status != governance.ConfidenceOpen {
				t.Fatal("tallied before 48 hours")
			}
			rep := g.RunDue(opened.Add(48 * time.Hour))
			if len(rep.Done["confidence"]) != 1 {
				t.Fatalf("report %+v", rep)
			}
			rs, _ := g.Svc.Rulings(g.Ctx, "hall")
			if rs[0].Overturned != c.overturned || rs[0].NoBearing != c.overturned {
				t.Fatalf("ruling after the vote: %+v, result %+v", rs[0].Ruling, rs[0].Confidence.Result)
			}
			if got := len(g.Events("ruling_overturned")); got != map[bool]int{true: 1, false: 0}[c.overturned] {
				t.Fatalf("%d ruling_overturned events", got)
			}
			n := len(g.Entries())
			g.RunDue(opened.Add(50 * time.Hour))
			if len(g.Entries()) != n {
				t.Fatal("a second run tallied again")
			}
		})
	}
}

func TestG4_JudgeRulesOverturnsAndIsRemoved(t *testing.T) {
	g := newGov(t)
	g.Elect(pl(10))
	if _, err := g.Svc.RequestJustice(g.Ctx, req(pl(10), "self"), game.RequestJustice{Kind: governance.KindQuestion, Text: "?", Message: msg("q0")}); gametest.RuleCode(err) != "judge_cannot_request" {
		t.Fatalf("the Judge's own request: %v", err)
	}
	rq := gametest.Decode[game.JusticeRecord](t, g.Must(g.Svc.RequestJustice(g.Ctx, req(pl(11), "q"),
		game.RequestJustice{Kind: governance.KindQuestion, Text: "May Jokers follow Jokers?", Message: msg("q1")})))
	if q, _ := g.Svc.JudgeQueue(g.Ctx, "hall"); len(q) != 1 || q[0].Request.ID != rq.Request.ID {
		t.Fatalf("queue %+v", q)
	}
	if _, err := g.Svc.Rule(g.Ctx, req(pl(11), "r"), game.RuleOn{Request: rq.Request.ID, Answer: "yes"}); gametest.RuleCode(err) != "not_the_judge" {
		t.Fatalf("ruling by a non-judge: %v", err)
	}
	first := gametest.Decode[game.RulingView](t, g.Must(g.Svc.Rule(g.Ctx, req(pl(10), "r1"), game.RuleOn{Request: rq.Request.ID, Answer: "Yes."})))
	g.Must(g.Svc.Overturn(g.Ctx, req(pl(10), "o1"), first.ID))
	if q, _ := g.Svc.JudgeQueue(g.Ctx, "hall"); len(q) != 1 {
		t.Fatal("an overturned ruling's request is back in the queue")
	}
	second := gametest.Decode[game.RulingView](t, g.Must(g.Svc.Rule(g.Ctx, req(pl(10), "r2"), game.RuleOn{Request: rq.Request.ID, Answer: "Only of the same colour."})))
	if second.ID != rq.Request.ID+"-2" {
		t.Fatalf("second ruling id %s", second.ID)
	}
	rs, _ := g.Svc.Rulings(g.Ctx, "hall")
	if len(rs) != 2 || !rs[0].NoBearing || rs[0].OverturnedBy != governance.ByJudge || rs[1].Overturned {
		t.Fatalf("rulings %+v", rs)
	}
	g.Clk.Advance(8 * 24 * time.Hour)
	if _, err := g.Svc.Overturn(g.Ctx, req(pl(10), "o2"), second.ID); gametest.RuleCode(err) != "overturn_window_closed" {
		t.Fatalf("overturn after 7 days: %v", err)
	}
	g.Must(g.Svc.AssentRemoval(g.Ctx, req(pl(11), "a")))
	if _, err := g.Svc.AssentRemoval(g.Ctx, req(pl(11), "a2")); gametest.RuleCode(err) != "already_assented" {
		t.Fatalf("assenting twice: %v", err)
	}
	js := gametest.Decode[game.JudgeState](t, g.Must(g.Svc.AssentRemoval(g.Ctx, req(pl(12), "a"))))
	if js.Judge != "" || len(g.Events("judge_removed")) != 1 {
		t.Fatalf("two assents remove the Judge: %+v", js)
	}
	if _, err := g.Svc.Resign(g.Ctx, req(pl(10), "resign")); gametest.RuleCode(err) != "not_the_judge" {
		t.Fatalf("resigning when removed: %v", err)
	}
}

func TestPushReactions_Refusals(t *testing.T) {
	g := newGov(t)
	for _, c := range []struct {
		name string
		run  func() error
		code string
	}{
		{"unknown op", func() error {
			_, err := g.Svc.PushReactions(g.Ctx, req(admin, "1"), game.PushReactions{Message: msg("m"), Op: "toggle"})
			return err
		}, "invalid_reactions"},
		{"not an identity", func() error {
			_, err := g.Svc.PushReactions(g.Ctx, req(admin, "2"), game.PushReactions{Message: msg("m"), Up: []string{"bob"}})
			return err
		}, "invalid_reactions"},
		{"empty delta", func() error {
			_, err := g.Svc.PushReactions(g.Ctx, req(admin, "3"), game.PushReactions{Message: msg("m"), Op: "add"})
			return err
		}, "invalid_reactions"},
		{"bad message", func() error {
			_, err := g.Svc.PushReactions(g.Ctx, req(admin, "4"), game.PushReactions{Message: game.MessageRef{Platform: "discord", Channel: "a#b", Message: "1"}})
			return err
		}, "invalid_message"},
		{"unknown event", func() error {
			_, err := g.Svc.PushMessageEvent(g.Ctx, req(admin, "5"), game.MessageEvent{Message: msg("m"), Event: "pinned"})
			return err
		}, "invalid_event"},
		{"amendment setting the version", func() error {
			_, err := g.Svc.SubmitProposal(g.Ctx, req(pl(10), "6"), game.SubmitProposal{Message: msg("m"), Amendment: json.RawMessage(`{"version": 9}`)})
			return err
		}, "invalid_amendment"},
		{"amendment that cannot apply", func() error {
			_, err := g.Svc.SubmitProposal(g.Ctx, req(pl(10), "7"), game.SubmitProposal{Message: msg("m"), Amendment: json.RawMessage(`{"chances":{"holoPack":150}}`)})
			return err
		}, "invalid_amendment"},
	} {
		if got := gametest.RuleCode(c.run()); got != c.code {
			t.Errorf("%s: %q, want %q", c.name, got, c.code)
		}
	}
}

func TestG1_ConfiguredReactionSourceDecides_FailureRetried(t *testing.T) {
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	ctx := context.Background()
	down := true
	src := reactions.SourceFunc(func(_ context.Context, m game.MessageRef) (reactions.Snapshot, error) {
		if down {
			return reactions.Snapshot{}, errors.New("discord unreachable")
		}
		// Two players for, one non-player for, one player against.
		return reactions.Snapshot{Up: []string{pl(10), pl(11), "discord:777"}, Down: []string{pl(12)}}, nil
	})
	svc = rulesets.New(svc.Store(), clk, game.WithEntropy(gametest.Seeded(2)), game.WithReactions(src))
	for i := 10; i < 13; i++ {
		if _, err := svc.Join(ctx, req(pl(i), "join"), game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(thursday)
	res, err := svc.SubmitProposal(ctx, req(pl(10), "p"), game.SubmitProposal{Message: msg("d1")})
	if err != nil {
		t.Fatal(err)
	}
	id := gametest.Decode[game.ProposalView](t, res).ID
	clk.Set(nextMonday)
	rep, err := svc.RunDue(ctx)
	if err != nil || len(rep.Failed) == 0 {
		t.Fatalf("an unreadable source is a failure to retry: %+v %v", rep, err)
	}
	if v, _ := svc.Proposal(ctx, "hall", id); v.Status != governance.StatusOpen {
		t.Fatalf("status %s after a failed read", v.Status)
	}
	down = false
	clk.Set(nextMonday.Add(10 * time.Minute))
	if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) != 0 {
		t.Fatalf("retry: %+v %v", rep, err)
	}
	v, _ := svc.Proposal(ctx, "hall", id)
	if v.Status != governance.StatusAdopted || v.Result.For != 2 || !slices.Equal(v.Result.Ignored, []string{"discord:777"}) {
		t.Fatalf("tally from the configured source: %s %+v", v.Status, v.Result)
	}
}
