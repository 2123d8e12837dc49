// Package store is the storage port of Croupier: versioned items grouped by a
// partition key, atomic multi-item commits with optimistic concurrency, an
// idempotency record written in the same commit, a sparse index of due timers,
// and an ordered secondary index for time-ordered reads (the game log).
//
// Two adapters implement it with identical semantics: dynamo (one DynamoDB
// table, TransactWriteItems) and bolt (go.etcd.io/bbolt, the embedded local
// default). storetest is the conformance suite both must pass.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MaxTxItems is the largest number of operations one Commit may carry
// (DynamoDB's TransactWriteItems limit, applied to every adapter alike).
const MaxTxItems = 100

// MaxItemBytes bounds one item's Data (DynamoDB's 400 KB item limit, less room
// for the key and system attributes).
const MaxItemBytes = 350 * 1024

// Key addresses one item: PK groups the items of one game (GAME#<id>), SK names
// the item inside it (META, PLAYER#<id>, LOG#<...>, SEED#<period>...).
type Key struct {
	PK string `json:"pk"`
	SK string `json:"sk"`
}

func (k Key) String() string { return k.PK + "/" + k.SK }

// Item is one stored record.
type Item struct {
	Key
	// Version is 1 after the first write and grows by one on every write.
	// A Get of a missing item returns Version 0 and nil Data.
	Version int64
	// Data is the payload, opaque to the store (JSON by convention).
	Data []byte
	// Due, when non-zero, puts the item in the due index (QueryDue): the
	// moment its scheduled work falls due. Zero keeps it out (sparse index).
	Due time.Time
	// Order, when non-empty, puts the item in the ordered index of its
	// partition (Query with Index: IndexOrder), sorted by this string. The game
	// log uses a ULID here so entries keyed by idempotency key read in time order.
	Order string
	// Expires, when non-zero, lets the store delete the item after this moment
	// (DynamoDB TTL). Stores may keep expired items; readers must not rely on it.
	Expires time.Time
}

// Exists reports whether the item was found.
func (it Item) Exists() bool { return it.Version > 0 }

// Put writes Item as the next version of its key. Expect is the version the
// caller read: 0 means the item must not exist yet. The stored Version becomes
// Expect+1 (Item.Version is ignored).
type Put struct {
	Item   Item
	Expect int64
}

// Check asserts that Key is still at Version (0: still absent) without
// writing it, so a commit based on a stale read of that item fails.
type Check struct {
	Key     Key
	Version int64
}

// Tx is one atomic commit: every Put, Delete and Check holds, and all writes
// apply, or nothing applies.
type Tx struct {
	Puts    []Put
	Deletes []Check // delete Key if it is at Version
	Checks  []Check
	// Idem, when set, names one of Puts (with Expect 0) that records this
	// command's idempotency key. If that item already exists the commit is a
	// repeat: nothing applies and Commit returns a *DuplicateError carrying
	// the stored item, never a conflict.
	Idem *Key
}

// Size is the number of operations in the transaction.
func (tx Tx) Size() int { return len(tx.Puts) + len(tx.Deletes) + len(tx.Checks) }

// Validate reports malformed transactions before any adapter touches storage.
func (tx Tx) Validate() error {
	n := tx.Size()
	if n == 0 {
		return fmt.Errorf("%w: empty transaction", ErrInvalid)
	}
	if n > MaxTxItems {
		return fmt.Errorf("%w: %d operations, at most %d", ErrInvalid, n, MaxTxItems)
	}
	seen := make(map[Key]bool, n)
	add := func(k Key) error {
		if k.PK == "" || k.SK == "" {
			return fmt.Errorf("%w: empty key %q", ErrInvalid, k.String())
		}
		if seen[k] {
			return fmt.Errorf("%w: key %s appears twice", ErrInvalid, k)
		}
		seen[k] = true
		return nil
	}
	idemFound := tx.Idem == nil
	for _, p := range tx.Puts {
		if err := add(p.Item.Key); err != nil {
			return err
		}
		if len(p.Item.Data) > MaxItemBytes {
			return fmt.Errorf("%w: item %s is %d bytes, at most %d", ErrInvalid, p.Item.Key, len(p.Item.Data), MaxItemBytes)
		}
		if p.Expect < 0 {
			return fmt.Errorf("%w: negative expected version for %s", ErrInvalid, p.Item.Key)
		}
		if tx.Idem != nil && p.Item.Key == *tx.Idem {
			if p.Expect != 0 {
				return fmt.Errorf("%w: idempotency record %s must be new", ErrInvalid, p.Item.Key)
			}
			idemFound = true
		}
	}
	for _, d := range tx.Deletes {
		if err := add(d.Key); err != nil {
			return err
		}
		if d.Version <= 0 {
			return fmt.Errorf("%w: delete of %s needs the version read", ErrInvalid, d.Key)
		}
	}
	for _, c := range tx.Checks {
		if err := add(c.Key); err != nil {
			return err
		}
	}
	if !idemFound {
		return fmt.Errorf("%w: idempotency key %s is not one of the puts", ErrInvalid, tx.Idem)
	}
	return nil
}

