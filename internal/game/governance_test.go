package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/reactions"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// gov drives a game with players discord:10..discord:19 who joined at the
// start (so they are reputable: RULINGS P4 grace) and votes pushed by a
// bridge (the default reaction source).
type gov struct {
	t   *testing.T
	ctx context.Context
	svc *game.Service
	clk *clock.Manual
	n   int
}

func newGov(t *testing.T) *gov {
	t.Helper()
	svc, clk := newGame(t, newBolt(t))
	g := &gov{t: t, ctx: context.Background(), svc: svc, clk: clk}
	for i := 10; i < 20; i++ {
		g.must(svc.Join(g.ctx, req(pl(i), "join"), game.JoinGame{}))
	}
	return g
}

func pl(i int) string { return fmt.Sprintf("discord:%d", i) }

func pls(is ...int) []string {
	out := make([]string, len(is))
	for k, i := range is {
		out[k] = pl(i)
	}
	return out
}

func msg(id string) game.MessageRef {
	return game.MessageRef{Platform: "discord", Channel: "500", Message: id}
}

func (g *gov) key() string { g.n++; return fmt.Sprintf("k%d", g.n) }

func (g *gov) must(res *game.Result, err error) *game.Result {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
	return res
}

func (g *gov) propose(actor, message string, p game.SubmitProposal) game.ProposalView {
	g.t.Helper()
	p.Message = msg(message)
	return decode[game.ProposalView](g.t, g.must(g.svc.SubmitProposal(g.ctx, req(actor, g.key()), p)))
}

// vote replaces the reactions on a message (op "set").
func (g *gov) vote(message string, up, down []string) {
	g.t.Helper()
	g.must(g.svc.PushReactions(g.ctx, req(admin, g.key()), game.PushReactions{Message: msg(message), Up: up, Down: down}))
}

func (g *gov) runDue(at time.Time) game.DueReport {
	g.t.Helper()
	g.clk.Set(at)
	rep, err := g.svc.RunDue(g.ctx)
	if err != nil || len(rep.Failed) > 0 {
		g.t.Fatalf("RunDue: %v %v", err, rep.Failed)
	}
	return rep
}

func (g *gov) proposal(id string) game.ProposalView {
	g.t.Helper()
	v, err := g.svc.Proposal(g.ctx, "hall", id)
	if err != nil {
		g.t.Fatal(err)
	}
	return v
}

