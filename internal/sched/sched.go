// Package sched is the local scheduler: in `croupier serve` it does what
// EventBridge Scheduler and the phase-end Lambda do in AWS, by calling
// game.Service.RunDue on a fixed real-time interval. Every piece of due work
// is applied as of its due moment and is idempotent (RULINGS T4), so the
// interval only bounds how late a transition is seen, never what it does;
// a tick that overlaps a dev-clock jump or a restart is harmless.
package sched

import (
	"context"
	"log/slog"
	"time"

	"croupier/internal/game"
)

// DefaultInterval is how often `croupier serve` looks for due work.
const DefaultInterval = time.Second

// Runner ticks the service's scheduled work.
type Runner struct {
	svc      *game.Service
	interval time.Duration
	log      *slog.Logger
}

// New returns a runner that calls svc.RunDue every interval (DefaultInterval
// when interval is not positive). A nil logger means slog.Default().
func New(svc *game.Service, interval time.Duration, logger *slog.Logger) *Runner {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Runner{svc: svc, interval: interval, log: logger.With("component", "scheduler")}
}

// Interval returns the tick interval.
func (r *Runner) Interval() time.Duration { return r.interval }

// Tick runs the work due now once and logs what it did: one line per period
// transition, one per failure. Failed work stays due and is retried on the
// next tick, so Tick's error is for the caller's information only.
func (r *Runner) Tick(ctx context.Context) (game.DueReport, error) {
	rep, err := r.svc.RunDue(ctx)
	for _, t := range rep.Transitions {
		r.log.Info("period ended", "transition", t)
	}
	for _, f := range rep.Failed {
		r.log.Warn("due work failed; will retry", "work", f)
	}
	if err != nil && ctx.Err() == nil {
		r.log.Error("running due work", "err", err)
	}
	return rep, err
}

// Run ticks at once (catching up after downtime) and then every interval of
// real time until ctx is done. It returns ctx's error.
func (r *Runner) Run(ctx context.Context) error {
	r.log.Info("scheduler started", "interval", r.interval.String())
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		if ctx.Err() != nil {
			break
		}
		_, _ = r.Tick(ctx)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
	r.log.Info("scheduler stopped")
	return ctx.Err()
}
