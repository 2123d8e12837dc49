package gametest

import (
	"context"
	"sync/atomic"
	"time"

	"croupier/internal/store"
)

// Interleaved is a store whose operation number At first calls Other: a
// test runs a whole other run (a scheduler's, a command's) at one chosen
// point of this one's, before one of its reads or its commits.
type Interleaved struct {
	store.Store
	At    int64 // the operation before which Other runs; 0: never
	Other func()
	ops   atomic.Int64
	ranAt atomic.Int64
}

// Ops is how many operations the store has been asked for.
func (s *Interleaved) Ops() int64 { return s.ops.Load() }

// RanAt is the operation Other ran before, or 0.
func (s *Interleaved) RanAt() int64 { return s.ranAt.Load() }

func (s *Interleaved) step() {
	if n := s.ops.Add(1); n == s.At {
		s.Other()
		s.ranAt.Store(n)
	}
}

func (s *Interleaved) Get(ctx context.Context, k store.Key) (store.Item, error) {
	s.step()
	return s.Store.Get(ctx, k)
}

func (s *Interleaved) GetMany(ctx context.Context, ks []store.Key) ([]store.Item, error) {
	s.step()
	return s.Store.GetMany(ctx, ks)
}

func (s *Interleaved) Query(ctx context.Context, q store.Query) (store.Page, error) {
	s.step()
	return s.Store.Query(ctx, q)
}

func (s *Interleaved) QueryDue(ctx context.Context, until time.Time, limit int) ([]store.Item, error) {
	s.step()
	return s.Store.QueryDue(ctx, until, limit)
}

func (s *Interleaved) Commit(ctx context.Context, tx store.Tx) error {
	s.step()
	return s.Store.Commit(ctx, tx)
}
