package bolt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"croupier/internal/store"
)

// The feed is the log in commit order: an entry dated (ordered) before one
// already committed comes after it, a repeat or an update of an entry adds
// nothing, items without an Order are not in it, and it survives a reopen.
func TestChangesFollowCommitOrder(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	put := func(sk, order string, expect int64, idem bool) error {
		k := store.Key{PK: "GAME#g", SK: sk}
		tx := store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: []byte(`{}`), Order: order}, Expect: expect}}}
		if idem {
			tx.Idem = &k
		}
		return s.Commit(ctx, tx)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(put("LOG#b", "LOG#02", 0, true))
	must(put("LOG#a", "LOG#01", 0, true)) // dated earlier, committed later
	must(put("PLAYER#x", "", 0, false))   // not ordered
	if err := put("LOG#a", "LOG#01", 0, true); !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("repeat: %v", err)
	}
	must(put("LOG#b", "LOG#02", 1, false)) // an update, not a creation
	must(put("LOG#c", "LOG#03", 0, true))

	sks := func(cs []store.Change) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Item.SK)
		}
		return out
	}
	all, err := s.Changes(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := sks(all); !slices.Equal(got, []string{"LOG#b", "LOG#a", "LOG#c"}) {
		t.Fatalf("feed %v, want LOG#b, LOG#a, LOG#c (commit order, each once)", got)
	}
	if all[0].Seq >= all[1].Seq || all[1].Seq >= all[2].Seq || all[0].Item.Version != 2 {
		t.Errorf("feed %+v: want growing positions and the item as stored now", all)
	}
	page, err := s.Changes(ctx, all[0].Seq, 1)
	if err != nil || !slices.Equal(sks(page), []string{"LOG#a"}) {
		t.Errorf("after %d, limit 1: %v (%v), want LOG#a", all[0].Seq, sks(page), err)
	}
	path := s.Path()
	must(s.Close())
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rest, err := s2.Changes(ctx, all[1].Seq, 0)
	if err != nil || !slices.Equal(sks(rest), []string{"LOG#c"}) {
		t.Errorf("after reopening, after %d: %v (%v), want LOG#c", all[1].Seq, sks(rest), err)
	}
	if _, err := s2.Changes(ctx, 0, -1); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("negative limit: %v, want ErrInvalid", err)
	}
}

// TrimFeed forgets the feed's entries up to a position, at most max a
// call, and leaves the rest (and every item) as they were.
func TestTrimFeedDropsOnlyWhatIsBehind(t *testing.T) {
	ctx := context.Background()
	st := openTemp(t)
	for i := range 10 {
		sk := fmt.Sprintf("LOG#%02d", i)
		if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: store.Key{PK: "GAME#g", SK: sk}, Order: sk, Data: []byte("{}")}}}}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := st.Changes(ctx, 0, 0)
	if err != nil || len(all) != 10 {
		t.Fatalf("%d changes, %v", len(all), err)
	}
	if n, err := st.TrimFeed(ctx, all[6].Seq, 4); err != nil || n != 4 {
		t.Fatalf("first trim: %d, %v; want 4 (the batch)", n, err)
	}
	if n, err := st.TrimFeed(ctx, all[6].Seq, 4); err != nil || n != 3 {
		t.Fatalf("second trim: %d, %v; want the 3 left up to the 7th", n, err)
	}
	if n, err := st.TrimFeed(ctx, all[6].Seq, 4); err != nil || n != 0 {
		t.Fatalf("third trim: %d, %v; want nothing", n, err)
	}
	left, err := st.Changes(ctx, 0, 0)
	if err != nil || len(left) != 3 || left[0].Seq != all[7].Seq {
		t.Fatalf("after the trims the feed lists %+v (%v), want the last 3", left, err)
	}
	if page, err := st.Query(ctx, store.Query{PK: "GAME#g"}); err != nil || len(page.Items) != 10 {
		t.Fatalf("the items: %d (%v), want all 10 kept", len(page.Items), err)
	}
}
