package storetest

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"croupier/internal/store"
)

func testReadWrite(t *testing.T, s store.Store) {
	ctx := context.Background()
	k := key("GAME#rw", "META")
	absent(t, s, k)

	due := base.Add(time.Hour)
	expires := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	first := store.Item{Key: k, Version: 99, Data: []byte(`{"n":1}`), Due: due, Order: "01ORDER", Expires: expires}
	commit(t, s, store.Tx{Puts: []store.Put{{Item: first}}})
	it := get(t, s, k)
	if it.Version != 1 {
		t.Fatalf("first write: version %d, want 1 (Item.Version must be ignored)", it.Version)
	}
	if string(it.Data) != `{"n":1}` || !it.Due.Equal(due) || it.Order != "01ORDER" || !it.Expires.Equal(expires) {
		t.Fatalf("read back %+v, want data, due %v, order, expires %v as written", it, due, expires)
	}

	for v := int64(1); v < 4; v++ {
		commit(t, s, store.Tx{Puts: []store.Put{put(k, fmt.Sprintf("v%d", v+1), v)}})
		want(t, s, k, v+1, fmt.Sprintf("v%d", v+1))
	}
	// A put replaces the whole item: fields not given are gone.
	if it := get(t, s, k); !it.Due.IsZero() || it.Order != "" || !it.Expires.IsZero() {
		t.Fatalf("after a plain put the item still has due %v order %q expires %v", it.Due, it.Order, it.Expires)
	}

	// Binary data survives as is, and a large item round-trips.
	bin := []byte{0, 1, 2, 0xFF, 0xFE, '"', '\\', 0}
	big := bytes.Repeat([]byte("0123456789abcdef"), store.MaxItemBytes/16)
	kb, kbig := key("GAME#rw", "BIN"), key("GAME#rw", "BIG")
	commit(t, s, store.Tx{Puts: []store.Put{{Item: store.Item{Key: kb, Data: bin}}, {Item: store.Item{Key: kbig, Data: big}}}})
	if it := get(t, s, kb); !bytes.Equal(it.Data, bin) {
		t.Fatalf("binary data read back as %v, want %v", it.Data, bin)
	}
	if it := get(t, s, kbig); !bytes.Equal(it.Data, big) {
		t.Fatalf("item of %d bytes read back as %d bytes", len(big), len(it.Data))
	}

	missing := key("GAME#rw", "NOPE")
	other := key("GAME#other", "META")
	commit(t, s, store.Tx{Puts: []store.Put{put(other, "o", 0)}})
	asked := []store.Key{other, missing, k, kb}
	got, err := s.GetMany(ctx, asked)
	if err != nil {
		t.Fatalf("get many: %v", err)
	}
	if len(got) != len(asked) {
		t.Fatalf("get many of %d keys returned %d items", len(asked), len(got))
	}
	wantV := []int64{1, 0, 4, 1}
	for i, it := range got {
		if it.Key != asked[i] || it.Version != wantV[i] {
			t.Fatalf("get many item %d: %s version %d, want %s version %d", i, it.Key, it.Version, asked[i], wantV[i])
		}
	}
	if string(got[0].Data) != "o" || got[1].Data != nil || string(got[2].Data) != "v4" {
		t.Fatalf("get many data: %q %q %q", got[0].Data, got[1].Data, got[2].Data)
	}
	if got, err := s.GetMany(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("get many of no keys: %v, %v; want nothing", got, err)
	}
}

// testKeysDoNotCollide writes keys whose naive concatenations or separators
// coincide; each must stay its own item.
func testKeysDoNotCollide(t *testing.T, s store.Store) {
	keys := []store.Key{
		key("a", "b|c"), key("a|b", "c"), key("a", "b/c"), key("a/b", "c"),
		key("GAME#q", "LOG#1"), key("GAME#qLOG#", "1"), key("GAME#", "qLOG#1"),
		key("é", "x"), key("e", "\u0301x"), key("A", "b|c"),
	}
	var puts []store.Put
	for i, k := range keys {
		puts = append(puts, put(k, fmt.Sprint(i), 0))
	}
	commit(t, s, store.Tx{Puts: puts})
	for i, k := range keys {
		want(t, s, k, 1, fmt.Sprint(i))
	}
	page, err := s.Query(context.Background(), store.Query{PK: "a"})
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	if len(page.Items) != 2 || page.Items[0].SK != "b/c" || page.Items[1].SK != "b|c" {
		t.Fatalf("partition a holds %v, want exactly b/c and b|c", page.Items)
	}
}

