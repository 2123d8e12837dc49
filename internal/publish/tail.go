package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"croupier/internal/store"
)

// Feed is a store's commit-ordered feed of created log entries
// (*bolt.Store; see store.Change).
type Feed interface {
	Changes(ctx context.Context, after uint64, limit int) ([]store.Change, error)
}

// Trimmer is a Feed that can forget the entries every reader has passed
// (*bolt.Store: TrimFeed), so it does not grow with the log.
type Trimmer interface {
	TrimFeed(ctx context.Context, through uint64, max int) (int, error)
}

// Tail hands every committed log entry to Handle, in commit order, at least
// once: its cursor (an item in Store) moves past an entry only after Handle
// returned nil for it. Tails of one Name share the cursor; two running at
// once, or one restarted mid-way, hand some entries twice, which the
// announcer's delivery record absorbs.
//
// Every cursor lives in one partition of Store (PK "TAIL#", SK
// "CURSOR#<name>"), so a tail can read them all: each time it moves its
// cursor it trims a Trimmer feed of the entries every cursor has passed, a
// bounded batch at a time (trimBatch). An entry is trimmed only behind every durable
// cursor, so whatever no tail has moved past (not yet announced, or
// announced by a process that died before its cursor moved) stays.
type Tail struct {
	Feed Feed
	// Store holds the cursor (locally the same bolt store as Feed).
	Store  store.Store
	Handle Handler
	// Name names the cursor (default "announce").
	Name string
	// Interval is the pause between polls in Run (default 1 s).
	Interval time.Duration
	// Batch is how many changes one read of the feed takes (default 100).
	Batch int
	Log   *slog.Logger
}

// cursor is the stored position: the last change handled.
type cursor struct {
	Seq uint64 `json:"seq"`
}

// cursorPK is the partition of every tail's cursor.
const (
	cursorPK     = "TAIL#"
	cursorPrefix = "CURSOR#"
)

// trimBatch bounds the feed entries one cursor move trims: a write
// transaction of bolt's single writer, kept short; a backlog (a feed kept
// before trimming) goes a batch a move.
const trimBatch = 1000

func (t *Tail) name() string {
	if t.Name == "" {
		return "announce"
	}
	return t.Name
}

func (t *Tail) key() store.Key {
	return store.Key{PK: cursorPK, SK: cursorPrefix + t.name()}
}

// legacyKey is where a cursor was kept before every cursor shared one
// partition: a tail with no cursor of its own yet starts from it.
func (t *Tail) legacyKey() store.Key {
	return store.Key{PK: "TAIL#" + t.name(), SK: "CURSOR"}
}

func (t *Tail) logger() *slog.Logger {
	if t.Log == nil {
		return slog.Default()
	}
	return t.Log
}

// Poll hands every entry committed after the cursor to Handle and returns
// how many it handed. The cursor moves after each batch, past the entries
// handed (a crash mid-batch hands them again: the announcer's record absorbs
// that, and one cursor write per batch rather than per entry keeps the
// tail off the store's single writer). It stops at the first entry Handle
// fails: the cursor stays before it, so the next Poll starts there again
// (announcements keep their order). An entry that cannot be decoded is
// logged and passed, since no retry can fix it.
func (t *Tail) Poll(ctx context.Context) (int, error) {
	at, ver, err := t.read(ctx)
	if err != nil {
		return 0, err
	}
	if ver == 0 {
		// A tail's first poll writes its cursor, even with nothing to
		// read: from then on no trim passes what it has not read.
		if at, ver, err = t.advance(ctx, at, ver); err != nil {
			return 0, err
		}
	}
	batch := t.Batch
	if batch <= 0 {
		batch = store.DefaultPageSize
	}
	n := 0
	for {
		cs, err := t.Feed.Changes(ctx, at, batch)
		if err != nil {
			return n, fmt.Errorf("publish: reading the log feed after %d: %w", at, err)
		}
		if len(cs) == 0 {
			return n, nil
		}
		done := at
		var failed error
		for _, c := range cs {
			m, ok, err := FromItem(c.Item)
			switch {
			case err != nil:
				t.logger().ErrorContext(ctx, "undecodable log entry; not announced", "item", c.Item.Key.String(), "err", err.Error())
			case ok:
				if err := t.Handle(ctx, m); err != nil {
					failed = fmt.Errorf("publish: entry %s of %s: %w", m.Entry.ID, m.Game, err)
				} else {
					n++
				}
			}
			if failed != nil {
				break
			}
			done = c.Seq
		}
		if done > at {
			if at, ver, err = t.advance(ctx, done, ver); err != nil {
				return n, err
			}
			// Only a moved cursor can let the feed be trimmed further,
			// so an idle poll costs no more than it did.
			t.trim(ctx)
		}
		if failed != nil {
			return n, failed
		}
	}
}

