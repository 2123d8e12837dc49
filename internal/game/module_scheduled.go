package game

import (
	"context"
	"time"

	"croupier/internal/store"
)

// A module's kinds of timer (DueWork) apply what is due through the same
// path as the engine's own: RunScheduled runs apply once for key (its
// idempotency record), retrying on conflict, and AsOf dates the work at its
// due moment (RULINGS T4).

// ErrNothingDue is what a scheduled apply returns when an earlier run (or a
// player's command) already did the work: nothing is written.
var ErrNothingDue = errNothingDue

// RunScheduled applies scheduled work of command for key in game, reading
// keys with META; it reports whether it committed (false: nothing was due,
// or an earlier run did it).
func (s *Service) RunScheduled(ctx context.Context, game, command, key string, keys []store.Key, apply func(t *Tx) (any, error)) (bool, error) {
	return s.runScheduled(ctx, game, command, key, keys, apply)
}

// AsOf dates the scheduled work and its log entry at at, its due moment.
func (t *Tx) AsOf(at time.Time) { t.asOf(at) }
