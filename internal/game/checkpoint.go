package game

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/oklog/ulid/v2"

	"croupier/internal/jsondelta"
	"croupier/internal/store"
)

// Checkpoints keep a read of a long game's past fast (issue 25): the
// game's explained items at a settled moment C, summed up from the log, so
// that a replay at any later moment starts from the latest checkpoint and
// applies only the entries after it (past.go Replay), instead of the whole
// log. Each is a logged fact: its head is committed with a log entry of
// the scheduled command "checkpoint", which says when it was made, of
// what moment, and its hash.
//
// Items, all in the game's partition and unexplained (changes.go):
//   - CKPT#<id>#p0001, p0002...: the pages, each at most
//     checkpointPageBytes of JSON lines (one per item: its sort key,
//     version, data, due time, order, whether the log names it, and the
//     entry of its last change), deflated when that is smaller;
//   - CKPT#<id>: the head, in the ordered index (Order "CKPT#<id>"):
//     the moment, the last entry it includes, how many entries, items
//     and pages, and the SHA-256 of the pages' lines in key order;
//   - CKPT#next: the game's checkpoint timer (in the due index) and its
//     count of the entries logged since the latest checkpoint.
//
// <id> is the ULID of C's millisecond with no random part: a moment has
// one checkpoint, and two runs making it write the same keys.
const (
	checkpointPrefix = "CKPT#"
	checkpointNextSK = checkpointPrefix + "next"
)

// CheckpointEntries is how many log entries a checkpoint follows the last
// one by (WithCheckpointEntries changes it): a past read replays at most
// about this many entries after the pages. A thousand entries read as one
// replay cost about what a checkpoint's pages of a thousand players do
// (each some hundreds of bytes; docs/architecture.md has the numbers),
// so neither half of a read dominates; a checkpoint of a small game costs
// less than its entries' replay, and games of under a thousand entries
// have none.
const CheckpointEntries = 1000

const (
	// checkpointSettle: a checkpoint is of a moment at least this far in
	// the past. A command's entry is named (and dated) by the clock at its
	// commit, so one committing after C and dated at or before it would
	// need a commit this slow or a clock this far behind.
	checkpointSettle = time.Minute
	// checkpointPageBytes bounds one page's JSON: a page reads and writes
	// in a bounded number of units whatever the game's size.
	checkpointPageBytes = 64 << 10
	// checkpointPagesPerCommit: a few pages to a commit keep a commit well
	// under DynamoDB's 4 MB transaction, and the commits few.
	checkpointPagesPerCommit = 8
	// checkpointMaxWait is the longest the timer waits between counts; it
	// waits less when entries come fast (the time the last count's rate
	// needs to reach CheckpointEntries), never less than checkpointSettle.
	checkpointMaxWait = time.Hour
	// checkpointRetry: a moment not settled yet (work due by then still
	// to run) is tried again this much later.
	checkpointRetry = 10 * time.Minute
	// checkpointsPerRun bounds one run's work (a game that logged a
	// hundred thousand entries before it had checkpoints catches up over
	// several runs, each holding this many checkpoints' entries).
	checkpointsPerRun = 10
)

// WithCheckpointEntries sets how many entries a checkpoint follows the
// last one by (default CheckpointEntries): tests make them with fewer.
func WithCheckpointEntries(n int) Option {
	return func(s *Service) { s.checkpointEntries = max(n, 1) }
}

// checkpointWork is the common component's checkpoint timer.
var checkpointWork = DueWork{Kind: "checkpoint", Prefix: checkpointNextSK, Run: func(s *Service, ctx context.Context, game, _ string) ([]string, error) {
	return s.Checkpoint(ctx, game)
}}

func checkpointNextKey(game string) store.Key {
	return store.Key{PK: GamePK(game), SK: checkpointNextSK}
}

