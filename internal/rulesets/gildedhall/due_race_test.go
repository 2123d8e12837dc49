package gildedhall_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// Every due kind at once, two weeks into the game, with a scheduler run
// that is late: at 2026-12-14 02:00 the phase ends of W50 (Friday, and
// Monday with the week's proposal before it, T2), a confidence vote, a
// Judge election, a trade expiry, a duel's skipped turn and the setup of
// the battle formed at the Monday phase end are all due.
var (
	w50Monday   = time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	w50Thursday = time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC)
	w50Saturday = time.Date(2026, 12, 12, 12, 0, 0, 0, time.UTC)
	lateRun     = time.Date(2026, 12, 14, 2, 0, 0, 0, time.UTC)
)

// everyDueKind builds that game in a bolt file and returns its path.
func everyDueKind(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "every-due-kind.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g := gametest.NewGov(t, st)
	svc := g.Svc
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 0)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 0)
	gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 0)
	gametest.Enrol(t, svc, dee, suit("Diamonds", 2, 10), 0)
	g.Elect(pl(10)) // runs the due work of week 49

	g.Clk.Set(w50Monday.Add(30 * time.Minute))
	g.Must(gildedhall.On(svc).Grant(g.Ctx, req(admin, g.Key()), gildedhall.Grant{Player: pl(11), Vertebrae: 10, Reason: "test"}))
	g.Must(trades.On(svc).OfferTrade(g.Ctx, req(pl(11), g.Key()), trades.OfferTrade{To: pl(12), Give: economy.Items{Vertebrae: 3}}))
	rq := gametest.Decode[game.JusticeRecord](t, g.Must(svc.RequestJustice(g.Ctx, req(pl(11), g.Key()),
		game.RequestJustice{Kind: governance.KindStatement, Text: "Kings are worth 12.", Message: msg("rq")})))
	ru := gametest.Decode[game.RulingView](t, g.Must(svc.Rule(g.Ctx, req(pl(10), g.Key()), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
	g.Clk.Set(w50Monday.Add(24 * time.Hour))
	g.Must(svc.OpenConfidence(g.Ctx, req(pl(12), g.Key()), game.OpenConfidence{Ruling: ru.ID, Poll: msg("poll")}))
	g.Vote("poll", pls(13, 14), pls(15))

	g.Clk.Set(w50Thursday)
	g.Propose(pl(12), "p50", game.SubmitProposal{Title: "More gifts", Text: "Let us gift twice."})
	g.Vote("p50", pls(10, 11, 12), pls(13))
	g.Must(svc.StandForJudge(g.Ctx, req(pl(13), g.Key()), game.StandForJudge{Message: msg("cand-w50")}))
	g.Vote("cand-w50", pls(11, 12, 14), nil)

	g.Clk.Set(w50Saturday)
	twoInPlay(t, svc, suit("Hearts", 2, 6), suit("Clubs", 2, 5))
	g.Must(gildedhall.On(svc).EngageBattle(g.Ctx, req(cy, g.Key())))
	g.Must(gildedhall.On(svc).EngageBattle(g.Ctx, req(dee, g.Key())))
	return path
}

// scheduled is what the scheduler logged: each key with its moment.
func scheduled(t *testing.T, svc *game.Service) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	cursor := ""
	for {
		page, err := svc.Log(context.Background(), "hall", cursor, 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entries {
			if e.Actor != game.SchedulerActor {
				continue
			}
			if _, dup := out[e.Key]; dup {
				t.Errorf("%s logged twice", e.Key)
			}
			out[e.Key] = e.At
		}
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// RULINGS T4 for every due kind: a second scheduler run that completes at
// any point of a first run (before any one of its reads or its commits)
// leaves exactly what one run alone leaves: every piece of due work applied
// once, as of its due moment, and nothing that was not yet due.
func TestT4_EveryDueKindAppliedOnceWhateverRunInterleaves(t *testing.T) {
	ctx := context.Background()
	template := everyDueKind(t)
	open := func(name string) (store.Store, *clock.Manual) {
		path := filepath.Join(t.TempDir(), name)
		copyFile(t, template, path)
		st, err := bolt.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st, clock.NewManual(lateRun)
	}

	// One run alone: the reference, and how many store operations it makes.
	st, clk := open("alone.db")
	counted := &gametest.Interleaved{Store: st}
	alone := rulesets.New(counted, clk, game.WithEntropy(gametest.Seeded(3)))
	before := scheduled(t, alone)
	rep, err := alone.RunDue(ctx)
	if err != nil || len(rep.Failed) > 0 {
		t.Fatalf("RunDue alone: %+v %v", rep, err)
	}
	want := scheduled(t, alone)
	for k := range before {
		delete(want, k)
	}
	ops := counted.Ops()
	kinds := map[string]bool{}
	for k, at := range want {
		if at.After(lateRun) {
			t.Fatalf("%s logged at %v, after the run's moment %v", k, at, lateRun)
		}
		kinds[strings.SplitN(k, ":", 2)[0]] = true
	}
	for _, kind := range []string{"period-end", "trade-expire", "match-timeout", "proposal-tally", "confidence-tally", "judge-election"} {
		if !kinds[kind] {
			t.Fatalf("the scenario has no due %s; scheduled work: %v", kind, want)
		}
	}
	if want["period-end:2026-W50-II"] != (time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC)) || len(want) < 8 {
		t.Fatalf("one run: %v", want)
	}
	t.Logf("one run alone: %d store operations, %d pieces of due work: %v", ops, len(want), want)

	for at := int64(1); at <= ops; at++ {
		st, clk := open(fmt.Sprintf("at-%d.db", at))
		other := rulesets.New(st, clk, game.WithEntropy(gametest.Seeded(4)))
		first := &gametest.Interleaved{Store: st, At: at, Other: func() {
			if rep, err := other.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
				t.Errorf("the other run: %+v %v", rep, err)
			}
		}}
		svc := rulesets.New(first, clk, game.WithEntropy(gametest.Seeded(3)))
		if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			t.Fatalf("other run before operation %d: RunDue %+v %v", at, rep, err)
		}
		if first.RanAt() != at {
			// The other run took work this one would have done, so this
			// one made fewer operations: later points are the same run.
			if first.Ops() >= at {
				t.Fatalf("other run before operation %d did not run", at)
			}
			continue
		}
		got := scheduled(t, other)
		for k := range before {
			delete(got, k)
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || !g.Equal(w) {
				t.Errorf("other run before operation %d: %s at %v, want at %v", at, k, g, w)
			}
		}
		for k, g := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("other run before operation %d: %s applied at %v, which one run does not do", at, k, g)
			}
		}
		seeds, err := other.Seeds(ctx, "hall")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds {
			if s.Seed != "" && s.RevealedAt != nil && s.RevealedAt.After(lateRun) {
				t.Errorf("other run before operation %d: seed of %s revealed at %v", at, s.Period, s.RevealedAt)
			}
			if s.Period == "2026-W51-I" && s.Seed != "" {
				t.Errorf("other run before operation %d: the open period's seed is revealed", at)
			}
		}
		if t.Failed() {
			return
		}
	}
}