// Index selects what Query walks.
type Index int

const (
	// IndexMain walks a partition by SK.
	IndexMain Index = iota
	// IndexOrder walks a partition by Item.Order (items without Order are not in it).
	IndexOrder
)

// Query reads one partition's items whose sort key (SK, or Order for
// IndexOrder) starts with Prefix, in ascending order (descending with Desc).
type Query struct {
	PK     string
	Prefix string
	Index  Index
	Desc   bool
	// Limit caps the page size; 0 means the adapter default (100).
	Limit int
	// Cursor continues from a previous page's Next.
	Cursor string
}

// DefaultPageSize is the page size when Query.Limit is 0.
const DefaultPageSize = 100

// Page is one page of a Query. Next is empty on the last page.
type Page struct {
	Items []Item
	Next  string
}

// Change is one entry of a store's feed of created ordered items (the game
// log), in commit order rather than Order: the log as commits made it, which
// is what announcements follow (a scheduled entry is dated, and ordered, as
// of its due moment, possibly before entries committed earlier). On AWS the
// table's stream is the feed; the bolt adapter keeps one (bolt.Store.Changes)
// for the local log tail (internal/publish.Tail).
type Change struct {
	// Seq is the change's position: it grows with every commit that
	// created an ordered item.
	Seq  uint64
	Item Item
}

// Store is the storage port.
type Store interface {
	// Get reads one item, strongly consistent. A missing item is returned
	// with Version 0, not as an error.
	Get(ctx context.Context, k Key) (Item, error)
	// GetMany reads several items in one request, in the order asked,
	// strongly consistent unless ctx allows eventual reads (WithEventualReads).
	GetMany(ctx context.Context, keys []Key) ([]Item, error)
	// Query reads one page of a partition.
	Query(ctx context.Context, q Query) (Page, error)
	// QueryDue returns up to limit items (of every partition) whose Due is at
	// or before until, ordered by Due, then PK, then SK.
	QueryDue(ctx context.Context, until time.Time, limit int) ([]Item, error)
	// Commit applies tx atomically. It returns a *ConflictError when a version
	// condition fails, a *DuplicateError when tx.Idem already exists, an error
	// wrapping ErrInvalid for a malformed tx, and nil when every write applied.
	Commit(ctx context.Context, tx Tx) error
	// Close releases the store's resources.
	Close() error
}

// Errors a Store returns; test with errors.Is / errors.As.
var (
	ErrConflict  = errors.New("store: version conflict")
	ErrDuplicate = errors.New("store: idempotency key already used")
	ErrInvalid   = errors.New("store: invalid request")
	ErrBadCursor = errors.New("store: bad cursor")
)

// ConflictError says which keys failed their version condition (when the
// adapter can tell; DynamoDB always can).
type ConflictError struct {
	Keys []Key
}

func (e *ConflictError) Error() string {
	if len(e.Keys) == 0 {
		return ErrConflict.Error()
	}
	ks := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		ks[i] = k.String()
	}
	return ErrConflict.Error() + " on " + strings.Join(ks, ", ")
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// DuplicateError carries the idempotency record stored by the first commit.
type DuplicateError struct {
	Item Item
}

func (e *DuplicateError) Error() string { return ErrDuplicate.Error() + ": " + e.Item.Key.String() }

// Is makes errors.Is(err, ErrDuplicate) true.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }

