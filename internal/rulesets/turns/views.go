package turns

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/order"
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
	out := []CaseView{}
	for i := range w.s.Cases {
		out = append(out, w.caseView(&w.s.Cases[i]))
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
		return fmt.Sprintf("round %d, before its first turn (turn %s begins %s)", r.Number, nomic.TurnID(r.Number, 1), at(ti.Begin)), nil
	case nomic.FirstHalf:
		return fmt.Sprintf("turn %s, first half, until %s", ti.ID, at(ti.Middle)), nil
	case nomic.LatterHalf:
		return fmt.Sprintf("turn %s, latter half, until %s", ti.ID, at(ti.End)), nil
	}
	return fmt.Sprintf("the interim after turn %s, until %s", ti.ID, at(ti.NextBegin)), nil
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

// nameIn is id's display name among the players known.
func nameIn(known map[string]nomic.Player, id string) string {
	if p, ok := known[id]; ok && p.Name != "" {
		return p.Name
	}
	return id
}
