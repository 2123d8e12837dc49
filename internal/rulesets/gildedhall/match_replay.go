package gildedhall

// A match move by move. The match item holds the current state only, so a
// move writes the same few items whatever the match's length: each step is
// recorded in the log entry of the command that took it (MatchStep, in the
// response of a move or a match timer; a departure's forfeit is its
// match_forfeited event), with the draws the entry logs anyway. A replay
// reads the log over the match's lifetime, feeds every step to the engine
// with those draws, and so rebuilds the match at every step, checking each
// step is legal and that the end equals the stored match.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"croupier/internal/fair"
	engine "croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// MatchStep is one step a command took in a match: a move, or the deadlines
// that passed by At (Timeout: the engine acts on each, as of its own moment).
// What the log entry holds already is left out: a zero At is the entry's
// time, a move without an actor is the entry's actor's.
type MatchStep struct {
	// N is the step's number in the match (for a timeout, its first
	// expiry's): the log's order is not the order of the commits (a timer's
	// entry is dated as of its deadline, T4), so the replay orders by it.
	N       int             `json:"n"`
	At      time.Time       `json:"at,omitzero"`
	Move    *exoptosis.Move `json:"move,omitempty"`
	Timeout bool            `json:"timeout,omitempty"`
	// Expiries counts the deadlines a timeout step acted on.
	Expiries int `json:"expiries,omitempty"`
	// Chips are the mover's Chips as the command read them from the
	// inventory: a bet is checked against them (X8).
	Chips *int `json:"chips,omitempty"`
	// Seated are the entrants of a large battle seated before the step
	// (battle_roster.go).
	Seated []string `json:"seated,omitempty"`
}

// timeoutStep appends the step of a Timeout that took the engine's step
// count from before to after at now, if it acted at all.
func timeoutStep(steps []MatchStep, before, after int, now time.Time) []MatchStep {
	if after <= before {
		return steps
	}
	return append(steps, MatchStep{N: before + 1, At: now, Timeout: true, Expiries: after - before})
}

// noteSeated records on the command's first step the entrants it seated.
func (t *tx) noteSeated(steps []MatchStep) []MatchStep {
	if len(t.seated) > 0 && len(steps) > 0 {
		steps[0].Seated = slices.Clone(t.seated)
	}
	return steps
}

// MatchReplay is a match move by move: each participant's deck (decks never
// change during a match, X1), every step in order (the moves and each
// deadline acted on), and the match after each step. Selections are hidden
// while the match is in selection, except the viewer's own.
type MatchReplay struct {
	ID        string               `json:"id"`
	Kind      string               `json:"kind"`
	Status    string               `json:"status"`
	StartedAt *time.Time           `json:"started_at,omitempty"`
	Decks     []ReplayDeck         `json:"decks"`
	Log       []exoptosis.LogEntry `json:"log"`
	// States[i] is the match after Log[i].
	States []ReplayState `json:"states"`
	// Pile is the pile at the end, oldest first. The pile only grows, so
	// after step i it is its first States[i].Pile cards.
	Pile      []string `json:"pile"`
	Winner    string   `json:"winner,omitempty"`
	EndReason string   `json:"end_reason,omitempty"`
	// Consistent: the logged steps, replayed with the logged draws, were
	// each legal and rebuilt the stored match exactly. Problem says where
	// the replay stopped or differed.
	Consistent bool   `json:"consistent"`
	Problem    string `json:"problem,omitempty"`
}

// ReplayDeck is a participant's deck in a replay.
type ReplayDeck struct {
	ID   string   `json:"id"`
	Deck []string `json:"deck"`
}

// ReplayState is the match after one step.
type ReplayState struct {
	Phase string       `json:"phase"`
	Turn  string       `json:"turn,omitempty"`
	Hands []ReplayHand `json:"hands"`
	Pile  int          `json:"pile"`
	Pool  int          `json:"pool"`
}

// ReplayHand is one participant's hand after a step; Hand is null while
// hidden (another participant's selection before the reveal).
type ReplayHand struct {
	ID     string   `json:"id"`
	Status string   `json:"status"`
	Hand   []string `json:"hand"`
	Hidden bool     `json:"hidden,omitempty"`
}

