package reactions_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"croupier/internal/reactions"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/storetest"
)

// pushStore applies pushes to the stored record of one message as the
// game's push command does: load head and pages, apply, write what
// changed under the versions read.
type pushStore struct {
	t     *testing.T
	ctx   context.Context
	sizes *storetest.Sizes
	key   store.Key
	msg   reactions.MessageRef
}

func newPushStore(t *testing.T) *pushStore {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := ref("900")
	k, err := reactions.Key("GAME#hall", m)
	if err != nil {
		t.Fatal(err)
	}
	return &pushStore{t: t, ctx: context.Background(), sizes: storetest.NewSizes(st), key: k, msg: m}
}

// push applies c and returns how many items its commit wrote.
func (p *pushStore) push(c reactions.Change) (int, error) {
	p.t.Helper()
	h, rec, err := reactions.Load(p.ctx, p.sizes, p.key, p.msg)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := rec.Apply(c); err != nil {
		return 0, err
	}
	puts, err := h.Puts(rec)
	if err != nil {
		p.t.Fatal(err)
	}
	if err := p.sizes.Commit(p.ctx, store.Tx{Puts: puts}); err != nil {
		p.t.Fatalf("committing a push: %v", err)
	}
	return len(puts), nil
}

func (p *pushStore) asOf(at time.Time) reactions.Snapshot {
	p.t.Helper()
	s, err := reactions.Pushed{Store: p.sizes, PK: p.key.PK, At: at}.Reactions(p.ctx, p.msg)
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

func reactor(i int) string { return fmt.Sprintf("discord:%018d", 100000000000000000+i) }

// TestIssue22_APushedRecordOfTenThousandReactorsStaysUnder100KBAnItem: a
// bridge pushes the reactions of 10,000 players on one message, in adds of
// 100 and of one. No item passes 100 KB (one item of every reactor was
// about 280 KB), a push writes at most the head and one page, and the
// record read back is every reactor, and as of a past moment exactly the
// reactors pushed by then.
func TestIssue22_APushedRecordOfTenThousandReactorsStaysUnder100KBAnItem(t *testing.T) {
	p := newPushStore(t)
	const n = 10_000
	var want, half []string
	at := t0
	for i := 0; i < n; {
		k := 100
		if i%2000 == 0 {
			k = 1
		}
		var ids []string
		for j := range k {
			ids = append(ids, reactor(i+j))
		}
		at = at.Add(time.Second)
		wrote, err := p.push(reactions.Change{At: at, Op: reactions.OpAdd, Up: ids})
		if err != nil {
			t.Fatal(err)
		}
		if wrote > 2 {
			t.Fatalf("a push of %d reactors wrote %d items; at most the head and one page", k, wrote)
		}
		want = append(want, ids...)
		if i < n/2 && i+k >= n/2 {
			half = slices.Clone(want)
		}
		i += k
	}
	if kind, size := p.sizes.Largest(); size > storetest.MaxGameItemBytes {
		t.Fatalf("the largest item (%s) is %d bytes; at most %d", kind, size, storetest.MaxGameItemBytes)
	}
	slices.Sort(want)
	if got := p.asOf(time.Time{}).Up; !slices.Equal(got, want) {
		t.Fatalf("the record holds %d reactors, %d pushed", len(got), len(want))
	}
	slices.Sort(half)
	mid := t0.Add(time.Duration(len(half)/100+2) * time.Second)
	if got := p.asOf(mid).Up; len(got) < len(half) || !slices.Equal(got[:len(half)], half) {
		t.Fatalf("as of a past moment the record holds %d reactors; %d had been pushed by then", len(got), len(half))
	}
	h, _, err := reactions.Load(p.ctx, p.sizes, p.key, p.msg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d reactors in a head and %d pages; largest items: %s", n, len(h.PageKeys()), p.sizes)
}

// TestIssue22_AFoldedRecordReusesItsPages: sets of 1,000 new reactors each
// replace the last, so the history passes MaxBytes and is folded; the
// pages the fold left unused are written again under their versions as
// the history grows back, and the latest state is always the last set.
func TestIssue22_AFoldedRecordReusesItsPages(t *testing.T) {
	p := newPushStore(t)
	at := t0
	maxPages, folds, last := 0, 0, 0
	for round := range 40 {
		ids := make([]string, 1000)
		for j := range ids {
			ids[j] = reactor(round*1000 + j)
		}
		at = at.Add(time.Minute)
		if _, err := p.push(reactions.Change{At: at, Op: reactions.OpSet, Up: ids}); err != nil {
			t.Fatal(err)
		}
		got := p.asOf(time.Time{}).Up
		if !slices.Equal(got, ids) {
			t.Fatalf("after set %d the record holds %d reactors starting %v; want the set's 1,000", round, len(got), got[:1])
		}
		h, _, err := reactions.Load(p.ctx, p.sizes, p.key, p.msg)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(h.PageKeys()); n < last {
			folds++
		}
		last = len(h.PageKeys())
		maxPages = max(maxPages, last)
	}
	if folds < 2 {
		t.Fatalf("the history was folded %d times; 40 sets of 1,000 pass MaxBytes several times", folds)
	}
	// A page holds more than PageBytes-MaxChangeBytes (the next change
	// did not fit), so a history of MaxBytes takes at most this many.
	if bound := reactions.MaxBytes/(reactions.PageBytes-reactions.MaxChangeBytes) + 1; maxPages > bound {
		t.Fatalf("the history reached %d pages; folding keeps it to %d", maxPages, bound)
	}
	if kind, size := p.sizes.Largest(); size > storetest.MaxGameItemBytes {
		t.Fatalf("the largest item (%s) is %d bytes", kind, size)
	}
}

// TestIssue22_APushTooLargeForAPageIsRefused: one push of more identities
// than a page holds is refused with the bound, and nothing is written.
func TestIssue22_APushTooLargeForAPageIsRefused(t *testing.T) {
	p := newPushStore(t)
	ids := make([]string, reactions.MaxIDs)
	for j := range ids {
		ids[j] = fmt.Sprintf("matrix:@user-%04d-with-a-rather-long-name:example.org", j)
	}
	if _, err := p.push(reactions.Change{At: t0, Op: reactions.OpAdd, Up: ids}); err == nil {
		t.Fatal("a push of 1,000 long identities (over 32 KB) was accepted")
	}
	if s := p.asOf(time.Time{}); len(s.Up) != 0 {
		t.Fatalf("a refused push was recorded: %d reactors", len(s.Up))
	}
}