func testVersionConflict(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b, c := key("GAME#vc", "A"), key("GAME#vc", "B"), key("GAME#vc", "C")
	commit(t, s, store.Tx{Puts: []store.Put{put(a, "a1", 0), put(b, "b1", 0)}})
	commit(t, s, store.Tx{Puts: []store.Put{put(b, "b2", 1)}})

	// Expect 0 on an existing item, and a stale or future version.
	for _, expect := range []int64{0, 2, 7} {
		err := s.Commit(ctx, store.Tx{Puts: []store.Put{put(a, "lost", expect)}})
		wantConflictOn(t, err, a)
		want(t, s, a, 1, "a1")
	}

	// A stale Check fails the whole transaction, and only it is named.
	err := s.Commit(ctx, store.Tx{
		Puts:   []store.Put{put(a, "a2", 1), put(c, "c1", 0)},
		Checks: []store.Check{{Key: b, Version: 1}},
	})
	wantConflictOn(t, err, b)
	want(t, s, a, 1, "a1")
	absent(t, s, c)

	// Several failing conditions are all named.
	err = s.Commit(ctx, store.Tx{
		Puts:   []store.Put{put(a, "a2", 3), put(c, "c1", 0)},
		Checks: []store.Check{{Key: b, Version: 1}},
	})
	wantConflictOn(t, err, a, b)

	// Check 0 holds for an absent item, fails for an existing one.
	commit(t, s, store.Tx{Puts: []store.Put{put(a, "a2", 1)}, Checks: []store.Check{{Key: c, Version: 0}, {Key: b, Version: 2}}})
	want(t, s, a, 2, "a2")
	err = s.Commit(ctx, store.Tx{Puts: []store.Put{put(c, "c1", 0)}, Checks: []store.Check{{Key: a, Version: 0}}})
	wantConflictOn(t, err, a)
	absent(t, s, c)

	// Deletes carry the version read.
	err = s.Commit(ctx, store.Tx{Deletes: []store.Check{{Key: a, Version: 1}}})
	wantConflictOn(t, err, a)
	want(t, s, a, 2, "a2")
	err = s.Commit(ctx, store.Tx{Deletes: []store.Check{{Key: c, Version: 1}}})
	wantConflictOn(t, err, c)
}

func testAtomicMultiItem(t *testing.T, s store.Store) {
	ctx := context.Background()
	guard := key("GAME#atomic", "GUARD")
	commit(t, s, store.Tx{Puts: []store.Put{put(guard, "g", 0)}})

	for _, n := range []int{30, 100} {
		var keys []store.Key
		var puts []store.Put
		for i := 0; i < n-1; i++ {
			k := key(fmt.Sprintf("GAME#atomic%d", i%3), fmt.Sprintf("N%d#%03d", n, i))
			keys = append(keys, k)
			puts = append(puts, put(k, fmt.Sprint(i), 0))
		}
		// One bad condition, last in the transaction: nothing may apply.
		err := s.Commit(ctx, store.Tx{Puts: puts, Checks: []store.Check{{Key: guard, Version: 5}}})
		wantConflictOn(t, err, guard)
		got, err := s.GetMany(ctx, keys)
		if err != nil {
			t.Fatalf("get many: %v", err)
		}
		for _, it := range got {
			if it.Exists() {
				t.Fatalf("%d-item transaction failed but %s was written", n, it.Key)
			}
		}
		// The same transaction with a good condition applies entirely.
		commit(t, s, store.Tx{Puts: puts, Checks: []store.Check{{Key: guard, Version: 1}}})
		got, err = s.GetMany(ctx, keys)
		if err != nil {
			t.Fatalf("get many: %v", err)
		}
		for i, it := range got {
			if it.Version != 1 || string(it.Data) != fmt.Sprint(i) {
				t.Fatalf("%d-item transaction: %s at version %d data %q", n, it.Key, it.Version, it.Data)
			}
		}
	}

	// 101 operations are refused before anything is written.
	var puts []store.Put
	for i := 0; i <= store.MaxTxItems; i++ {
		puts = append(puts, put(key("GAME#atomic", fmt.Sprintf("TOO#%03d", i)), "x", 0))
	}
	wantInvalid(t, s.Commit(ctx, store.Tx{Puts: puts}), "101 operations")
	absent(t, s, puts[0].Item.Key)

	// A key twice in one transaction is malformed, whatever the operations.
	x := key("GAME#atomic", "X")
	wantInvalid(t, s.Commit(ctx, store.Tx{Puts: []store.Put{put(x, "1", 0), put(x, "2", 0)}}), "key put twice")
	wantInvalid(t, s.Commit(ctx, store.Tx{Puts: []store.Put{put(x, "1", 0)}, Checks: []store.Check{{Key: x}}}), "key put and checked")
	absent(t, s, x)

	// Deletes and puts in one transaction.
	a, b, c := key("GAME#del", "A"), key("GAME#del", "B"), key("GAME#del", "C")
	commit(t, s, store.Tx{Puts: []store.Put{put(a, "a", 0), put(b, "b", 0), put(c, "c", 0)}})
	commit(t, s, store.Tx{Deletes: []store.Check{{Key: a, Version: 1}, {Key: b, Version: 1}}, Puts: []store.Put{put(c, "c2", 1)}})
	absent(t, s, a)
	absent(t, s, b)
	want(t, s, c, 2, "c2")
	// A deleted item starts again at version 1.
	commit(t, s, store.Tx{Puts: []store.Put{put(a, "again", 0)}})
	want(t, s, a, 1, "again")
	// A failing delete leaves the others in its transaction undone.
	err := s.Commit(ctx, store.Tx{Deletes: []store.Check{{Key: a, Version: 1}, {Key: c, Version: 1}}})
	wantConflictOn(t, err, c)
	want(t, s, a, 1, "again")
}