// Replay returns a match move by move, rebuilt from the log.
func (s *Service) Replay(ctx context.Context, game, id, viewer string) (MatchReplay, error) {
	if err := validMatchID(id); err != nil {
		return MatchReplay{}, err
	}
	t, err := s.viewIn(ctx, viewMatches, game, matchKey(game, id))
	if err != nil {
		return MatchReplay{}, err
	}
	r, err := t.matchRecord(id)
	if err != nil {
		return MatchReplay{}, err
	}
	out := MatchReplay{ID: r.ID, Kind: r.Kind, Status: r.Status, StartedAt: timePtr(r.StartedAt),
		Decks: []ReplayDeck{}, Log: []exoptosis.LogEntry{}, States: []ReplayState{}, Pile: []string{}}
	m := r.Match
	if m == nil {
		return out, nil
	}
	for _, p := range m.Participants {
		out.Decks = append(out.Decks, ReplayDeck{ID: p.ID, Deck: p.Deck})
	}
	out.Pile = nonNil(slices.Clone(m.Pile))
	out.Winner, out.EndReason = m.Winner, m.EndReason
	lg, err := s.readMatchLog(ctx, game, r, t.Now)
	if err != nil {
		return MatchReplay{}, err
	}
	rp := newReplayer(t, lg, &out, viewer)
	if m.Phase == exoptosis.PhaseSelection && viewer != "" {
		if p, ok := m.Participant(viewer); ok && p.Selected {
			rp.known[viewer] = p.Hand // one's own selection is no secret to oneself
		}
	}
	if err := rp.start(ctx, t, r, lg); err != nil {
		return MatchReplay{}, err
	}
	rp.run(lg.ordered())
	if out.Problem == "" {
		// A selection still secret is the one thing the log cannot say:
		// it is taken as stored (the reveal will log it).
		for i := range rp.m.Participants {
			p := &rp.m.Participants[i]
			if sp, ok := m.Participant(p.ID); ok && rp.unknown[p.ID] && m.Phase == exoptosis.PhaseSelection {
				p.Hand = slices.Clone(sp.Hand)
			}
		}
		got, _ := json.Marshal(rp.m)
		want, _ := json.Marshal(m)
		if string(got) != string(want) {
			out.Problem = fmt.Sprintf("the replay of %d steps does not rebuild the stored match: %s", len(out.Log), jsonDiff(got, want))
		}
	}
	out.Consistent = out.Problem == ""
	return out, nil
}

// matchLog is what the log says of one match: its start (the Chips each
// entrant brought, or a large battle's count of who may select), the hands
// revealed, and the commands that took steps, in log order.
type matchLog struct {
	started bool
	chips   map[string]int
	waiting int
	hands   map[string][]string
	entries []loggedSteps
}

type loggedSteps struct {
	entry *engine.Entry
	steps []MatchStep
}

// first is the number of the entry's first step, 0 for a departure's
// forfeit logged before its event carried its number.
func (ls loggedSteps) first() int { return ls.steps[0].N }

// count is how many steps the entry took.
func (ls loggedSteps) count() int {
	n := 0
	for _, st := range ls.steps {
		if st.Timeout {
			n += st.Expiries
		} else {
			n++
		}
	}
	return n
}

// ordered lists the entries in the order their steps were taken: by step
// number, each unnumbered departure's forfeit (one step, from an older log)
// in the first gap the numbers leave, in log order.
func (lg *matchLog) ordered() []loggedSteps {
	var numbered, forfeits []loggedSteps
	for _, ls := range lg.entries {
		if ls.first() > 0 {
			numbered = append(numbered, ls)
		} else {
			forfeits = append(forfeits, ls)
		}
	}
	sort.SliceStable(numbered, func(i, j int) bool { return numbered[i].first() < numbered[j].first() })
	out := make([]loggedSteps, 0, len(lg.entries))
	next := 1
	for _, ls := range numbered {
		for next < ls.first() && len(forfeits) > 0 {
			out, forfeits, next = append(out, forfeits[0]), forfeits[1:], next+1
		}
		out = append(out, ls)
		next = ls.first() + ls.count()
	}
	return append(out, forfeits...)
}

// readMatchLog reads the log from the match's start to its end (or now).
// A command's ULID is taken at its commit, a moment after the time it ran
// as, hence the minute of margin. (A match ends in a move, a departure, or
// a timer's run dated as of its deadline: none is logged after EndedAt but
// for that moment.)
// replaySkew is how far around a match's start and end its replay reads
// the log (readMatchLog).
const replaySkew = time.Minute