// trim drops up to trimBatch feed entries that every durable cursor has
// passed. It is housekeeping: a failure is logged, and the next poll
// tries again; nothing is lost by not trimming.
func (t *Tail) trim(ctx context.Context) {
	tr, ok := t.Feed.(Trimmer)
	if !ok {
		return
	}
	through, ok, err := t.passed(ctx)
	if err == nil && ok {
		_, err = tr.TrimFeed(ctx, through, trimBatch)
	}
	if err != nil && ctx.Err() == nil {
		t.logger().WarnContext(ctx, "trimming the log feed; will retry", "err", err.Error())
	}
}

// passed is the position every cursor has passed: the least of them (ok
// false when there is none).
func (t *Tail) passed(ctx context.Context) (uint64, bool, error) {
	var least uint64
	found := false
	q := store.Query{PK: cursorPK, Prefix: cursorPrefix}
	for {
		page, err := t.Store.Query(ctx, q)
		if err != nil {
			return 0, false, fmt.Errorf("publish: reading the tails' cursors: %w", err)
		}
		for _, it := range page.Items {
			var c cursor
			if err := json.Unmarshal(it.Data, &c); err != nil {
				return 0, false, fmt.Errorf("publish: decoding the tail's cursor %s: %w", it.Key, err)
			}
			if !found || c.Seq < least {
				least, found = c.Seq, true
			}
		}
		if page.Next == "" {
			return least, found, nil
		}
		q.Cursor = page.Next
	}
}

// read returns the cursor's position and version (0 while the cursor is
// not written yet: a position taken from its legacy key, or the start).
func (t *Tail) read(ctx context.Context) (uint64, int64, error) {
	it, err := t.Store.Get(ctx, t.key())
	if err == nil && !it.Exists() {
		it, err = t.Store.Get(ctx, t.legacyKey())
		it.Version = 0
	}
	if err != nil {
		return 0, 0, fmt.Errorf("publish: reading the tail's cursor: %w", err)
	}
	if it.Data == nil {
		return 0, 0, nil
	}
	var c cursor
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return 0, 0, fmt.Errorf("publish: decoding the tail's cursor %s: %w", it.Key, err)
	}
	return c.Seq, it.Version, nil
}

// advance moves the cursor to seq (from version ver) and returns where it
// now is. Another tail sharing the cursor may have moved it meanwhile: it
// never moves back, so a cursor found at or past seq is taken as it is.
func (t *Tail) advance(ctx context.Context, seq uint64, ver int64) (uint64, int64, error) {
	for range 5 {
		data, _ := json.Marshal(cursor{Seq: seq})
		err := t.Store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: t.key(), Data: data}, Expect: ver}}})
		if err == nil {
			return seq, ver + 1, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return 0, 0, fmt.Errorf("publish: moving the tail's cursor to %d: %w", seq, err)
		}
		at, v, err := t.read(ctx)
		if err != nil {
			return 0, 0, err
		}
		if at >= seq {
			return at, v, nil
		}
		ver = v
	}
	return 0, 0, fmt.Errorf("publish: moving the tail's cursor to %d: %w", seq, store.ErrConflict)
}

// Run polls until ctx is done, pausing Interval between polls, and returns
// ctx's error. A failed poll is logged and retried on the next.
func (t *Tail) Run(ctx context.Context) error {
	interval := t.Interval
	if interval <= 0 {
		interval = time.Second
	}
	log := t.logger().With("component", "log tail")
	log.Info("log tail started", "cursor", t.key().String(), "interval", interval.String())
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for ctx.Err() == nil {
		if _, err := t.Poll(ctx); err != nil && ctx.Err() == nil {
			log.Warn("announcing the committed log; will retry", "err", err.Error())
		}
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
	}
	log.Info("log tail stopped")
	return ctx.Err()
}