// checkpoint is a checkpoint's head.
type checkpoint struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
	// Entry is the last entry it includes (at EntryAt); Entries counts
	// them all, from the game's creation.
	Entry   string    `json:"entry,omitempty"`
	EntryAt time.Time `json:"entry_at,omitzero"`
	Entries int       `json:"entries"`
	Items   int       `json:"items"`
	Pages   int       `json:"pages"`
	SHA256  string    `json:"sha256"`
	// Defects and Secret are the replay's (Replay) at the moment.
	Defects []string `json:"defects,omitempty"`
	Secret  []string `json:"secret,omitempty"`
}

// checkpointItem is one item as a page holds it.
type checkpointItem struct {
	SK    string          `json:"sk"`
	V     int64           `json:"v"`
	Data  json.RawMessage `json:"data,omitempty"`
	Due   time.Time       `json:"due,omitzero"`
	Order string          `json:"ord,omitempty"`
	Ref   bool            `json:"ref,omitempty"`
	Entry string          `json:"entry,omitempty"`
}

// checkpointState is CKPT#next: the latest checkpoint, and the entries
// counted since it.
type checkpointState struct {
	Last   string    `json:"last,omitempty"`
	LastAt time.Time `json:"last_at,omitzero"`
	// Counted entries are logged after Last, named up to Through.
	Through time.Time `json:"through,omitzero"`
	Counted int       `json:"counted"`
}

// checkpointID names the checkpoint of moment c: its millisecond's ULID,
// with no random part.
func checkpointID(c time.Time) string {
	var u ulid.ULID
	_ = u.SetTime(ulid.Timestamp(c))
	return u.String()
}

// endOfMs is the last instant of t's millisecond. A checkpoint's moment is
// one, so that it includes exactly the entries named (ULID) in its
// millisecond or before.
func endOfMs(t time.Time) time.Time {
	return t.Truncate(time.Millisecond).Add(time.Millisecond - time.Nanosecond)
}

// entryMs is the millisecond an entry is named in (its ULID's time),
// which is its place in the log: LogRange reads by it.
func entryMs(e *Entry) uint64 {
	u, err := ulid.ParseStrict(e.ID)
	if err != nil {
		return 0
	}
	return u.Time()
}

// checkpointBefore finds the latest checkpoint of game at or before at
// (strictly before, if strict), newest first through the heads in the
// ordered index: one request when the moment is after the latest.
func (s *Service) checkpointBefore(ctx context.Context, game string, at time.Time, strict bool) (*checkpoint, error) {
	q := store.Query{PK: GamePK(game), Prefix: checkpointPrefix, Index: store.IndexOrder, Desc: true, Limit: 1}
	for {
		page, err := s.store.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("reading the checkpoints of %s: %w", game, err)
		}
		for _, it := range page.Items {
			var cp checkpoint
			if err := json.Unmarshal(it.Data, &cp); err != nil {
				return nil, fmt.Errorf("decoding checkpoint %s: %w", it.Key, err)
			}
			if cp.At.Before(at) || !strict && cp.At.Equal(at) {
				return &cp, nil
			}
		}
		if page.Next == "" {
			return nil, nil
		}
		q.Cursor, q.Limit = page.Next, 100
	}
}

