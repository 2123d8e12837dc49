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

// Tail hands every committed log entry to Handle, in commit order, at least
// once: its cursor (an item in Store) moves past an entry only after Handle
// returned nil for it. Tails of one Name share the cursor; two running at
// once, or one restarted mid-way, hand some entries twice, which the
// announcer's delivery record absorbs.
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

func (t *Tail) key() store.Key {
	name := t.Name
	if name == "" {
		name = "announce"
	}
	return store.Key{PK: "TAIL#" + name, SK: "CURSOR"}
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
		}
		if failed != nil {
			return n, failed
		}
	}
}

// read returns the cursor's position and version.
func (t *Tail) read(ctx context.Context) (uint64, int64, error) {
	it, err := t.Store.Get(ctx, t.key())
	if err != nil {
		return 0, 0, fmt.Errorf("publish: reading the tail's cursor: %w", err)
	}
	if !it.Exists() {
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
