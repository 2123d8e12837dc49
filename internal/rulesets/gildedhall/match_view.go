package gildedhall

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/store"
)

// MatchView is a match as a player sees it. The seeds make hands public,
// so every participant's hand is shown once the hands are revealed (X1);
// during selection a selection is shown only to its own participant (the
// viewer). Engine types keep the engine's JSON names (pending.deadline,
// betting.prevLevel...).
type MatchView struct {
	ID          string   `json:"id"`
	Kind        string   `json:"kind"`
	Status      string   `json:"status"`
	RequestedBy string   `json:"requested_by,omitempty"`
	Players     []string `json:"players"`
	// Entrants counts a large battle's engaged players, kept in its roster
	// rather than in Players; Players and Participants then list those
	// seated in the match, and Waiting counts the entrants who may still
	// select a hand (battle_roster.go).
	Entrants int               `json:"entrants,omitempty"`
	Waiting  int               `json:"waiting,omitempty"`
	Answers  map[string]string `json:"answers,omitempty"`
	// WaitingFor lists the duel players who have not answered yet.
	WaitingFor   []string   `json:"waiting_for,omitempty"`
	Period       string     `json:"period"`
	CreatedAt    time.Time  `json:"created_at"`
	StartsAt     *time.Time `json:"starts_at,omitempty"`
	StartedAt    *time.Time `json:"started_at,omitempty"`
	EndedAt      *time.Time `json:"ended_at,omitempty"`
	CancelReason string     `json:"cancel_reason,omitempty"`
	CancelledBy  string     `json:"cancelled_by,omitempty"`

	// Phase is the engine's: selection, betting, play or ended.
	Phase        string            `json:"phase,omitempty"`
	Participants []ParticipantView `json:"participants"`
	Order        []string          `json:"order,omitempty"`
	// Turn is whose turn it is in betting and play.
	Turn      string     `json:"turn,omitempty"`
	TurnStart *time.Time `json:"turn_start,omitempty"`
	// Deadline is when the match next acts by itself (X7); Overdue says it
	// has passed and the scheduler is about to act.
	Deadline *time.Time `json:"deadline,omitempty"`
	Overdue  bool       `json:"overdue,omitempty"`
	// Movers are who the match waits on.
	Movers     []string             `json:"movers"`
	Pending    *exoptosis.Pending   `json:"pending,omitempty"`
	Draws      []exoptosis.Draw     `json:"draws,omitempty"`
	Pile       []string             `json:"pile"`
	Top        string               `json:"top,omitempty"`
	Constraint string               `json:"constraint,omitempty"`
	Betting    *exoptosis.Betting   `json:"betting,omitempty"`
	Pool       int                  `json:"pool"`
	Winner     string               `json:"winner,omitempty"`
	EndReason  string               `json:"end_reason,omitempty"`
	Settlement []exoptosis.Transfer `json:"settlement,omitempty"`
	Reward     *BattleReward        `json:"reward,omitempty"`
	// Moves counts the engine's log entries (moves and timeouts).
	Moves int `json:"moves"`

	// Viewer and LegalMoves: the moves the viewer may make now (every listed
	// move is accepted; a select lists every selectable card, any 4 or more
	// of which make a hand).
	Viewer     string           `json:"viewer,omitempty"`
	LegalMoves []exoptosis.Move `json:"legal_moves,omitempty"`
}

