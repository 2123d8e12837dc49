package dynamo_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"croupier/internal/store"
)

// TestGetManyChunksAndOrder asks for more keys than one BatchGetItem takes,
// with a repeat and missing keys, and expects answers in the order asked.
func TestGetManyChunksAndOrder(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	var puts []store.Put
	for i := range 60 {
		puts = append(puts, store.Put{Item: store.Item{Key: key("GAME#1", fmt.Sprintf("P%03d", i)), Data: []byte(fmt.Sprint(i))}})
	}
	for _, chunk := range [][]store.Put{puts[:30], puts[30:]} {
		if err := st.Commit(ctx, store.Tx{Puts: chunk}); err != nil {
			t.Fatal(err)
		}
	}
	var keys []store.Key
	for i := 149; i >= 0; i-- { // 150 keys, descending; 60..149 are missing
		keys = append(keys, key("GAME#1", fmt.Sprintf("P%03d", i)))
	}
	keys = append(keys, key("GAME#1", "P007"))
	var u store.Usage
	items, err := st.GetMany(store.WithUsage(ctx, &u), keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(keys) {
		t.Fatalf("got %d items for %d keys", len(items), len(keys))
	}
	for i, it := range items {
		if it.Key != keys[i] {
			t.Fatalf("item %d is %v, want %v", i, it.Key, keys[i])
		}
		var n int
		fmt.Sscanf(it.SK, "P%03d", &n)
		if wantExists := n < 60; it.Exists() != wantExists || (wantExists && string(it.Data) != fmt.Sprint(n)) {
			t.Errorf("item %v = version %d data %q", it.Key, it.Version, it.Data)
		}
	}
	if got := u.Snapshot().Requests; got != 2 {
		t.Errorf("150 distinct keys took %d requests, want 2", got)
	}
}

// TestQueryDueBoundAndOrder: the bound is inclusive to the nanosecond, and
// ties on Due order by PK then SK.
func TestQueryDueBoundAndOrder(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	t0 := time.Date(2026, 3, 8, 7, 59, 59, 999999999, time.UTC)
	items := []store.Item{
		{Key: key("GAME#2", "A"), Due: t0},
		{Key: key("GAME#1", "B"), Due: t0},
		{Key: key("GAME#1", "A"), Due: t0.Add(-time.Hour)},
		{Key: key("GAME#1", "LATE"), Due: t0.Add(time.Nanosecond)},
		{Key: key("GAME#1", "NODUE")},
	}
	for _, it := range items {
		if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: it}}}); err != nil {
			t.Fatal(err)
		}
	}
	due, err := st.QueryDue(ctx, t0.In(time.FixedZone("EST", -5*3600)), 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Key{key("GAME#1", "A"), key("GAME#1", "B"), key("GAME#2", "A")}
	if len(due) != len(want) {
		t.Fatalf("QueryDue = %d items %v, want %v", len(due), due, want)
	}
	for i, it := range due {
		if it.Key != want[i] || !it.Due.Equal(items[indexOf(items, want[i])].Due) {
			t.Errorf("due[%d] = %v at %v, want %v", i, it.Key, it.Due, want[i])
		}
	}
	if got, _ := st.QueryDue(ctx, t0, 2); len(got) != 2 {
		t.Errorf("QueryDue limit 2 returned %d items", len(got))
	}
}

func indexOf(items []store.Item, k store.Key) int {
	for i, it := range items {
		if it.Key == k {
			return i
		}
	}
	return -1
}

// TestRoundTripOptionalFields: Order, Due and Expires (with nanoseconds,
// although TTL holds whole seconds) read back as written; nil and empty Data
// are kept apart.
func TestRoundTripOptionalFields(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	exp := time.Date(2030, 1, 2, 3, 4, 5, 600, time.UTC)
	due := time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC)
	full := store.Item{Key: key("GAME#1", "FULL"), Data: []byte(`{"a":1}`), Order: "01J000", Due: due, Expires: exp}
	empty := store.Item{Key: key("GAME#1", "EMPTY"), Data: []byte{}}
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: full}, {Item: empty}}}); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetMany(ctx, []store.Key{full.Key, empty.Key})
	if err != nil {
		t.Fatal(err)
	}
	g := got[0]
	if g.Version != 1 || string(g.Data) != string(full.Data) || g.Order != full.Order || !g.Due.Equal(due) || !g.Expires.Equal(exp) {
		t.Errorf("read back %+v, want %+v at version 1", g, full)
	}
	if got[1].Data == nil || len(got[1].Data) != 0 {
		t.Errorf("empty data read back as %#v, want []byte{}", got[1].Data)
	}
	// Out-of-range times are refused before any request.
	bad := store.Item{Key: key("GAME#1", "BAD"), Due: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: bad}}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("due in year 10000: %v, want ErrInvalid", err)
	}
}

// TestQueryPagingExactNext: pages of 2 over 5 items; Next is empty exactly on
// the last page, also when the last page is full; cursors from another
// partition or garbage are ErrBadCursor.
func TestQueryPagingExactNext(t *testing.T) {
	st, ctx := open(t), ctxT(t)
	var puts []store.Put
	for i := range 4 {
		puts = append(puts, store.Put{Item: store.Item{Key: key("GAME#1", fmt.Sprintf("LOG#%d", i)), Order: fmt.Sprintf("%d", 9-i)}})
	}
	puts = append(puts, store.Put{Item: store.Item{Key: key("GAME#1", "META")}})
	if err := st.Commit(ctx, store.Tx{Puts: puts}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		q    store.Query
		want []string
	}{
		{"log ascending", store.Query{PK: "GAME#1", Prefix: "LOG#", Limit: 2}, []string{"LOG#0", "LOG#1", "LOG#2", "LOG#3"}},
		{"all descending", store.Query{PK: "GAME#1", Desc: true, Limit: 3}, []string{"META", "LOG#3", "LOG#2", "LOG#1", "LOG#0"}},
		{"order index", store.Query{PK: "GAME#1", Index: store.IndexOrder, Limit: 2}, []string{"LOG#3", "LOG#2", "LOG#1", "LOG#0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			q := tc.q
			for pages := 0; ; pages++ {
				if pages > 5 {
					t.Fatal("too many pages")
				}
				p, err := st.Query(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range p.Items {
					got = append(got, it.SK)
				}
				if p.Next == "" {
					if want := (len(tc.want) + q.Limit - 1) / q.Limit; pages+1 != want {
						t.Errorf("%d pages, want %d", pages+1, want)
					}
					break
				}
				q.Cursor = p.Next
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	p, err := st.Query(ctx, store.Query{PK: "GAME#1", Limit: 1})
	if err != nil || p.Next == "" {
		t.Fatalf("first page: %v, %v", p, err)
	}
	for _, q := range []store.Query{
		{PK: "GAME#2", Cursor: p.Next},
		{PK: "GAME#1", Cursor: "not a cursor!"},
		{PK: "GAME#1", Cursor: p.Next, Index: store.IndexOrder},
	} {
		if _, err := st.Query(ctx, q); !errors.Is(err, store.ErrBadCursor) {
			t.Errorf("Query(%+v) = %v, want ErrBadCursor", q, err)
		}
	}
}