func (s *Service) readMatchLog(ctx context.Context, game string, r *MatchRecord, now time.Time) (*matchLog, error) {
	to := now
	if !r.EndedAt.IsZero() {
		to = r.EndedAt
	}
	lg := &matchLog{}
	// Entries are dated by their process's clock, which may lag the one
	// that started the match by milliseconds (separate Lambdas): a step
	// can be dated just before the start, or after the end. The range
	// reads replaySkew either side; add keeps this match's steps only.
	err := s.LogRange(ctx, game, r.StartedAt.Add(-replaySkew), to.Add(replaySkew), func(e *engine.Entry) error {
		lg.add(r.ID, e)
		return nil
	})
	return lg, err
}

// add takes from e what concerns match id. Entries of other commands are
// skipped; data of an unexpected shape is left out (the replay then says
// where it stopped).
func (lg *matchLog) add(id string, e *engine.Entry) {
	var steps []MatchStep
	if strings.HasPrefix(e.Command, "match-") {
		var resp struct {
			Match json.RawMessage `json:"match"`
			Steps []MatchStep     `json:"steps"`
		}
		if json.Unmarshal(e.Response, &resp) == nil && responseMatch(resp.Match) == id {
			steps = resp.Steps
		}
	}
	for _, ev := range e.Events {
		if !strings.HasPrefix(ev.Type, "match_") {
			continue
		}
		var d struct {
			Match       string              `json:"match"`
			Participant string              `json:"participant"`
			Reason      string              `json:"reason"`
			Hands       map[string][]string `json:"hands"`
			Step        int                 `json:"step"`
			Waiting     int                 `json:"waiting"`
			Chips       json.RawMessage     `json:"chips"`
		}
		if json.Unmarshal(ev.Data, &d) != nil || d.Match != id {
			continue
		}
		switch ev.Type {
		case "match_started":
			lg.started, lg.waiting = true, d.Waiting
			_ = json.Unmarshal(d.Chips, &lg.chips)
		case "match_hands_revealed", "match_ended":
			// The hands selected, logged at the reveal, or at an end that
			// came before it (mirror).
			if len(d.Hands) > 0 && lg.hands == nil {
				lg.hands = map[string][]string{}
			}
			maps.Copy(lg.hands, d.Hands)
		case "match_forfeited":
			// A departure forfeits outside the match's own commands (the
			// leave hook): its step is the forfeit itself, numbered by its
			// event (0 in entries logged before the events said).
			if !strings.HasPrefix(e.Command, "match-") && d.Reason == "forfeit" && steps == nil {
				steps = []MatchStep{{N: d.Step, At: e.At, Move: &exoptosis.Move{Kind: exoptosis.MoveForfeit, Actor: d.Participant}}}
			}
		}
	}
	for i := range steps {
		st := &steps[i]
		if st.At.IsZero() {
			st.At = e.At
		}
		if st.Move != nil && st.Move.Actor == "" {
			st.Move.Actor = e.Actor
		}
	}
	if len(steps) > 0 {
		lg.entries = append(lg.entries, loggedSteps{entry: e, steps: steps})
	}
}

// responseMatch is the match a step's response names: a move's view or a
// timer's id.
func responseMatch(raw json.RawMessage) string {
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return id
	}
	var v struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.ID
}

// replayer rebuilds one match step by step.
type replayer struct {
	rs     *ruleset.Ruleset
	m      *exoptosis.Match
	out    *MatchReplay
	viewer string
	public map[string][]string // selections, as the reveal logged them
	known  map[string][]string // those and the viewer's own
	// unknown are who selected a hand the log does not show (yet).
	unknown map[string]bool
	// roster holds a large battle's entrants as they entered, seated when
	// the log says they were (battle_roster.go).
	roster map[string]exoptosis.Participant
}

// newReplayer is a replayer of the match lg logs, for viewer ("" for the
// public replay), writing to out; it knows the selections the log shows.
func newReplayer(t *tx, lg *matchLog, out *MatchReplay, viewer string) *replayer {
	rp := &replayer{rs: t.Rules, out: out, viewer: viewer, public: lg.hands, known: maps.Clone(lg.hands)}
	if rp.known == nil {
		rp.known = map[string][]string{}
	}
	return rp
}

