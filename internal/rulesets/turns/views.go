package turns

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/nomic"
	"croupier/internal/store"
)

// Status is the game as the turns tracker and `croupier play turns` show
// it: the current turn and what happens next, the points table, the pool,
// the open proposals with their votes and the open cases.
type Status struct {
	Game  string         `json:"game"`
	Now   time.Time      `json:"now"`
	Round nomic.Round    `json:"round"`
	Turn  nomic.TurnInfo `json:"turn"`
	// Next is the next scheduled effect, and In how long until it, in
	// words ("27 hours").
	Next       *due   `json:"next,omitempty"`
	In         string `json:"in,omitempty"`
	WinnerName string `json:"winner_name,omitempty"`
	// Mode is how proposals of the turn now open for submission are adopted.
	Mode      string         `json:"mode"`
	Players   []PlayerStatus `json:"players"` // by points, most first
	Pool      []string       `json:"pool"`    // display names
	Proposals []ProposalView `json:"proposals"`
	Cases     []CaseView     `json:"cases"`
}

// read opens the game's working state for a view (refused
// not_in_ruleset for a game of another ruleset, R3).
func read(ctx context.Context, s *engine.Service, v engine.View, game string, extra ...store.Key) (*work, error) {
	t, err := s.ViewIn(ctx, v, game, append([]store.Key{stateKey(game)}, extra...)...)
	if err != nil {
		return nil, err
	}
	t.Ctx = ctx
	return open(t)
}

// TurnsStatus returns the game's Status.
func TurnsStatus(ctx context.Context, s *engine.Service, game string) (Status, error) {
	w, err := read(ctx, s, viewTurns, game)
	if err != nil {
		return Status{}, err
	}
	ids, err := w.openIDs()
	if err != nil {
		return Status{}, err
	}
	var cases []int
	for _, r := range w.g.Cases {
		cases = append(cases, r.Number)
	}
	if err := w.load(ids, cases, true); err != nil {
		return Status{}, err
	}
	now := w.t.Now
	st := Status{Game: game, Now: now, Round: w.s.Round, Turn: w.s.Turn(now), Players: []PlayerStatus{}, Pool: []string{},
		Proposals: []ProposalView{}, Cases: []CaseView{}}
	if d, ok := w.g.next(w.t.Rules.Turns.JudgeDeadline.Std()); ok {
		st.Next, st.In = &d, engine.Duration(d.At.Sub(now).Round(time.Minute))
	}
	if w.s.Round.Over {
		st.WinnerName = w.s.Name(w.s.Round.Winner)
	}
	ord := st.Turn.Ordinal
	if st.Turn.Part != nomic.FirstHalf {
		ord++
	}
	st.Mode, _ = w.s.Mode(ord, w.t.Rules)
	known := map[string]nomic.Player{}
	if err := w.everyPlayer(func(p nomic.Player) { known[p.ID] = p }); err != nil {
		return Status{}, err
	}
	// Every member, with what the rules know of them: a member the rules
	// have not met yet (they join the rules with their first turns
	// command) is active, with 0 points, not in the pool (U2, U8); a
	// returning player keeps the round's points.
	members, err := s.Players(ctx, game)
	if err != nil {
		return Status{}, err
	}
	for _, m := range members {
		if !m.Member {
			continue
		}
		ps := PlayerStatus{Player: m.ID, Name: m.Name, Active: true}
		if p, ok := known[m.ID]; ok {
			ps.Points = p.Points
			if p.Member {
				ps.Name, ps.Active, ps.InPool = p.Name, p.Active, p.InPool
			}
		}
		st.Players = append(st.Players, ps)
	}
	order.Stable(st.Players, func(a, b PlayerStatus) int { return cmp.Compare(b.Points, a.Points) })
	pool, err := w.poolIDs()
	if err != nil {
		return Status{}, err
	}
	for _, id := range pool {
		st.Pool = append(st.Pool, nameIn(known, id))
	}
	for _, p := range w.s.Proposals {
		if !w.stubs[p.ID] && p.Status == nomic.ProposalOpen { // not those of an ended round, read void
			st.Proposals = append(st.Proposals, w.proposalView(p))
		}
	}
	order.Sort(st.Proposals, func(a, b ProposalView) int { return a.Seq - b.Seq })
	for i := range w.s.Cases {
		st.Cases = append(st.Cases, w.caseView(&w.s.Cases[i]))
	}
	order.Sort(st.Cases, func(a, b CaseView) int { return a.Number - b.Number })
	return st, w.err
}

// Rules returns the numbered rules, repealed ones included, with their
// history (which proposal enacted, amended or repealed each, U3).
func Rules(ctx context.Context, s *engine.Service, game string) ([]nomic.Rule, error) {
	w, err := read(ctx, s, viewTurns, game)
	if err != nil {
		return nil, err
	}
	if w.fresh { // no command yet: the rules of seed 003
		return w.s.Rules, nil
	}
	byNumber := map[int]nomic.Rule{}
	if err := scan(ctx, s, game, rulePrefix, func(r nomic.Rule) { byNumber[r.Number] = r }); err != nil {
		return nil, err
	}
	if err := w.loadRules(); err != nil { // a legacy game's rules not moved yet
		return nil, err
	}
	for _, r := range w.legacy {
		if _, ok := byNumber[r.Number]; !ok {
			byNumber[r.Number] = r
		}
	}
	out := make([]nomic.Rule, 0, len(byNumber))
	for _, r := range byNumber {
		out = append(out, r)
	}
	order.Sort(out, func(a, b nomic.Rule) int { return a.Number - b.Number })
	return out, nil
}

