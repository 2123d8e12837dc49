package proving

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"croupier/internal/store"
)

// latent is a store whose read answers take a while to arrive, as a
// DynamoDB answer crosses a network: each read waits a seeded time in
// [0, max) after the store answered. The clients and the runners read
// through it, so that a scheduled effect's read and its commit are apart
// as they are in a Lambda, and commands land between them.
type latent struct {
	store.Store
	max time.Duration
	mu  sync.Mutex
	rnd *rand.Rand
}

func newLatent(st store.Store, seed uint64, max time.Duration) store.Store {
	if max <= 0 {
		return st
	}
	return &latent{Store: st, max: max, rnd: rand.New(rand.NewPCG(seed, 23))}
}

func (l *latent) wait() {
	l.mu.Lock()
	d := time.Duration(l.rnd.Int64N(int64(l.max)))
	l.mu.Unlock()
	time.Sleep(d)
}

func (l *latent) Get(ctx context.Context, k store.Key) (store.Item, error) {
	it, err := l.Store.Get(ctx, k)
	l.wait()
	return it, err
}

func (l *latent) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	its, err := l.Store.GetMany(ctx, keys)
	l.wait()
	return its, err
}

func (l *latent) Query(ctx context.Context, q store.Query) (store.Page, error) {
	p, err := l.Store.Query(ctx, q)
	l.wait()
	return p, err
}