// loadCheckpoint puts cp's items into r, as a replay up to cp.At leaves
// them. Pages that do not add up to the head (their count, their hash)
// are refused: the replay then reads the whole log.
func (s *Service) loadCheckpoint(ctx context.Context, game string, cp *checkpoint, r *Replay) error {
	h := sha256.New()
	pages, items := 0, 0
	q := store.Query{PK: GamePK(game), Prefix: checkpointPrefix + cp.ID + "#p", Limit: 100}
	for {
		page, err := s.store.Query(ctx, q)
		if err != nil {
			return fmt.Errorf("reading checkpoint %s of %s: %w", cp.ID, game, err)
		}
		for _, it := range page.Items {
			raw, err := storedPlain(it.Data)
			if err != nil {
				return fmt.Errorf("page %s: %w", it.SK, err)
			}
			pages++
			h.Write(raw)
			for line := range bytes.Lines(raw) {
				var ci checkpointItem
				if err := json.Unmarshal(line, &ci); err != nil {
					return fmt.Errorf("page %s: %w", it.SK, err)
				}
				items++
				it := store.Item{Key: store.Key{PK: GamePK(game), SK: ci.SK}, Version: ci.V, Data: []byte(ci.Data), Due: ci.Due, Order: ci.Order}
				if ci.Ref {
					r.Refs[ci.SK] = true
					it.Data = nil
				}
				r.Items[ci.SK] = it
				if ci.Entry != "" {
					r.Last[ci.SK] = ci.Entry
				}
			}
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	if sum := hex.EncodeToString(h.Sum(nil)); pages != cp.Pages || items != cp.Items || sum != cp.SHA256 {
		return fmt.Errorf("its pages hold %s in %s (SHA-256 %s), where its head says %s in %s (SHA-256 %s)", Count(items, "item", "items"), Count(pages, "page", "pages"), sum,
			Count(cp.Items, "item", "items"), Count(cp.Pages, "page", "pages"), cp.SHA256)
	}
	r.Entries = cp.Entries
	r.Defects = append(r.Defects, cp.Defects...)
	r.Secret = append(r.Secret, cp.Secret...)
	if cp.Entry != "" {
		r.last = &Entry{ID: cp.Entry, At: cp.EntryAt}
		r.AsOf.Entry, r.AsOf.At = cp.Entry, cp.EntryAt
	}
	return nil
}

// errCheckpointRace: another run is writing the same checkpoint.
var errCheckpointRace = errors.New("another run is writing this checkpoint")

// Checkpoint is the game's checkpoint timer: it counts the entries logged
// since the latest checkpoint, up to a settled moment, and once there are
// CheckpointEntries of them writes a checkpoint after each
// CheckpointEntries (at the end of the millisecond of the last one). A
// moment is settled when no work due by then is left to run (the replay
// up to it holds no item due by then: such work, when it runs, is dated
// as of its due moment) and it is at least checkpointSettle ago. Runs at
// once write each checkpoint once: the head's commit expects the timer's
// version the run read, and the log entry's id is the checkpoint's. It
// returns the checkpoints written, as "game/id".
func (s *Service) Checkpoint(ctx context.Context, game string) ([]string, error) {
	now := s.clock.Now()
	ck, mk := checkpointNextKey(game), MetaKey(game)
	items, err := s.store.GetMany(ctx, []store.Key{ck, mk})
	if err != nil {
		return nil, err
	}
	ci, mi := items[0], items[1]
	if !ci.Exists() || ci.Due.IsZero() || ci.Due.After(now) || !mi.Exists() {
		return nil, nil // another run has rescheduled it
	}
	var st checkpointState
	if err := json.Unmarshal(ci.Data, &st); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", ck, err)
	}
	var meta Meta
	if err := json.Unmarshal(mi.Data, &meta); err != nil {
		return nil, fmt.Errorf("decoding game %s: %w", game, err)
	}
	settled := endOfMs(now.Add(-checkpointSettle))
	since := st.Through
	if since.IsZero() {
		since = meta.CreatedAt.Add(-time.Minute)
	}
	if !settled.After(since) {
		if err := s.rescheduleCheckpoint(ctx, ci, st, now.Add(checkpointSettle)); !errors.Is(err, store.ErrConflict) {
			return nil, err
		}
		return nil, nil // another run has rescheduled it
	}
	fresh := 0
	if err := s.LogRange(ctx, game, since.Add(time.Nanosecond), settled, func(*Entry) error { fresh++; return nil }); err != nil {
		return nil, err
	}
	st.Counted += fresh
	st.Through = settled
	run := &checkpointRun{s: s, ctx: ctx, game: game, meta: &meta, ci: ci, now: now}
	var done []string
	next := time.Time{}
	if st.Counted >= s.checkpointEntries {
		var more, settledAll bool
		done, more, settledAll, err = run.write(&st, settled)
		switch {
		case errors.Is(err, errCheckpointRace):
			return done, nil
		case err != nil:
			return done, err
		case more:
			next = now // more to catch up on: the next round of RunDue
		case !settledAll:
			next = now.Add(checkpointRetry)
		}
	}
	if next.IsZero() {
		next = now.Add(checkpointWait(fresh, settled.Sub(since), s.checkpointEntries-st.Counted))
	}
	if err := s.rescheduleCheckpoint(ctx, run.ci, st, next); err != nil && !errors.Is(err, store.ErrConflict) {
		return done, err
	}
	return done, nil
}

// checkpointWait is how long to wait before counting again: the time the
// last count's rate (fresh entries over span) needs for remaining more.
func checkpointWait(fresh int, span time.Duration, remaining int) time.Duration {
	wait := checkpointMaxWait
	if fresh > 0 && span > 0 {
		wait = time.Duration(float64(span) * float64(max(remaining, 1)) / float64(fresh))
	}
	return min(max(wait, checkpointSettle), checkpointMaxWait)
}

// rescheduleCheckpoint writes the timer's count and its next due moment
// (a commit of its own: the count is no fact of the game).
func (s *Service) rescheduleCheckpoint(ctx context.Context, ci store.Item, st checkpointState, due time.Time) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: ci.Key, Data: data, Due: due}, Expect: ci.Version}}})
}

