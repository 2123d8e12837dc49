// Package bolt is the embedded adapter of the storage port: one bbolt file,
// the local default of `croupier serve`. It has the same semantics as the
// DynamoDB adapter (versions, atomic commits, idempotency, due and ordered
// indexes, cursor paging) and passes the same storetest suite.
//
// Every Commit is one bbolt read-write transaction, so commits are atomic and
// serialised; reads run in read-only transactions and see the last commit.
//
// Expiry: items whose Expires has passed are kept and read like any other
// item, as DynamoDB does until its TTL sweeper (which may lag for days)
// removes them; callers must not rely on either. Sweep deletes them on demand.
//
// Usage accounting prices every call as DynamoDB would (store.ItemSize,
// WriteUnits, ReadUnits) so benchmarks on bolt predict the AWS bill.
package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"croupier/internal/store"
)

// Limits DynamoDB enforces that Tx.Validate does not check; bolt applies them
// too so a request accepted locally is accepted on AWS.
const (
	maxPKBytes    = 2048            // partition key
	maxSKBytes    = 1024            // sort key (and Order, an LSI sort key)
	maxTxBytes    = 4 * 1024 * 1024 // aggregate size of one TransactWriteItems
	maxBatchGet   = 100             // keys per BatchGetItem request
	lockTimeout   = time.Second
	fileMode      = 0o600
	dirMode       = 0o750
	sweepPageSize = 1000
)

var (
	bucketItems = []byte("items")
	bucketDue   = []byte("due")
	bucketOrder = []byte("order")
	bucketFeed  = []byte("feed")
)

