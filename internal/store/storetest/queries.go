package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/order"
	"croupier/internal/store"
)

func testDueIndex(t *testing.T, s store.Store) {
	ctx := context.Background()
	until := base.Add(2 * time.Minute)
	dueAt := map[store.Key]time.Time{
		key("GAME#p2", "TIMER#a"): base,
		key("GAME#p0", "TIMER#z"): base.Add(time.Minute),
		key("GAME#p1", "TIMER#b"): base.Add(time.Minute),
		key("GAME#p1", "TIMER#a"): base.Add(time.Minute),
		key("GAME#p3", "TIMER#x"): until, // due exactly at until: included
		key("GAME#p3", "TIMER#y"): until.Add(time.Millisecond),
		key("GAME#p4", "TIMER#w"): base.Add(-48 * time.Hour),
	}
	var puts []store.Put
	for k, d := range dueAt {
		puts = append(puts, store.Put{Item: store.Item{Key: k, Data: []byte("d:" + k.String()), Due: d}})
	}
	puts = append(puts, put(key("GAME#p1", "TIMER#none"), "not due", 0))
	commit(t, s, store.Tx{Puts: puts})

	// dueList checks QueryDue(until, limit) returns exactly keys, in order.
	dueList := func(until time.Time, limit int, keys ...store.Key) func() error {
		return func() error {
			items, err := s.QueryDue(ctx, until, limit)
			if err != nil {
				return fmt.Errorf("query due: %w", err)
			}
			var got []store.Key
			for _, it := range items {
				got = append(got, it.Key)
				d, ok := dueAt[it.Key]
				if !ok {
					return fmt.Errorf("query due until %v returned %s (due %v), which is not in the due index", until, it.Key, it.Due)
				}
				if !it.Due.Equal(d) || it.Version < 1 || string(it.Data) != "d:"+it.Key.String() {
					return fmt.Errorf("due item %s: due %v version %d data %q, want due %v and its data", it.Key, it.Due, it.Version, it.Data, d)
				}
			}
			if !slices.Equal(got, keys) {
				return fmt.Errorf("query due until %v limit %d: got %v, want %v", until, limit, got, keys)
			}
			return nil
		}
	}
	ordered := []store.Key{
		key("GAME#p4", "TIMER#w"), key("GAME#p2", "TIMER#a"),
		key("GAME#p0", "TIMER#z"), key("GAME#p1", "TIMER#a"), key("GAME#p1", "TIMER#b"),
		key("GAME#p3", "TIMER#x"),
	}
	eventually(t, dueList(until, 100, ordered...))
	eventually(t, dueList(until, 0, ordered...)) // 0: the default page size
	eventually(t, dueList(until, 3, ordered[:3]...))
	eventually(t, dueList(base.Add(-72*time.Hour), 100))

	// Clearing Due drops the item from the index; moving it re-sorts it.
	moved := base.Add(10 * time.Minute)
	dueAt[key("GAME#p1", "TIMER#b")] = moved
	commit(t, s, store.Tx{Puts: []store.Put{
		put(key("GAME#p1", "TIMER#a"), "cleared", 1),
		{Item: store.Item{Key: key("GAME#p1", "TIMER#b"), Data: []byte("d:GAME#p1/TIMER#b"), Due: moved}, Expect: 1},
	}})
	delete(dueAt, key("GAME#p1", "TIMER#a"))
	eventually(t, dueList(until, 100, key("GAME#p4", "TIMER#w"), key("GAME#p2", "TIMER#a"), key("GAME#p0", "TIMER#z"), key("GAME#p3", "TIMER#x")))

	// Deleting drops it too.
	commit(t, s, store.Tx{Deletes: []store.Check{{Key: key("GAME#p2", "TIMER#a"), Version: 1}}})
	eventually(t, dueList(moved, 100,
		key("GAME#p4", "TIMER#w"), key("GAME#p0", "TIMER#z"), key("GAME#p3", "TIMER#x"),
		key("GAME#p3", "TIMER#y"), key("GAME#p1", "TIMER#b")))
}