// Proposals returns every proposal of the game, in submission order, with
// the votes standing (open) or counted (decided).
func Proposals(ctx context.Context, s *engine.Service, game string) ([]ProposalView, error) {
	w, err := read(ctx, s, viewTurns, game)
	if err != nil {
		return nil, err
	}
	var ids []string
	if err := scan(ctx, s, game, propPrefix, func(p nomic.Proposal) { ids = append(ids, p.ID) }); err != nil {
		return nil, err
	}
	if err := w.load(ids, nil, true); err != nil {
		return nil, err
	}
	out := []ProposalView{}
	for _, p := range w.s.Proposals {
		if !w.stubs[p.ID] {
			out = append(out, w.proposalView(p))
		}
	}
	order.Sort(out, func(a, b ProposalView) int { return a.Seq - b.Seq })
	return out, w.err
}

// Cases returns every case of the game, by number, with its Judges,
// deadlines, rulings and appeals.
func Cases(ctx context.Context, s *engine.Service, game string) ([]CaseView, error) {
	w, err := read(ctx, s, viewCases, game)
	if err != nil {
		return nil, err
	}
	var ns []int
	if err := scan(ctx, s, game, casePrefix, func(c nomic.Case) { ns = append(ns, c.Number) }); err != nil {
		return nil, err
	}
	if err := w.load(nil, ns, true); err != nil {
		return nil, err
	}
	// The rules in effect at each case's disputed moment (seed 003) come
	// from the rules' histories: one read of the rules for every case.
	var now []nomic.Rule
	if len(ns) > 0 {
		if now, err = Rules(ctx, s, game); err != nil {
			return nil, err
		}
	}
	out := []CaseView{}
	for i := range w.s.Cases {
		v := w.caseView(&w.s.Cases[i])
		v.RulesThen = rulesThen(&w.s.Cases[i], now)
		out = append(out, v)
	}
	order.Sort(out, func(a, b CaseView) int { return a.Number - b.Number })
	return out, w.err
}

func scan[T any](ctx context.Context, s *engine.Service, game, prefix string, fn func(T)) error {
	return s.Scan(ctx, store.Query{PK: engine.GamePK(game), Prefix: prefix}, func(it store.Item) error {
		var v T
		if err := json.Unmarshal(it.Data, &v); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		fn(v)
		return nil
	})
}

// Standing is the turns game's part of a player view: the player's points
// in this round (U6), whether they sit in the Judicial Pool (U8) and the
// cases they are the Judge of, awaiting their ruling (U7, U9).
type Standing struct {
	Points  int   `json:"points"`
	InPool  bool  `json:"in_pool"`
	Judging []int `json:"judging"`
}

// StandingOf reads a turns player's standing back from their view; false
// for a player of a ruleset without it.
func StandingOf(v engine.PlayerView) (Standing, bool) {
	return engine.HoldingsAs[Standing](v, "points")
}

// playerView fills in the player's standing, and whether they are active
// as seed 003 means it (U2: from joining until they leave or declare
// themselves inactive), which is not the engine's period activity. A
// member the rules have not met yet (they meet them with their first turns
// command) is active with the round's points so far, 0 for a newcomer.
func playerView(t *engine.Tx, _ engine.PlayerRecord, v *engine.PlayerView) error {
	w, err := open(t)
	if err != nil {
		return err
	}
	st := Standing{Judging: []int{}}
	v.Active = v.Member
	if p := w.s.Player(v.ID); p != nil {
		st.Points, st.InPool = p.Points, p.InPool && v.Member
		if p.Member {
			v.Active = v.Member && p.Active
		}
	}
	if v.Member {
		st.Judging = append(st.Judging, w.judged(v.ID)...)
	}
	v.Holdings = st
	return w.err
}

// periodName names the game's current period as its players know it: by
// the round's turn and its part, with the moment it ends (RULINGS U1),
// never by the calendar's period id.
func periodName(t *engine.Tx) (string, error) {
	w, err := open(t)
	if err != nil {
		return "", err
	}
	r := w.s.Round
	if r.Over {
		return fmt.Sprintf("round %d, which is over", r.Number), nil
	}
	ti := w.s.Turn(t.Now)
	switch ti.Part {
	case nomic.BeforeFirstTurn:
		return fmt.Sprintf("round %d, %s, which begins %s", r.Number, Where(ti), at(ti.Begin)), nil
	case nomic.FirstHalf:
		return Where(ti) + ", until " + at(ti.Middle), nil
	case nomic.LatterHalf:
		return Where(ti) + ", until " + at(ti.End), nil
	}
	return Where(ti) + ", until " + at(ti.NextBegin), nil
}

