// Package faulty wraps a store.Store and injects the failures a real
// DynamoDB table and its network produce, at configured rates from a seeded
// random source, so the proving ground (internal/proving) can show that no
// failure loses, doubles or half-applies a change:
//
//   - conflict: a commit answers a *store.ConflictError and writes nothing
//     (a concurrent writer won, as TransactionCanceledException says);
//   - throttle: a commit or read answers a transient error and does nothing
//     (ProvisionedThroughputExceeded, a 5xx);
//   - timeout: a commit is applied, then answers a transient error (the
//     response was lost: the caller cannot tell it committed);
//   - lost read: a read is made, then answers a transient error.
//
// Every injected failure is counted by kind.
package faulty

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"croupier/internal/store"
)

// Kinds of injected failures, as Counts reports them.
const (
	Conflict = "conflict"
	Throttle = "throttle"
	Timeout  = "timeout_after_write"
	LostRead = "lost_read"
)

// Kinds lists every kind, in report order.
var Kinds = []string{Conflict, Throttle, Timeout, LostRead}

// ErrInjected is wrapped by every transient failure this package makes
// (never by an injected conflict, which is a plain *store.ConflictError).
var ErrInjected = errors.New("faulty: injected transient failure")

// Rates are the probabilities, each in [0, 1], of each kind of failure per
// call: Conflict, Throttle and Timeout per Commit, Throttle and LostRead per
// read (Get, GetMany, Query, QueryDue).
type Rates struct {
	Conflict, Throttle, Timeout, LostRead float64
}

// Store is the fault-injecting wrapper. Safe for concurrent use.
type Store struct {
	inner store.Store
	rates Rates
	mu    sync.Mutex
	rnd   *rand.Rand
	on    atomic.Bool
	n     [4]atomic.Int64
}

// New wraps inner; seed makes the sequence of decisions reproducible for a
// given sequence of calls.
func New(inner store.Store, seed uint64, r Rates) *Store {
	s := &Store{inner: inner, rates: r, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	s.on.Store(true)
	return s
}

// Inner returns the wrapped store.
func (s *Store) Inner() store.Store { return s.inner }

// SetEnabled turns injection on or off (on after New).
func (s *Store) SetEnabled(on bool) { s.on.Store(on) }

// Counts returns how many failures of each kind were injected so far.
func (s *Store) Counts() map[string]int64 {
	out := make(map[string]int64, len(Kinds))
	for i, k := range Kinds {
		out[k] = s.n[i].Load()
	}
	return out
}

// Total is the number of failures injected so far.
func (s *Store) Total() int64 {
	var n int64
	for i := range Kinds {
		n += s.n[i].Load()
	}
	return n
}

func (s *Store) roll(p float64) bool {
	if p <= 0 || !s.on.Load() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rnd.Float64() < p
}

func (s *Store) count(kind int) { s.n[kind].Add(1) }

func injected(what, op string) error {
	return fmt.Errorf("%w: %s of %s", ErrInjected, what, op)
}

// read runs one read with the read faults.
func (s *Store) read(op string, do func() error) error {
	if s.roll(s.rates.Throttle) {
		s.count(1)
		return injected("throttled", op)
	}
	if err := do(); err != nil {
		return err
	}
	if s.roll(s.rates.LostRead) {
		s.count(3)
		return injected("lost response", op)
	}
	return nil
}

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, k store.Key) (store.Item, error) {
	var it store.Item
	err := s.read("get "+k.String(), func() (err error) { it, err = s.inner.Get(ctx, k); return })
	if err != nil {
		return store.Item{}, err
	}
	return it, nil
}

// GetMany implements store.Store.
func (s *Store) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	var its []store.Item
	err := s.read("get-many", func() (err error) { its, err = s.inner.GetMany(ctx, keys); return })
	if err != nil {
		return nil, err
	}
	return its, nil
}

// Query implements store.Store.
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	var p store.Page
	err := s.read("query "+q.PK, func() (err error) { p, err = s.inner.Query(ctx, q); return })
	if err != nil {
		return store.Page{}, err
	}
	return p, nil
}

// QueryDue implements store.Store.
func (s *Store) QueryDue(ctx context.Context, until time.Time, limit int) ([]store.Item, error) {
	var its []store.Item
	err := s.read("query-due", func() (err error) { its, err = s.inner.QueryDue(ctx, until, limit); return })
	if err != nil {
		return nil, err
	}
	return its, nil
}

// Commit implements store.Store.
func (s *Store) Commit(ctx context.Context, tx store.Tx) error {
	if s.roll(s.rates.Conflict) && len(tx.Puts)+len(tx.Deletes)+len(tx.Checks) > 0 {
		s.count(0)
		var k store.Key
		switch {
		case len(tx.Puts) > 0:
			k = tx.Puts[0].Item.Key
		case len(tx.Deletes) > 0:
			k = tx.Deletes[0].Key
		default:
			k = tx.Checks[0].Key
		}
		return &store.ConflictError{Keys: []store.Key{k}}
	}
	if s.roll(s.rates.Throttle) {
		s.count(1)
		return injected("throttled", "commit")
	}
	if err := s.inner.Commit(ctx, tx); err != nil {
		return err
	}
	if s.roll(s.rates.Timeout) {
		s.count(2)
		return injected("timed out after the write", "commit")
	}
	return nil
}

// Close implements store.Store; it closes the wrapped store.
func (s *Store) Close() error { return s.inner.Close() }

var _ store.Store = (*Store)(nil)