// checkpointRun is one run's writing of checkpoints.
type checkpointRun struct {
	s    *Service
	ctx  context.Context
	game string
	meta *Meta
	// ci is the timer as last read or written.
	ci  store.Item
	now time.Time
}

// errEnough stops a log read that has what it needs.
var errEnough = errors.New("enough entries")

// write replays the log from the latest checkpoint up to settled and
// writes a checkpoint after every CheckpointEntries entries (up to
// checkpointsPerRun of them), updating st. more: the run stopped with
// checkpoints still to write; settledAll: no checkpoint was left unwritten
// for want of a settled moment.
func (run *checkpointRun) write(st *checkpointState, settled time.Time) (done []string, more, settledAll bool, err error) {
	s, ctx, game := run.s, run.ctx, run.game
	n := s.checkpointEntries
	r := NewReplay(game)
	from := run.meta.CreatedAt.Add(-time.Minute)
	if st.Last != "" {
		hi, err := s.store.Get(ctx, store.Key{PK: GamePK(game), SK: checkpointPrefix + st.Last})
		if err != nil {
			return nil, false, false, err
		}
		var cp checkpoint
		if err := json.Unmarshal(hi.Data, &cp); err != nil {
			return nil, false, false, fmt.Errorf("decoding checkpoint %s: %w", hi.Key, err)
		}
		if err := s.loadCheckpoint(ctx, game, &cp, r); err != nil {
			// Reads go on from the whole log (Replay) and the audit names
			// it; no checkpoint is made over one altered (the timer fails,
			// and the overdue alarm calls for someone to look).
			return nil, false, false, fmt.Errorf("checkpoint %s of %s does not add up: %w", cp.ID, game, err)
		}
		from = cp.At.Add(time.Nanosecond)
	}
	// The entries after it, in the log's order (by name), a run's worth.
	var entries []*Entry
	limit := n * checkpointsPerRun
	err = s.LogRange(ctx, game, from, settled, func(e *Entry) error {
		if len(entries) >= limit && entryMs(e) != entryMs(entries[len(entries)-1]) {
			more = true
			return errEnough
		}
		if err := s.spilledChanges(ctx, game, e); err != nil {
			return err
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, false, false, err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].ID < entries[j].ID })
	count := 0
	for i, e := range entries {
		r.Add(e)
		count++
		if count < n || i+1 < len(entries) && entryMs(entries[i+1]) == entryMs(e) {
			continue
		}
		r.Finish()
		c := endOfMs(time.UnixMilli(int64(entryMs(e))).UTC())
		if sk := r.dueBy(c); sk != "" {
			s.log.InfoContext(ctx, "checkpoint waits for due work", "game", game, "moment", c, "due", sk)
			st.Counted = len(entries) - (i + 1 - count)
			if more {
				st.Through = endOfMs(time.UnixMilli(int64(entryMs(entries[len(entries)-1]))).UTC())
			}
			return done, false, false, nil
		}
		id, err := run.commit(r, c, st, len(entries)-(i+1))
		if err != nil {
			return done, false, false, err
		}
		done = append(done, game+"/"+id)
		count = 0
	}
	st.Counted = count
	if more {
		// The rest is counted afresh by the next run, from here.
		st.Through = endOfMs(time.UnixMilli(int64(entryMs(entries[len(entries)-1]))).UTC())
	}
	return done, more, true, nil
}