// pagingFixture writes 250 items to GAME#q (LOG#, PLAYER#, MATCH# prefixes)
// and decoys in partitions whose names extend or prefix GAME#q. LOG# items
// carry an Order that is a permutation of their SK order, MATCH# items an
// Order under another prefix, PLAYER# items none.
func pagingFixture(t *testing.T, s store.Store) (logs, players, matches []store.Item) {
	t.Helper()
	var items []store.Item
	for i := 0; i < 120; i++ {
		it := store.Item{Key: key("GAME#q", fmt.Sprintf("LOG#%04d", i)), Order: fmt.Sprintf("T%04d", (i*37)%120)}
		logs = append(logs, it)
	}
	for i := 0; i < 80; i++ {
		players = append(players, store.Item{Key: key("GAME#q", fmt.Sprintf("PLAYER#%03d", i))})
	}
	for i := 0; i < 50; i++ {
		matches = append(matches, store.Item{Key: key("GAME#q", fmt.Sprintf("MATCH#%02d", i)), Order: fmt.Sprintf("U%02d", 49-i)})
	}
	items = append(append(append(items, logs...), players...), matches...)
	for _, pk := range []string{"GAME#q2", "GAME#", "GAME#qLOG#", "GAME#p"} {
		for i := 0; i < 5; i++ {
			items = append(items, store.Item{Key: key(pk, fmt.Sprintf("LOG#%04d", i)), Order: fmt.Sprintf("T%04d", i)})
		}
	}
	for i := range items {
		items[i].Data = []byte("data:" + items[i].Key.String())
	}
	for len(items) > 0 {
		n := min(len(items), store.MaxTxItems)
		var puts []store.Put
		for _, it := range items[:n] {
			puts = append(puts, store.Put{Item: it})
		}
		commit(t, s, store.Tx{Puts: puts})
		items = items[n:]
	}
	return logs, players, matches
}

// walk pages through q (Limit per page) and returns every item visited,
// failing on oversized or short non-final pages and on runaway paging.
func walk(t *testing.T, s store.Store, q store.Query) []store.Item {
	t.Helper()
	limit := q.Limit
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	var all []store.Item
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("query %+v: more than 1000 pages", q)
		}
		page, err := s.Query(context.Background(), q)
		if err != nil {
			t.Fatalf("query %+v: %v", q, err)
		}
		if len(page.Items) > limit || (page.Next != "" && len(page.Items) != limit) {
			t.Fatalf("query %+v: page of %d items (next %q), limit %d", q, len(page.Items), page.Next, limit)
		}
		all = append(all, page.Items...)
		if page.Next == "" {
			return all
		}
		q.Cursor = page.Next
	}
}

// sameKeys asserts got holds exactly want's keys in want's order, each once,
// with its data.
func sameKeys(t *testing.T, what string, got, want []store.Item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i].Key != want[i].Key {
			t.Fatalf("%s: item %d is %s, want %s", what, i, got[i].Key, want[i].Key)
		}
		if got[i].Version != 1 || string(got[i].Data) != "data:"+want[i].Key.String() || got[i].Order != want[i].Order {
			t.Fatalf("%s: item %s read as version %d data %q order %q", what, got[i].Key, got[i].Version, got[i].Data, got[i].Order)
		}
	}
}

func bySK(items []store.Item) []store.Item {
	out := slices.Clone(items)
	order.Sort(out, func(a, b store.Item) int { return strings.Compare(a.SK, b.SK) })
	return out
}

func byOrder(items []store.Item) []store.Item {
	out := slices.Clone(items)
	order.Sort(out, func(a, b store.Item) int { return strings.Compare(a.Order, b.Order) })
	return out
}

func testQueryPrefixPaging(t *testing.T, s store.Store) {
	logs, players, matches := pagingFixture(t, s)

	sameKeys(t, "LOG# by 7", walk(t, s, store.Query{PK: "GAME#q", Prefix: "LOG#", Limit: 7}), bySK(logs))
	sameKeys(t, "PLAYER# by 7", walk(t, s, store.Query{PK: "GAME#q", Prefix: "PLAYER#", Limit: 7}), bySK(players))
	sameKeys(t, "PLAYER# by 7, descending", walk(t, s, store.Query{PK: "GAME#q", Prefix: "PLAYER#", Limit: 7, Desc: true}), reversed(bySK(players)))
	sameKeys(t, "LOG#00 by 7", walk(t, s, store.Query{PK: "GAME#q", Prefix: "LOG#00", Limit: 7}), bySK(logs)[:100])
	sameKeys(t, "LOG# default pages", walk(t, s, store.Query{PK: "GAME#q", Prefix: "LOG#"}), bySK(logs))
	all := append(append(slices.Clone(logs), players...), matches...)
	sameKeys(t, "whole partition", walk(t, s, store.Query{PK: "GAME#q", Limit: 33}), bySK(all))
	sameKeys(t, "whole partition, descending", walk(t, s, store.Query{PK: "GAME#q", Limit: 100, Desc: true}), reversed(bySK(all)))
	sameKeys(t, "one item", walk(t, s, store.Query{PK: "GAME#q", Prefix: "MATCH#07"}), matches[7:8])

	// The first default page is full and says there is more.
	page, err := s.Query(context.Background(), store.Query{PK: "GAME#q", Prefix: "LOG#"})
	if err != nil || len(page.Items) != store.DefaultPageSize || page.Next == "" {
		t.Fatalf("first default page: %d items, next %q, err %v; want %d and a cursor", len(page.Items), page.Next, err, store.DefaultPageSize)
	}
	for _, q := range []store.Query{{PK: "GAME#q", Prefix: "NOPE#"}, {PK: "GAME#empty"}, {PK: "GAME#q", Prefix: "LOG#", Index: store.IndexOrder}} {
		page, err := s.Query(context.Background(), q)
		if err != nil || len(page.Items) != 0 || page.Next != "" {
			t.Fatalf("query %+v: %d items, next %q, err %v; want an empty last page", q, len(page.Items), page.Next, err)
		}
	}
}