// adaAndBoEngagedCyNot: three players with decks in phase W49-I, Ada and
// Bo engaged in its battle.
func adaAndBoEngagedCyNot(t *testing.T) (store.Store, *game.Service, *clock.Manual) {
	t.Helper()
	st := gametest.Bolt(t)
	svc, clk := gametest.NewGame(t, st)
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 0)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 0)
	gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 0)
	for _, p := range []string{ada, bo} {
		if _, err := gildedhall.On(svc).EngageBattle(context.Background(), req(p, gametest.K("engage"))); err != nil {
			t.Fatal(err)
		}
	}
	return st, svc, clk
}

// RULINGS X10 and T4 at the boundary: an engagement read while phase I is
// open whose commit comes after the phase end (another Lambda ended it
// meanwhile) must not be acknowledged for a battle formed without it; it
// is retried and engages in the next phase's battle.
func TestX10_EngagementCommittingAfterThePhaseEndJoinsTheNextBattle(t *testing.T) {
	ctx := context.Background()
	st, svc, clk := adaAndBoEngagedCyNot(t)
	friday := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	clk.Set(friday.Add(-time.Millisecond))
	scheduler := rulesets.New(st, clk, game.WithEntropy(gametest.Seeded(2)))
	late := &gametest.Interleaved{Store: st, At: 2, Other: func() { // before the engagement's commit
		clk.Set(friday)
		if rep, err := scheduler.RunDue(ctx); err != nil || len(rep.Transitions) != 1 {
			t.Errorf("the phase end: %+v %v", rep, err)
		}
	}}
	res, err := gildedhall.On(rulesets.New(late, clk, game.WithEntropy(gametest.Seeded(3)))).EngageBattle(ctx, req(cy, gametest.K("engage")))
	if err != nil {
		t.Fatal(err)
	}
	if late.RanAt() != 2 {
		t.Fatal("the phase end did not run before the engagement's commit")
	}
	got := gametest.Decode[gildedhall.BattleEngagement](t, res)
	battle := view(t, svc, "b-2026-W49-I", "")
	in := slices.Contains(battle.Players, cy)
	switch {
	case got.Period == "2026-W49-I" && !in:
		t.Fatalf("engagement acknowledged for %s, whose battle was formed without %s: %v", got.Battle, cy, battle.Players)
	case got.Period != "2026-W49-II" && !in:
		t.Fatalf("engagement %+v", got)
	}
}

