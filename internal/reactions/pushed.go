package reactions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"croupier/internal/store"
)

// Op is one kind of pushed change to a message.
type Op string

// Pushed changes. Set replaces both reaction lists with full sets (what a
// bridge that reads the message sends); Add and Remove are deltas (what a
// bridge that receives reaction events sends); Edited and Deleted mark the
// message, for good.
const (
	OpSet     Op = "set"
	OpAdd     Op = "add"
	OpRemove  Op = "remove"
	OpEdited  Op = "edited"
	OpDeleted Op = "deleted"
)

// Change is one pushed change, stamped with the moment it was accepted.
type Change struct {
	At   time.Time `json:"at"`
	Op   Op        `json:"op"`
	Up   []string  `json:"up,omitempty"`
	Down []string  `json:"down,omitempty"`
}

// Record is the stored history of one message's pushed changes, oldest
// first. Keeping the history, not only the latest state, lets a tally read
// the message as it was at its deadline even when it runs late and pushes
// arrived since (RULINGS T4).
type Record struct {
	Message MessageRef `json:"message"`
	Changes []Change   `json:"changes"`
	// CountedAt is the moment a scheduled end counted the message's
	// reactions as of (Seal): the history up to it is final. A change
	// stamped at or before it is refused (*LateError), whatever the clock
	// of the process that stamped it said, so an accepted change is one the
	// count saw or one after the counted moment (RULINGS T5).
	CountedAt time.Time `json:"counted_at,omitzero"`
}

// LateError refuses a change stamped at or before the moment the
// message's reactions were counted as of.
type LateError struct {
	CountedAt time.Time
	At        time.Time
}

func (e *LateError) Error() string {
	return fmt.Sprintf("the reactions were counted as of %s; a change stamped %s comes after the count",
		e.CountedAt.UTC().Format(time.RFC3339Nano), e.At.UTC().Format(time.RFC3339Nano))
}

// Final reports whether the history as of at can no longer change: the
// record is sealed at at or later.
func (r Record) Final(at time.Time) bool {
	return !r.CountedAt.IsZero() && !r.CountedAt.Before(at)
}

// Seal makes the history as of at final, and reports whether that changed
// the record (false: it was sealed at at or later already). The caller
// writes it back under the version it read, so a change that read the
// record before the seal fails its own version check, reads the seal and
// is refused.
func (r *Record) Seal(at time.Time) bool {
	if r.Final(at) {
		return false
	}
	r.CountedAt = at
	return true
}

// MaxChanges bounds a record's history, as MaxBytes does its size. Beyond
// either the oldest half is folded into one snapshot (a "set" change and
// as many "add"s at the same moment as its identities need) as of its last
// moment: a snapshot asked for a moment inside the folded span then sees
// the state at the span's end. Only a message with thousands of reaction
// changes gets there.
const MaxChanges = 2000

// MaxIDs bounds the identities in one change.
const MaxIDs = 1000

// Apply appends a change (checked) to the history. A change stamped at or
// before the sealed moment is refused with a *LateError.
func (r *Record) Apply(c Change) error {
	if r.Final(c.At) {
		return &LateError{CountedAt: r.CountedAt, At: c.At}
	}
	switch c.Op {
	case OpSet, OpAdd, OpRemove:
		if len(c.Up)+len(c.Down) > MaxIDs {
			return fmt.Errorf("%d identities in one push; at most %d", len(c.Up)+len(c.Down), MaxIDs)
		}
		if c.Op != OpSet && len(c.Up)+len(c.Down) == 0 {
			return fmt.Errorf("an %q push names nobody", c.Op)
		}
		c.Up, c.Down = set(c.Up), set(c.Down)
		if n := changeBytes(c); n > MaxChangeBytes {
			return fmt.Errorf("the identities of one push take %d bytes; at most %d (send them in several add pushes)", n, MaxChangeBytes)
		}
	case OpEdited, OpDeleted:
		c.Up, c.Down = nil, nil
	default:
		return fmt.Errorf("unknown change %q (want set, add, remove, edited or deleted)", c.Op)
	}
	r.Changes = append(r.Changes, c)
	if len(r.Changes) > MaxChanges || r.overgrown() {
		r.fold()
	}
	return nil
}

// changeBytes is about what c takes encoded: the bound every change is
// held to, so that a change always fits a page (stored.go).
func changeBytes(c Change) int {
	n := 64
	for _, id := range c.Up {
		n += len(id) + 3
	}
	for _, id := range c.Down {
		n += len(id) + 3
	}
	return n
}

// overgrown reports whether the history passes MaxBytes and is more than
// twice the state it comes to: a message of many reactors, each added
// once, is as large as its state and gains nothing by a fold.
func (r Record) overgrown() bool {
	n := historyBytes(r.Changes)
	if n <= MaxBytes {
		return false
	}
	s := r.AsOf(time.Time{})
	return n > 2*changeBytes(Change{Up: s.Up, Down: s.Down})
}

func historyBytes(changes []Change) int {
	n := 0
	for _, c := range changes {
		n += changeBytes(c)
	}
	return n
}

