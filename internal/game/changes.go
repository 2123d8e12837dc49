package game

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"croupier/internal/jsondelta"
	"croupier/internal/reactions"
	"croupier/internal/store"
)

// Change is how one of the game's stored items changed in a commit: the
// version written and the operations that turn the item as the commit read
// it into what it wrote (internal/jsondelta). Every commit's log entry
// carries one per item it wrote, so the log explains the state: replaying
// the changes of the entries up to any one, in each item's version order,
// gives every item as it was then (past.go). The engine records them at
// its one commit, for every component alike, so no component can write a
// field its events forget to say (issue 25).
type Change struct {
	SK string `json:"sk"`
	// V is the version written (the item's next version).
	V int64 `json:"v"`
	// Gone: the commit deleted the item.
	Gone bool           `json:"gone,omitempty"`
	Ops  []jsondelta.Op `json:"ops,omitempty"`
	// Due and Order are the item's place in the due and ordered indexes
	// after the write (they are attributes, not part of its document).
	Due   time.Time `json:"due,omitzero"`
	Order string    `json:"ord,omitempty"`
	// Ref: an item written once and never changed (an ended period's
	// activity lists, up to 200 KB each), which the log names rather than
	// copies; a read of the past takes it from the store.
	Ref bool `json:"ref,omitempty"`
	// Secret: what the item holds is hidden from the public until a later
	// change reveals it (an Exoptosis hand during selection, X1). The
	// public log shows that it changed, not how.
	Secret bool `json:"secret,omitempty"`
}

// unexplained are the kinds of item of a game partition that are not game
// state the log explains: the log itself; the period seeds (secret until
// revealed; the period end's events reveal each, and `verify` checks every
// draw against them); pushed reactions (bridge records with their own
// timestamped history, sealed by counted ends: RULINGS T5); the announcer's
// claims; checkpoints (made from the log).
var unexplained = []string{logPrefix, spillPrefix, seedPrefix, reactions.PushedPrefix, "ANNOUNCED#", checkpointPrefix}

// referenced are kinds written once and never changed, too large to copy
// into an entry: the log names them (Change.Ref).
var referenced = []string{activityPrefix}

// Explained reports whether the log explains the item at sk (every item of
// a game but the kinds above).
func Explained(sk string) bool {
	for _, p := range unexplained {
		if strings.HasPrefix(sk, p) {
			return false
		}
	}
	return true
}

func isReferenced(sk string) bool {
	for _, p := range referenced {
		if strings.HasPrefix(sk, p) {
			return true
		}
	}
	return false
}

// MarkSecret says the item at k is hidden from the public as this commit
// leaves it (a module's hidden information: an Exoptosis selection). The
// change that next reveals it records the whole item.
func (t *Tx) MarkSecret(k store.Key) {
	if t.secret == nil {
		t.secret = map[store.Key]bool{}
	}
	t.secret[k] = true
}

// MarkRevealed says this commit reveals the item at k that an earlier one
// left secret: its change records the whole item, so a reader of the
// public log, who never saw the secret, has it.
func (t *Tx) MarkRevealed(k store.Key) {
	if t.revealed == nil {
		t.revealed = map[store.Key]bool{}
	}
	t.revealed[k] = true
}

// changes records how the commit changes each explained item it writes
// of its own game.
func (t *Tx) changes() ([]Change, error) { return t.changesIn(GamePK(t.Game)) }

// changesIn records how the commit changes each explained item it writes
// in the game partition pk.
func (t *Tx) changesIn(pk string) ([]Change, error) {
	var out []Change
	for _, p := range t.Puts {
		k := p.Item.Key
		if k.PK != pk || !Explained(k.SK) {
			continue
		}
		c := Change{SK: k.SK, V: p.Expect + 1, Due: p.Item.Due.UTC(), Order: p.Item.Order, Secret: t.secret[k]}
		switch {
		case isReferenced(k.SK) && p.Expect == 0:
			c.Ref = true
		default:
			var before []byte
			if old, ok := t.Loaded[k]; ok && old.Exists() && old.Version == p.Expect && !t.revealed[k] {
				before = old.Data
			}
			after := p.Item.Data
			if k.SK == metaSK {
				// The period end's fence is a lock, not a fact of the game
				// (schedule.go fencePeriod): the log leaves it out.
				before, after = WithoutFence(before), WithoutFence(after)
			}
			ops, err := jsondelta.Diff(before, after)
			if err != nil {
				return nil, fmt.Errorf("recording the change of %s: %w", k, err)
			}
			c.Ops = ops
		}
		out = append(out, c)
	}
	for _, d := range t.Deletes {
		if d.Key.PK != pk || !Explained(d.Key.SK) {
			continue
		}
		out = append(out, Change{SK: d.Key.SK, V: d.Version + 1, Gone: true})
	}
	return out, nil
}

