package bolt

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"croupier/internal/store"
)

// A cursor is opaque to callers: base64url of a format byte, the index byte
// and the bucket key of the last item returned. The next page starts strictly
// after (or, descending, before) that key, so an item deleted between pages
// does not break paging and none is visited twice.
const cursorFormat = 1

// maxCursorLen bounds what decodeCursor will even try to decode.
const maxCursorLen = 4 * (bbolt.MaxKeySize + 2) / 3

func encodeCursor(ix store.Index, key []byte) string {
	b := make([]byte, 0, 2+len(key))
	b = append(b, cursorFormat, byte(ix))
	return base64.RawURLEncoding.EncodeToString(append(b, key...))
}

// decodeCursor returns the bucket key a cursor resumes after. It accepts only
// cursors for the same index whose key lies inside the query's range (prefix),
// so a cursor cannot be used to read another partition.
func decodeCursor(s string, ix store.Index, prefix []byte) ([]byte, error) {
	if len(s) > maxCursorLen {
		return nil, fmt.Errorf("%w: too long", store.ErrBadCursor)
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: not base64url", store.ErrBadCursor)
	}
	if len(b) < 2 || b[0] != cursorFormat {
		return nil, fmt.Errorf("%w: unknown format", store.ErrBadCursor)
	}
	if store.Index(b[1]) != ix {
		return nil, fmt.Errorf("%w: cursor is for another index", store.ErrBadCursor)
	}
	key := b[2:]
	if !bytes.HasPrefix(key, prefix) {
		return nil, fmt.Errorf("%w: cursor is for another partition or prefix", store.ErrBadCursor)
	}
	return key, nil
}

// Query reads one page of a partition, by SK (IndexMain) or Order (IndexOrder).
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := ctx.Err(); err != nil {
		return store.Page{}, err
	}
	if q.PK == "" {
		return store.Page{}, fmt.Errorf("%w: query without partition key", store.ErrInvalid)
	}
	if len(q.PK) > maxPKBytes {
		return store.Page{}, fmt.Errorf("%w: partition key of %d bytes, at most %d", store.ErrInvalid, len(q.PK), maxPKBytes)
	}
	if q.Limit < 0 {
		return store.Page{}, fmt.Errorf("%w: negative limit %d", store.ErrInvalid, q.Limit)
	}
	limit := q.Limit
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	prefix := partitionPrefix(q.PK)
	var bucket []byte
	switch q.Index {
	case store.IndexMain:
		bucket = bucketItems
		prefix = append(prefix, q.Prefix...)
	case store.IndexOrder:
		bucket = bucketOrder
		prefix = appendEsc(prefix, q.Prefix)
	default:
		return store.Page{}, fmt.Errorf("%w: unknown index %d", store.ErrInvalid, q.Index)
	}
	var after []byte
	if q.Cursor != "" {
		var err error
		if after, err = decodeCursor(q.Cursor, q.Index, prefix); err != nil {
			return store.Page{}, err
		}
	}

	var page store.Page
	err := s.db.View(func(tx *bbolt.Tx) error {
		items := tx.Bucket(bucketItems)
		c := tx.Bucket(bucket).Cursor()
		step := c.Next
		if q.Desc {
			step = c.Prev
		}
		k, v := first(c, prefix, after, q.Desc)
		var last []byte
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = step() {
			if len(page.Items) == limit {
				page.Next = encodeCursor(q.Index, last)
				return nil
			}
			ik := k
			if q.Index == store.IndexOrder {
				var err error
				if ik, err = orderToItemKey(k); err != nil {
					return fmt.Errorf("%w: order index key %q", errBadRecord, k)
				}
				if v = items.Get(ik); v == nil {
					return fmt.Errorf("%w: order index points at missing item %q", errBadRecord, ik)
				}
			}
			it, err := itemAt(ik, v)
			if err != nil {
				return err
			}
			page.Items = append(page.Items, it)
			last = k
		}
		return nil
	})
	if err != nil {
		return store.Page{}, err
	}
	readCost(page.Items).charge(ctx)
	return page, nil
}

// first positions c on the first key of the walk: the start (or end, for
// desc) of the prefix range, or the key just past after.
func first(c *bbolt.Cursor, prefix, after []byte, desc bool) ([]byte, []byte) {
	if !desc {
		if after == nil {
			return c.Seek(prefix)
		}
		k, v := c.Seek(after)
		if bytes.Equal(k, after) {
			return c.Next()
		}
		return k, v
	}
	from := after
	if from == nil {
		if from = prefixEnd(prefix); from == nil {
			return c.Last()
		}
	}
	// Seek lands on the first key >= from; the walk starts just before it.
	if k, _ := c.Seek(from); k == nil {
		return c.Last()
	}
	return c.Prev()
}

// itemAt decodes an items bucket entry.
func itemAt(k, v []byte) (store.Item, error) {
	pk, sk, err := splitItemKey(k)
	if err != nil {
		return store.Item{}, fmt.Errorf("%w: key %q", errBadRecord, k)
	}
	return decodeRecord(store.Key{PK: pk, SK: sk}, v)
}

// readCost prices one Query like DynamoDB: one request, the items' sizes
// summed and then rounded up to 4 KB units.
func readCost(items []store.Item) cost {
	size := 0
	for _, it := range items {
		size += store.ItemSize(it)
	}
	return cost{requests: 1, read: len(items), readUnits: store.ReadUnits(size, false)}
}

// QueryDue returns up to limit items whose Due is at or before until, ordered
// by Due, PK, SK (the due bucket's key order). limit 0 means the default page.
func (s *Store) QueryDue(ctx context.Context, until time.Time, limit int) ([]store.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("%w: negative limit %d", store.ErrInvalid, limit)
	}
	if limit == 0 {
		limit = store.DefaultPageSize
	}
	end := appendTime(nil, until)
	var out []store.Item
	err := s.db.View(func(tx *bbolt.Tx) error {
		items := tx.Bucket(bucketItems)
		c := tx.Bucket(bucketDue).Cursor()
		for k, _ := c.First(); k != nil && len(out) < limit; k, _ = c.Next() {
			if len(k) < timeSize || bytes.Compare(k[:timeSize], end) > 0 {
				break
			}
			ik := k[timeSize:]
			v := items.Get(ik)
			if v == nil {
				return fmt.Errorf("%w: due index points at missing item %q", errBadRecord, ik)
			}
			it, err := itemAt(ik, v)
			if err != nil {
				return err
			}
			out = append(out, it)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	readCost(out).charge(ctx)
	return out, nil
}