// fold shortens a history over MaxChanges: the oldest half becomes one
// snapshot as of its latest moment, so a moment inside the folded span sees
// the state at the span's end. A sealed record first folds what its count
// saw into one snapshot as of CountedAt, and never folds across that
// moment: the history as of CountedAt stays exactly what was counted.
func (r *Record) fold() {
	head := 0
	if !r.CountedAt.IsZero() {
		var counted, later []Change
		for _, c := range r.Changes {
			if c.At.After(r.CountedAt) {
				later = append(later, c)
			} else {
				counted = append(counted, c)
			}
		}
		snap := snapshot(replay(counted, r.CountedAt), r.CountedAt)
		r.Changes = append(snap, later...)
		if len(r.Changes) <= MaxChanges {
			return
		}
		head = len(snap)
	}
	end := head + (len(r.Changes)-head)/2
	var at time.Time
	for _, c := range r.Changes[head:end] {
		if c.At.After(at) {
			at = c.At
		}
	}
	folded := snapshot(replay(r.Changes[:end], at), at)
	r.Changes = append(append(slices.Clip(r.Changes[:head]), folded...), r.Changes[end:]...)
}

// snapshot is s as the changes that set it at moment at: a "set" and, for
// more identities than one change holds, "add"s at the same moment.
func snapshot(s Snapshot, at time.Time) []Change {
	out := []Change{{At: at, Op: OpSet}}
	for _, side := range []struct {
		ids []string
		up  bool
	}{{s.Up, true}, {s.Down, false}} {
		for _, id := range side.ids {
			c := &out[len(out)-1]
			if changeBytes(*c)+len(id)+3 > MaxChangeBytes {
				out = append(out, Change{At: at, Op: OpAdd})
				c = &out[len(out)-1]
			}
			if side.up {
				c.Up = append(c.Up, id)
			} else {
				c.Down = append(c.Down, id)
			}
		}
	}
	if s.Edited {
		out = append(out, Change{At: at, Op: OpEdited})
	}
	if s.Deleted {
		out = append(out, Change{At: at, Op: OpDeleted})
	}
	return out
}

// AsOf returns the message as it was at t: every change accepted at or
// before t, in the order accepted. A zero t means now (every change).
func (r Record) AsOf(t time.Time) Snapshot { return replay(r.Changes, t) }

func replay(changes []Change, t time.Time) Snapshot {
	up, down := map[string]bool{}, map[string]bool{}
	var s Snapshot
	for _, c := range changes {
		if !t.IsZero() && c.At.After(t) {
			continue
		}
		switch c.Op {
		case OpSet:
			up, down = map[string]bool{}, map[string]bool{}
			fallthrough
		case OpAdd:
			for _, id := range c.Up {
				up[id] = true
			}
			for _, id := range c.Down {
				down[id] = true
			}
		case OpRemove:
			for _, id := range c.Up {
				delete(up, id)
			}
			for _, id := range c.Down {
				delete(down, id)
			}
		case OpEdited:
			s.Edited = true
		case OpDeleted:
			s.Deleted = true
		}
	}
	s.Up, s.Down = keys(up), keys(down)
	if s.Deleted {
		// A deleted message has no reactions left to count.
		s.Up, s.Down = []string{}, []string{}
	}
	return s
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PushedPrefix starts the sort key of every pushed-reactions record.
const PushedPrefix = "REACTIONS#"

// Key is where the pushed record of m lives in the partition pk (a game's
// partition: pushes are per game, RULINGS R2).
func Key(pk string, m MessageRef) (store.Key, error) {
	if err := Check(m); err != nil {
		return store.Key{}, err
	}
	return store.Key{PK: pk, SK: PushedPrefix + m.Platform + "#" + m.Channel + "#" + m.Message}, nil
}

// Pushed is the adapter over pushed records: it reads the record of a
// message in partition PK and answers as of At (zero: the latest state). A
// message nobody pushed anything about has no reactions and is intact.
type Pushed struct {
	Store store.Store
	PK    string
	At    time.Time
}

// Reactions reads m's pushed record.
func (p Pushed) Reactions(ctx context.Context, m MessageRef) (Snapshot, error) {
	k, err := Key(p.PK, m)
	if err != nil {
		return Snapshot{}, err
	}
	_, r, err := Load(ctx, p.Store, k, m)
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading pushed reactions of %s: %w", k, err)
	}
	return r.AsOf(p.At), nil
}

// Load reads the record of m at k, head and pages, reading again when a
// push moved it on between the two reads. A message nobody pushed anything
// about has an empty record.
func Load(ctx context.Context, st store.Store, k store.Key, m MessageRef) (Head, Record, error) {
	for attempt := 1; ; attempt++ {
		it, err := st.Get(ctx, k)
		if err != nil {
			return Head{}, Record{}, err
		}
		h, err := DecodeHead(k, m, it)
		if err != nil {
			return Head{}, Record{}, err
		}
		var pages []store.Item
		if h.Used > 0 {
			if pages, err = st.GetMany(ctx, h.PageKeys()); err != nil {
				return Head{}, Record{}, err
			}
		}
		r, err := h.Record(pages)
		if errors.Is(err, store.ErrConflict) && attempt < 5 {
			continue
		}
		return h, r, err
	}
}
