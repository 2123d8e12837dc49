package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"croupier/internal/store"
)

// wantDuplicate asserts err reports a repeat of idem, carrying the stored
// record with data, and returns that record.
func wantDuplicate(t *testing.T, err error, idem store.Key, data string) store.Item {
	t.Helper()
	if !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("got error %v, want a duplicate", err)
	}
	if errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate %v also reports a conflict", err)
	}
	var de *store.DuplicateError
	if !errors.As(err, &de) {
		t.Fatalf("duplicate error %v (%T) is not a *store.DuplicateError", err, err)
	}
	if de.Item.Key != idem || de.Item.Version != 1 || (data != "" && string(de.Item.Data) != data) {
		t.Fatalf("duplicate carries %s version %d data %q, want %s version 1 data %q", de.Item.Key, de.Item.Version, de.Item.Data, idem, data)
	}
	return de.Item
}

func testIdempotency(t *testing.T, s store.Store) {
	ctx := context.Background()
	idem := key("GAME#idem", "LOG#cmd-1")
	state := key("GAME#idem", "PLAYER#ann")
	other := key("GAME#idem", "PLAYER#bob")

	commit(t, s, store.Tx{Puts: []store.Put{put(idem, "response-1", 0), put(state, "s1", 0)}, Idem: &idem})

	// A repeat with different other writes applies nothing.
	err := s.Commit(ctx, store.Tx{Puts: []store.Put{put(idem, "response-2", 0), put(other, "b1", 0)}, Idem: &idem})
	wantDuplicate(t, err, idem, "response-1")
	absent(t, s, other)
	want(t, s, idem, 1, "response-1")

	// A repeat whose other writes would conflict is still a duplicate.
	err = s.Commit(ctx, store.Tx{
		Puts:   []store.Put{put(idem, "response-3", 0), put(state, "s2", 0)},
		Checks: []store.Check{{Key: other, Version: 4}},
		Idem:   &idem,
	})
	wantDuplicate(t, err, idem, "response-1")
	want(t, s, state, 1, "s1")

	// The record alone (a log entry doubling as the idempotency record).
	solo := key("GAME#idem", "LOG#cmd-2")
	commit(t, s, store.Tx{Puts: []store.Put{put(solo, "response-solo", 0)}, Idem: &solo})
	wantDuplicate(t, s.Commit(ctx, store.Tx{Puts: []store.Put{put(solo, "again", 0)}, Idem: &solo}), solo, "response-solo")

	// Without Idem, an existing item at Expect 0 is an ordinary conflict.
	wantConflictOn(t, s.Commit(ctx, store.Tx{Puts: []store.Put{put(solo, "again", 0)}}), solo)
}

// testConcurrentWriters runs read-modify-write loops on one counter: every
// increment must land exactly once (no lost update), however the store
// schedules them.
func testConcurrentWriters(t *testing.T, s store.Store) {
	const workers, each = 20, 5
	ctx := context.Background()
	counter := key("GAME#race", "COUNTER")
	commit(t, s, store.Tx{Puts: []store.Put{put(counter, "0", 0)}})

	var mu sync.Mutex
	conflicts := 0
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				for attempt := 0; ; attempt++ {
					if attempt == 1000 {
						errs <- fmt.Errorf("worker gave up after %d conflicts", attempt)
						return
					}
					it, err := s.Get(ctx, counter)
					if err != nil {
						errs <- err
						return
					}
					n, err := strconv.Atoi(string(it.Data))
					if err != nil {
						errs <- fmt.Errorf("counter holds %q: %v", it.Data, err)
						return
					}
					err = s.Commit(ctx, store.Tx{Puts: []store.Put{put(counter, strconv.Itoa(n+1), it.Version)}})
					if errors.Is(err, store.ErrConflict) {
						mu.Lock()
						conflicts++
						mu.Unlock()
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	want(t, s, counter, workers*each+1, strconv.Itoa(workers*each))
	t.Logf("%d increments, %d conflicts retried", workers*each, conflicts)
}

// testConcurrentIdempotency commits one idempotency key from many goroutines
// at once: exactly one wins, every other sees the winner's record.
func testConcurrentIdempotency(t *testing.T, s store.Store) {
	const racers = 10
	ctx := context.Background()
	idem := key("GAME#idemrace", "LOG#same-command")
	start := make(chan struct{})
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := 0; i < racers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = s.Commit(ctx, store.Tx{
				Puts: []store.Put{put(idem, fmt.Sprintf("racer-%d", i), 0), put(key("GAME#idemrace", fmt.Sprintf("SIDE#%d", i)), "x", 0)},
				Idem: &idem,
			})
		}()
	}
	close(start)
	wg.Wait()

	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("racers %d and %d both committed idempotency key %s", winner, i, idem)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatalf("no racer committed: %v", errs)
	}
	data := fmt.Sprintf("racer-%d", winner)
	want(t, s, idem, 1, data)
	for i, err := range errs {
		side := key("GAME#idemrace", fmt.Sprintf("SIDE#%d", i))
		if i == winner {
			want(t, s, side, 1, "x")
			continue
		}
		wantDuplicate(t, err, idem, data)
		absent(t, s, side)
	}
}