func testValidation(t *testing.T, s store.Store) {
	ctx := context.Background()
	ok := key("GAME#val", "OK")
	huge := make([]byte, store.MaxItemBytes+1)
	bad := []struct {
		name string
		tx   store.Tx
	}{
		{"empty transaction", store.Tx{}},
		{"empty PK", store.Tx{Puts: []store.Put{put(ok, "x", 0), put(key("", "SK"), "x", 0)}}},
		{"empty SK", store.Tx{Puts: []store.Put{put(ok, "x", 0), put(key("GAME#val", ""), "x", 0)}}},
		{"empty check key", store.Tx{Puts: []store.Put{put(ok, "x", 0)}, Checks: []store.Check{{}}}},
		{"oversized data", store.Tx{Puts: []store.Put{put(ok, "x", 0), {Item: store.Item{Key: key("GAME#val", "BIG"), Data: huge}}}}},
		{"negative expect", store.Tx{Puts: []store.Put{put(ok, "x", -1)}}},
		{"delete without version", store.Tx{Puts: []store.Put{put(ok, "x", 0)}, Deletes: []store.Check{{Key: key("GAME#val", "D")}}}},
		{"idempotency key not put", store.Tx{Puts: []store.Put{put(ok, "x", 0)}, Idem: &store.Key{PK: "GAME#val", SK: "IDEM"}}},
		{"idempotency record not new", store.Tx{Puts: []store.Put{put(ok, "x", 1)}, Idem: &ok}},
	}
	for _, c := range bad {
		wantInvalid(t, s.Commit(ctx, c.tx), c.name)
		absent(t, s, ok)
	}
	_, err := s.Get(ctx, key("", "SK"))
	wantInvalid(t, err, "get with empty PK")
	_, err = s.GetMany(ctx, []store.Key{ok, key("GAME#val", "")})
	wantInvalid(t, err, "get many with empty SK")
	_, err = s.Query(ctx, store.Query{})
	wantInvalid(t, err, "query without PK")
	_, err = s.Query(ctx, store.Query{PK: "GAME#val", Limit: -1})
	wantInvalid(t, err, "query with negative limit")
	_, err = s.QueryDue(ctx, base, -1)
	wantInvalid(t, err, "due query with negative limit")
}

func testUsage(t *testing.T, s store.Store) {
	var u store.Usage
	ctx := store.WithUsage(context.Background(), &u)
	k, l := key("GAME#use", "META"), key("GAME#use", "LOG#1")

	if _, err := s.Get(ctx, k); err != nil {
		t.Fatal(err)
	}
	afterGet := u.Snapshot()
	if afterGet.Requests < 1 || afterGet.ReadUnits <= 0 {
		t.Fatalf("after a get: %+v, want at least 1 request and some read units", &afterGet)
	}
	if err := s.Commit(ctx, store.Tx{Puts: []store.Put{put(k, "m", 0), put(l, "l", 0)}, Idem: &l}); err != nil {
		t.Fatal(err)
	}
	afterCommit := u.Snapshot()
	if afterCommit.Requests <= afterGet.Requests || afterCommit.ItemsWritten-afterGet.ItemsWritten != 2 {
		t.Fatalf("after a 2-item commit: %+v (before %+v), want one more request and 2 items written", &afterCommit, &afterGet)
	}
	// Two small items in a transaction cost 2 write units each on AWS.
	if w := afterCommit.WriteUnits - afterGet.WriteUnits; w < 4 {
		t.Fatalf("2-item transaction priced at %v write units, want at least 4", w)
	}
	if _, err := s.Query(ctx, store.Query{PK: "GAME#use"}); err != nil {
		t.Fatal(err)
	}
	afterQuery := u.Snapshot()
	if afterQuery.Requests <= afterCommit.Requests || afterQuery.ItemsRead-afterCommit.ItemsRead != 2 {
		t.Fatalf("after a query of 2 items: %+v (before %+v)", &afterQuery, &afterCommit)
	}
	// Calls without a Usage in the context still work.
	if _, err := s.Get(context.Background(), k); err != nil {
		t.Fatal(err)
	}
	if u.Snapshot() != afterQuery {
		t.Fatalf("a call without usage in its context changed the counters")
	}
}