// roundView is the game resource's round (engine.Module.Round): a won
// round names its winner by display name and how it was won.
func roundView(t *engine.Tx) (*engine.RoundView, error) {
	w, err := open(t)
	if err != nil {
		return nil, err
	}
	r := w.s.Round
	v := &engine.RoundView{Number: r.Number, Over: r.Over, Winner: r.Winner, WonBy: r.WonBy, Case: r.WinCase}
	if r.Over {
		at := r.EndedAt
		v.EndedAt = &at
	}
	if r.Winner != "" {
		v.WinnerName = r.Winner
		if rec, err := t.Record(r.Winner); err == nil && rec != nil && rec.Core().Name != "" {
			v.WinnerName = rec.Core().Name
		}
	}
	return v, nil
}

// PastRound is a won round as people read it: its winner by display name
// and how it was won (WonBy: points, or a paradox ruled TRUE in WinCase).
type PastRound struct {
	nomic.Round
	WinnerName string `json:"winner_name,omitempty"`
	// Recorded is false for a round won before rounds were recorded
	// (its winner is in the log only).
	Recorded bool `json:"recorded"`
}

// MaxRoundsPage bounds the rounds one page reads.
const MaxRoundsPage = 100

// PastRounds returns the game's won rounds newest first, skipping the
// skip newest and at most limit of them (MaxRoundsPage at most), and how
// many rounds were won in all. It reads the game item and the rounds'
// items it returns, so a page costs the same however many rounds were
// played.
func PastRounds(ctx context.Context, s *engine.Service, game string, skip, limit int) ([]PastRound, int, error) {
	w, err := read(ctx, s, viewTurns, game)
	if err != nil {
		return nil, 0, err
	}
	total := won(w.s.Round)
	rs, err := w.rounds(total-max(skip, 0), limit)
	return rs, total, err
}

// RoundsPage is one page of the game's won rounds, newest first (the
// API's GET .../turns/rounds): its cursor is the number of the round the
// next page starts with, so a round won meanwhile shifts no page.
func RoundsPage(ctx context.Context, s *engine.Service, game string, pr engine.PageRequest) ([]PastRound, string, error) {
	w, err := read(ctx, s, viewTurns, game)
	if err != nil {
		return nil, "", err
	}
	hi := won(w.s.Round)
	if pr.Cursor != "" {
		n, err := strconv.Atoi(pr.Cursor)
		if err != nil || n < 1 || n > hi || strconv.Itoa(n) != pr.Cursor {
			return nil, "", rules.Refuse("invalid_cursor", "The cursor %q is not one this list gave out; start again without a cursor.", pr.Cursor)
		}
		hi = n
	}
	limit := pr.Limit
	if limit == 0 {
		limit = engine.DefaultPageLimit
	}
	if limit < 0 || limit > engine.MaxPageLimit {
		return nil, "", rules.Refuse("invalid_limit", "limit must be from 1 to %d, not %d.", engine.MaxPageLimit, limit)
	}
	rs, err := w.rounds(hi, limit)
	if err != nil || len(rs) == 0 {
		return rs, "", err
	}
	next := ""
	if last := rs[len(rs)-1].Number; last > 1 {
		next = strconv.Itoa(last - 1)
	}
	return rs, next, nil
}

// won is how many rounds have a winner: the current round's number, or
// one fewer while it is played.
func won(r nomic.Round) int {
	if r.Over {
		return r.Number
	}
	return r.Number - 1
}

// rounds reads the won rounds numbered hi down, at most limit of them
// (MaxRoundsPage at most), in one request.
func (w *work) rounds(hi, limit int) ([]PastRound, error) {
	game, cur := w.t.Game, w.s.Round
	lo := max(1, hi-min(max(limit, 0), MaxRoundsPage)+1)
	var keys []store.Key
	for n := hi; n >= lo; n-- {
		keys = append(keys, roundKey(game, n))
	}
	if len(keys) > 0 {
		if err := w.t.Load(keys...); err != nil {
			return nil, err
		}
	}
	out := []PastRound{}
	for n := hi; n >= lo; n-- {
		r := PastRound{Round: nomic.Round{Number: n}}
		if it := w.t.Loaded[roundKey(game, n)]; it.Exists() {
			var ri roundItem
			if err := json.Unmarshal(it.Data, &ri); err != nil {
				return nil, fmt.Errorf("decoding round %d: %w", n, err)
			}
			r = PastRound{Round: ri.Round, WinnerName: ri.WinnerName, Recorded: true}
		}
		if n == cur.Number { // the game item holds the current round
			r.Round, r.Recorded = cur, true
			if r.WinnerName == "" {
				r.WinnerName = w.s.Name(cur.Winner)
			}
		}
		out = append(out, r)
	}
	return out, w.err
}

// nameIn is id's display name among the players known.
func nameIn(known map[string]nomic.Player, id string) string {
	if p, ok := known[id]; ok && p.Name != "" {
		return p.Name
	}
	return id
}
