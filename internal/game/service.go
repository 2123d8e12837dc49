// Package game is the application service: the one place that composes the
// rules with storage. A command authorises, loads the few items it needs in
// one read, calls pure rules, and commits the changed items, the log entry and
// the idempotency record (the same item) in one atomic write. Version
// conflicts are retried from a fresh read; rule refusals are returned as they
// are. Queries (read models) live here too.
package game

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"

	"croupier/internal/clock"
	"croupier/internal/fair"
	"croupier/internal/reactions"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// Service runs commands and queries against one store.
type Service struct {
	store   store.Store
	clock   clock.Clock
	entropy io.Reader
	// ids feeds log ULIDs: monotonic, so entries made in the same
	// millisecond (a manual clock makes many) keep the order they were made.
	ids io.Reader
	log *slog.Logger
	// reactions, if set, is where votes read reactions (WithReactions).
	reactions reactions.Source
	// rulesets caches each game's ruleset id (game id -> id), read from
	// its META: a game's ruleset never changes after create, so a command
	// its ruleset lacks is refused before anything is read (RULINGS R3).
	rulesets sync.Map
	// modules are the rulesets it runs (WithModules); reg indexes them
	// with the common component into the service's catalogue.
	modules []Module
	*Registry
	// MaxAttempts bounds how often a command is tried when its commit meets
	// a concurrent write (version conflict).
	MaxAttempts int
	// Backoff is the base pause between attempts; see pause.
	Backoff time.Duration
	// checkpointEntries is how many entries a checkpoint follows the last
	// one by (CheckpointEntries; WithCheckpointEntries).
	checkpointEntries int
}

// Option configures a Service.
type Option func(*Service)

// WithEntropy sets the source of new seeds and log ids (crypto/rand by default;
// tests pass a deterministic reader).
func WithEntropy(r io.Reader) Option { return func(s *Service) { s.entropy = r } }

// WithLogger sets the structured logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// New returns a service over st that reads the time from clk.
func New(st store.Store, clk clock.Clock, opts ...Option) *Service {
	s := &Service{store: st, clock: clk, entropy: rand.Reader, log: slog.Default(), MaxAttempts: 25, Backoff: 5 * time.Millisecond, checkpointEntries: CheckpointEntries}
	for _, o := range opts {
		o(s)
	}
	reg, err := NewRegistry(s.modules...)
	if err != nil {
		// The module list is code (internal/rulesets), not input: a bad one
		// is a programming error that no request can work around.
		panic("game.New: " + err.Error())
	}
	s.Registry = reg
	s.entropy = &lockedReader{r: s.entropy}
	s.ids = &ulid.LockedMonotonicReader{MonotonicReader: ulid.Monotonic(s.entropy, 0)}
	return s
}

// lockedReader serialises reads: commands run concurrently and a test's
// deterministic entropy source need not be safe for that.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// Store returns the service's store (for wiring and audits).
func (s *Service) Store() store.Store { return s.store }

// Clock returns the service's clock.
func (s *Service) Clock() clock.Clock { return s.clock }

// Errors of the service itself (rule refusals are *rules.Error too).
var (
	// ErrBusy: the command met a concurrent write on every attempt.
	ErrBusy = &rules.Error{Code: "busy", Message: "The game is busy with other commands right now; nothing was changed. Please try again in a moment."}
)

func gameNotFound(id string) *rules.Error {
	return rules.Refuse("game_not_found", "There is no game %q.", id)
}

func gameOver(m *Meta) *rules.Error {
	return rules.Refuse("game_over", "The game %q has ended (won by %s); it accepts no more actions.", m.ID, m.Winner)
}

// Request identifies one command.
type Request struct {
	Game  string
	Actor string
	// Key is the idempotency key (chat interaction id or Idempotency-Key
	// header). Empty means the caller wants no idempotency: a random key is used.
	Key string
}

func (r *Request) validate() error {
	if !ValidGameID(r.Game) {
		return rules.Refuse("invalid_game_id", "%q is not a valid game id: use 1-63 lower-case letters, digits and dashes.", r.Game)
	}
	if !ValidIdentity(r.Actor) {
		return rules.Refuse("invalid_actor", "%q is not a platform identity such as discord:1234 or slack:U024BE7LH.", r.Actor)
	}
	if len(r.Key) > 255 {
		return rules.Refuse("invalid_idempotency_key", "The idempotency key is %d characters long; at most 255 are allowed.", len(r.Key))
	}
	if r.Key == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		r.Key = "auto-" + hex.EncodeToString(b[:])
	}
	return nil
}

