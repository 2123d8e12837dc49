package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"

	bbolt "go.etcd.io/bbolt"

	"croupier/internal/store"
)

// The feed bucket lists, in commit order, every item created with an Order
// (the game log): key = the bucket's next sequence (8 bytes, big-endian),
// value = the items bucket key. It is what DynamoDB Streams are for the
// table: the local log tail reads it to announce each committed entry
// (store.Change). Commits are serialised, so sequence order is commit order.

// appendFeed records that the item at key k was created by this commit.
func appendFeed(feed *bbolt.Bucket, k []byte) error {
	seq, err := feed.NextSequence()
	if err != nil {
		return err
	}
	return feed.Put(binary.BigEndian.AppendUint64(nil, seq), k)
}

// Changes returns up to limit (0: store.DefaultPageSize) items created with
// an Order after position after (0: from the start), in commit order. An item
// deleted since (expired and swept) is left out.
func (s *Store) Changes(ctx context.Context, after uint64, limit int) ([]store.Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("%w: negative limit %d", store.ErrInvalid, limit)
	}
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	if after == math.MaxUint64 {
		return nil, nil
	}
	var out []store.Change
	err := s.db.View(func(tx *bbolt.Tx) error {
		items := tx.Bucket(bucketItems)
		c := tx.Bucket(bucketFeed).Cursor()
		for k, v := c.Seek(binary.BigEndian.AppendUint64(nil, after+1)); k != nil && len(out) < limit; k, v = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%w: feed key %q", errBadRecord, k)
			}
			rec := items.Get(v)
			if rec == nil {
				continue
			}
			it, err := itemAt(v, rec)
			if err != nil {
				return err
			}
			out = append(out, store.Change{Seq: binary.BigEndian.Uint64(k), Item: it})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]store.Item, len(out))
	for i, c := range out {
		items[i] = c.Item
	}
	readCost(items).charge(ctx)
	return out, nil
}

// TrimFeed deletes up to max (0: store.DefaultPageSize) of the feed's
// first entries, those at or before position through, and returns how
// many it deleted. The items themselves (the log) stay: only the feed's
// list of them goes, once every reader of the feed has passed them (the
// caller knows its readers: publish.Tail trims behind every durable
// cursor). One call is one short write transaction, so trimming a long
// backlog takes many calls and never holds the writer for long; bolt
// reuses the freed pages, so a trimmed feed keeps the file from growing.
func (s *Store) TrimFeed(ctx context.Context, through uint64, max int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if max < 0 {
		return 0, fmt.Errorf("%w: negative limit %d", store.ErrInvalid, max)
	}
	if max == 0 {
		max = store.DefaultPageSize
	}
	// A read first: an idle tail trims nothing, and takes no write lock.
	idle := true
	if err := s.db.View(func(tx *bbolt.Tx) error {
		k, _ := tx.Bucket(bucketFeed).Cursor().First()
		idle = k == nil || len(k) != 8 || binary.BigEndian.Uint64(k) > through
		return nil
	}); err != nil || idle {
		return 0, err
	}
	n := 0
	err := s.db.Update(func(tx *bbolt.Tx) error {
		feed := tx.Bucket(bucketFeed)
		var dead [][]byte
		c := feed.Cursor()
		for k, _ := c.First(); k != nil && len(dead) < max; k, _ = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("%w: feed key %q", errBadRecord, k)
			}
			if binary.BigEndian.Uint64(k) > through {
				break
			}
			dead = append(dead, bytes.Clone(k))
		}
		// Delete after the walk: mutating a bucket under a live cursor
		// makes the cursor skip keys.
		for _, k := range dead {
			if err := feed.Delete(k); err != nil {
				return err
			}
		}
		n = len(dead)
		return nil
	})
	return n, err
}
