package game

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"croupier/internal/clock"
	"croupier/internal/jsondelta"
	"croupier/internal/rules"
	"croupier/internal/store"

	"github.com/oklog/ulid/v2"
)

// Moment is when a read of the past looks (RULINGS T6): a time, or just
// before or just after one log entry.
type Moment struct {
	At time.Time
	// Entry is a log entry's id; After: the moment just after it, else
	// just before it.
	Entry string
	After bool
}

func (m Moment) String() string {
	switch {
	case m.Entry != "" && m.After:
		return "after:" + m.Entry
	case m.Entry != "":
		return "before:" + m.Entry
	default:
		return m.At.UTC().Format(time.RFC3339Nano)
	}
}

// ParseMoment reads a moment as a request names one: an RFC 3339 time
// ("2026-12-01T18:00:00Z", "2026-12-01T12:00:00-06:00"), or
// "before:<entry>" / "after:<entry>" for a log entry's id.
func ParseMoment(s string) (Moment, error) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"before:", "after:"} {
		if id, ok := strings.CutPrefix(s, p); ok {
			if _, err := ulid.ParseStrict(strings.ToUpper(id)); err != nil {
				return Moment{}, rules.Refuse("bad_moment", "%q is not a log entry's id: an entry id is the 26 letters and digits the log shows (such as 01JE5Z8X7Q3W0000000000000A).", id)
			}
			return Moment{Entry: strings.ToUpper(id), After: p == "after:"}, nil
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return Moment{}, rules.Refuse("bad_moment", "%q is not a moment: give a time such as 2026-12-01T18:00:00Z (RFC 3339, with its zone), or before:<entry> or after:<entry> for a log entry.", s)
	}
	return Moment{At: t.UTC()}, nil
}

// AsOf is what a read of the past answers for: the moment asked, and the
// last log entry its state includes.
type AsOf struct {
	At    time.Time `json:"at"`
	Entry string    `json:"entry,omitempty"`
	// Asked is the moment as the request named it.
	Asked string `json:"asked"`
}

// Replay is a game's explained items as the log leaves them at a moment.
type Replay struct {
	Game  string
	AsOf  AsOf
	Items map[string]store.Item
	// Refs are items the log names rather than copies (Change.Ref).
	Refs map[string]bool
	// Last is, for each item, the entry whose change it last took.
	Last map[string]string
	// Defects are the changes that could not be applied: each a defect of
	// the log (an item written without a logged change before it).
	Defects []string
	// Entries is how many entries were applied.
	Entries int
	// Secret are items whose latest change the public log hides (a
	// replay of the public log cannot know them).
	Secret []string

	base   map[string]int64
	byItem map[string][]replayStep
	last   *Entry
	// skipped are the entries of the moment's last millisecond that are
	// not in it (before:<entry>, and the entries of its time after it):
	// the log read at the moment leaves them out as the replay does.
	skipped map[string]bool
}

// Replay applies the log of game up to m, in each item's version order
// (each item's versions are its commits' order), and returns the items
// then (RULINGS T6). It starts from the latest checkpoint at or before m.
func (s *Service) Replay(ctx context.Context, game string, m Moment) (*Replay, error) {
	return s.replay(ctx, game, m, true)
}