func (g *gov) entries() []game.Entry {
	g.t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := g.svc.Log(g.ctx, "hall", cursor, 500)
		if err != nil {
			g.t.Fatal(err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

func (g *gov) events(typ string) []game.Event {
	var out []game.Event
	for _, e := range g.entries() {
		for _, ev := range e.Events {
			if ev.Type == typ {
				out = append(out, ev)
			}
		}
	}
	return out
}

// Days of ISO week 49 of 2026 (the game starts Monday 30 Nov, 12:00 UTC).
var (
	thursday   = time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	friday     = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	nextMonday = time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
)

func TestG2_StandardProposalOnThursdayTalliedMondayMidnight(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday)
	p := g.propose(pl(10), "m1", game.SubmitProposal{Title: "More gifts", Text: "Let us gift twice."})
	if p.Class != governance.Standard || !p.VotingStart.Equal(friday) || !p.VotingEnd.Equal(nextMonday) || p.Status != governance.StatusOpen {
		t.Fatalf("a standard proposal made on Thursday is voted on Friday 00:00 to Monday 00:00: %+v", p.Proposal)
	}
	g.vote("m1", pls(10, 11, 12), pls(13))
	if v := g.proposal(p.ID); v.Live == nil || v.Live.For != 3 || v.Live.Against != 1 {
		t.Fatalf("open proposal shows current counts: %+v", v.Live)
	}
	g.runDue(nextMonday.Add(-time.Second))
	if v := g.proposal(p.ID); v.Status != governance.StatusOpen {
		t.Fatalf("tallied before the period ended: %s", v.Status)
	}
	g.runDue(nextMonday)
	v := g.proposal(p.ID)
	if v.Status != governance.StatusAdopted || !v.ClosedAt.Equal(nextMonday) || v.Result.For != 3 || v.Result.Against != 1 || v.Live != nil {
		t.Fatalf("after Monday 00:00: %s closed %v result %+v", v.Status, v.ClosedAt, v.Result)
	}
	if !slices.Equal(v.Result.ForVoters, pls(10, 11, 12)) || !slices.Equal(v.Result.AgainstVoters, pls(13)) {
		t.Fatalf("voters: %+v", v.Result)
	}
	// RULINGS T2: the week's proposals take effect before the season changes.
	var order []string
	for _, e := range g.entries() {
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
	g.clk.Set(thursday)
	two := g.propose(pl(10), "u2", game.SubmitProposal{Class: governance.Urgent})
	three := g.propose(pl(10), "u3", game.SubmitProposal{Class: governance.Urgent})
	if !two.VotingEnd.Equal(thursday.Add(48 * time.Hour)) {
		t.Fatalf("urgent voting ends 48h after submission: %v", two.VotingEnd)
	}
	g.vote("u2", nil, pls(11, 12))
	g.vote("u3", pls(14, 15, 16, 17), pls(11, 12, 13))
	g.runDue(thursday.Add(48 * time.Hour))
	if v := g.proposal(two.ID); v.Status != governance.StatusAdopted || v.Result.Against != 2 {
		t.Fatalf("urgent with 2 against: %s %+v", v.Status, v.Result)
	}
	if v := g.proposal(three.ID); v.Status != governance.StatusFailed || v.Result.Against != 3 || v.Result.For != 4 {
		t.Fatalf("urgent with 3 against (and 4 for): %s %+v", v.Status, v.Result)
	}
}

func TestG2_UrgentByNonReputablePlayerRefused(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday.Add(24 * time.Hour)) // Friday: more than 3 days after the start
	g.must(g.svc.Join(g.ctx, req(pl(30), "join"), game.JoinGame{}))
	_, err := g.svc.SubmitProposal(g.ctx, req(pl(30), "u"), game.SubmitProposal{Class: governance.Urgent, Message: msg("x")})
	if ruleCode(err) != "not_reputable" {
		t.Fatalf("urgent proposal by a new player: %v", err)
	}
	if p := g.propose(pl(30), "y", game.SubmitProposal{}); p.Class != governance.Standard {
		t.Fatalf("a standard one is fine: %+v", p.Proposal)
	}
	_, err = g.svc.SubmitProposal(g.ctx, req(pl(99), "n"), game.SubmitProposal{Message: msg("z")})
	if ruleCode(err) != "not_a_player" {
		t.Fatalf("a non-player's proposal: %v", err)
	}
}

func TestG1_EditedProposalWithMajorityStillFails(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday)
	p := g.propose(pl(10), "e1", game.SubmitProposal{})
	g.vote("e1", pls(10, 11, 12, 13), pls(14))
	g.must(g.svc.PushMessageEvent(g.ctx, req(admin, "edit"), game.MessageEvent{Message: msg("e1"), Event: "edited"}))
	g.runDue(nextMonday)
	v := g.proposal(p.ID)
	if v.Status != governance.StatusFailed || !v.Result.Popular || !v.Result.Edited || v.Result.Adopted {
		t.Fatalf("edited proposal: %s %+v", v.Status, v.Result)
	}
	if len(g.events("proposal_failed")) != 1 {
		t.Fatal("the failure is a log event")
	}
}

// priceOf is the random card's price in the game's current ruleset.
func priceOf(t *testing.T, g *gov) int {
	rs, err := g.svc.Ruleset(g.ctx, "hall")
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
	rs, err := g.svc.Ruleset(g.ctx, "hall")
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
	before, _ := g.svc.Game(g.ctx, "hall")
	g.clk.Set(thursday)
	first := g.propose(pl(10), "a1", game.SubmitProposal{Title: "Cards at 3", Amendment: pricePatch(t, g, 3)})
	g.clk.Advance(time.Minute)
	second := g.propose(pl(11), "a2", game.SubmitProposal{Title: "Cards at 4", Amendment: pricePatch(t, g, 4)})
	g.vote("a1", pls(10, 11), nil)
	g.vote("a2", pls(10, 11), nil)
	g.runDue(nextMonday.Add(2 * time.Hour))

	after, _ := g.svc.Game(g.ctx, "hall")
	if after.RulesetVersion != before.RulesetVersion+2 {
		t.Fatalf("ruleset version %d -> %d, want +2", before.RulesetVersion, after.RulesetVersion)
	}
	if got := priceOf(t, g); got != 4 {
		t.Fatalf("the later proposal's price wins: %d, want 4", got)
	}
	var srcs []string
	for _, ev := range g.events("ruleset_amended") {
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
	if v := g.proposal(second.ID); v.RulesetVersion != after.RulesetVersion {
		t.Fatalf("the proposal records the version it made: %d", v.RulesetVersion)
	}
	// Acceptance 5: the next purchase costs the new price.
	g.must(gildedhall.On(g.svc).Grant(g.ctx, req(admin, "grant"), gildedhall.Grant{Player: pl(12), Vertebrae: 10, Reason: "test"}))
	res := g.must(gildedhall.On(g.svc).Purchase(g.ctx, req(pl(12), "buy"), gildedhall.Purchase{Item: "random-card"}))
	if got := decode[gildedhall.PurchaseResult](t, res); got.Paid != 4 || got.Vertebrae != 6 {
		t.Fatalf("purchase after adoption: paid %d, balance %d", got.Paid, got.Vertebrae)
	}
}

func TestG1_WithdrawnProposalIsNotTallied(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday)
	p := g.propose(pl(10), "w1", game.SubmitProposal{})
	if _, err := g.svc.WithdrawProposal(g.ctx, req(pl(11), "w"), p.ID); ruleCode(err) != "not_author" {
		t.Fatalf("withdraw by another: %v", err)
	}
	g.must(g.svc.WithdrawProposal(g.ctx, req(pl(10), "w"), p.ID))
	g.vote("w1", pls(10, 11, 12), nil)
	g.runDue(nextMonday)
	if v := g.proposal(p.ID); v.Status != governance.StatusWithdrawn || v.Result != nil {
		t.Fatalf("withdrawn: %+v", v.Proposal)
	}
}

func TestT4_TallyTwiceOrLateGivesOneResultAsOfTheDeadline(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday)
	p := g.propose(pl(10), "t1", game.SubmitProposal{Class: governance.Urgent})
	end := p.VotingEnd
	g.vote("t1", pls(11), pls(12, 13))
	// After the deadline, before the late run: another 👎 arrives and a
	// voter leaves. Neither changes the vote (reactions and players as of
	// the deadline).
	g.clk.Set(end.Add(time.Hour))
	g.must(g.svc.PushReactions(g.ctx, req(admin, "late"), game.PushReactions{Message: msg("t1"), Op: "add", Down: pls(14)}))
	g.must(g.svc.Leave(g.ctx, req(pl(12), "leave")))

	g.runDue(end.Add(2 * time.Hour))
	v := g.proposal(p.ID)
	if v.Status != governance.StatusAdopted || v.Result.Against != 2 || !slices.Equal(v.Result.AgainstVoters, pls(12, 13)) || !v.ClosedAt.Equal(end) {
		t.Fatalf("late tally: %s %+v closed %v", v.Status, v.Result, v.ClosedAt)
	}
	adopted := g.events("proposal_adopted")
	n := len(g.entries())
	rep := g.runDue(end.Add(3 * time.Hour))
	if len(g.entries()) != n || len(rep.Done["proposal"]) != 0 {
		t.Fatalf("a second run changed something: %d -> %d entries, %+v", n, len(g.entries()), rep)
	}
	if len(adopted) != 1 {
		t.Fatalf("%d proposal_adopted events", len(adopted))
	}
	for _, e := range g.entries() {
		if e.Command == "proposal-tally" && !e.At.Equal(end) {
			t.Fatalf("the tally is logged at %v, want its deadline %v", e.At, end)
		}
	}
}

