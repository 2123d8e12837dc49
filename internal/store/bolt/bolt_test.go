package bolt

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/store"
	"croupier/internal/store/storetest"
)

// openTemp opens a fresh store in the test's temporary directory.
func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "nested", "dir", "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t) })
}

func TestOpenLockedFile(t *testing.T) {
	s := openTemp(t)
	start := time.Now()
	_, err := Open(s.Path())
	if err == nil || !strings.Contains(err.Error(), "in use by another croupier process") || !strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("second open of %s: %v, want an 'in use' error naming the file", s.Path(), err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("second open took %v to fail", d)
	}
}

func TestReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	ctx := context.Background()
	k := store.Key{PK: "GAME#1", SK: "META"}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	due := time.Date(2030, 1, 1, 0, 0, 0, 1, time.UTC)
	if err := s.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte("kept"), Due: due}}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	it, err := s.Get(ctx, k)
	if err != nil || string(it.Data) != "kept" || it.Version != 1 || !it.Due.Equal(due) {
		t.Fatalf("after reopen: %+v, %v", it, err)
	}
}

// Bytes DynamoDB would accept but naive key concatenation would confuse:
// NUL inside keys and a PK that is a byte prefix of another.
func TestKeysWithNUL(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	keys := []store.Key{{PK: "a", SK: "\x00b"}, {PK: "a\x00", SK: "b"}, {PK: "a\x00b", SK: "c"}, {PK: "a", SK: "\x00bc"}}
	var puts []store.Put
	for i, k := range keys {
		puts = append(puts, store.Put{Item: store.Item{Key: k, Data: []byte{byte('0' + i)}, Due: time.Unix(0, 0), Order: "\x00" + k.SK}})
	}
	if err := s.Commit(ctx, store.Tx{Puts: puts}); err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		it, err := s.Get(ctx, k)
		if err != nil || string(it.Data) != string(rune('0'+i)) {
			t.Fatalf("%q: %+v %v", k, it, err)
		}
	}
	for _, ix := range []store.Index{store.IndexMain, store.IndexOrder} {
		page, err := s.Query(ctx, store.Query{PK: "a", Index: ix})
		if err != nil || len(page.Items) != 2 || page.Items[0].SK != "\x00b" || page.Items[1].SK != "\x00bc" {
			t.Fatalf("index %d of partition a: %+v %v", ix, page.Items, err)
		}
	}
	due, err := s.QueryDue(ctx, time.Unix(0, 0), 0)
	if err != nil || len(due) != 4 || due[0].PK != "a" || due[2].PK != "a\x00" || due[3].PK != "a\x00b" {
		t.Fatalf("due: %+v %v", due, err)
	}
}

// The bolt store knows exactly when a page is the last one, so it never
// hands out a cursor to an empty page.
func TestNoEmptyLastPage(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var puts []store.Put
	for _, sk := range []string{"A", "B", "C", "D"} {
		puts = append(puts, store.Put{Item: store.Item{Key: store.Key{PK: "P", SK: sk}}})
	}
	if err := s.Commit(ctx, store.Tx{Puts: puts}); err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		p1, err := s.Query(ctx, store.Query{PK: "P", Limit: 2, Desc: desc})
		if err != nil || len(p1.Items) != 2 || p1.Next == "" {
			t.Fatalf("page 1: %+v %v", p1, err)
		}
		p2, err := s.Query(ctx, store.Query{PK: "P", Limit: 2, Desc: desc, Cursor: p1.Next})
		if err != nil || len(p2.Items) != 2 || p2.Next != "" {
			t.Fatalf("page 2 (desc %v): %d items next %q %v; want 2 items and no cursor", desc, len(p2.Items), p2.Next, err)
		}
	}
}

// A cursor stays valid when the item it points at is deleted meanwhile.
func TestCursorAfterDelete(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		desc bool
		del  string
		want string
	}{{false, "B", "CD"}, {true, "D", "CB"}} {
		s := openTemp(t)
		var puts []store.Put
		for _, sk := range []string{"A", "B", "C", "D", "E"} {
			puts = append(puts, store.Put{Item: store.Item{Key: store.Key{PK: "P", SK: sk}}})
		}
		if err := s.Commit(ctx, store.Tx{Puts: puts}); err != nil {
			t.Fatal(err)
		}
		p1, err := s.Query(ctx, store.Query{PK: "P", Limit: 2, Desc: c.desc})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(ctx, store.Tx{Deletes: []store.Check{{Key: store.Key{PK: "P", SK: c.del}, Version: 1}}}); err != nil {
			t.Fatal(err)
		}
		p2, err := s.Query(ctx, store.Query{PK: "P", Limit: 2, Desc: c.desc, Cursor: p1.Next})
		if err != nil || len(p2.Items) != 2 || p2.Items[0].SK+p2.Items[1].SK != c.want {
			t.Fatalf("desc %v after deleting %s: %+v %v, want %s", c.desc, c.del, p2.Items, err, c.want)
		}
	}
}