// Result is what a command returns: the response body (JSON, identical for
// every repeat of the same idempotency key) and whether this was a repeat.
type Result struct {
	Body     json.RawMessage
	Replayed bool
	Entry    *Entry
	// Names are the display names of the players the command read (none
	// for a replay), which its answer's sentence reads first.
	Names map[string]string
	// Attempts is how many times the command ran before it committed (more
	// than one when concurrent writes made it retry).
	Attempts int
}

// Tx is the working state of one attempt of one command.
type Tx struct {
	Svc         *Service
	Ctx         context.Context
	Now         time.Time
	Game        string
	Meta        *Meta
	MetaVersion int64
	Rules       *ruleset.Ruleset
	Schedule    calendar.Schedule
	Period      calendar.Period
	Loaded      map[store.Key]store.Item
	Puts        []store.Put
	Checks      []store.Check
	// Deletes are the items the commit deletes (at the version read).
	Deletes []store.Check
	Entry   *Entry
	Drawer  *fair.Drawer
	// ps caches decoded players, so a command that touches one player twice
	// (a gift back to one's own giver) sees and writes one record; dirty
	// lists the ones to write, in the order first saved.
	ps    map[string]PlayerRecord
	Dirty []string
	// metaDirty: META is written at commit (a victory, an amendment).
	metaDirty bool
	// Scratch is the ruleset module's own state for this attempt (what it
	// read or decided that later hooks of the same attempt reuse).
	Scratch any
	// body is the committed response (the entry may log a smaller form:
	// LoggedAs).
	body json.RawMessage
	// secret and revealed: items the module hides from the public as
	// this commit leaves them, and hidden ones it reveals (changes.go).
	secret, revealed map[store.Key]bool
}

// Spec describes one command for the executor.
type Spec struct {
	Req     Request
	Command string
	Body    any // the request payload, hashed to detect a reused key
	// Keys are the items apply needs besides META and the idempotency record.
	Keys func(game string) []store.Key
	// Random makes the current period's seed available to apply.
	Random bool
	Apply  func(t *Tx) (any, error)
}

// Run executes a command: one read, rules, one atomic commit, retried on
// conflict. It is the only path by which commands change state.
// Its flags (allowed after the end...) are the catalogue's; a command the
// game's ruleset lacks is refused not_in_ruleset before anything but META
// is read, and with nothing written (RULINGS R3).
func (s *Service) Run(ctx context.Context, sp Spec) (*Result, error) {
	cmd, ok := s.CommandNamed(sp.Command)
	if !ok {
		return nil, fmt.Errorf("internal: command %q is not in the catalogue", sp.Command)
	}
	if err := sp.Req.validate(); err != nil {
		return nil, err
	}
	// checked: the ruleset check is done, from this process's cache.
	checked := false
	if id, ok := s.rulesets.Load(sp.Req.Game); ok && cmd.Name != "create" {
		if err := s.allowCommand(sp.Req.Game, id.(string), cmd); err != nil {
			return nil, err
		}
		checked = true
	}
	reqHash := hashBody(sp.Command, sp.Body)
	cmdID := CommandID(sp.Req.Actor, sp.Req.Key)
	idem := LogKey(sp.Req.Game, cmdID)
	log := s.log.With("game", sp.Req.Game, "command", sp.Command, "actor", sp.Req.Actor, "command_id", cmdID)

	// The first attempt reads eventually consistent, at half the read
	// units: every item it writes carries a version condition, and the
	// seed a check, so a stale read costs at most a retry, which reads
	// strongly. A refusal is only ever answered from a strong read (a
	// stale read must not refuse a player who did just join, say).
	eventual := true
	for attempt := 1; ; attempt++ {
		res, err := s.attempt(ctx, sp, cmd, checked, cmdID, idem, reqHash, eventual)
		if err == nil && res.Replayed {
			err = s.answer(ctx, cmd, sp.Req.Game, res)
		}
		if err == nil {
			res.Attempts = attempt
			markLogged(ctx)
			if !res.Replayed {
				log.InfoContext(ctx, "command applied", "attempt", attempt, "entry", res.Entry.ID)
			}
			return res, nil
		}
		var dup *store.DuplicateError
		if errors.As(err, &dup) {
			// A concurrent twin committed first: answer with its response.
			res, err := replay(ctx, dup.Item, sp.Command, reqHash)
			if err == nil {
				err = s.answer(ctx, cmd, sp.Req.Game, res)
			}
			if err == nil {
				markLogged(ctx)
			}
			return res, err
		}
		// (A game's ruleset never changes: its refusal needs no second read.)
		var re *rules.Error
		if eventual && (errors.As(err, &re) && re.Code != "not_in_ruleset" || errors.Is(err, ErrSpaceMoved)) {
			eventual = false
			attempt--
			continue
		}
		eventual = false
		if !errors.Is(err, store.ErrConflict) {
			return nil, err
		}
		if attempt >= s.MaxAttempts {
			log.WarnContext(ctx, "command gave up after conflicts", "attempts", attempt)
			return nil, ErrBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(s.Pause(attempt)):
		}
	}
}