// elect makes judge the Judge through a week-49 election.
func (g *gov) elect(judge string) {
	g.t.Helper()
	g.clk.Set(thursday)
	g.must(g.svc.StandForJudge(g.ctx, req(judge, g.key()), game.StandForJudge{Message: msg("cand-" + judge)}))
	g.vote("cand-"+judge, pls(11, 12), nil)
	g.runDue(nextMonday)
	if j, _ := g.svc.Judge(g.ctx, "hall"); j.Judge != judge {
		g.t.Fatalf("elected %q, want %q", j.Judge, judge)
	}
}

func TestG5_ElectionTieGoesToEarliestCandidacy(t *testing.T) {
	g := newGov(t)
	g.clk.Set(thursday)
	g.must(g.svc.StandForJudge(g.ctx, req(pl(10), "c"), game.StandForJudge{Message: msg("c10")}))
	g.clk.Advance(time.Hour)
	g.must(g.svc.StandForJudge(g.ctx, req(pl(11), "c"), game.StandForJudge{Message: msg("c11")}))
	g.must(g.svc.StandForJudge(g.ctx, req(pl(12), "c"), game.StandForJudge{Message: msg("c12")}))
	if _, err := g.svc.StandForJudge(g.ctx, req(pl(10), "again"), game.StandForJudge{Message: msg("c10b")}); ruleCode(err) != "already_candidate" {
		t.Fatalf("second candidacy in a week: %v", err)
	}
	g.vote("c10", pls(13, 14), nil)
	g.vote("c11", pls(15, 16), nil)
	g.vote("c12", pls(13, 14, 15), pls(16, 17, 18)) // most 👍 but not popular
	view, err := g.svc.Candidacies(g.ctx, "hall", "", game.First)
	if err != nil || view.Week != "2026-W49" || len(view.Candidacies) != 3 || view.Live == nil || view.Live.Judge != pl(10) {
		t.Fatalf("candidacies of the week: %+v, %v", view, err)
	}
	rep := g.runDue(nextMonday)
	if !slices.Contains(rep.Done["election"], "hall/2026-W49") {
		t.Fatalf("report %+v", rep)
	}
	j, _ := g.svc.Judge(g.ctx, "hall")
	if j.Judge != pl(10) || !j.Since.Equal(nextMonday) {
		t.Fatalf("tie goes to the earliest candidacy: %+v", j)
	}
	if ev := g.events("judge_elected"); len(ev) != 1 || ev[0].Player != pl(10) {
		t.Fatalf("judge_elected events: %+v", ev)
	}
	n := len(g.entries())
	g.runDue(nextMonday.Add(time.Hour))
	if len(g.entries()) != n {
		t.Fatal("a second run held the election again")
	}
	view, _ = g.svc.Candidacies(g.ctx, "hall", "2026-W49", game.First)
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
			g.elect(pl(10))
			rq := decode[game.JusticeRecord](t, g.must(g.svc.RequestJustice(g.ctx, req(pl(11), "rq"),
				game.RequestJustice{Kind: governance.KindStatement, Text: "Kings are worth 12.", Message: msg("rq")})))
			ru := decode[game.RulingView](t, g.must(g.svc.Rule(g.ctx, req(pl(10), "rule"), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
			if ru.Answer != "TRUE" || ru.ID != rq.Request.ID+"-1" {
				t.Fatalf("ruling %+v", ru)
			}
			opened := g.clk.Now().Add(time.Hour)
			g.clk.Set(opened)
			g.must(g.svc.OpenConfidence(g.ctx, req(pl(12), "conf"), game.OpenConfidence{Ruling: ru.ID, Poll: msg("poll")}))
			g.vote("poll", pls(append(c.up, c.both...)...), pls(append(c.down, c.both...)...))
			g.runDue(opened.Add(47 * time.Hour))
			if rs, _ := g.svc.Rulings(g.ctx, "hall"); rs[0].Confidence.Status != governance.ConfidenceOpen {
				t.Fatal("tallied before 48 hours")
			}
			rep := g.runDue(opened.Add(48 * time.Hour))
			if len(rep.Done["confidence"]) != 1 {
				t.Fatalf("report %+v", rep)
			}
			rs, _ := g.svc.Rulings(g.ctx, "hall")
			if rs[0].Overturned != c.overturned || rs[0].NoBearing != c.overturned {
				t.Fatalf("ruling after the vote: %+v, result %+v", rs[0].Ruling, rs[0].Confidence.Result)
			}
			if got := len(g.events("ruling_overturned")); got != map[bool]int{true: 1, false: 0}[c.overturned] {
				t.Fatalf("%d ruling_overturned events", got)
			}
			n := len(g.entries())
			g.runDue(opened.Add(50 * time.Hour))
			if len(g.entries()) != n {
				t.Fatal("a second run tallied again")
			}
		})
	}
}