func TestSweepDeletesExpired(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	gone := store.Key{PK: "P", SK: "OLD"}
	kept := store.Key{PK: "P", SK: "NEW"}
	forever := store.Key{PK: "P", SK: "FOREVER"}
	err := s.Commit(ctx, store.Tx{Puts: []store.Put{
		{Item: store.Item{Key: gone, Expires: now, Due: now, Order: "o1"}},
		{Item: store.Item{Key: kept, Expires: now.Add(time.Second), Order: "o2"}},
		{Item: store.Item{Key: forever}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	// Expired but not swept: still readable, as on DynamoDB before TTL runs.
	if it, _ := s.Get(ctx, gone); !it.Exists() {
		t.Fatal("expired item vanished before the sweep")
	}
	n, err := s.Sweep(ctx, now)
	if err != nil || n != 1 {
		t.Fatalf("sweep: %d, %v; want 1", n, err)
	}
	if it, _ := s.Get(ctx, gone); it.Exists() {
		t.Fatal("expired item survived the sweep")
	}
	due, _ := s.QueryDue(ctx, now, 0)
	page, _ := s.Query(ctx, store.Query{PK: "P", Index: store.IndexOrder})
	if len(due) != 0 || len(page.Items) != 1 || page.Items[0].Key != kept {
		t.Fatalf("indexes after sweep: due %v, order %v", due, page.Items)
	}
}

func TestUsageMatchesAWSPricing(t *testing.T) {
	s := openTemp(t)
	var u store.Usage
	ctx := store.WithUsage(context.Background(), &u)
	k := store.Key{PK: "GAME#1", SK: "BIG"}
	// 3000 bytes: 3 write units alone, 6 in a transaction.
	data := make([]byte, 3000)
	if err := s.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data}}}}); err != nil {
		t.Fatal(err)
	}
	if got := u.Snapshot(); got.WriteUnits != 3 || got.Requests != 1 || got.ItemsWritten != 1 {
		t.Fatalf("single put: %+v, want 3 write units", &got)
	}
	err := s.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data}, Expect: 1}},
		Checks: []store.Check{{Key: store.Key{PK: "GAME#1", SK: "META"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := u.Snapshot(); got.WriteUnits != 3+6 || got.ItemsRead != 1 || got.ReadUnits != 2 {
		t.Fatalf("put + check: %+v, want 9 write units and a 2-unit transactional read", &got)
	}
	dup := store.Key{PK: "GAME#1", SK: "LOG#1"}
	tx := store.Tx{Puts: []store.Put{{Item: store.Item{Key: dup}}}, Idem: &dup}
	if err := s.Commit(ctx, tx); err != nil {
		t.Fatal(err)
	}
	before := u.Snapshot()
	if err := s.Commit(ctx, tx); !errors.Is(err, store.ErrDuplicate) {
		t.Fatal(err)
	}
	if after := u.Snapshot(); after.ItemsWritten != before.ItemsWritten {
		t.Fatalf("a duplicate counted %d items written", after.ItemsWritten-before.ItemsWritten)
	}
}

// An audit opens a store file for reading only: it reads what a writer
// committed, refuses every commit (the file is unchanged), shares the file
// with other readers, waits for no writer, and never creates a file.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x.db")
	if _, err := OpenReadOnly(path); err == nil || !strings.Contains(err.Error(), "no store at "+path) {
		t.Fatalf("read-only open of a missing file: %v, want 'no store at'", err)
	}
	k := store.Key{PK: "GAME#1", SK: "META"}
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte("kept")}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenReadOnly(path); err == nil || !strings.Contains(err.Error(), "in use by another croupier process") {
		t.Fatalf("read-only open while a writer holds the file: %v, want 'in use'", err)
	}
	w.Close()
	r1, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("a second reader: %v", err)
	}
	defer r2.Close()
	it, err := r2.Get(ctx, k)
	if err != nil || string(it.Data) != "kept" {
		t.Fatalf("read-only Get: %+v, %v", it, err)
	}
	err = r1.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte("changed")}, Expect: 1}}})
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), "for reading only") {
		t.Fatalf("commit to a read-only store: %v, want ErrInvalid 'for reading only'", err)
	}
	if it, _ := r1.Get(ctx, k); string(it.Data) != "kept" || it.Version != 1 {
		t.Fatalf("after a refused commit: %+v", it)
	}
}
