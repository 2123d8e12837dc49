package sched_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/sched"
	"croupier/internal/store/bolt"
)

// Thursday 2026-03-05 12:00 UTC: Phase I of ISO week 10, which ends Friday
// 2026-03-06 00:00 UTC (RULINGS T1).
var start = time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

// syncBuffer is a log sink safe for the runner's goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func setup(t *testing.T) (*game.Service, *clock.Manual, *syncBuffer, *slog.Logger) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clk := clock.NewManual(start)
	buf := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(buf, nil))
	svc := rulesets.New(st, clk, game.WithLogger(logger))
	if _, err := svc.Create(context.Background(), game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatalf("create: %v", err)
	}
	return svc, clk, buf, logger
}

func period(t *testing.T, svc *game.Service) string {
	t.Helper()
	g, err := svc.Game(context.Background(), "hall")
	if err != nil {
		t.Fatal(err)
	}
	return g.Period.ID
}

// TestT4_TickAppliesDueWorkOnce: nothing happens before the phase end; a tick
// after it ends the phase and reveals its seed; a second tick (a duplicate
// run) changes nothing.
func TestT4_TickAppliesDueWorkOnce(t *testing.T) {
	svc, clk, buf, logger := setup(t)
	r := sched.New(svc, time.Hour, logger)
	ctx := context.Background()

	rep, err := r.Tick(ctx)
	if err != nil || len(rep.Transitions) != 0 {
		t.Fatalf("tick before the phase end: %+v, %v; want nothing done", rep, err)
	}
	clk.Advance(36 * time.Hour) // Saturday 00:00: past Friday 00:00
	rep, err = r.Tick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"hall/2026-W10-I"}; strings.Join(rep.Transitions, ",") != strings.Join(want, ",") {
		t.Fatalf("transitions = %v, want %v", rep.Transitions, want)
	}
	if got := period(t, svc); got != "2026-W10-II" {
		t.Errorf("period after the tick = %s, want 2026-W10-II", got)
	}
	seeds, err := svc.Seeds(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) == 0 || seeds[0].Period != "2026-W10-I" || seeds[0].Seed == "" {
		t.Errorf("seeds after the phase end = %+v, want 2026-W10-I revealed", seeds)
	}
	if !strings.Contains(buf.String(), "transition=hall/2026-W10-I") {
		t.Errorf("the transition was not logged; log:\n%s", buf.String())
	}
	rep, err = r.Tick(ctx)
	if err != nil || len(rep.Transitions) != 0 {
		t.Fatalf("repeated tick: %+v, %v; want nothing done", rep, err)
	}
}

// TestT4_LateTickCatchesUp: a scheduler that was down for a week and a half
// ends every missed period, in order, on its first tick.
func TestT4_LateTickCatchesUp(t *testing.T) {
	svc, clk, _, logger := setup(t)
	clk.Advance(10 * 24 * time.Hour) // Sunday 2026-03-15 12:00: W10-I, W10-II, W11-I are over
	rep, err := sched.New(svc, time.Hour, logger).Tick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := "hall/2026-W10-I,hall/2026-W10-II,hall/2026-W11-I"
	if got := strings.Join(rep.Transitions, ","); got != want {
		t.Fatalf("transitions = %s, want %s", got, want)
	}
	if got := period(t, svc); got != "2026-W11-II" {
		t.Errorf("period = %s, want 2026-W11-II", got)
	}
}

// TestRunTicksUntilCancelled: Run applies work that falls due while it runs
// and returns once its context is cancelled.
func TestRunTicksUntilCancelled(t *testing.T) {
	svc, clk, buf, logger := setup(t)
	r := sched.New(svc, 5*time.Millisecond, logger)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	clk.Advance(36 * time.Hour)
	deadline := time.Now().Add(5 * time.Second)
	for period(t, svc) != "2026-W10-II" {
		if time.Now().After(deadline) {
			t.Fatalf("the running scheduler did not end the phase within 5s; log:\n%s", buf.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	if !strings.Contains(buf.String(), "scheduler stopped") {
		t.Errorf("no stop line in the log:\n%s", buf.String())
	}
}

func TestNewDefaultsInterval(t *testing.T) {
	svc, _, _, _ := setup(t)
	if got := sched.New(svc, 0, nil).Interval(); got != sched.DefaultInterval {
		t.Errorf("interval = %v, want %v", got, sched.DefaultInterval)
	}
}