// start makes the match as it began: the engine's New for the stored
// participants with the Chips they brought, or a large battle's empty
// table and its roster.
func (rp *replayer) start(ctx context.Context, t *tx, r *MatchRecord, lg *matchLog) error {
	if !lg.started {
		rp.out.Problem = "the log holds no start of this match"
	}
	if len(r.Roster) > 0 {
		rp.m = &exoptosis.Match{ID: r.ID, Phase: exoptosis.PhaseSelection, Started: r.StartedAt, TurnStart: r.StartedAt,
			Participants: []exoptosis.Participant{}, Pile: []string{}, Waiting: lg.waiting}
		keys := make([]store.Key, len(r.Roster))
		for i := range keys {
			keys[i] = rosterKey(t.Game, r.ID, i+1)
		}
		items, err := t.Svc.Store().GetMany(ctx, keys)
		if err != nil {
			return fmt.Errorf("reading the roster of %s: %w", r.ID, err)
		}
		rp.roster = map[string]exoptosis.Participant{}
		for _, it := range items {
			var p RosterPage
			if err := json.Unmarshal(it.Data, &p); err != nil {
				return fmt.Errorf("decoding %s: %w", it.Key, err)
			}
			for i := range p.Entrants {
				e := &p.Entrants[i]
				rp.roster[e.ID] = exoptosis.Participant{ID: e.ID, Deck: p.deck(e), Chips: e.Chips, Hand: []string{}, Status: exoptosis.StatusActive}
			}
		}
		return nil
	}
	entrants := make([]exoptosis.Entrant, 0, len(r.Match.Participants))
	for _, p := range r.Match.Participants {
		entrants = append(entrants, exoptosis.Entrant{ID: p.ID, Deck: p.Deck, Chips: lg.chips[p.ID]})
	}
	m, _, err := exoptosis.New(rp.rs, r.ID, entrants, r.StartedAt)
	if err != nil {
		rp.out.Problem = "the match cannot be set up again: " + err.Error()
		rp.m = &exoptosis.Match{ID: r.ID, Participants: []exoptosis.Participant{}, Pile: []string{}}
		return nil
	}
	rp.m = m
	return nil
}

// run feeds every logged step to the engine, each command's with its draws,
// until one is refused or out of place.
func (rp *replayer) run(entries []loggedSteps) {
	if rp.out.Problem != "" {
		return
	}
	for _, ls := range entries {
		src := &loggedDraws{draws: ls.entry.Draws}
		for _, st := range ls.steps {
			if err := rp.step(st, src); err != nil {
				rp.out.Problem = fmt.Sprintf("step %d (%s at %s): %v", len(rp.out.Log)+1, ls.entry.Command, ls.entry.At.UTC().Format(time.RFC3339), err)
				return
			}
		}
		if src.err != nil {
			rp.out.Problem = fmt.Sprintf("%s at %s: %v", ls.entry.Command, ls.entry.At.UTC().Format(time.RFC3339), src.err)
			return
		}
		rp.unseat()
	}
}

func (rp *replayer) step(st MatchStep, src *loggedDraws) error {
	m := rp.m
	if st.N != 0 && st.N != m.Steps+1 {
		return fmt.Errorf("the log has step %d where step %d comes next", st.N, m.Steps+1)
	}
	for _, id := range st.Seated {
		rp.seat(id)
	}
	if st.Timeout {
		n := m.Steps
		for range maxTimeoutSteps {
			at, ok := m.Deadline(rp.rs)
			if !ok || st.At.Before(at) {
				break
			}
			exoptosis.Timeout(m, rp.rs, at, src)
			rp.record(exoptosis.LogEntry{At: at, Timeout: true})
		}
		if m.Steps-n != st.Expiries {
			return fmt.Errorf("the deadlines passed by then are %d, the log says %d", m.Steps-n, st.Expiries)
		}
		return nil
	}
	if st.Move == nil {
		return fmt.Errorf("a step with neither a move nor a timeout")
	}
	mv := *st.Move
	rp.seat(mv.Actor)
	for i := range m.Participants {
		if m.Participants[i].ID == mv.Actor && st.Chips != nil {
			m.Participants[i].Chips = *st.Chips
		}
	}
	shown := mv
	if mv.Kind == exoptosis.MoveSelect && len(mv.Cards) == 0 {
		cards, ok := rp.known[mv.Actor]
		if !ok {
			// Never revealed: a selection still secret, or one whose
			// participant forfeited before the reveal. Nothing after it
			// depends on its cards but the participant's own hand.
			for i := range m.Participants {
				if p := &m.Participants[i]; p.ID == mv.Actor {
					p.Selected = true
				}
			}
			if rp.unknown == nil {
				rp.unknown = map[string]bool{}
			}
			rp.unknown[mv.Actor] = true
			m.Steps++
			rp.record(exoptosis.LogEntry{At: st.At, Move: &shown})
			return nil
		}
		mv.Cards = slices.Clone(cards)
		if _, public := rp.public[mv.Actor]; public || mv.Actor == rp.viewer {
			shown.Cards = slices.Clone(cards)
		}
	}
	if _, err := exoptosis.Apply(m, rp.rs, mv, st.At, src); err != nil {
		return fmt.Errorf("%s by %s is refused: %w", mv.Kind, mv.Actor, err)
	}
	rp.record(exoptosis.LogEntry{At: st.At, Move: &shown})
	return nil
}

