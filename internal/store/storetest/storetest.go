// Package storetest is the conformance suite of the storage port: every
// adapter (bolt, dynamo) runs the same cases through Run, so "same
// semantics" is a checked claim, not a hope.
//
// The cases only use what the port promises. Times are given at millisecond
// precision (Expires at whole seconds: DynamoDB TTL is epoch seconds), keys are
// printable UTF-8, and reads of the due index are retried for a few seconds
// because a DynamoDB global secondary index is eventually consistent.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"croupier/internal/store"
)

// Run runs every conformance case as a subtest. open must return a fresh,
// empty store that no other subtest sees, and arrange its cleanup (t.Cleanup).
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper() // the summary line names the adapter's test file
	var adapter string
	opened := func(t *testing.T) store.Store {
		st := open(t)
		adapter = fmt.Sprintf("%T", st)
		return st
	}
	cases := []struct {
		name string
		fn   func(*testing.T, store.Store)
	}{
		{"ReadWrite", testReadWrite},
		{"KeysDoNotCollide", testKeysDoNotCollide},
		{"VersionConflict", testVersionConflict},
		{"AtomicMultiItem", testAtomicMultiItem},
		{"Idempotency", testIdempotency},
		{"ConcurrentWriters", testConcurrentWriters},
		{"ConcurrentIdempotency", testConcurrentIdempotency},
		{"DueIndex", testDueIndex},
		{"QueryPrefixPaging", testQueryPrefixPaging},
		{"OrderIndex", testOrderIndex},
		{"BadCursor", testBadCursor},
		{"Usage", testUsage},
		{"Validation", testValidation},
	}
	passed := 0
	for _, c := range cases {
		if t.Run(c.name, func(t *testing.T) { c.fn(t, opened(t)) }) {
			passed++
		}
	}
	// `make test` prints this line: proof the suite ran on each adapter.
	t.Logf("conformance: %d of %d storetest cases passed on %s", passed, len(cases), adapter)
}

// base is the suite's reference moment (millisecond precision on purpose).
var base = time.Date(2030, 1, 2, 3, 4, 5, 678_000_000, time.UTC)

func key(pk, sk string) store.Key { return store.Key{PK: pk, SK: sk} }

// put is a Put of data at k expecting version expect.
func put(k store.Key, data string, expect int64) store.Put {
	return store.Put{Item: store.Item{Key: k, Data: []byte(data)}, Expect: expect}
}

func commit(t *testing.T, s store.Store, tx store.Tx) {
	t.Helper()
	if err := s.Commit(context.Background(), tx); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func get(t *testing.T, s store.Store, k store.Key) store.Item {
	t.Helper()
	it, err := s.Get(context.Background(), k)
	if err != nil {
		t.Fatalf("get %s: %v", k, err)
	}
	if it.Key != k {
		t.Fatalf("get %s returned key %s", k, it.Key)
	}
	return it
}

// want asserts k is stored at version with data.
func want(t *testing.T, s store.Store, k store.Key, version int64, data string) {
	t.Helper()
	it := get(t, s, k)
	if it.Version != version || string(it.Data) != data {
		t.Fatalf("%s: got version %d data %q, want version %d data %q", k, it.Version, it.Data, version, data)
	}
}

// absent asserts k is not stored.
func absent(t *testing.T, s store.Store, k store.Key) {
	t.Helper()
	if it := get(t, s, k); it.Exists() || it.Data != nil {
		t.Fatalf("%s: exists at version %d (data %q), want absent", k, it.Version, it.Data)
	}
}

// conflictKeys asserts err is a version conflict and returns the keys named.
func conflictKeys(t *testing.T, err error) []store.Key {
	t.Helper()
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("got error %v, want a version conflict", err)
	}
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("conflict error %v (%T) is not a *store.ConflictError", err, err)
	}
	return ce.Keys
}

// wantConflictOn asserts err is a conflict naming exactly the keys given.
func wantConflictOn(t *testing.T, err error, keys ...store.Key) {
	t.Helper()
	got := conflictKeys(t, err)
	set := map[store.Key]bool{}
	for _, k := range got {
		set[k] = true
	}
	if len(set) != len(keys) {
		t.Fatalf("conflict names %v, want %v", got, keys)
	}
	for _, k := range keys {
		if !set[k] {
			t.Fatalf("conflict names %v, want %v", got, keys)
		}
	}
}

func wantInvalid(t *testing.T, err error, what string) {
	t.Helper()
	if !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("%s: got error %v, want ErrInvalid", what, err)
	}
}

// eventually retries check for a few seconds: the due index may be an
// eventually consistent secondary index.
func eventually(t *testing.T, check func() error) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