// ParticipantView is one participant. Hand is null while hidden (another
// participant's selection before the reveal).
type ParticipantView struct {
	ID        string   `json:"id"`
	Status    string   `json:"status"`
	Selected  bool     `json:"selected"`
	Hand      []string `json:"hand"`
	HandSize  int      `json:"hand_size"`
	Hidden    bool     `json:"hidden,omitempty"`
	DeckSize  int      `json:"deck_size"`
	Bet       int      `json:"bet"`
	Consented bool     `json:"consented,omitempty"`
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// matchView renders r for viewer ("" for the public view, which is also
// what command responses hold: they are stored in the public log).
func (t *tx) matchView(r *MatchRecord, viewer string) MatchView {
	v := MatchView{ID: r.ID, Kind: r.Kind, Status: r.Status, RequestedBy: r.RequestedBy, Players: nonNil(r.Players),
		Period: r.Period, CreatedAt: r.CreatedAt, StartsAt: timePtr(r.StartsAt), StartedAt: timePtr(r.StartedAt),
		EndedAt: timePtr(r.EndedAt), CancelReason: r.CancelReason, CancelledBy: r.CancelledBy,
		Participants: []ParticipantView{}, Movers: []string{}, Pile: []string{}, Settlement: r.Settlement, Reward: r.Reward,
		Viewer: viewer}
	if r.Kind == MatchDuel {
		v.Answers = maps.Clone(r.Answers)
		if r.Status == MatchRequested {
			v.WaitingFor = r.waitingFor()
		}
	}
	v.Entrants = r.Entrants
	m := r.Match
	if m == nil {
		return v
	}
	if r.Entrants > 0 {
		v.Waiting, v.Players = m.Waiting, []string{}
		for _, p := range m.Participants {
			v.Players = append(v.Players, p.ID)
		}
	}
	secret := m.Phase == exoptosis.PhaseSelection
	for _, p := range m.Participants {
		pv := ParticipantView{ID: p.ID, Status: p.Status, Selected: p.Selected, Hand: slices.Clone(p.Hand),
			HandSize: len(p.Hand), DeckSize: len(p.Deck), Bet: p.Bet, Consented: p.Consented}
		if pv.Hand == nil {
			pv.Hand = []string{}
		}
		if secret && p.ID != viewer {
			pv.Hand, pv.HandSize, pv.Hidden = nil, 0, true
		}
		v.Participants = append(v.Participants, pv)
	}
	v.Phase = string(m.Phase)
	v.Order = m.Order
	if (m.Phase == exoptosis.PhaseBetting || m.Phase == exoptosis.PhasePlay) && m.Turn >= 0 && m.Turn < len(m.Order) {
		v.Turn = m.Order[m.Turn]
	}
	v.TurnStart = timePtr(m.TurnStart)
	if at, ok := m.Deadline(t.Rules); ok {
		v.Deadline = &at
		v.Overdue = !t.Now.Before(at)
	}
	v.Movers = nonNil(exoptosis.Movers(m))
	v.Pending, v.Draws, v.Constraint = m.Pending, m.Draws, m.Constraint
	v.Pile = nonNil(slices.Clone(m.Pile))
	if len(m.Pile) > 0 {
		v.Top = m.Pile[len(m.Pile)-1]
	}
	b := m.Betting
	v.Betting, v.Pool = &b, b.Pool
	v.Winner, v.EndReason, v.Moves = m.Winner, m.EndReason, m.Steps
	if viewer != "" {
		v.LegalMoves = nonNil(exoptosis.LegalMoves(m, t.Rules, viewer))
	}
	return v
}

// Match returns one match as viewer sees it, with viewer's legal moves
// (viewer "" for the public view without them). The viewer's Chips are
// read from their inventory, so the raises listed are ones they can pay.
func (s *Service) Match(ctx context.Context, game, id, viewer string) (MatchView, error) {
	if err := validMatchID(id); err != nil {
		return MatchView{}, err
	}
	keys := []store.Key{matchKey(game, id)}
	if viewer != "" {
		if !engine.ValidIdentity(viewer) {
			return MatchView{}, rules.Refuse("invalid_player", "%q is not a platform identity such as discord:1234.", viewer)
		}
		keys = append(keys, engine.PlayerKey(game, viewer))
	}
	t, err := s.viewIn(ctx, viewMatches, game, keys...)
	if err != nil {
		return MatchView{}, err
	}
	r, err := t.matchRecord(id)
	if err != nil {
		return MatchView{}, err
	}
	if viewer != "" && len(r.Roster) > 0 && r.Match != nil && r.Match.Phase == exoptosis.PhaseSelection {
		// A waiting entrant of a large battle sees the match as if seated,
		// so their legal moves list the hand they may select.
		if _, in := r.Match.Participant(viewer); !in {
			t.Ctx = ctx
			page, e, err := t.rosterEntrant(r, viewer)
			if err != nil {
				return MatchView{}, err
			}
			if e != nil && e.Out == "" {
				t.seat(r, page, e)
				r.Match.Waiting++ // only seen as seated
			}
		}
	}
	if viewer != "" && r.Match != nil && r.Match.Phase == exoptosis.PhaseBetting {
		if p, err := t.member(viewer); err == nil && p != nil {
			for i := range r.Match.Participants {
				if r.Match.Participants[i].ID == viewer {
					r.Match.Participants[i].Chips = p.Inventory.Chips
				}
			}
		}
	}
	return t.matchView(r, viewer), nil
}

// MatchFilter selects matches to list; empty fields match everything.
type MatchFilter struct {
	Player string `json:"player,omitempty"` // in the duel group, the engaged players or the participants
	Status string `json:"status,omitempty"` // requested, forming, playing, ended, cancelled
	Kind   string `json:"kind,omitempty"`   // duel or battle
}

// MatchSummary is one line of a match list.
type MatchSummary struct {
	ID      string   `json:"id"`
	Kind    string   `json:"kind"`
	Status  string   `json:"status"`
	Phase   string   `json:"phase,omitempty"`
	Players []string `json:"players"`
	// Entrants counts a large battle's engaged players (MatchView.Entrants).
	Entrants  int        `json:"entrants,omitempty"`
	Movers    []string   `json:"movers"`
	Turn      string     `json:"turn,omitempty"`
	Deadline  *time.Time `json:"deadline,omitempty"`
	Pool      int        `json:"pool"`
	Winner    string     `json:"winner,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	StartsAt  *time.Time `json:"starts_at,omitempty"`
	EndedAt   *time.Time `json:"ended_at,omitempty"`
}

// Matches lists a game's matches, oldest id first, page by page (MatchesPage).
func (s *Service) Matches(ctx context.Context, game string, f MatchFilter) ([]MatchSummary, error) {
	return engine.AllPages(func(pr engine.PageRequest) ([]MatchSummary, string, error) { return s.MatchesPage(ctx, game, f, pr) })
}

func (t *tx) matchSummary(r *MatchRecord) MatchSummary {
	v := t.matchView(r, "")
	return MatchSummary{ID: v.ID, Kind: v.Kind, Status: v.Status, Phase: v.Phase, Players: v.Players, Entrants: v.Entrants,
		Movers: v.Movers, Turn: v.Turn, Deadline: v.Deadline, Pool: v.Pool, Winner: v.Winner, CreatedAt: v.CreatedAt,
		StartsAt: v.StartsAt, EndedAt: v.EndedAt}
}

// LiveMatches lists the matches player is in that are not over (requested,
// forming or playing), in the order they joined them. It reads the player's
// record, then only the matches of their index (match_index.go): two reads
// however many matches the game has had, where Matches with a player filter
// reads every match. A person who is not a player has none.
func (s *Service) LiveMatches(ctx context.Context, game, player string) ([]MatchSummary, error) {
	if !engine.ValidIdentity(player) {
		return nil, rules.Refuse("invalid_player", "%q is not a platform identity such as discord:1234.", player)
	}
	t, err := s.viewIn(ctx, viewMatches, game, engine.PlayerKey(game, player))
	if err != nil {
		return nil, err
	}
	out := []MatchSummary{}
	p, err := t.member(player)
	if err != nil || p == nil {
		return out, err
	}
	ids := liveMatchIDs(p, t.Period.ID)
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]store.Key, len(ids))
	for i, id := range ids {
		keys[i] = matchKey(game, id)
	}
	items, err := s.Store().GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("reading matches of %s: %w", player, err)
	}
	for _, it := range items {
		if !it.Exists() {
			continue
		}
		var r MatchRecord
		if err := json.Unmarshal(it.Data, &r); err != nil {
			return nil, fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		// A large battle's waiting entrants are in its roster, found
		// through their engagement.
		entrant := r.Entrants > 0 && r.Kind == MatchBattle && p.BattlePeriod == r.Period
		if liveStatus(r.Status) && (r.involves(player) || entrant) {
			out = append(out, t.matchSummary(&r))
		}
	}
	return out, nil
}

// involves reports whether id is in r's group or among its participants.
func (r *MatchRecord) involves(id string) bool {
	if slices.Contains(r.Players, id) {
		return true
	}
	if r.Match != nil {
		_, ok := r.Match.Participant(id)
		return ok
	}
	return false
}

// MatchesPage is one page of the game's matches that f selects, oldest id
// first. With a player filter the player's record is read too: a large
// battle's waiting entrants are found through their engagement
// (battle_roster.go).
func (s *Service) MatchesPage(ctx context.Context, game string, f MatchFilter, pr engine.PageRequest) ([]MatchSummary, string, error) {
	var extra []store.Key
	if f.Player != "" {
		extra = append(extra, engine.PlayerKey(game, f.Player))
	}
	t, err := s.viewIn(ctx, viewMatches, game, extra...)
	if err != nil {
		return nil, "", err
	}
	engaged := ""
	if f.Player != "" {
		if p, err := t.player(f.Player); err != nil {
			return nil, "", err
		} else if p != nil {
			engaged = p.BattlePeriod
		}
	}
	out := []MatchSummary{}
	_, next, err := engine.PageRecords(ctx, s.Service, game, matchPrefix, pr, func(r *MatchRecord) bool {
		entrant := r.Entrants > 0 && r.Kind == MatchBattle && engaged != "" && engaged == r.Period
		if (f.Status != "" && r.Status != f.Status) || (f.Kind != "" && r.Kind != f.Kind) || (f.Player != "" && !r.involves(f.Player) && !entrant) {
			return false
		}
		out = append(out, t.matchSummary(r))
		return true
	})
	return out, next, err
}