// replay is Replay, from a checkpoint or (fromCheckpoints false: the
// audit, which trusts nothing stored but the log) from the whole log.
func (s *Service) replay(ctx context.Context, game string, m Moment, fromCheckpoints bool) (*Replay, error) {
	vt, err := s.View(ctx, game)
	if err != nil {
		return nil, err
	}
	meta := vt.Meta
	now := s.clock.Now()
	limit := m.At
	if m.Entry != "" {
		e, err := s.EntryByID(ctx, game, m.Entry)
		if err != nil {
			return nil, err
		}
		limit = e.At
	}
	if limit.After(now) {
		return nil, rules.Refuse("moment_in_future", "%s is in the future (it is now %s): the past can be read, the future cannot.", limit.Format(time.RFC3339), now.Format(time.RFC3339))
	}
	if limit.Before(meta.CreatedAt) {
		return nil, rules.Refuse("before_game", "%s is before the game %s was created (%s): there was no game then.", limit.Format(time.RFC3339), game, meta.CreatedAt.Format(time.RFC3339))
	}
	r := NewReplay(game)
	from := meta.CreatedAt.Add(-time.Minute)
	// upTo: the entries named (ULID) in its millisecond or before are in
	// the checkpoint the replay starts from (none: 0, before every entry).
	// The name, not the date: a command is dated as its attempt began and
	// named as it commits, so one dated before a checkpoint's moment may
	// be named after it, and then it is not in the checkpoint.
	var upTo uint64
	// A moment around an entry excludes the entries dated alike after it
	// (and before: it too): only a checkpoint strictly before holds none.
	var cp *checkpoint
	if fromCheckpoints {
		if cp, err = s.checkpointBefore(ctx, game, limit, m.Entry != ""); err != nil {
			return nil, err
		}
	}
	if cp != nil {
		if err := s.loadCheckpoint(ctx, game, cp, r); err != nil {
			// A damaged checkpoint is a defect the audit reports; the read
			// goes on from the whole log, which the checkpoint only sums up.
			r = NewReplay(game)
			r.Defects = append(r.Defects, fmt.Sprintf("%s%s: %v; read from the whole log instead", checkpointPrefix, cp.ID, err))
		} else {
			upTo, from = ulid.Timestamp(cp.At), cp.At
		}
	}
	r.base = map[string]int64{}
	for sk, it := range r.Items {
		r.base[sk] = it.Version
	}
	err = s.LogRange(ctx, game, from, limit, func(e *Entry) error {
		// Around an entry, the entries of its very moment (a manual clock
		// or a turn end dates many alike) count up to it in log order.
		if e.At.After(limit) || m.Entry != "" && e.At.Equal(limit) && (e.ID > m.Entry || !m.After && e.ID == m.Entry) {
			if r.skipped == nil {
				r.skipped = map[string]bool{}
			}
			r.skipped[e.ID] = true
			return nil
		}
		if upTo > 0 && entryMs(e) <= upTo {
			return nil // in the checkpoint
		}
		if err := s.spilledChanges(ctx, game, e); err != nil {
			return err
		}
		r.Add(e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.Finish()
	if r.Entries == 0 && len(r.Items) == 0 {
		// before:<the game's first entry>: the moment it was created, but
		// before it was.
		return nil, rules.Refuse("before_game", "Just before entry %s the game %s had not been created: there was no game then.", m.Entry, game)
	}
	if _, ok := r.Items[metaSK]; !ok && r.Entries > 0 {
		// A game created before its log recorded changes (issue 25): its
		// entries say what happened, not how each item changed.
		return nil, rules.Refuse("past_not_recorded", "Game %s was created before Croupier's log recorded how each change left the game, so its state at %s cannot be rebuilt from its log; its log still says everything that happened.", game, limit.Format(time.RFC3339))
	}
	r.AsOf.At, r.AsOf.Asked = limit, m.String()
	return r, nil
}

// NewReplay is an empty replay of game, for a reader that has the log's
// entries (croupier verify --state reads the public log): Add each, then
// Finish.
func NewReplay(game string) *Replay {
	return &Replay{Game: game, Items: map[string]store.Item{}, Refs: map[string]bool{}, Last: map[string]string{}}
}

type replayStep struct {
	c     Change
	entry string
	at    time.Time
}

// inCommitOrder orders one item's steps as they were committed. Within
// one life of the item its versions are its commits' order (an entry's
// time is not: a lagging client's commit may be dated before the
// scheduler's that it follows). An item deleted and written again (a
// player's name index item when they leave and later join again) starts
// again at version 1, so its lives are told apart by time: each of an
// item's lives ends (is deleted) before the next begins, so the n-th
// change of a version, in time order, is of the n-th life still open at
// that version. The lives are applied in the order they began.
func inCommitOrder(steps []replayStep) []replayStep {
	sort.Slice(steps, func(i, j int) bool {
		a, b := steps[i], steps[j]
		if a.c.V != b.c.V {
			return a.c.V < b.c.V
		}
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		return a.entry < b.entry
	})
	if len(steps) < 2 || steps[1].c.V != steps[0].c.V && steps[len(steps)-1].c.V-steps[0].c.V == int64(len(steps)-1) {
		return steps // one life (the common case)
	}
	var lives [][]replayStep
	for i := 0; i < len(steps); {
		v := steps[i].c.V
		j := i
		for j < len(steps) && steps[j].c.V == v {
			j++
		}
		var open []int
		for k, l := range lives {
			if last := l[len(l)-1].c; last.V == v-1 && !last.Gone {
				open = append(open, k)
			}
		}
		for n, st := range steps[i:j] {
			if n < len(open) {
				lives[open[n]] = append(lives[open[n]], st)
			} else {
				// A new life (or, past version 1, a second change of one
				// version: the replay reports it as a defect).
				lives = append(lives, []replayStep{st})
			}
		}
		i = j
	}
	out := make([]replayStep, 0, len(steps))
	for _, l := range lives {
		out = append(out, l...)
	}
	return out
}

// Add takes one entry's changes; entries may come in any order (each
// item's changes are applied in its version order).
func (r *Replay) Add(e *Entry) {
	if r.byItem == nil {
		r.byItem = map[string][]replayStep{}
	}
	for _, c := range e.Changes {
		if c.V <= r.base[c.SK] {
			continue // in the checkpoint already
		}
		r.byItem[c.SK] = append(r.byItem[c.SK], replayStep{c, e.ID, e.At})
	}
	r.Entries++
	if r.last == nil || e.At.After(r.last.At) || e.At.Equal(r.last.At) && e.ID > r.last.ID {
		r.last = e
		r.AsOf.Entry = e.ID
		if r.AsOf.At.IsZero() || e.At.After(r.AsOf.At) {
			r.AsOf.At = e.At
		}
	}
}

// Finish applies the changes taken, in each item's version order.
func (r *Replay) Finish() {
	pk := GamePK(r.Game)
	for sk, steps := range r.byItem {
		steps = inCommitOrder(steps)
		it := r.Items[sk]
		hidden := slices.Contains(r.Secret, sk)
		// live is the item's document decoded, while changes apply to it;
		// it is encoded into it.Data once, after the last (encode).
		var live any
		dirty := false
		encode := func() {
			if dirty {
				it.Data, _ = json.Marshal(live) // decoded JSON: cannot fail
				dirty = false
			}
		}
		for _, st := range steps {
			c := st.c
			switch {
			case c.Gone:
				it, live, dirty = store.Item{}, nil, false
				delete(r.Refs, sk)
				hidden = false
			case c.Ref:
				r.Refs[sk] = true
				it, live, dirty = store.Item{Key: store.Key{PK: pk, SK: sk}, Version: c.V}, nil, false
			case c.Secret && c.Ops == nil:
				// A secret change read from the public log: hidden until
				// the change that reveals it (which holds the whole item).
				hidden = true
				it, live, dirty = store.Item{}, nil, false
			default:
				if live == nil && it.Exists() && len(it.Data) > 0 {
					v, err := jsondelta.Decode(it.Data)
					if err != nil {
						r.Defects = append(r.Defects, fmt.Sprintf("%s: version %d is no JSON document: %v", sk, it.Version, err))
						continue
					}
					live = v
				}
				whole := len(c.Ops) == 1 && len(c.Ops[0].Path) == 0 && c.Ops[0].Value != nil
				if !it.Exists() && !whole {
					if !hidden {
						r.Defects = append(r.Defects, fmt.Sprintf("%s: entry %s changes version %d of an item the log never created", sk, st.entry, c.V))
					}
					continue
				}
				v, err := jsondelta.ApplyTo(live, c.Ops)
				if err != nil {
					r.Defects = append(r.Defects, fmt.Sprintf("%s: entry %s cannot be applied to version %d: %v", sk, st.entry, it.Version, err))
					// What it left is unknown: start again from the last
					// version encoded.
					live, dirty = nil, false
					continue
				}
				data := it.Data
				if !it.Exists() {
					data = nil
				}
				live, dirty = v, true
				it = store.Item{Key: store.Key{PK: pk, SK: sk}, Version: c.V, Data: data, Due: c.Due, Order: c.Order}
				hidden = false // revealed: the change holds the whole item
			}
			r.Last[sk] = st.entry
		}
		encode()
		// Secret lists each item whose latest change is hidden, once: an
		// item revealed since is known again.
		r.Secret = slices.DeleteFunc(r.Secret, func(s string) bool { return s == sk })
		if hidden {
			r.Secret = append(r.Secret, sk)
		}
		if it.Exists() || r.Refs[sk] {
			r.Items[sk] = it
		} else {
			delete(r.Items, sk)
		}
	}
	r.byItem = nil
	sort.Strings(r.Secret)
}

// MomentAt is when m is in game's log: its time, or its entry's. It is
// refused as a read of the past is (an entry not in the log, a moment in
// the future or before the game), so a command naming a moment (a Request
// for Judgment's disputed moment) is refused for a moment no read could
// show.
func (s *Service) MomentAt(ctx context.Context, game string, m Moment) (time.Time, error) {
	vt, err := s.View(ctx, game)
	if err != nil {
		return time.Time{}, err
	}
	at := m.At
	if m.Entry != "" {
		e, err := s.EntryByID(ctx, game, m.Entry)
		if err != nil {
			return time.Time{}, err
		}
		at = e.At
	}
	if now := s.clock.Now(); at.After(now) {
		return time.Time{}, rules.Refuse("moment_in_future", "%s is in the future (it is now %s): the past can be read, the future cannot", at.Format(time.RFC3339), now.Format(time.RFC3339))
	}
	if at.Before(vt.Meta.CreatedAt) {
		return time.Time{}, rules.Refuse("before_game", "%s is before the game %s was created (%s): there was no game then", at.Format(time.RFC3339), game, vt.Meta.CreatedAt.Format(time.RFC3339))
	}
	return at, nil
}

// EntryByID finds a log entry by its id (its ULID names its millisecond).
func (s *Service) EntryByID(ctx context.Context, game, id string) (*Entry, error) {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return nil, rules.Refuse("bad_moment", "%q is not a log entry's id.", id)
	}
	t := ulid.Time(u.Time())
	var found *Entry
	err = s.LogRange(ctx, game, t, t, func(e *Entry) error {
		if e.ID == id {
			found = e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, rules.Refuse("entry_not_found", "The log of %s has no entry %s.", game, id)
	}
	return found, nil
}

// Past returns a service that reads game as it was at m: every query and
// view of the service answers as it would have then, from the log's
// replay, with the clock stopped at that moment; nothing can be changed
// through it (store.ErrInvalid: "the past is read-only").
func (s *Service) Past(ctx context.Context, game string, m Moment) (*Service, AsOf, error) {
	r, err := s.Replay(ctx, game, m)
	if err != nil {
		return nil, AsOf{}, err
	}
	return s.Over(r, s.store), r.AsOf, nil
}

// Over is s reading r at r's moment: its explained items from r, the rest
// from live as it stood then (nil: a replay of the public log alone, which
// has nothing else).
func (s *Service) Over(r *Replay, live store.Store) *Service {
	p := &Service{store: newPastStore(live, r), clock: clock.NewManual(r.AsOf.At), entropy: s.entropy, ids: s.ids,
		log: s.log, reactions: s.reactions, modules: s.modules, Registry: s.Registry, MaxAttempts: 1, Backoff: s.Backoff, checkpointEntries: s.checkpointEntries}
	return p
}

// pastStore is a read-only store of one game's items at a moment: the
// replay's explained items; the log up to the moment; the seeds as they
// stood (a secret not yet revealed then is withheld); the rest (pushed
// reactions, which keep their own timestamped history; other partitions)
// as they are.
type pastStore struct {
	live  store.Store
	r     *Replay
	pk    string
	keys  []string // the replay's keys, sorted
	order []string // the ordered index: Order + "\x00" + SK, sorted
	// maxLog is the greatest log order key at the moment (the replay's
	// skipped entries, of that moment but after it, are left out too).
	maxLog string
}

var _ store.Store = (*pastStore)(nil)

func newPastStore(live store.Store, r *Replay) *pastStore {
	p := &pastStore{live: live, r: r, pk: GamePK(r.Game)}
	for sk, it := range r.Items {
		p.keys = append(p.keys, sk)
		if it.Order != "" {
			p.order = append(p.order, it.Order+"\x00"+sk)
		}
	}
	sort.Strings(p.keys)
	sort.Strings(p.order)
	var u ulid.ULID
	_ = u.SetTime(ulid.Timestamp(r.AsOf.At))
	// Every ULID of the moment's millisecond or before sorts before this.
	p.maxLog = logPrefix + u.String()[:10] + "ZZZZZZZZZZZZZZZZ"
	return p
}

func (p *pastStore) Close() error { return nil }

func (p *pastStore) Commit(context.Context, store.Tx) error {
	return fmt.Errorf("%w: the past is read-only", store.ErrInvalid)
}

func (p *pastStore) QueryDue(_ context.Context, until time.Time, limit int) ([]store.Item, error) {
	var out []store.Item
	for _, sk := range p.keys {
		if it := p.r.Items[sk]; !it.Due.IsZero() && !it.Due.After(until) {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Due.Before(out[j].Due) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (p *pastStore) Get(ctx context.Context, k store.Key) (store.Item, error) {
	its, err := p.GetMany(ctx, []store.Key{k})
	if err != nil {
		return store.Item{}, err
	}
	return its[0], nil
}

func (p *pastStore) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	out := make([]store.Item, len(keys))
	var liveKeys []store.Key
	var liveAt []int
	for i, k := range keys {
		switch {
		case k.PK != p.pk || !Explained(k.SK) || p.r.Refs[k.SK]:
			liveKeys, liveAt = append(liveKeys, k), append(liveAt, i)
		default:
			out[i] = p.r.Items[k.SK]
			out[i].Key = k
		}
	}
	if len(liveKeys) > 0 && p.live == nil {
		for _, i := range liveAt {
			out[i] = store.Item{Key: keys[i]}
		}
	} else if len(liveKeys) > 0 {
		its, err := p.live.GetMany(ctx, liveKeys)
		if err != nil {
			return nil, err
		}
		for j, it := range its {
			out[liveAt[j]] = p.then(it)
		}
	}
	return out, nil
}

// then is a live item of the game as it stood at the moment.
func (p *pastStore) then(it store.Item) store.Item {
	if it.PK != p.pk || !it.Exists() {
		return it
	}
	switch {
	case strings.HasPrefix(it.SK, logPrefix):
		if it.Order > p.maxLog || p.r.skipped[strings.TrimPrefix(it.Order, logPrefix)] {
			return store.Item{Key: it.Key}
		}
	case strings.HasPrefix(it.SK, seedPrefix):
		var rec SeedRecord
		if json.Unmarshal(it.Data, &rec) != nil {
			return it
		}
		if rec.CommittedAt.After(p.r.AsOf.At) {
			return store.Item{Key: it.Key}
		}
		if rec.Revealed() && rec.RevealedAt.After(p.r.AsOf.At) {
			rec.Secret, rec.RevealedAt = "", time.Time{}
			it.Data, _ = json.Marshal(rec)
		}
	case p.r.Refs[it.SK]:
		it.Version = p.r.Items[it.SK].Version
	}
	return it
}

func (p *pastStore) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if p.live == nil && (q.PK != p.pk || !Explained(q.Prefix) && q.Prefix != "") {
		return store.Page{}, nil
	}
	if q.PK != p.pk {
		return p.live.Query(ctx, q)
	}
	if !Explained(q.Prefix) && q.Prefix != "" || q.Index == store.IndexOrder && strings.HasPrefix(q.Prefix, logPrefix) {
		return p.liveQuery(ctx, q)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = store.DefaultPageSize
	}
	var list []string
	if q.Index == store.IndexOrder {
		list = p.order
	} else {
		list = p.keys
	}
	var matches []string
	for _, k := range list {
		if strings.HasPrefix(k, q.Prefix) {
			matches = append(matches, k)
		}
	}
	if q.Desc {
		for i, j := 0, len(matches)-1; i < j; i, j = i+1, j-1 {
			matches[i], matches[j] = matches[j], matches[i]
		}
	}
	start := 0
	if q.Cursor != "" {
		after, ok := pastCursorKey(q.Cursor)
		if !ok || !strings.HasPrefix(after, q.Prefix) {
			return store.Page{}, store.ErrBadCursor
		}
		// The first key past the cursor's, in the query's direction: a
		// cursor is a place in the list, whether or not its key is there.
		start = sort.Search(len(matches), func(i int) bool {
			if q.Desc {
				return matches[i] < after
			}
			return matches[i] > after
		})
	}
	var page store.Page
	for i := start; i < len(matches) && len(page.Items) < limit; i++ {
		sk := matches[i]
		if q.Index == store.IndexOrder {
			_, sk, _ = strings.Cut(sk, "\x00")
		}
		it := p.r.Items[sk]
		if p.r.Refs[sk] && p.live != nil {
			got, err := p.live.Get(ctx, it.Key)
			if err != nil {
				return store.Page{}, err
			}
			it = p.then(got)
		}
		page.Items = append(page.Items, it)
		if len(page.Items) == limit && i+1 < len(matches) {
			page.Next = pastCursor(matches[i])
		}
	}
	return page, nil
}

// pastCursor is the cursor of a page of the past's items after key: its
// own kind (the live store's cursors name the store's own places), opaque
// and safe in a URL.
func pastCursor(key string) string {
	return pastCursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(key))
}

const pastCursorPrefix = "past."

// pastCursorKey is the key a pastCursor names.
func pastCursorKey(c string) (string, bool) {
	rest, ok := strings.CutPrefix(c, pastCursorPrefix)
	if !ok {
		return "", false
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	return string(b), err == nil
}

// liveQuery reads the kinds the replay does not hold from the store, as
// they stood at the moment: the log up to it, the seeds as then.
func (p *pastStore) liveQuery(ctx context.Context, q store.Query) (store.Page, error) {
	for {
		page, err := p.live.Query(ctx, q)
		if err != nil {
			return page, err
		}
		kept := page.Items[:0]
		later := false
		for _, it := range page.Items {
			if then := p.then(it); then.Exists() {
				kept = append(kept, then)
			} else if q.Index == store.IndexOrder && it.Order > p.maxLog {
				later = true
			}
		}
		page.Items = kept
		if later && !q.Desc {
			// The log in time order: what follows is later still.
			page.Next = ""
		}
		if !later && !q.Desc && page.Next != "" && q.Index == store.IndexOrder {
			// A full page whose next item is after the moment is the last
			// page then: its cursor would lead to an empty page the
			// reader did not have at the moment.
			peek := q
			peek.Cursor, peek.Limit = page.Next, 1
			after, err := p.live.Query(ctx, peek)
			if err != nil {
				return page, err
			}
			if len(after.Items) == 0 || !p.then(after.Items[0]).Exists() {
				page.Next = ""
			}
		}
		// A log read newest first skips what came after the moment.
		if len(kept) > 0 || page.Next == "" || !q.Desc {
			return page, nil
		}
		q.Cursor = page.Next
	}
}

// Difference is a stored item that is not what the log says it is.
type Difference struct {
	// SK is the item; Fields the paths where it differs (a field the log
	// set that the store holds otherwise); Entry is the last entry whose
	// change the log applied to the item: the item departs from the log
	// after it.
	SK     string   `json:"item"`
	Fields []string `json:"fields,omitempty"`
	Entry  string   `json:"entry,omitempty"`
	// Why says it in words.
	Why string `json:"why"`
}

// Explain replays the whole log of game and compares every explained item
// the store holds with the replay (issue 25: "the log explains the
// state"): each difference is an item changed without a logged change,
// or a logged change the store does not hold. Only META's period-end
// fence (closing), a lock that the logged period end clears, is not
// compared. The latest checkpoint, which reads of the past start from, is
// compared with the log's replay at its moment too.
func (s *Service) Explain(ctx context.Context, game string) ([]Difference, *Replay, error) {
	r, err := s.replay(ctx, game, Moment{At: s.clock.Now()}, false)
	if err != nil {
		return nil, nil, err
	}
	var out []Difference
	if d, err := s.checkLatestCheckpoint(ctx, game); err != nil {
		return nil, nil, err
	} else if d != nil {
		out = append(out, *d)
	}
	for _, d := range r.Defects {
		sk, why, _ := strings.Cut(d, ": ")
		out = append(out, Difference{SK: sk, Why: why})
	}
	seen := map[string]bool{}
	cursor := ""
	for {
		page, err := s.store.Query(ctx, store.Query{PK: GamePK(game), Cursor: cursor, Limit: 500})
		if err != nil {
			return nil, nil, err
		}
		for _, it := range page.Items {
			if !Explained(it.SK) {
				continue
			}
			seen[it.SK] = true
			want, ok := r.Items[it.SK]
			switch {
			case !ok:
				out = append(out, Difference{SK: it.SK, Why: "the store holds an item no logged change wrote"})
			case r.Refs[it.SK]:
				if it.Version != want.Version {
					out = append(out, Difference{SK: it.SK, Entry: r.Last[it.SK], Why: fmt.Sprintf("an item written once is at version %d in the store, %d in the log", it.Version, want.Version)})
				}
			default:
				got := it.Data
				if it.SK == metaSK {
					got = WithoutFence(got)
				}
				if !jsondelta.Equal(got, want.Data) {
					out = append(out, Difference{SK: it.SK, Entry: r.Last[it.SK], Fields: jsondelta.Differences(want.Data, got, 8),
						Why: "the store holds other values than the log's changes left"})
				} else if !it.Due.Equal(want.Due) || it.Order != want.Order {
					out = append(out, Difference{SK: it.SK, Entry: r.Last[it.SK], Fields: []string{"(its due time or order)"},
						Why: fmt.Sprintf("due %s and order %q in the store; the log says due %s and order %q", it.Due.Format(time.RFC3339), it.Order, want.Due.Format(time.RFC3339), want.Order)})
				}
			}
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	for _, sk := range sortedKeys(r.Items) {
		if !seen[sk] {
			out = append(out, Difference{SK: sk, Entry: r.Last[sk], Why: "the log's changes leave an item that the store does not hold"})
		}
	}
	return out, r, nil
}

// WithoutFence is META without the period-end fence (closing), which a
// commit of its own sets and the logged period end clears.
func WithoutFence(data []byte) []byte {
	if !bytes.Contains(data, []byte(`"closing"`)) {
		return data // the common case: no fence up, nothing to decode
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return data
	}
	if _, ok := m["closing"]; !ok {
		return data
	}
	delete(m, "closing")
	out, _ := json.Marshal(m)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