func TestG4_JudgeRulesOverturnsAndIsRemoved(t *testing.T) {
	g := newGov(t)
	g.elect(pl(10))
	if _, err := g.svc.RequestJustice(g.ctx, req(pl(10), "self"), game.RequestJustice{Kind: governance.KindQuestion, Text: "?", Message: msg("q0")}); ruleCode(err) != "judge_cannot_request" {
		t.Fatalf("the Judge's own request: %v", err)
	}
	rq := decode[game.JusticeRecord](t, g.must(g.svc.RequestJustice(g.ctx, req(pl(11), "q"),
		game.RequestJustice{Kind: governance.KindQuestion, Text: "May Jokers follow Jokers?", Message: msg("q1")})))
	if q, _ := g.svc.JudgeQueue(g.ctx, "hall"); len(q) != 1 || q[0].Request.ID != rq.Request.ID {
		t.Fatalf("queue %+v", q)
	}
	if _, err := g.svc.Rule(g.ctx, req(pl(11), "r"), game.RuleOn{Request: rq.Request.ID, Answer: "yes"}); ruleCode(err) != "not_the_judge" {
		t.Fatalf("ruling by a non-judge: %v", err)
	}
	first := decode[game.RulingView](t, g.must(g.svc.Rule(g.ctx, req(pl(10), "r1"), game.RuleOn{Request: rq.Request.ID, Answer: "Yes."})))
	g.must(g.svc.Overturn(g.ctx, req(pl(10), "o1"), first.ID))
	if q, _ := g.svc.JudgeQueue(g.ctx, "hall"); len(q) != 1 {
		t.Fatal("an overturned ruling's request is back in the queue")
	}
	second := decode[game.RulingView](t, g.must(g.svc.Rule(g.ctx, req(pl(10), "r2"), game.RuleOn{Request: rq.Request.ID, Answer: "Only of the same colour."})))
	if second.ID != rq.Request.ID+"-2" {
		t.Fatalf("second ruling id %s", second.ID)
	}
	rs, _ := g.svc.Rulings(g.ctx, "hall")
	if len(rs) != 2 || !rs[0].NoBearing || rs[0].OverturnedBy != governance.ByJudge || rs[1].Overturned {
		t.Fatalf("rulings %+v", rs)
	}
	g.clk.Advance(8 * 24 * time.Hour)
	if _, err := g.svc.Overturn(g.ctx, req(pl(10), "o2"), second.ID); ruleCode(err) != "overturn_window_closed" {
		t.Fatalf("overturn after 7 days: %v", err)
	}
	g.must(g.svc.AssentRemoval(g.ctx, req(pl(11), "a")))
	if _, err := g.svc.AssentRemoval(g.ctx, req(pl(11), "a2")); ruleCode(err) != "already_assented" {
		t.Fatalf("assenting twice: %v", err)
	}
	js := decode[game.JudgeState](t, g.must(g.svc.AssentRemoval(g.ctx, req(pl(12), "a"))))
	if js.Judge != "" || len(g.events("judge_removed")) != 1 {
		t.Fatalf("two assents remove the Judge: %+v", js)
	}
	if _, err := g.svc.Resign(g.ctx, req(pl(10), "resign")); ruleCode(err) != "not_the_judge" {
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
			_, err := g.svc.PushReactions(g.ctx, req(admin, "1"), game.PushReactions{Message: msg("m"), Op: "toggle"})
			return err
		}, "invalid_reactions"},
		{"not an identity", func() error {
			_, err := g.svc.PushReactions(g.ctx, req(admin, "2"), game.PushReactions{Message: msg("m"), Up: []string{"bob"}})
			return err
		}, "invalid_reactions"},
		{"empty delta", func() error {
			_, err := g.svc.PushReactions(g.ctx, req(admin, "3"), game.PushReactions{Message: msg("m"), Op: "add"})
			return err
		}, "invalid_reactions"},
		{"bad message", func() error {
			_, err := g.svc.PushReactions(g.ctx, req(admin, "4"), game.PushReactions{Message: game.MessageRef{Platform: "discord", Channel: "a#b", Message: "1"}})
			return err
		}, "invalid_message"},
		{"unknown event", func() error {
			_, err := g.svc.PushMessageEvent(g.ctx, req(admin, "5"), game.MessageEvent{Message: msg("m"), Event: "pinned"})
			return err
		}, "invalid_event"},
		{"amendment setting the version", func() error {
			_, err := g.svc.SubmitProposal(g.ctx, req(pl(10), "6"), game.SubmitProposal{Message: msg("m"), Amendment: json.RawMessage(`{"version": 9}`)})
			return err
		}, "invalid_amendment"},
		{"amendment that cannot apply", func() error {
			_, err := g.svc.SubmitProposal(g.ctx, req(pl(10), "7"), game.SubmitProposal{Message: msg("m"), Amendment: json.RawMessage(`{"chances":{"holoPack":150}}`)})
			return err
		}, "invalid_amendment"},
	} {
		if got := ruleCode(c.run()); got != c.code {
			t.Errorf("%s: %q, want %q", c.name, got, c.code)
		}
	}
}

func TestG1_ConfiguredReactionSourceDecides_FailureRetried(t *testing.T) {
	svc, clk := newGame(t, newBolt(t))
	ctx := context.Background()
	down := true
	src := reactions.SourceFunc(func(_ context.Context, m game.MessageRef) (reactions.Snapshot, error) {
		if down {
			return reactions.Snapshot{}, errors.New("discord unreachable")
		}
		// Two players for, one non-player for, one player against.
		return reactions.Snapshot{Up: []string{pl(10), pl(11), "discord:777"}, Down: []string{pl(12)}}, nil
	})
	svc = rulesets.New(svc.Store(), clk, game.WithEntropy(seeded(2)), game.WithReactions(src))
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
	id := decode[game.ProposalView](t, res).ID
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
