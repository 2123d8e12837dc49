package publish_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"croupier/internal/publish"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// trimWorld is a bolt file whose log grows by commits of 100 entries, and
// tails that record what they were handed.
type trimWorld struct {
	t       *testing.T
	st      *bolt.Store
	path    string
	n       int             // entries committed
	handed  map[string]int  // tail name -> entries handed
	failing map[string]bool // entry id -> the announce tail's handler fails
}

func newTrimWorld(t *testing.T) *trimWorld {
	path := filepath.Join(t.TempDir(), "c.db")
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &trimWorld{t: t, st: st, path: path, handed: map[string]int{}, failing: map[string]bool{}}
}

// commit adds 100 log entries (one commit, like a period end's batch).
func (w *trimWorld) commit() {
	w.t.Helper()
	var tx store.Tx
	for range 100 {
		w.n++
		sk := fmt.Sprintf("LOG#%08d", w.n)
		data, _ := json.Marshal(map[string]string{"id": fmt.Sprintf("e%d", w.n), "command": "grant", "actor": "discord:1"})
		tx.Puts = append(tx.Puts, store.Put{Item: store.Item{Key: store.Key{PK: "GAME#hall", SK: sk}, Order: sk, Data: data}})
	}
	if err := w.st.Commit(context.Background(), tx); err != nil {
		w.t.Fatal(err)
	}
}

func (w *trimWorld) tail(name string) *publish.Tail {
	return &publish.Tail{Feed: w.st, Store: w.st, Name: name, Log: quiet, Handle: func(_ context.Context, m publish.Message) error {
		if name == "announce" && w.failing[m.Entry.ID] {
			return errors.New("discord down")
		}
		w.handed[name]++
		return nil
	}}
}

// poll polls until the tail has nothing left (or fails).
func (w *trimWorld) poll(tl *publish.Tail) error {
	for {
		n, err := tl.Poll(context.Background())
		if err != nil || n == 0 {
			return err
		}
	}
}

// feedLen is how many entries the feed lists.
func (w *trimWorld) feedLen() int {
	w.t.Helper()
	cs, err := w.st.Changes(context.Background(), 0, 1<<30)
	if err != nil {
		w.t.Fatal(err)
	}
	return len(cs)
}

func (w *trimWorld) size() int64 {
	fi, err := os.Stat(w.path)
	if err != nil {
		w.t.Fatal(err)
	}
	return fi.Size()
}

// TestTailTrimsTheFeedBehindEveryCursor is issue 22's acceptance 7: bolt's
// feed of created log entries is trimmed behind the tails' durable
// cursors, so it stops growing with the log. 12,000 entries announced as
// they come leave the feed no longer than one batch of commits; a second
// tail (another cursor) that stops reading keeps every entry after its
// cursor until it reads them; an entry whose announcement fails stays in
// the feed, its cursor before it, and is handed on the next poll.
func TestTailTrimsTheFeedBehindEveryCursor(t *testing.T) {
	w := newTrimWorld(t)
	announce := w.tail("announce")
	most, at5k := 0, int64(0)
	for w.n < 12000 {
		w.commit()
		if err := w.poll(announce); err != nil {
			t.Fatal(err)
		}
		most = max(most, w.feedLen())
		if w.n == 5000 {
			at5k = w.size()
		}
	}
	if w.handed["announce"] != 12000 {
		t.Fatalf("announced %d entries, want 12000", w.handed["announce"])
	}
	if most > 0 {
		t.Errorf("the feed listed up to %d entries after a poll, want none: every entry was announced", most)
	}
	t.Logf("bolt file: %d bytes at 5,000 entries, %d at 12,000 (the log itself stays; the feed holds %d)", at5k, w.size(), w.feedLen())

	// A second cursor: the digest tail reads up to here, then stops.
	digest := w.tail("digest")
	if err := w.poll(digest); err != nil || w.handed["digest"] != 0 {
		t.Fatalf("a new tail after the trim: %d handed, %v; want none (the feed starts at its trim)", w.handed["digest"], err)
	}
	for range 30 {
		w.commit()
		if err := w.poll(announce); err != nil {
			t.Fatal(err)
		}
	}
	if got := w.feedLen(); got != 3000 {
		t.Fatalf("the feed lists %d entries behind the stopped digest tail, want its 3000 unread", got)
	}
	if err := w.poll(digest); err != nil || w.handed["digest"] != 3000 {
		t.Fatalf("the digest tail caught up with %d (%v), want the 3000 it had not read", w.handed["digest"], err)
	}
	if got := w.feedLen(); got != 0 {
		t.Fatalf("the feed lists %d entries once both tails read them all, want none", got)
	}

	// An announcement fails: the cursor stays before it, and so does the feed.
	w.commit()
	w.failing[fmt.Sprintf("e%d", w.n-49)] = true
	before := w.handed["announce"]
	if err := w.poll(announce); err == nil {
		t.Fatal("the failing announcement went unreported")
	}
	if err := w.poll(digest); err != nil {
		t.Fatal(err)
	}
	if got := w.feedLen(); got < 50 {
		t.Fatalf("the feed lists %d entries, want the 50 from the failed one on kept", got)
	}
	clear(w.failing)
	if err := w.poll(announce); err != nil || w.handed["announce"]-before != 100 {
		t.Fatalf("after the failure %d announced (%v), want all 100, the failed one included", w.handed["announce"]-before, err)
	}
	if err := w.poll(announce); err != nil || w.feedLen() != 0 {
		t.Fatalf("the feed lists %d entries once all were announced (%v)", w.feedLen(), err)
	}
}

// A cursor kept where tails kept it before every cursor shared one
// partition (PK "TAIL#<name>") is where the tail starts: an upgraded
// server does not announce its whole log again.
func TestTailStartsFromItsLegacyCursor(t *testing.T) {
	w := newTrimWorld(t)
	for range 3 {
		w.commit()
	}
	cs, err := w.st.Changes(context.Background(), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	legacy := store.Item{Key: store.Key{PK: "TAIL#announce", SK: "CURSOR"}, Data: fmt.Appendf(nil, `{"seq":%d}`, cs[249].Seq)}
	if err := w.st.Commit(context.Background(), store.Tx{Puts: []store.Put{{Item: legacy}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.poll(w.tail("announce")); err != nil || w.handed["announce"] != 50 {
		t.Fatalf("handed %d (%v), want the 50 entries after the legacy cursor", w.handed["announce"], err)
	}
}