// The other side of that boundary: an engagement made in phase I (its
// Lambda's clock still before the end) that commits at any point of the
// phase end's run is either in the battle it was acknowledged for, or
// acknowledged for the next phase, or not acknowledged at all.
func TestX10_EngagementCommittingDuringThePhaseEndIsNeverLeftOut(t *testing.T) {
	ctx := context.Background()
	friday := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	for at := int64(1); ; at++ {
		st, svc, clk := adaAndBoEngagedCyNot(t)
		// cy's Lambda reads the time a millisecond before the end.
		before := clock.NewManual(friday.Add(-time.Millisecond))
		engager := rulesets.New(st, before, game.WithEntropy(gametest.Seeded(5)))
		engager.MaxAttempts, engager.Backoff = 3, time.Microsecond
		var res *game.Result
		var engageErr error
		run := &gametest.Interleaved{Store: st, At: at, Other: func() {
			res, engageErr = gildedhall.On(engager).EngageBattle(ctx, req(cy, "engage-cy"))
		}}
		clk.Set(friday)
		if rep, err := rulesets.New(run, clk, game.WithEntropy(gametest.Seeded(2))).RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			t.Fatalf("engagement before operation %d of the phase end: RunDue %+v %v", at, rep, err)
		}
		if run.RanAt() != at {
			break // past the run's last operation
		}
		battle := view(t, svc, "b-2026-W49-I", "")
		in := slices.Contains(battle.Players, cy)
		me, err := gildedhall.On(svc).Player(ctx, "hall", cy)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case engageErr != nil:
			if gametest.RuleCode(engageErr) != "busy" {
				t.Fatalf("engagement before operation %d: %v", at, engageErr)
			}
			if in {
				t.Fatalf("engagement before operation %d refused, yet %s is in the battle", at, cy)
			}
		default:
			got := gametest.Decode[gildedhall.BattleEngagement](t, res)
			if got.Period == "2026-W49-I" && !in {
				t.Fatalf("engagement before operation %d acknowledged for %s, formed without %s: %v (player's engagement %q)",
					at, got.Battle, cy, battle.Players, me.Period)
			}
		}
	}
}