// Store is a store.Store on one bbolt file.
type Store struct {
	db   *bbolt.DB
	path string
	// readOnly: opened by OpenReadOnly; Commit refuses.
	readOnly bool
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed, with its parent directories) the store file
// at path. bbolt locks the file exclusively; if another process holds it,
// Open gives up after a second instead of hanging.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("bolt: empty store path")
	}
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return nil, fmt.Errorf("bolt: create directory for store %s: %w", path, err)
	}
	db, err := bbolt.Open(path, fileMode, &bbolt.Options{Timeout: lockTimeout})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("bolt: store %s is in use by another croupier process? (file lock not acquired within %s)", path, lockTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("bolt: open store %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, b := range [][]byte{bucketItems, bucketDue, bucketOrder, bucketFeed} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("bolt: initialise store %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// SetNoSync turns off (on: true) the flush to disk of each commit, for a
// benchmark's bulk load of a game through the engine: commits stay atomic
// and isolated, only a crash may lose the last ones. A store serving
// games never sets it.
func (s *Store) SetNoSync(on bool) { s.db.NoSync = on }

// OpenReadOnly opens the existing store file at path for reading only (an
// audit: croupier verify --state --store): bbolt takes a shared lock, so
// several readers may audit one file at once, while a server holding it
// for writing keeps them out (the same one-second wait as Open). Every
// Commit fails. A missing file, or one that is not a store, is an error:
// reading must not create one.
func OpenReadOnly(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("bolt: no store at %s: %w", path, err)
	}
	db, err := bbolt.Open(path, fileMode, &bbolt.Options{Timeout: lockTimeout, ReadOnly: true})
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("bolt: store %s is in use by another croupier process? (file lock not acquired within %s)", path, lockTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("bolt: open store %s: %w", path, err)
	}
	err = db.View(func(tx *bbolt.Tx) error {
		for _, b := range [][]byte{bucketItems, bucketDue, bucketOrder, bucketFeed} {
			if tx.Bucket(b) == nil {
				return fmt.Errorf("bolt: %s is not a croupier store (it has no %s bucket)", path, b)
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, path: path, readOnly: true}, nil
}

// Path is the file the store lives in.
func (s *Store) Path() string { return s.path }

// Close releases the file (and its lock).
func (s *Store) Close() error { return s.db.Close() }

// checkKey applies DynamoDB's key rules.
func checkKey(k store.Key) error {
	switch {
	case k.PK == "" || k.SK == "":
		return fmt.Errorf("%w: empty key %q", store.ErrInvalid, k.String())
	case len(k.PK) > maxPKBytes:
		return fmt.Errorf("%w: partition key of %d bytes, at most %d", store.ErrInvalid, len(k.PK), maxPKBytes)
	case len(k.SK) > maxSKBytes:
		return fmt.Errorf("%w: sort key of %d bytes, at most %d", store.ErrInvalid, len(k.SK), maxSKBytes)
	}
	return nil
}

// Get reads one item; a missing one has Version 0.
func (s *Store) Get(ctx context.Context, k store.Key) (store.Item, error) {
	items, err := s.GetMany(ctx, []store.Key{k})
	if err != nil {
		return store.Item{}, err
	}
	return items[0], nil
}

// GetMany reads several items in one read transaction, in the order asked.
// It is billed like DynamoDB's BatchGetItem: one request per 100 keys.
func (s *Store) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return nil, err
		}
	}
	out := make([]store.Item, len(keys))
	err := s.db.View(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketItems)
		for i, k := range keys {
			it, err := getItem(b, k)
			if err != nil {
				return err
			}
			out[i] = it
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	u := cost{requests: (len(keys) + maxBatchGet - 1) / maxBatchGet, read: len(keys)}
	eventual := store.EventualReads(ctx)
	for _, it := range out {
		if eventual {
			u.readUnits += store.EventualReadUnits(store.ItemSize(it))
		} else {
			u.readUnits += store.ReadUnits(store.ItemSize(it), false)
		}
	}
	u.charge(ctx)
	return out, nil
}

// getItem reads k from the items bucket (Version 0 if absent).
func getItem(b *bbolt.Bucket, k store.Key) (store.Item, error) {
	v := b.Get(itemKey(k.PK, k.SK))
	if v == nil {
		return store.Item{Key: k}, nil
	}
	return decodeRecord(k, v)
}

// Commit applies tx in one bbolt read-write transaction. Order of checks:
// validation (ErrInvalid, nothing touched), then the idempotency record (a
// repeat is a *DuplicateError even if other conditions would fail), then
// every version condition (a *ConflictError naming all failing keys), then
// the writes.
func (s *Store) Commit(ctx context.Context, tx store.Tx) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.readOnly {
		return fmt.Errorf("%w: the store %s is open for reading only", store.ErrInvalid, s.path)
	}
	if err := validate(tx); err != nil {
		return err
	}
	transactional := tx.Size() > 1 || len(tx.Checks) > 0
	u := cost{requests: 1, written: len(tx.Puts) + len(tx.Deletes), read: len(tx.Checks)}
	for _, p := range tx.Puts {
		it := p.Item
		it.Version = p.Expect + 1
		u.writeUnits += store.WriteUnits(store.ItemSize(it), transactional)
	}
	for _, c := range tx.Checks {
		u.readUnits += store.ReadUnits(store.ItemSize(store.Item{Key: c.Key}), true)
	}
	err := s.db.Update(func(btx *bbolt.Tx) error {
		items := btx.Bucket(bucketItems)
		if tx.Idem != nil {
			if v := items.Get(itemKey(tx.Idem.PK, tx.Idem.SK)); v != nil {
				it, err := decodeRecord(*tx.Idem, v)
				if err != nil {
					return err
				}
				return &store.DuplicateError{Item: it}
			}
		}
		var conflicts []store.Key
		cond := func(k store.Key, want int64) error {
			have, err := recordVersion(k, items.Get(itemKey(k.PK, k.SK)))
			if err != nil {
				return err
			}
			if have != want {
				conflicts = append(conflicts, k)
			}
			return nil
		}
		for _, p := range tx.Puts {
			if err := cond(p.Item.Key, p.Expect); err != nil {
				return err
			}
		}
		for _, d := range tx.Deletes {
			if err := cond(d.Key, d.Version); err != nil {
				return err
			}
		}
		for _, c := range tx.Checks {
			if err := cond(c.Key, c.Version); err != nil {
				return err
			}
		}
		if len(conflicts) > 0 {
			return &store.ConflictError{Keys: conflicts}
		}
		ix := indexes{due: btx.Bucket(bucketDue), order: btx.Bucket(bucketOrder)}
		for _, p := range tx.Puts {
			it := p.Item
			it.Version = p.Expect + 1
			k := itemKey(it.PK, it.SK)
			if _, err := ix.remove(it.Key, items.Get(k)); err != nil {
				return err
			}
			if err := items.Put(k, encodeRecord(it)); err != nil {
				return err
			}
			if err := ix.add(it); err != nil {
				return err
			}
			if p.Expect == 0 && it.Order != "" {
				if err := appendFeed(btx.Bucket(bucketFeed), k); err != nil {
					return err
				}
			}
		}
		for _, d := range tx.Deletes {
			k := itemKey(d.Key.PK, d.Key.SK)
			old, err := ix.remove(d.Key, items.Get(k))
			if err != nil {
				return err
			}
			// AWS bills a delete by the size of the item it removes.
			u.writeUnits += store.WriteUnits(store.ItemSize(old), transactional)
			if err := items.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.As(err, new(*store.DuplicateError)) {
		// The repeat is detected by the idempotency record's condition; a
		// DynamoDB adapter then reads that record, and nothing is written.
		u.written, u.writeUnits = 0, 0
		u.requests++
		u.read++
		u.readUnits++
	}
	u.charge(ctx)
	return err
}

// validate is Tx.Validate plus the DynamoDB limits it leaves out.
func validate(tx store.Tx) error {
	if err := tx.Validate(); err != nil {
		return err
	}
	total := 0
	for _, p := range tx.Puts {
		if err := checkKey(p.Item.Key); err != nil {
			return err
		}
		if len(p.Item.Order) > maxSKBytes {
			return fmt.Errorf("%w: order of %s is %d bytes, at most %d", store.ErrInvalid, p.Item.Key, len(p.Item.Order), maxSKBytes)
		}
		total += store.ItemSize(p.Item)
	}
	if total > maxTxBytes {
		return fmt.Errorf("%w: transaction of %d bytes, at most %d", store.ErrInvalid, total, maxTxBytes)
	}
	for _, c := range append(tx.Deletes[:len(tx.Deletes):len(tx.Deletes)], tx.Checks...) {
		if err := checkKey(c.Key); err != nil {
			return err
		}
	}
	return nil
}

// indexes maintains the due and order buckets alongside the items bucket.
type indexes struct {
	due, order *bbolt.Bucket
}

// remove drops the index entries of the stored record old (nil: none) and
// returns the item it held.
func (ix indexes) remove(k store.Key, old []byte) (store.Item, error) {
	if old == nil {
		return store.Item{Key: k}, nil
	}
	it, err := decodeRecord(k, old)
	if err != nil {
		return it, err
	}
	return it, ix.drop(it)
}

// drop deletes the index entries of it.
func (ix indexes) drop(it store.Item) error {
	if !it.Due.IsZero() {
		if err := ix.due.Delete(dueKey(it.Due, it.PK, it.SK)); err != nil {
			return err
		}
	}
	if it.Order != "" {
		if err := ix.order.Delete(orderKey(it.PK, it.Order, it.SK)); err != nil {
			return err
		}
	}
	return nil
}

// add writes the index entries of it.
func (ix indexes) add(it store.Item) error {
	if !it.Due.IsZero() {
		if err := ix.due.Put(dueKey(it.Due, it.PK, it.SK), nil); err != nil {
			return err
		}
	}
	if it.Order != "" {
		if err := ix.order.Put(orderKey(it.PK, it.Order, it.SK), nil); err != nil {
			return err
		}
	}
	return nil
}

// Sweep deletes the items whose Expires is at or before now, as DynamoDB's
// TTL would, and returns how many it removed. It works in batches so a large
// sweep does not hold the write lock for long.
func (s *Store) Sweep(ctx context.Context, now time.Time) (int, error) {
	removed := 0
	var from []byte
	for {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		var next []byte
		swept := 0
		err := s.db.Update(func(tx *bbolt.Tx) error {
			items := tx.Bucket(bucketItems)
			ix := indexes{due: tx.Bucket(bucketDue), order: tx.Bucket(bucketOrder)}
			var expired []store.Item
			c := items.Cursor()
			n := 0
			k, v := c.Seek(from)
			for ; k != nil && n < sweepPageSize; k, v = c.Next() {
				n++
				pk, sk, err := splitItemKey(k)
				if err != nil {
					return fmt.Errorf("%w: key %q", errBadRecord, k)
				}
				it, err := decodeRecord(store.Key{PK: pk, SK: sk}, v)
				if err != nil {
					return err
				}
				if !it.Expires.IsZero() && !it.Expires.After(now) {
					expired = append(expired, it)
				}
			}
			if k != nil {
				next = bytes.Clone(k)
			}
			// Delete after the walk: mutating a bucket under a live cursor
			// makes the cursor skip keys.
			for _, it := range expired {
				if err := ix.drop(it); err != nil {
					return err
				}
				if err := items.Delete(itemKey(it.PK, it.SK)); err != nil {
					return err
				}
			}
			swept = len(expired)
			return nil
		})
		if err != nil {
			return removed, err
		}
		removed += swept
		if next == nil {
			return removed, err
		}
		from = next
	}
}
