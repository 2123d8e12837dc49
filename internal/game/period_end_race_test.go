package game_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/calendar"
)

// periodEnds returns the game's period-end entries, oldest first.
func periodEnds(t *testing.T, svc *game.Service, g string) []game.Entry {
	t.Helper()
	page, err := svc.Log(context.Background(), g, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	var ends []game.Entry
	for _, e := range page.Entries {
		if e.Command == "period-end" {
			ends = append(ends, e)
		}
	}
	return ends
}

// The defect of issue 11: a second run ends the period while the first is
// between its "is it due?" read and its commit (here: inside the
// beforePeriodEnd hooks). The first run must then end nothing, not the
// following period days early.
func TestT4_PeriodEndedByAnotherRunDuringHooksIsNotEndedAgain(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	other := newLedgerService(svc.Store(), clk, game.WithEntropy(gametest.Seeded(2)))
	// The hook runs in both services (hooks are per process); only the
	// first call interleaves.
	var fired atomic.Bool
	defer game.AddBeforePeriodEndHook(func(_ *game.Service, ctx context.Context, g string, _ calendar.Period) error {
		if fired.Swap(true) {
			return nil
		}
		_, err := other.EndPeriods(ctx, g)
		return err
	})()
	friday := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	clk.Set(friday)
	rep, err := svc.RunDue(ctx)
	if err != nil || len(rep.Failed) > 0 {
		t.Fatalf("RunDue: %+v %v", rep, err)
	}
	ends := periodEnds(t, svc, "hall")
	if len(ends) != 1 || ends[0].Key != "period-end:2026-W49-I" || !ends[0].At.Equal(friday) {
		for _, e := range ends {
			t.Logf("logged %s at %v", e.Key, e.At)
		}
		t.Fatalf("%d period ends logged, want exactly period-end:2026-W49-I at %v", len(ends), friday)
	}
	seeds, err := svc.Seeds(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seeds {
		if s.Period == "2026-W49-II" && s.Seed != "" {
			t.Fatalf("the seed of 2026-W49-II was revealed at Friday 00:00, before its period ended")
		}
	}
}