func (s *Service) attempt(ctx context.Context, sp Spec, cmd Command, checked bool, cmdID string, idem store.Key, reqHash string, eventual bool) (*Result, error) {
	now := s.clock.Now()
	keys := []store.Key{MetaKey(sp.Req.Game), idem}
	if sp.Keys != nil {
		keys = append(keys, sp.Keys(sp.Req.Game)...)
	}
	t := &Tx{Svc: s, Ctx: ctx, Now: now, Game: sp.Req.Game, Loaded: make(map[store.Key]store.Item, len(keys)+1)}

	// The seed's key depends on the period, which depends on the ruleset in
	// META; guess the common calendar so the seed comes in the same read.
	var seedGuess store.Key
	if sp.Random {
		if sch, err := calendar.For(calendar.UTCPhases); err == nil {
			seedGuess = seedKey(sp.Req.Game, sch.PeriodAt(now).ID)
			keys = append(keys, seedGuess)
		}
	}
	rctx := ctx
	if eventual {
		rctx = store.WithEventualReads(ctx)
	}
	items, err := s.store.GetMany(rctx, keys)
	if err != nil {
		return nil, fmt.Errorf("reading game %s: %w", sp.Req.Game, err)
	}
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	if cmd.Name != "create" && (!checked || boundCallOf(ctx) != nil) {
		if err := t.LoadMeta(); err != nil {
			return nil, err
		}
		// A process that had not seen the game yet checks the ruleset here,
		// after the one read: refused, nothing more is read or written.
		if err := s.allowCommand(t.Game, t.Meta.Ruleset, cmd); err != nil {
			return nil, err
		}
		if err := checkSpace(ctx, t.Meta); err != nil {
			return nil, err
		}
	}
	if it := t.Loaded[idem]; it.Exists() {
		return replay(ctx, it, sp.Command, reqHash)
	}
	if cmd.Name != "create" {
		if t.Meta == nil {
			if err := t.LoadMeta(); err != nil {
				return nil, err
			}
		}
		if t.Meta.Ended && !cmd.AfterEnd {
			return nil, gameOver(t.Meta)
		}
		// A period end another process already committed wins over this
		// process's clock, should that be a moment behind: the command
		// belongs to the period META has opened, never to one that ended.
		if open, err := t.Schedule.Parse(t.Meta.Period); err == nil && open.Start.After(t.Period.Start) {
			t.Period = open
		}
	}
	t.Entry = &Entry{
		Command:     sp.Command,
		CommandID:   cmdID,
		Actor:       sp.Req.Actor,
		Key:         sp.Req.Key,
		At:          now,
		RequestHash: reqHash,
	}
	if t.Schedule != nil {
		t.Entry.Period = t.Period.ID
	}
	if sp.Random {
		if err := t.openSeed(ctx, seedGuess); err != nil {
			return nil, err
		}
	}
	resp, err := sp.Apply(t)
	if err != nil {
		return nil, err
	}
	if err := t.Commit(ctx, idem, resp); err != nil {
		return nil, err
	}
	return &Result{Body: t.body, Entry: t.Entry, Names: t.knownNames()}, nil
}