func testOrderIndex(t *testing.T, s store.Store) {
	logs, _, matches := pagingFixture(t, s)
	sameKeys(t, "order T by 7", walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T", Limit: 7}), byOrder(logs))
	sameKeys(t, "order T by 7, descending", walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T", Limit: 7, Desc: true}), reversed(byOrder(logs)))
	ordered := append(slices.Clone(logs), matches...)
	// Items without Order (PLAYER#) are not in the index.
	sameKeys(t, "order index, all", walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Limit: 11}), byOrder(ordered))
	sameKeys(t, "order index, all, descending", walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Desc: true}), reversed(byOrder(ordered)))

	// Re-ordering or clearing Order moves or removes an item.
	ctx := context.Background()
	first, second := byOrder(logs)[0], byOrder(logs)[1]
	moved := first
	moved.Order = "T9999"
	cleared := second
	cleared.Order = ""
	commit(t, s, store.Tx{Puts: []store.Put{{Item: moved, Expect: 1}, {Item: cleared, Expect: 1}}})
	page, err := s.Query(ctx, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T", Limit: 1})
	if err != nil || len(page.Items) != 1 || page.Items[0].Key != byOrder(logs)[2].Key {
		t.Fatalf("after re-ordering, first entry is %v (err %v), want %s", page.Items, err, byOrder(logs)[2].Key)
	}
	page, err = s.Query(ctx, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T", Limit: 1, Desc: true})
	if err != nil || len(page.Items) != 1 || page.Items[0].Key != first.Key || page.Items[0].Version != 2 {
		t.Fatalf("after re-ordering, last entry is %v (err %v), want %s at version 2", page.Items, err, first.Key)
	}
	got := walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T"})
	if len(got) != len(logs)-1 || slices.ContainsFunc(got, func(it store.Item) bool { return it.Key == second.Key }) {
		t.Fatalf("after clearing Order of %s the index holds %d log items", second.Key, len(got))
	}
	commit(t, s, store.Tx{Deletes: []store.Check{{Key: first.Key, Version: 2}}})
	if got := walk(t, s, store.Query{PK: "GAME#q", Index: store.IndexOrder, Prefix: "T"}); len(got) != len(logs)-2 {
		t.Fatalf("after deleting %s the order index holds %d log items, want %d", first.Key, len(got), len(logs)-2)
	}
}

func testBadCursor(t *testing.T, s store.Store) {
	ctx := context.Background()
	pagingFixture(t, s)
	page, err := s.Query(ctx, store.Query{PK: "GAME#q", Prefix: "LOG#", Limit: 5})
	if err != nil || page.Next == "" {
		t.Fatalf("first page: next %q, err %v", page.Next, err)
	}
	bad := []struct {
		name string
		q    store.Query
	}{
		{"garbage", store.Query{PK: "GAME#q", Prefix: "LOG#", Cursor: "!!not a cursor!!"}},
		{"truncated", store.Query{PK: "GAME#q", Prefix: "LOG#", Cursor: page.Next[:len(page.Next)/2]}},
		{"another partition", store.Query{PK: "GAME#q2", Prefix: "LOG#", Cursor: page.Next}},
		{"another prefix", store.Query{PK: "GAME#q", Prefix: "PLAYER#", Cursor: page.Next}},
	}
	for _, c := range bad {
		if _, err := s.Query(ctx, c.q); !errors.Is(err, store.ErrBadCursor) {
			t.Fatalf("%s cursor: got error %v, want ErrBadCursor", c.name, err)
		}
	}
}

func reversed(items []store.Item) []store.Item {
	out := slices.Clone(items)
	slices.Reverse(out)
	return out
}