// dueBy names an item of the replay due at or before c (none: "").
func (r *Replay) dueBy(c time.Time) string {
	for _, sk := range sortedKeys(r.Items) {
		if d := r.Items[sk].Due; !d.IsZero() && !d.After(c) {
			return sk
		}
	}
	return ""
}

// commit writes r, the replay up to c, as a checkpoint: its pages in
// commits of their own, then its head, the timer (st, with rest entries
// left counted) and its log entry in one. It returns the checkpoint's id.
func (run *checkpointRun) commit(r *Replay, c time.Time, st *checkpointState, rest int) (string, error) {
	s, ctx, game := run.s, run.ctx, run.game
	id := checkpointID(c)
	var pages [][]byte
	var cur []byte
	h := sha256.New()
	for _, sk := range sortedKeys(r.Items) {
		it := r.Items[sk]
		ci := checkpointItem{SK: sk, V: it.Version, Due: it.Due, Order: it.Order, Ref: r.Refs[sk], Entry: r.Last[sk]}
		if !ci.Ref {
			ci.Data = it.Data
		}
		line, err := json.Marshal(ci)
		if err != nil {
			return "", fmt.Errorf("encoding %s for checkpoint %s: %w", sk, id, err)
		}
		line = append(line, '\n')
		h.Write(line)
		if len(cur) > 0 && len(cur)+len(line) > checkpointPageBytes {
			pages = append(pages, cur)
			cur = nil
		}
		cur = append(cur, line...)
	}
	if len(cur) > 0 {
		pages = append(pages, cur)
	}
	pk := GamePK(game)
	keys := make([]store.Key, len(pages))
	for i := range pages {
		keys[i] = store.Key{PK: pk, SK: fmt.Sprintf("%s%s#p%04d", checkpointPrefix, id, i+1)}
	}
	// A page a run that did not finish wrote is written over (its content
	// is the same: the log up to a settled moment does not change).
	var old []store.Item
	for i := 0; i < len(keys); i += 100 {
		got, err := s.store.GetMany(ctx, keys[i:min(i+100, len(keys))])
		if err != nil {
			return "", err
		}
		old = append(old, got...)
	}
	for i := 0; i < len(pages); i += checkpointPagesPerCommit {
		var tx store.Tx
		for j := i; j < min(i+checkpointPagesPerCommit, len(pages)); j++ {
			data, err := deflateEntry(pages[j])
			if err != nil {
				return "", err
			}
			tx.Puts = append(tx.Puts, store.Put{Item: store.Item{Key: keys[j], Data: data}, Expect: old[j].Version})
		}
		if err := s.store.Commit(ctx, tx); errors.Is(err, store.ErrConflict) {
			return "", errCheckpointRace
		} else if err != nil {
			return "", fmt.Errorf("writing checkpoint %s of %s: %w", id, game, err)
		}
	}
	head := checkpoint{ID: id, At: c, Entry: r.AsOf.Entry, Entries: r.Entries, Items: len(r.Items), Pages: len(pages),
		SHA256: hex.EncodeToString(h.Sum(nil)), Defects: r.Defects, Secret: r.Secret}
	if r.last != nil {
		head.EntryAt = r.last.At
	}
	hb, err := json.Marshal(head)
	if err != nil {
		return "", err
	}
	next := *st
	next.Last, next.LastAt, next.Counted = id, c, rest
	hk := store.Key{PK: pk, SK: checkpointPrefix + id}
	t := &Tx{Svc: s, Ctx: ctx, Now: run.now, Game: game, Loaded: map[store.Key]store.Item{run.ci.Key: run.ci}}
	t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: hk, Data: hb, Order: checkpointPrefix + id}})
	if err := t.Put(run.ci.Key, next, run.ci.Due); err != nil {
		return "", err
	}
	cmdID := CommandID(SchedulerActor, "checkpoint:"+id)
	t.Entry = &Entry{ID: newULID(run.now, s.ids), Command: "checkpoint", CommandID: cmdID, Actor: SchedulerActor,
		Key: "checkpoint:" + id, At: run.now, Period: run.meta.Period}
	t.Emit("checkpoint_written", "", map[string]any{"id": id, "at": c, "entry": head.Entry, "entries": head.Entries,
		"items": head.Items, "pages": head.Pages, "sha256": head.SHA256})
	if err := t.Commit(ctx, LogKey(game, cmdID), head); errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrDuplicate) {
		return "", errCheckpointRace
	} else if err != nil {
		return "", fmt.Errorf("writing checkpoint %s of %s: %w", id, game, err)
	}
	run.ci = store.Item{Key: run.ci.Key, Version: run.ci.Version + 1, Data: nil, Due: run.ci.Due}
	*st = next
	s.log.InfoContext(ctx, "checkpoint written", "game", game, "checkpoint", id, "entries", head.Entries, "items", head.Items, "pages", head.Pages)
	return id, nil
}