// Cost is what store calls cost: requests, items, and capacity units.
type Cost struct {
	// Requests is the number of round trips to the store.
	Requests int
	// ItemsRead and ItemsWritten count items (a Check counts as read).
	ItemsRead, ItemsWritten int
	// ReadUnits and WriteUnits are capacity units as AWS bills them, computed
	// from item sizes by AWS's formula (DynamoDB Local under-reports
	// transactional writes, see DESIGN.md).
	ReadUnits, WriteUnits float64
	// ReportedUnits is the consumed capacity the store itself reported (0 for bolt).
	ReportedUnits float64
}

// Plus returns the sum of two costs.
func (c Cost) Plus(d Cost) Cost {
	return Cost{Requests: c.Requests + d.Requests, ItemsRead: c.ItemsRead + d.ItemsRead,
		ItemsWritten: c.ItemsWritten + d.ItemsWritten, ReadUnits: c.ReadUnits + d.ReadUnits,
		WriteUnits: c.WriteUnits + d.WriteUnits, ReportedUnits: c.ReportedUnits + d.ReportedUnits}
}

// Minus returns c less d (a benchmark taking one sample out of a total).
func (c Cost) Minus(d Cost) Cost {
	return Cost{Requests: c.Requests - d.Requests, ItemsRead: c.ItemsRead - d.ItemsRead,
		ItemsWritten: c.ItemsWritten - d.ItemsWritten, ReadUnits: c.ReadUnits - d.ReadUnits,
		WriteUnits: c.WriteUnits - d.WriteUnits, ReportedUnits: c.ReportedUnits - d.ReportedUnits}
}

// Usage accumulates Costs, for benchmarks and logs. Attach one to a context
// with WithUsage; adapters add to it. Safe for concurrent use.
type Usage struct {
	mu sync.Mutex
	c  Cost
}

// Add records the cost of one request. A nil Usage ignores it.
func (u *Usage) Add(d Cost) {
	if u == nil {
		return
	}
	u.mu.Lock()
	u.c = u.c.Plus(d)
	u.mu.Unlock()
}

// Snapshot returns the total so far.
func (u *Usage) Snapshot() Cost {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.c
}

type usageKey struct{}

// WithUsage returns a context whose store calls add their cost to u.
func WithUsage(ctx context.Context, u *Usage) context.Context {
	return context.WithValue(ctx, usageKey{}, u)
}

// UsageFrom returns the Usage attached to ctx, or nil.
func UsageFrom(ctx context.Context) *Usage {
	u, _ := ctx.Value(usageKey{}).(*Usage)
	return u
}

type eventualKey struct{}

// WithEventualReads lets GetMany calls under ctx read eventually consistent,
// at half the read units (DynamoDB; bolt is always consistent and bills as
// DynamoDB would). It is for reads whose staleness can only cost a retry: a
// command's first attempt, every item of which is written or checked under
// a version condition at commit (internal/game).
func WithEventualReads(ctx context.Context) context.Context {
	return context.WithValue(ctx, eventualKey{}, true)
}

// EventualReads reports whether ctx allows eventually consistent GetMany.
func EventualReads(ctx context.Context) bool {
	ok, _ := ctx.Value(eventualKey{}).(bool)
	return ok
}

// ItemSize approximates DynamoDB's size of an item: attribute names plus
// values, as AWS bills it.
func ItemSize(it Item) int {
	n := len("PK") + len(it.PK) + len("SK") + len(it.SK) + len("V") + 8 + len("D") + len(it.Data)
	if !it.Due.IsZero() {
		n += len("DueP") + 3 + len("DueS") + 40 + len(it.PK) + len(it.SK)
	}
	if it.Order != "" {
		n += len("Ord") + len(it.Order)
	}
	if !it.Expires.IsZero() {
		n += len("TTL") + 8
	}
	return n
}

// WriteUnits is AWS's write cost of one item: 1 unit per started KB, doubled
// inside a transaction.
func WriteUnits(size int, transactional bool) float64 {
	u := float64((size + 1023) / 1024)
	if u == 0 {
		u = 1
	}
	if transactional {
		u *= 2
	}
	return u
}

// EventualReadUnits is AWS's eventually consistent read cost: half a unit
// per started 4 KB.
func EventualReadUnits(size int) float64 { return ReadUnits(size, false) / 2 }

// ReadUnits is AWS's strongly consistent read cost: 1 unit per started 4 KB
// (doubled inside a transaction).
func ReadUnits(size int, transactional bool) float64 {
	u := float64((size + 4095) / 4096)
	if u == 0 {
		u = 1
	}
	if transactional {
		u *= 2
	}
	return u
}
