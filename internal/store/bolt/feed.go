package bolt

import (
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
