package dynamo_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/store/storetest"
	"croupier/internal/testenv"
)

// TestConformance runs the port's conformance suite on DynamoDB Local.
func TestConformance(t *testing.T) { storetest.Run(t, open) }

// open returns a Store on a fresh table of DynamoDB Local.
func open(t *testing.T) store.Store {
	t.Helper()
	c, table := testenv.DynamoTable(t, "store-"+t.Name())
	return dynamo.New(c, table)
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func key(pk, sk string) store.Key { return store.Key{PK: pk, SK: sk} }

func conflictKeys(t *testing.T, err error) []store.Key {
	t.Helper()
	var ce *store.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v (%T), want *store.ConflictError", err, err)
	}
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("errors.Is(%v, ErrConflict) is false", err)
	}
	return ce.Keys
}

func TestSinglePutConflictNamesKey(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	k := key("GAME#1", "META")
	put := func(expect int64, data string) error {
		return st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte(data)}, Expect: expect}}})
	}
	if err := put(0, "v1"); err != nil {
		t.Fatalf("first put: %v", err)
	}
	if got := conflictKeys(t, put(0, "again")); len(got) != 1 || got[0] != k {
		t.Errorf("create-over-existing conflict keys = %v, want [%v]", got, k)
	}
	if got := conflictKeys(t, put(5, "stale")); len(got) != 1 || got[0] != k {
		t.Errorf("stale-version conflict keys = %v, want [%v]", got, k)
	}
	if err := put(1, "v2"); err != nil {
		t.Fatalf("put at version 1: %v", err)
	}
	it, err := st.Get(ctx, k)
	if err != nil || it.Version != 2 || string(it.Data) != "v2" {
		t.Fatalf("Get = %+v, %v; want version 2 data v2", it, err)
	}
}

func TestTransactionConflictNamesOnlyFailedKeys(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	a, b, c := key("GAME#1", "A"), key("GAME#1", "B"), key("GAME#2", "C")
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{
		{Item: store.Item{Key: a, Data: []byte("a")}},
		{Item: store.Item{Key: b, Data: []byte("b")}},
	}}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	// a is at version 1 (good), b is claimed absent (stale), c is checked at
	// version 3 but is absent (stale).
	err := st.Commit(ctx, store.Tx{
		Puts:   []store.Put{{Item: store.Item{Key: a, Data: []byte("a2")}, Expect: 1}, {Item: store.Item{Key: b}, Expect: 0}},
		Checks: []store.Check{{Key: c, Version: 3}},
	})
	got := conflictKeys(t, err)
	if len(got) != 2 || got[0] != b || got[1] != c {
		t.Errorf("conflict keys = %v, want [%v %v]", got, b, c)
	}
	it, err := st.Get(ctx, a)
	if err != nil || it.Version != 1 || string(it.Data) != "a" {
		t.Errorf("after a failed tx, a = %+v, %v; want untouched version 1", it, err)
	}
	// A stale delete conflicts too.
	got = conflictKeys(t, st.Commit(ctx, store.Tx{
		Puts:    []store.Put{{Item: store.Item{Key: c}}},
		Deletes: []store.Check{{Key: a, Version: 7}},
	}))
	if len(got) != 1 || got[0] != a {
		t.Errorf("stale delete conflict keys = %v, want [%v]", got, a)
	}
}

func TestDuplicateCarriesStoredRecord(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	idem := key("GAME#1", "IDEM#cmd-1")
	tx := func(result string, metaExpect int64) store.Tx {
		return store.Tx{
			Puts: []store.Put{
				{Item: store.Item{Key: key("GAME#1", "META"), Data: []byte(result)}, Expect: metaExpect},
				{Item: store.Item{Key: idem, Data: []byte(result)}},
			},
			Idem: &idem,
		}
	}
	if err := st.Commit(ctx, tx("first", 0)); err != nil {
		t.Fatalf("first commit: %v", err)
	}
	// The repeat is stale on META too; the duplicate must win over the conflict.
	err := st.Commit(ctx, tx("second", 0))
	var de *store.DuplicateError
	if !errors.As(err, &de) || !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("repeat = %v, want *store.DuplicateError", err)
	}
	if de.Item.Key != idem || de.Item.Version != 1 || string(de.Item.Data) != "first" {
		t.Errorf("duplicate carries %+v, want the first record (version 1, data first)", de.Item)
	}
}

func TestUsageTransactionalWriteUnits(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	var u store.Usage
	ctx = store.WithUsage(ctx, &u)
	// Two items of just under 1 KB each: 1 unit alone, 2 in a transaction.
	data := bytes.Repeat([]byte("x"), 900)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{
		{Item: store.Item{Key: key("GAME#1", "A"), Data: data}},
		{Item: store.Item{Key: key("GAME#1", "B"), Data: data}},
	}}); err != nil {
		t.Fatal(err)
	}
	got := u.Snapshot()
	if got.Requests != 1 || got.ItemsWritten != 2 || got.WriteUnits != 4 {
		t.Errorf("transaction of two 1 KB items: %+v, want 1 request, 2 items, 4 write units", got)
	}
	if got.ReportedUnits <= 0 {
		t.Errorf("ReportedUnits = %v, want DynamoDB's consumed capacity (> 0)", got.ReportedUnits)
	}
	var single store.Usage
	if err := st.Commit(store.WithUsage(ctx, &single), store.Tx{Puts: []store.Put{
		{Item: store.Item{Key: key("GAME#1", "C"), Data: data}},
	}}); err != nil {
		t.Fatal(err)
	}
	if s := single.Snapshot(); s.WriteUnits != 1 || s.ItemsWritten != 1 {
		t.Errorf("single PutItem of a 1 KB item: %+v, want 1 write unit", s)
	}
	var reads store.Usage
	if _, err := st.Get(store.WithUsage(ctx, &reads), key("GAME#1", "A")); err != nil {
		t.Fatal(err)
	}
	if r := reads.Snapshot(); r.Requests != 1 || r.ItemsRead != 1 || r.ReadUnits != 1 {
		t.Errorf("Get of a 1 KB item: %+v, want 1 request, 1 item, 1 read unit", r)
	}
}

// TestConcurrentCounterNoLostUpdate: 50 writers each add one to a counter by
// read, modify, conditional write, retrying on conflict. Any lost update
// would leave the counter short.
func TestConcurrentCounterNoLostUpdate(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	k := key("GAME#1", "COUNTER")
	const writers = 50
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for attempt := 0; ; attempt++ {
				if attempt > 500 {
					errs <- fmt.Errorf("writer %d: still conflicting after %d attempts", w, attempt)
					return
				}
				it, err := st.Get(ctx, k)
				if err != nil {
					errs <- err
					return
				}
				n := 0
				if it.Exists() {
					n, _ = strconv.Atoi(string(it.Data))
				}
				// Half the writers go through a transaction (with a Check on
				// an absent item), half through the single-PutItem path.
				tx := store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte(strconv.Itoa(n + 1))}, Expect: it.Version}}}
				if w%2 == 1 {
					tx.Checks = []store.Check{{Key: key("GAME#1", "NOBODY")}}
				}
				err = st.Commit(ctx, tx)
				if errors.Is(err, store.ErrConflict) {
					continue
				}
				if err != nil {
					errs <- err
				}
				return
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	it, err := st.Get(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	if string(it.Data) != strconv.Itoa(writers) || it.Version != writers {
		t.Errorf("counter = %q at version %d, want %d at version %d", it.Data, it.Version, writers, writers)
	}
}