// maxTimeoutSteps bounds the expiries of one timeout step, as the engine
// bounds one Timeout.
const maxTimeoutSteps = 10000

// record appends a step and the match after it.
func (rp *replayer) record(e exoptosis.LogEntry) {
	m := rp.m
	st := ReplayState{Phase: string(m.Phase), Pile: len(m.Pile), Pool: m.Betting.Pool, Hands: []ReplayHand{}}
	if (m.Phase == exoptosis.PhaseBetting || m.Phase == exoptosis.PhasePlay) && m.Turn >= 0 && m.Turn < len(m.Order) {
		st.Turn = m.Order[m.Turn]
	}
	secret := m.Phase == exoptosis.PhaseSelection
	for _, p := range m.Participants {
		h := ReplayHand{ID: p.ID, Status: p.Status, Hand: nonNil(slices.Clone(p.Hand))}
		if secret && p.ID != rp.viewer {
			h.Hand, h.Hidden = nil, true
		}
		st.Hands = append(st.Hands, h)
	}
	rp.out.Log = append(rp.out.Log, e)
	rp.out.States = append(rp.out.States, st)
}

// seat adds a large battle's waiting entrant to the match, in entry order,
// as battle_roster.go's seat does.
func (rp *replayer) seat(id string) {
	m := rp.m
	if rp.roster == nil {
		return
	}
	if _, in := m.Participant(id); in {
		return
	}
	p, ok := rp.roster[id]
	if !ok {
		return
	}
	i := sort.Search(len(m.Participants), func(i int) bool { return m.Participants[i].ID > id })
	m.Participants = slices.Insert(m.Participants, i, p)
	m.Waiting--
}

// unseat takes out of a large battle the entrants who forfeited with no
// part left in it, as every change to one does (unseatForfeits).
func (rp *replayer) unseat() {
	if rp.roster == nil {
		return
	}
	m := rp.m
	m.Participants = slices.DeleteFunc(m.Participants, func(p exoptosis.Participant) bool { return idleForfeit(m, &p) })
}

// loggedDraws is the random source of a replayed command: the draws its
// log entry recorded, in order, each checked to be the draw the engine
// asks for.
type loggedDraws struct {
	draws []fair.Record
	i     int
	err   error
}

func (d *loggedDraws) Intn(purpose string, n int) int {
	if d.err != nil {
		return 0
	}
	if d.i >= len(d.draws) {
		d.err = fmt.Errorf("the engine draws %s (1 in %d) beyond the %d draws logged", purpose, n, len(d.draws))
		return 0
	}
	r := d.draws[d.i]
	d.i++
	if r.Purpose != purpose || r.N != n || r.Value < 0 || r.Value >= n {
		d.err = fmt.Errorf("draw %d was logged as %s (1 in %d), the engine draws %s (1 in %d)", r.Index, r.Purpose, r.N, purpose, n)
		return 0
	}
	return r.Value
}

var _ fair.Source = (*loggedDraws)(nil)

// jsonDiff shows where two encodings first differ: a little of each from
// there.
func jsonDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-40)
	cut := func(b []byte) string { return string(b[from:min(len(b), i+40)]) }
	return fmt.Sprintf("replayed …%s…, stored …%s…", cut(got), cut(want))
}
