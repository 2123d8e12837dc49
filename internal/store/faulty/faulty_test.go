package faulty_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/faulty"
	"croupier/internal/store/storetest"
)

func openBolt(t *testing.T) store.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// With every rate at zero the wrapper is the store: the conformance suite
// passes through it.
func TestConformanceWithoutFaults(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return faulty.New(openBolt(t), 1, faulty.Rates{}) })
}

func put(k string) store.Tx {
	return store.Tx{Puts: []store.Put{{Item: store.Item{Key: store.Key{PK: "GAME#f", SK: k}, Data: []byte(`{}`)}}}}
}

// Each kind does what it says: a conflict and a throttle write nothing, a
// timeout writes and then fails, a lost read reads and then fails; each is
// counted, and SetEnabled(false) stops them.
func TestEachKind(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		kind    string
		rates   faulty.Rates
		commit  bool // inject on Commit (else on Get)
		written bool
	}{
		{faulty.Conflict, faulty.Rates{Conflict: 1}, true, false},
		{faulty.Throttle, faulty.Rates{Throttle: 1}, true, false},
		{faulty.Timeout, faulty.Rates{Timeout: 1}, true, true},
		{faulty.LostRead, faulty.Rates{LostRead: 1}, false, false},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			raw := openBolt(t)
			f := faulty.New(raw, 1, c.rates)
			k := store.Key{PK: "GAME#f", SK: "X"}
			if c.commit {
				err := f.Commit(ctx, put("X"))
				if c.kind == faulty.Conflict {
					var ce *store.ConflictError
					if !errors.As(err, &ce) || errors.Is(err, faulty.ErrInjected) {
						t.Fatalf("commit: %v, want a plain *store.ConflictError", err)
					}
				} else if !errors.Is(err, faulty.ErrInjected) {
					t.Fatalf("commit: %v, want an injected transient error", err)
				}
				it, _ := raw.Get(ctx, k)
				if it.Exists() != c.written {
					t.Fatalf("after an injected %s the item exists: %v, want %v", c.kind, it.Exists(), c.written)
				}
			} else {
				if err := raw.Commit(ctx, put("X")); err != nil {
					t.Fatal(err)
				}
				if _, err := f.Get(ctx, k); !errors.Is(err, faulty.ErrInjected) {
					t.Fatalf("get: %v, want an injected transient error", err)
				}
			}
			if n := f.Counts()[c.kind]; n != 1 || f.Total() != 1 {
				t.Fatalf("counts %v, want one %s", f.Counts(), c.kind)
			}
			f.SetEnabled(false)
			if err := f.Commit(ctx, put("Y")); err != nil {
				t.Fatalf("disabled, commit: %v", err)
			}
			if _, err := f.Get(ctx, k); err != nil {
				t.Fatalf("disabled, get: %v", err)
			}
		})
	}
}

// The same seed makes the same decisions for the same calls.
func TestSeedReproducible(t *testing.T) {
	ctx := context.Background()
	run := func() []bool {
		f := faulty.New(openBolt(t), 42, faulty.Rates{Throttle: 0.5})
		var out []bool
		for range 64 {
			_, err := f.Get(ctx, store.Key{PK: "GAME#f", SK: "X"})
			out = append(out, err != nil)
		}
		return out
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("call %d: %v then %v with the same seed", i, a[i], b[i])
		}
	}
}