// checkpointNarration says a checkpoint_written event in words.
func checkpointNarration(ev Event, _ func(string) string) string {
	f := Fields(ev)
	s := "The game as it stood"
	if at, err := time.Parse(time.RFC3339Nano, f.Str("at")); err == nil {
		s += " at " + at.UTC().Format("Mon 2 Jan 2006 15:04:05 MST")
	}
	s += " was recorded as a checkpoint"
	if f.Has("items") {
		s += " of " + Count(f.Int("items"), "item", "items")
	}
	if f.Has("entries") {
		s += ", after " + Count(f.Int("entries"), "log entry", "log entries")
	}
	if h := f.Str("sha256"); h != "" {
		s += " (sha256 " + h + ")"
	}
	return s + "; reads of the past start from it."
}

// checkLatestCheckpoint compares the game's latest checkpoint with the
// whole log's replay at its moment: a difference (nil: none, or no
// checkpoint) names the checkpoint and the first item it holds otherwise.
func (s *Service) checkLatestCheckpoint(ctx context.Context, game string) (*Difference, error) {
	cp, err := s.checkpointBefore(ctx, game, s.clock.Now(), false)
	if err != nil || cp == nil {
		return nil, err
	}
	sk := checkpointPrefix + cp.ID
	got := NewReplay(game)
	if err := s.loadCheckpoint(ctx, game, cp, got); err != nil {
		return &Difference{SK: sk, Entry: cp.Entry, Why: fmt.Sprintf("the checkpoint of %s does not add up (reads of the past go on from the whole log): %v", cp.At.UTC().Format(time.RFC3339Nano), err)}, nil
	}
	want, err := s.replay(ctx, game, Moment{At: cp.At}, false)
	if err != nil {
		return nil, err
	}
	differs := func(why string, a ...any) (*Difference, error) {
		return &Difference{SK: sk, Entry: cp.Entry, Why: fmt.Sprintf("the checkpoint of %s, which reads of the past start from, ", cp.At.UTC().Format(time.RFC3339Nano)) + fmt.Sprintf(why, a...)}, nil
	}
	for _, k := range sortedKeys(want.Items) {
		w, g := want.Items[k], got.Items[k]
		switch {
		case !g.Exists() && !got.Refs[k]:
			return differs("lacks %s, which the log's replay then holds", k)
		case g.Version != w.Version || !g.Due.Equal(w.Due) || g.Order != w.Order || got.Refs[k] != want.Refs[k] || !jsondelta.Equal(g.Data, w.Data):
			return differs("holds %s otherwise than the log's replay then", k)
		}
	}
	for _, k := range sortedKeys(got.Items) {
		if _, ok := want.Items[k]; !ok {
			return differs("holds %s, which the log's replay then does not", k)
		}
	}
	if got.AsOf.Entry != want.AsOf.Entry || got.Entries != want.Entries {
		return differs("ends at entry %s after %d entries, the log's replay then at %s after %d", got.AsOf.Entry, got.Entries, want.AsOf.Entry, want.Entries)
	}
	return nil, nil
}