// publicChanges are the entry's changes as the public log shows them: a
// secret change says which item changed, not how.
func publicChanges(cs []Change) []Change {
	var out []Change // a copy, once one change is hidden
	for i, c := range cs {
		if c.Secret && c.Ops != nil {
			if out == nil {
				out = slices.Clone(cs)
			}
			out[i].Ops = nil
		}
	}
	if out == nil {
		return cs
	}
	return out
}

// An entry whose changes would make it too large for one item (a battle's
// setup writing dozens of roster pages of 500 entrants) keeps them in
// companion items of the same commit, LOGC#<command id>#<n>, each a
// deflated JSON array of changes within spillBytes; Entry.Spilled counts
// them, and every reader of the changes (the replay, the public log)
// reads them back (spilledChanges). Nothing of a commit's changes is thus
// ever dropped, and no item grows past DynamoDB's limit.
const (
	spillPrefix = "LOGC#"
	// entryBudget is the stored entry size past which its changes spill:
	// well under store.MaxItemBytes, with room for the rest of the entry.
	entryBudget = 200 << 10
	spillBytes  = 300 << 10
)

func spillKey(game, commandID string, n int) store.Key {
	return store.Key{PK: GamePK(game), SK: fmt.Sprintf("%s%s#%02d", spillPrefix, commandID, n)}
}

// spill moves the entry's changes into companion items staged in the
// commit.
func (t *Tx) spill() error {
	var chunk []json.RawMessage
	size, n := 0, 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		n++
		plain, err := json.Marshal(chunk)
		if err != nil {
			return err
		}
		data, err := deflateEntry(plain)
		if err != nil {
			return err
		}
		t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: spillKey(t.Game, t.Entry.CommandID, n), Data: data}})
		chunk, size = nil, 0
		return nil
	}
	for _, c := range t.Entry.Changes {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		// A chunk's plain size bounds its stored one (deflateEntry keeps
		// the smaller).
		if size > 0 && size+len(b) > spillBytes {
			if err := flush(); err != nil {
				return err
			}
		}
		chunk, size = append(chunk, b), size+len(b)
	}
	if err := flush(); err != nil {
		return err
	}
	t.Entry.Changes, t.Entry.Spilled = nil, n
	return nil
}

// spilledChanges reads back the changes an entry spilled.
func (s *Service) spilledChanges(ctx context.Context, game string, e *Entry) error {
	if e.Spilled == 0 {
		return nil
	}
	keys := make([]store.Key, e.Spilled)
	for i := range keys {
		keys[i] = spillKey(game, e.CommandID, i+1)
	}
	its, err := s.store.GetMany(ctx, keys)
	if err != nil {
		return fmt.Errorf("reading the changes of entry %s: %w", e.ID, err)
	}
	for _, it := range its {
		if !it.Exists() {
			return fmt.Errorf("the changes of entry %s are missing %s", e.ID, it.Key)
		}
		plain, err := storedPlain(it.Data)
		if err != nil {
			return err
		}
		var cs []Change
		if err := json.Unmarshal(plain, &cs); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		e.Changes = append(e.Changes, cs...)
	}
	e.Spilled = 0
	return nil
}

// otherGames are the games other than the commit's own whose explained
// items it writes (a chat server's binding moved from one game to another
// takes the server out of the first game's META), in order.
func (t *Tx) otherGames() []string {
	own := GamePK(t.Game)
	var out []string
	add := func(k store.Key) {
		g, ok := strings.CutPrefix(k.PK, "GAME#")
		if ok && k.PK != own && Explained(k.SK) && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	for _, p := range t.Puts {
		add(p.Item.Key)
	}
	for _, d := range t.Deletes {
		add(d.Key)
	}
	sort.Strings(out)
	return out
}

// elsewhere is the entry, in the log of game g, of a commit of another
// game's that also changes g's items: the same id, command, actor and time,
// g's period, and the changes of g's items, under its own command id (so
// it never meets an entry of g's own commands). Each game's log then
// explains its own items, and a read of g's past sees the change.
func (t *Tx) elsewhere(g string) (store.Put, error) {
	cs, err := t.changesIn(GamePK(g))
	if err != nil {
		return store.Put{}, err
	}
	e := Entry{ID: t.Entry.ID, Command: t.Entry.Command, Actor: t.Entry.Actor, Key: t.Entry.Key, At: t.Entry.At,
		CommandID: CommandID(t.Entry.Actor, "in "+t.Game+": "+t.Entry.Key), Events: []Event{}, Changes: cs}
	if it, ok := t.Loaded[MetaKey(g)]; ok && it.Exists() {
		var m Meta
		if json.Unmarshal(it.Data, &m) == nil {
			e.Period = m.Period
		}
	}
	data, err := encodeEntry(&e)
	if err != nil {
		return store.Put{}, fmt.Errorf("encoding the log entry of %s in %s: %w", t.Entry.Command, g, err)
	}
	return store.Put{Item: store.Item{Key: LogKey(g, e.CommandID), Data: data, Order: logPrefix + e.ID}}, nil
}