// knownNames are the display names of the players this command read, for
// the sentence of its answer at no further read (Service.Names).
func (t *Tx) knownNames() map[string]string {
	out := map[string]string{}
	for id, p := range t.ps {
		if c := p.Core(); c != nil && c.Name != "" {
			out[id] = c.Name
		}
	}
	return out
}

// LoggedAs is a response whose log entry keeps a smaller form of it: what
// the log's readers and a repeat of the command need, with nothing the
// game's items already hold. It keeps a frequent command's entry within
// one write unit (a move's: issue 16). Its command's Answer rebuilds the
// whole response from that form and the items, so a repeat answers what
// the first call did.
type LoggedAs interface{ LoggedAs() any }

// commit writes the staged items and the log entry (holding resp and the
// draws made) in one transaction; the entry is also the idempotency record
// at idem. Every state change, command or scheduled work, ends here.
func (t *Tx) Commit(ctx context.Context, idem store.Key, resp any) error {
	if err := t.Flush(); err != nil {
		return err
	}
	if t.Entry.ID == "" {
		// The log's order id is taken now, after every read of the attempt
		// (some commands read again mid-way), so a command that saw another's
		// write is logged after it. Scheduled work sets its own, as of its
		// due moment.
		t.Entry.ID = newULID(later(t.Now, t.Svc.clock.Now()), t.Svc.ids)
	}
	if t.Drawer != nil {
		t.Entry.Draws = t.Drawer.Records()
	}
	var err error
	if t.Entry.Changes, err = t.changes(); err != nil {
		return err
	}
	if t.body, err = json.Marshal(resp); err != nil {
		return fmt.Errorf("encoding response of %s: %w", t.Entry.Command, err)
	}
	t.Entry.Response = t.body
	if l, ok := resp.(LoggedAs); ok {
		if t.Entry.Response, err = json.Marshal(l.LoggedAs()); err != nil {
			return fmt.Errorf("encoding the logged response of %s: %w", t.Entry.Command, err)
		}
	}
	data, err := encodeEntry(t.Entry)
	if err != nil {
		return fmt.Errorf("encoding log entry: %w", err)
	}
	if len(data) > entryBudget && len(t.Entry.Changes) > 0 {
		if err := t.spill(); err != nil {
			return fmt.Errorf("keeping the changes of %s: %w", t.Entry.Command, err)
		}
		if data, err = encodeEntry(t.Entry); err != nil {
			return fmt.Errorf("encoding log entry: %w", err)
		}
	}

	for _, g := range t.otherGames() {
		p, err := t.elsewhere(g)
		if err != nil {
			return err
		}
		t.Puts = append(t.Puts, p)
	}
	t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: idem, Data: data, Order: logPrefix + t.Entry.ID}})
	return t.Svc.store.Commit(ctx, store.Tx{Puts: t.Puts, Deletes: t.Deletes, Checks: t.Checks, Idem: &idem})
}

// LogEntry decodes a stored item as a committed log entry and names its
// game; ok is false for any other item. Announcements are read from the
// committed log this way (the table's stream on AWS, the store's feed
// locally: internal/publish), never sent beside the commit, so a crash after
// a commit cannot lose one.
func LogEntry(it store.Item) (game string, e *Entry, ok bool, err error) {
	id, isGame := strings.CutPrefix(it.PK, "GAME#")
	if !isGame || !strings.HasPrefix(it.SK, logPrefix) {
		return "", nil, false, nil
	}
	e, err = DecodeEntry(it.Data)
	if err != nil {
		return id, nil, true, fmt.Errorf("decoding log entry %s: %w", it.Key, err)
	}
	if e.ID == "" {
		return id, nil, true, fmt.Errorf("log entry %s has no id", it.Key)
	}
	return id, e, true, nil
}

// maxPause caps one pause between attempts.
const maxPause = time.Second

// pause is "full jitter" exponential backoff: a uniform pause up to
// Backoff*2^attempt (capped). Spreading retries over a growing window lets
// many writers of one hot item (50 concurrent grants to one player) all get
// through within MaxAttempts instead of colliding again in lockstep.
func (s *Service) Pause(attempt int) time.Duration {
	window := s.Backoff << min(attempt, 16)
	if window <= 0 || window > maxPause {
		window = maxPause
	}
	return s.Backoff/2 + mrand.N(window)
}

