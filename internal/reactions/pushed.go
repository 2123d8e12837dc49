package reactions

import (
	"context"
	"encoding/json"
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
}

// MaxChanges bounds a record's history. Beyond it the oldest half is folded
// into one "set" change as of its last moment: a snapshot asked for a
// moment inside the folded span then sees the state at the span's end.
// Only a message with thousands of reaction changes gets there.
const MaxChanges = 2000

// MaxIDs bounds the identities in one change.
const MaxIDs = 1000

// Apply appends a change (checked) to the history.
func (r *Record) Apply(c Change) error {
	switch c.Op {
	case OpSet, OpAdd, OpRemove:
		if len(c.Up)+len(c.Down) > MaxIDs {
			return fmt.Errorf("%d identities in one push; at most %d", len(c.Up)+len(c.Down), MaxIDs)
		}
		if c.Op != OpSet && len(c.Up)+len(c.Down) == 0 {
			return fmt.Errorf("an %q push names nobody", c.Op)
		}
		c.Up, c.Down = set(c.Up), set(c.Down)
	case OpEdited, OpDeleted:
		c.Up, c.Down = nil, nil
	default:
		return fmt.Errorf("unknown change %q (want set, add, remove, edited or deleted)", c.Op)
	}
	r.Changes = append(r.Changes, c)
	if len(r.Changes) > MaxChanges {
		half := len(r.Changes) / 2
		at := r.Changes[half-1].At
		s := replay(r.Changes[:half], at)
		folded := []Change{{At: at, Op: OpSet, Up: s.Up, Down: s.Down}}
		if s.Edited {
			folded = append(folded, Change{At: at, Op: OpEdited})
		}
		if s.Deleted {
			folded = append(folded, Change{At: at, Op: OpDeleted})
		}
		r.Changes = append(folded, r.Changes[half:]...)
	}
	return nil
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
	it, err := p.Store.Get(ctx, k)
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading pushed reactions of %s: %w", k, err)
	}
	if !it.Exists() {
		return Snapshot{Up: []string{}, Down: []string{}}, nil
	}
	var r Record
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return Snapshot{}, fmt.Errorf("decoding pushed reactions %s: %w", k, err)
	}
	return r.AsOf(p.At), nil
}
