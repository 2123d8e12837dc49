package game

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"croupier/internal/clock"
	"croupier/internal/jsondelta"
	"croupier/internal/rules"
	"croupier/internal/store"

	"github.com/oklog/ulid/v2"
)

const checkpointPrefix = "CKPT#"

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
				return Moment{}, rules.Refuse("bad_moment", "%q is not a log entry's id: an entry id is the 26 letters and digits the log shows (such as 01JE5Z8X7Q3W0000000000000)", id)
			}
			return Moment{Entry: strings.ToUpper(id), After: p == "after:"}, nil
		}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return Moment{}, rules.Refuse("bad_moment", "%q is not a moment: give a time such as 2026-12-01T18:00:00Z (RFC 3339, with its zone), or before:<entry> or after:<entry> for a log entry", s)
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
}


// Replay applies the log of game up to m, in each item's version order
// (each item's versions are its commits' order), and returns the items
// then (RULINGS T6). It starts from the latest checkpoint at or before m.
func (s *Service) Replay(ctx context.Context, game string, m Moment) (*Replay, error) {
	vt, err := s.View(ctx, game)
	if err != nil {
		return nil, err
	}
	meta := vt.Meta
	now := s.clock.Now()
	limit, exclude := m.At, ""
	if m.Entry != "" {
		e, err := s.entryByID(ctx, game, m.Entry)
		if err != nil {
			return nil, err
		}
		limit = e.At
		if !m.After {
			exclude = e.ID
		}
	}
	if limit.After(now) {
		return nil, rules.Refuse("moment_in_future", "%s is in the future (it is now %s): the past can be read, the future cannot", limit.Format(time.RFC3339), now.Format(time.RFC3339))
	}
	if limit.Before(meta.CreatedAt) {
		return nil, rules.Refuse("before_game", "%s is before the game %s was created (%s): there was no game then", limit.Format(time.RFC3339), game, meta.CreatedAt.Format(time.RFC3339))
	}
	r := &Replay{Game: game, Items: map[string]store.Item{}, Refs: map[string]bool{}, Last: map[string]string{},
		AsOf: AsOf{At: limit, Asked: m.String()}}
	from := meta.CreatedAt.Add(-time.Minute)
	base := map[string]int64{}
	if cp, err := s.checkpointBefore(ctx, game, limit); err != nil {
		return nil, err
	} else if cp != nil {
		if err := s.loadCheckpoint(ctx, game, cp, r); err != nil {
			return nil, err
		}
		for sk, it := range r.Items {
			base[sk] = it.Version
		}
		from = cp.At
	}
	type step struct {
		c     Change
		entry string
	}
	byItem := map[string][]step{}
	var last *Entry
	err = s.LogRange(ctx, game, from, limit, func(e *Entry) error {
		if e.At.After(limit) || e.ID == exclude || m.Entry != "" && !m.After && e.ID > exclude && e.At.Equal(limit) {
			return nil
		}
		for _, c := range e.Changes {
			if c.V <= base[c.SK] {
				continue // in the checkpoint already
			}
			byItem[c.SK] = append(byItem[c.SK], step{c, e.ID})
		}
		r.Entries++
		if last == nil || e.At.After(last.At) || e.At.Equal(last.At) && e.ID > last.ID {
			last = e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if last != nil {
		r.AsOf.Entry = last.ID
	}
	pk := GamePK(game)
	for sk, steps := range byItem {
		sort.Slice(steps, func(i, j int) bool { return steps[i].c.V < steps[j].c.V })
		it := r.Items[sk]
		for _, st := range steps {
			c := st.c
			switch {
			case c.Gone:
				it = store.Item{}
				delete(r.Refs, sk)
			case c.Ref:
				r.Refs[sk] = true
				it = store.Item{Key: store.Key{PK: pk, SK: sk}, Version: c.V}
			default:
				var doc []byte
				if it.Exists() {
					doc = it.Data
				}
				if doc == nil && (len(c.Ops) != 1 || len(c.Ops[0].Path) != 0 || c.Ops[0].Value == nil) {
					r.Defects = append(r.Defects, fmt.Sprintf("%s: entry %s changes version %d of an item the log never created", sk, st.entry, c.V))
					continue
				}
				data, err := jsondelta.Apply(doc, c.Ops)
				if err != nil {
					r.Defects = append(r.Defects, fmt.Sprintf("%s: entry %s cannot be applied to version %d: %v", sk, st.entry, it.Version, err))
					continue
				}
				it = store.Item{Key: store.Key{PK: pk, SK: sk}, Version: c.V, Data: data, Due: c.Due, Order: c.Order}
			}
			r.Last[sk] = st.entry
		}
		if it.Exists() || r.Refs[sk] {
			r.Items[sk] = it
		} else {
			delete(r.Items, sk)
		}
	}
	return r, nil
}

// entryByID finds a log entry by its id (its ULID names its millisecond).
func (s *Service) entryByID(ctx context.Context, game, id string) (*Entry, error) {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return nil, rules.Refuse("bad_moment", "%q is not a log entry's id", id)
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
		return nil, rules.Refuse("entry_not_found", "the log of %s has no entry %s", game, id)
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
	return s.over(r), r.AsOf, nil
}

// over is s reading r (past.go's store) at r's moment.
func (s *Service) over(r *Replay) *Service {
	p := &Service{store: newPastStore(s.store, r), clock: clock.NewManual(r.AsOf.At), entropy: s.entropy, ids: s.ids,
		log: s.log, reactions: s.reactions, modules: s.modules, Registry: s.Registry, MaxAttempts: 1, Backoff: s.Backoff}
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
	// maxLog is the greatest log order key at the moment.
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
	if len(liveKeys) > 0 {
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
		if it.Order > p.maxLog {
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
		start = len(matches)
		for i, k := range matches {
			if k == q.Cursor {
				start = i + 1
				break
			}
		}
	}
	var page store.Page
	for i := start; i < len(matches) && len(page.Items) < limit; i++ {
		sk := matches[i]
		if q.Index == store.IndexOrder {
			_, sk, _ = strings.Cut(sk, "\x00")
		}
		it := p.r.Items[sk]
		if p.r.Refs[sk] {
			got, err := p.live.Get(ctx, it.Key)
			if err != nil {
				return store.Page{}, err
			}
			it = p.then(got)
		}
		page.Items = append(page.Items, it)
		if len(page.Items) == limit && i+1 < len(matches) {
			page.Next = matches[i]
		}
	}
	return page, nil
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
			if it = p.then(it); it.Exists() {
				kept = append(kept, it)
			} else if q.Index == store.IndexOrder {
				later = true
			}
		}
		page.Items = kept
		if later && !q.Desc {
			// The log in time order: what follows is later still.
			page.Next = ""
		}
		// A log read newest first skips what came after the moment.
		if len(kept) > 0 || page.Next == "" || !q.Desc {
			return page, nil
		}
		q.Cursor = page.Next
	}
}

// checkpoint is a logged fact: the game's explained items at a moment.
type checkpoint struct {
	At time.Time `json:"at"`
}

func (s *Service) checkpointBefore(ctx context.Context, game string, at time.Time) (*checkpoint, error) {
	return nil, nil
}

func (s *Service) loadCheckpoint(ctx context.Context, game string, cp *checkpoint, r *Replay) error {
	return nil
}