// replay answers a repeated command with the response stored by the first.
// Under a chat invocation (a BoundCall) the key is the platform's own id of
// the interaction, which names the request: a repeat of the same command
// answers the first response even if its options differ (only a forged
// replay can differ; the platform signs what it sends).
func replay(ctx context.Context, it store.Item, command, reqHash string) (*Result, error) {
	e, err := DecodeEntry(it.Data)
	if err != nil {
		return nil, fmt.Errorf("decoding stored log entry %s: %w", it.Key, err)
	}
	chat := boundCallOf(ctx) != nil && e.Command == command
	if e.RequestHash != "" && reqHash != "" && e.RequestHash != reqHash && !chat {
		return nil, rules.Refuse("idempotency_key_reused",
			"This idempotency key was already used for a different request (%s); use a new key for a new command.", e.Command)
	}
	return &Result{Body: e.Response, Replayed: true, Entry: e}, nil
}

// answer puts the whole response back into a repeat's result whose entry
// logged a smaller form (LoggedAs).
func (s *Service) answer(ctx context.Context, cmd Command, game string, res *Result) error {
	if cmd.Answer == nil {
		return nil
	}
	body, err := cmd.Answer(ctx, s, game, res.Entry)
	if err != nil {
		return fmt.Errorf("answering the repeat of %s: %w", res.Entry.Command, err)
	}
	res.Body = body
	return nil
}

// AnswerOf is the response a committed command answered, rebuilt from its
// entry when the entry logged a smaller form (LoggedAs): what a repeat of
// it answers.
func (s *Service) AnswerOf(ctx context.Context, game string, e *Entry) (json.RawMessage, error) {
	cmd, ok := s.CommandNamed(e.Command)
	if !ok || cmd.Answer == nil {
		return e.Response, nil
	}
	return cmd.Answer(ctx, s, game, e)
}

func (t *Tx) LoadMeta() error {
	it := t.Loaded[MetaKey(t.Game)]
	if !it.Exists() {
		return gameNotFound(t.Game)
	}
	var m Meta
	if err := json.Unmarshal(it.Data, &m); err != nil {
		return fmt.Errorf("decoding game %s: %w", t.Game, err)
	}
	// Only a committed META is cached, never a create's own (it may lose).
	t.Svc.rulesets.Store(t.Game, m.Ruleset)
	return t.setMeta(&m, it.Version)
}

func (t *Tx) setMeta(m *Meta, version int64) error {
	rs, err := t.Svc.effectiveRuleset(m)
	if err != nil {
		return fmt.Errorf("game %s: %w", m.ID, err)
	}
	sch, err := calendar.For(rs.Calendar)
	if err != nil {
		return fmt.Errorf("game %s: %w", m.ID, err)
	}
	t.Meta, t.MetaVersion, t.Rules, t.Schedule = m, version, rs, sch
	t.Period = sch.PeriodAt(t.Now)
	return nil
}

// Record returns the whole player record of id in the game's ruleset (the
// module's type, see Module.NewPlayer), or nil if they never joined.
// Players not in the command's first read are read now (a gift's giver owed
// PlayerNames says players by display name for a refusal's text: "Ada,
// Bob and Cy" (an id without a record or a name reads as itself). It reads
// the records the command has not (Record).
func (t *Tx) PlayerNames(ids ...string) string {
	return NameList(func(id string) string {
		if r, err := t.Record(id); err == nil && r != nil && r.Core() != nil && r.Core().Name != "" {
			return r.Core().Name
		}
		return id
	}, ids)
}

// a card). A command that touches one player twice sees one record.
func (t *Tx) Record(id string) (PlayerRecord, error) {
	if p, ok := t.ps[id]; ok {
		return p, nil
	}
	k := PlayerKey(t.Game, id)
	it, ok := t.Loaded[k]
	if !ok {
		if err := t.Load(k); err != nil {
			return nil, err
		}
		it = t.Loaded[k]
	}
	if !it.Exists() {
		return nil, nil
	}
	p, err := t.decoded(it)
	if err != nil {
		return nil, err
	}
	if t.ps == nil {
		t.ps = map[string]PlayerRecord{}
	}
	t.ps[id] = p
	return p, nil
}

// Player returns the membership of id, or nil if they never joined.
func (t *Tx) Player(id string) (*Player, error) {
	r, err := t.Record(id)
	if err != nil || r == nil {
		return nil, err
	}
	return r.Core(), nil
}

// Member returns id's record if they are a current player, else nil.
func (t *Tx) Member(id string) (*Player, error) {
	p, err := t.Player(id)
	if err != nil || p == nil || !p.Member {
		return nil, err
	}
	return p, nil
}

// Load reads keys the command's first read did not include (one more read
// request; only commands whose needs depend on what they read pay it).
func (t *Tx) Load(keys ...store.Key) error {
	if t.Ctx == nil {
		return fmt.Errorf("internal: no context to read %v", keys)
	}
	items, err := t.Svc.store.GetMany(t.Ctx, keys)
	if err != nil {
		return fmt.Errorf("reading %v: %w", keys, err)
	}
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	return nil
}

// Save marks p to be written at commit.
func (t *Tx) Save(p PlayerRecord) {
	if t.ps == nil {
		t.ps = map[string]PlayerRecord{}
	}
	id := p.Core().ID
	// Saving the membership of a record read earlier saves that record;
	// anything else (a new stint's record) replaces it.
	if old, ok := t.ps[id]; !ok || old.Core() != p.Core() {
		t.ps[id] = p
	}
	if !slices.Contains(t.Dirty, id) {
		t.Dirty = append(t.Dirty, id)
	}
}

// Flush stages the saved players and, when the game's module says a saved
// player has now won, ends the game with them as winner (RULINGS C7: by any
// route, checked in the same commit as the change that got them there).
func (t *Tx) Flush() error {
	var victory func(*Tx, PlayerRecord) (bool, any)
	if t.Meta != nil {
		victory = t.module().Victory
	}
	for _, id := range t.Dirty {
		p := t.ps[id]
		if victory != nil && !t.Meta.Ended {
			if won, data := victory(t, p); won {
				t.Meta.Ended, t.Meta.Winner, t.Meta.EndedAt = true, id, t.Now
				t.metaDirty = true
				t.Emit("game_won", id, data)
			}
		}
		if err := t.indexName(p.Core()); err != nil {
			return err
		}
		if err := t.Put(PlayerKey(t.Game, id), p, time.Time{}); err != nil {
			return err
		}
	}
	t.Dirty = nil
	if t.metaDirty {
		mk := MetaKey(t.Game)
		t.metaDirty = false
		return t.Put(mk, t.Meta, t.Loaded[mk].Due)
	}
	return nil
}

// put stages a write of v at k, expecting the version read earlier.
func (t *Tx) Put(k store.Key, v any, due time.Time) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", k, err)
	}
	t.Puts = append(t.Puts, store.Put{Item: store.Item{Key: k, Data: data, Due: due}, Expect: t.Loaded[k].Version})
	return nil
}

// Emit adds an event to the command's log entry.
func (t *Tx) Emit(typ, player string, data any) {
	t.Entry.Events = append(t.Entry.Events, MakeEvent(typ, player, data))
}

// openSeed makes the current period's seed ready for drawing: the stored one
// (checked in the commit, so a draw can never use a seed revealed meanwhile),
// or a new one committed in this same transaction when the scheduler has not
// opened the period yet.
func (t *Tx) openSeed(ctx context.Context, guess store.Key) error {
	k := seedKey(t.Game, t.Period.ID)
	it, ok := t.Loaded[k]
	if !ok || k != guess {
		got, err := t.Svc.store.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("reading seed %s: %w", k, err)
		}
		it = got
		t.Loaded[k] = it
	}
	var rec SeedRecord
	if it.Exists() {
		if err := json.Unmarshal(it.Data, &rec); err != nil {
			return fmt.Errorf("decoding seed %s: %w", k, err)
		}
		if rec.Revealed() {
			// The period ended between our clock read and the reveal: retry
			// in the next period.
			return &store.ConflictError{Keys: []store.Key{k}}
		}
		t.Checks = append(t.Checks, store.Check{Key: k, Version: it.Version})
	} else {
		var err error
		rec, err = t.Svc.newSeed(t.Period.ID, t.Now)
		if err != nil {
			return err
		}
		if err := t.Put(k, rec, time.Time{}); err != nil {
			return err
		}
		t.Emit("seed_committed", "", map[string]string{"period": rec.Period, "commitment": rec.Commitment})
	}
	seed, err := fair.ParseSeed(rec.Secret)
	if err != nil {
		return fmt.Errorf("seed %s: %w", k, err)
	}
	t.Drawer, err = fair.NewDrawer(seed, t.Game, t.Period.ID, t.Entry.CommandID)
	return err
}

// Source returns the command's random Source, opening the period's seed if
// the command did not ask for it up front (a command that turns out to owe
// a giver a card).
func (t *Tx) Source() (fair.Source, error) {
	if t.Drawer == nil {
		if err := t.openSeed(t.Ctx, store.Key{}); err != nil {
			return nil, err
		}
	}
	return t.Drawer, nil
}

// NewLogID returns a log entry id as of at: scheduled work is logged as of
// its due moment (RULINGS T4).
func (s *Service) NewLogID(at time.Time) string { return newULID(at, s.ids) }

// Actor returns the acting player, refusing a non-player.
func (t *Tx) Actor() (*Player, error) {
	p, err := t.Member(t.Entry.Actor)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, players.NotAPlayer()
	}
	return p, nil
}

// Acted records that p performed an action (RULINGS P2), then runs what
// acting settles in the game's ruleset (Component.OnAction). Every action
// command calls it.
func (t *Tx) Acted(p PlayerRecord) error {
	if players.RecordAction(p.Core(), t.Period.ID) {
		t.Save(p)
	}
	for _, h := range t.module().onAction {
		if err := h(t, p); err != nil {
			return err
		}
	}
	return nil
}

// Preload reads, in one request, the player items of ids not read yet, so a
// command touching many players (a battle's setup) does not read them one
// at a time.
func (t *Tx) Preload(ids []string) error {
	var keys []store.Key
	for _, id := range ids {
		k := PlayerKey(t.Game, id)
		if _, ok := t.Loaded[k]; !ok && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return t.Load(keys...)
}

func (s *Service) newSeed(period string, now time.Time) (SeedRecord, error) {
	seed, err := fair.NewSeed(s.entropy)
	if err != nil {
		return SeedRecord{}, fmt.Errorf("new seed: %w", err)
	}
	return SeedRecord{Period: period, Commitment: seed.Commitment(), Secret: seed.Hex(), CommittedAt: now}, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func newULID(t time.Time, ids io.Reader) string {
	id, err := ulid.New(ulid.Timestamp(t), ids)
	if err != nil {
		// Only a failing entropy source gets here; fall back to crypto/rand.
		id = ulid.MustNew(ulid.Timestamp(t), rand.Reader)
	}
	return id.String()
}

func hashBody(command string, body any) string {
	b, _ := json.Marshal(body)
	h := sha256.Sum256(append([]byte(command+"\x00"), b...))
	return hex.EncodeToString(h[:8])
}

// ModuleSpec is a Spec whose Apply takes a module's own view of the
// transaction (its type around *Tx; see ViewOf).
type ModuleSpec[T any] struct {
	Req     Request
	Command string
	Body    any
	Keys    func(game string) []store.Key
	Random  bool
	Apply   func(t T) (any, error)
}

// RunModule runs sp through Run, the one command path; view gives the
// module's view of each attempt's transaction.
func RunModule[T any](s *Service, ctx context.Context, sp ModuleSpec[T], view func(*Tx) T) (*Result, error) {
	return s.Run(ctx, Spec{Req: sp.Req, Command: sp.Command, Body: sp.Body, Keys: sp.Keys, Random: sp.Random,
		Apply: func(t *Tx) (any, error) { return sp.Apply(view(t)) }})
}

// ViewOf returns a module's view of t, made by mk on the first call of an
// attempt and kept in t.Scratch, so every call within the attempt (hooks,
// due work, the command) shares one view and its per-attempt state.
func ViewOf[T any](t *Tx, mk func(*Tx) T) T {
	if v, ok := t.Scratch.(T); ok {
		return v
	}
	v := mk(t)
	t.Scratch = v
	return v
}
