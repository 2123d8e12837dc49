// Package nomic holds the rules of the turn-based nomic of seed 003
// (RULINGS U1-U11) as pure functions over one plain, JSON-serialisable
// State: turns and rounds on the America/Chicago calendar, active players,
// the numbered mutable rules with their history, rule-change proposals and
// their votes, points and the round's winner, and the judicial system
// (Requests for Judgment, the Judicial Pool, Judges, rulings and appeals).
//
// Nothing here reads a clock or does I/O. The moment is always an
// argument; every random choice (the Judge draws) goes through a
// fair.Source, so it is a logged, verifiable draw (RULINGS N1, N2); the
// numbers come from the ruleset in force (its turns section, RULINGS R1,
// R4). A refusal is a *rules.Error with a stable code and a sentence that
// names people by their display names, and leaves the State untouched:
// every check runs before anything changes.
//
// Scheduled effects (turn ends, Judges' deadlines) are applied by Advance
// as of the moment each was due, in time order, whenever it runs and however
// often (RULINGS T4): an effect already applied is never applied again.
package nomic

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// State is one game of the turns ruleset: the current round, the people
// who have been players, the numbered rules, and every proposal and case.
// Cases and rules belong to the game and outlive rounds; points and turn
// ordinals belong to the round (U6).
type State struct {
	Round     Round      `json:"round"`
	Players   []Player   `json:"players"` // in order of first joining
	Rules     []Rule     `json:"rules"`   // by number
	Proposals []Proposal `json:"proposals"`
	Cases     []Case     `json:"cases"`
	// NextCase is the number the next Request for Judgment gets (U7).
	NextCase int `json:"next_case"`
	// NextSeq orders proposals and appeals by submission across the game.
	NextSeq int `json:"next_seq"`
	// NextRule is the number the next enacted rule gets, and
	// UnanimityRule the number of the rule whose amendment keeps unanimity
	// (U5): an engine that loads only the rules a command names (each rule
	// an item of its own) knows them without the others. 0: computed
	// from Rules.
	NextRule      int `json:"next_rule,omitempty"`
	UnanimityRule int `json:"unanimity_rule,omitempty"`
	// PoolSize is how many players sit in the Judicial Pool: its members
	// hold the slots 0..PoolSize-1 (Player.Slot), so a Judge is drawn by
	// slot (drawJudge) without listing the pool (issue 22).
	PoolSize int `json:"pool_size,omitempty"`

	// byID indexes Players (who are only ever appended, and keep their
	// id): a turn end looks a player up for every vote.
	byID map[string]int
	// poolChecked: the slots were found (or made) consistent (pool.go).
	poolChecked bool
	// Roster, if set, holds the players not in Players (roster.go); held
	// are those read from it (nil: not a player) or added.
	Roster Roster `json:"-"`
	held   map[string]*Player
}

// Round is the round being played, or the one that just ended.
type Round struct {
	Number int       `json:"number"`
	Start  time.Time `json:"start"` // its turn 1 is the first turn beginning at or after Start (U1)
	// TurnsEnded is the ordinal of the last turn whose end has been
	// applied; Advance applies the next one when it is due.
	TurnsEnded int `json:"turns_ended"`
	// SwitchCancelled: the unanimity rule was amended by an adoption at
	// the end of one of the round's unanimity turns, so the automatic
	// change to simple majority does not happen (U5).
	SwitchCancelled bool `json:"switch_cancelled,omitempty"`
	// Over, Winner, WonBy and EndedAt: the round has ended (U6, U11).
	Over    bool      `json:"over,omitempty"`
	Winner  string    `json:"winner,omitempty"`
	WonBy   string    `json:"won_by,omitempty"` // WinPoints or WinParadox
	WinCase int       `json:"win_case,omitempty"`
	EndedAt time.Time `json:"ended_at,omitzero"`
}

// Ways a round is won.
const (
	WinPoints  = "points"  // the first to reach the winning points (U6)
	WinParadox = "paradox" // a paradox ruled TRUE (U11)
)

// Player is a person who has joined the game. Points are the current
// round's (U6); they change only through U5, U9 and the round's start.
type Player struct {
	ID     string `json:"id"`
	Name   string `json:"name"` // what people read
	Member bool   `json:"member"`
	Active bool   `json:"active"`
	InPool bool   `json:"in_pool,omitempty"`
	// Slot is their place in the Judicial Pool while InPool (State.PoolSize).
	Slot     int       `json:"slot,omitempty"`
	Points   int       `json:"points"`
	JoinedAt time.Time `json:"joined_at"`
	// VotedIn is the last turn ("{round}-{ordinal}") at whose end a vote
	// of theirs on a proposal was counted: an engine that counts a turn
	// end in parts keeps U8's "voted on at least one proposal" here (the
	// pure turn end knows it in memory).
	VotedIn string `json:"voted_in,omitempty"`
}

// Event is one thing a command or a due effect did: plain data for the
// engine's log and announcements. A change of points is always an event of
// kind EvPoints whose Reason says which rule made it.
type Event struct {
	Kind     string    `json:"kind"`
	At       time.Time `json:"at"`
	Player   string    `json:"player,omitempty"` // id of the player concerned
	Delta    int       `json:"delta,omitempty"`  // EvPoints: the change
	Total    int       `json:"total,omitempty"`  // EvPoints: the points after it
	Turn     string    `json:"turn,omitempty"`   // "{round}-{ordinal}"
	Proposal string    `json:"proposal,omitempty"`
	Case     int       `json:"case,omitempty"`
	Rule     int       `json:"rule,omitempty"`
	// Candidates are the ids a Judge was drawn from, in draw order (draws
	// before issue 22; a draw now logs PoolSize, Excluded and Slot).
	Candidates []string `json:"candidates,omitempty"`
	// PoolSize is the size of the Judicial Pool a Judge was drawn from,
	// Excluded the slots of its members who could not be (ascending), and
	// Slot the slot drawn: the draw's value v (among PoolSize-len(Excluded))
	// is the v-th slot not excluded (DrawnSlot).
	PoolSize int    `json:"pool_size,omitempty"`
	Excluded []int  `json:"excluded,omitempty"`
	Slot     *int   `json:"slot,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Text     string `json:"text,omitempty"` // a sentence for people
}

// Event kinds.
const (
	EvJoined           = "joined"
	EvLeft             = "left"
	EvActive           = "active"            // declared themselves active again (U2)
	EvInactive         = "inactive"          // declared themselves inactive (U2)
	EvPoints           = "points"            // Reason: PointsDissent, PointsDefeat, PointsLateJudge or PointsRoundStart
	EvProposalAdopted  = "proposal_adopted"  // at a turn end
	EvProposalDefeated = "proposal_defeated" // at a turn end
	EvProposalVoid     = "proposal_void"     // the round ended before it was decided
	EvRuleChanged      = "rule_changed"      // Reason: RuleEnacted, RuleAmended, RuleRepealed
	EvDataChanged      = "data_changed"      // a proposal's ruleset data change applied (R4); Text says what
	EvDataNotApplied   = "data_not_applied"  // ...or could not apply; Text says why
	EvSwitchCancelled  = "unanimity_kept"    // the unanimity rule was amended in time (U5)
	EvMajority         = "majority_from_now" // the first turn adopting by simple majority begins its count (U5)
	EvPoolEntered      = "pool_entered"
	EvPoolLeft         = "pool_left" // Reason: PoolLeftByChoice, PoolInactive, PoolDrawn, PoolNoVote
	EvPoolReturned     = "pool_returned"
	EvJudgeDrawn       = "judge_drawn" // Player "" means the administrator judges
	EvJudgeEnded       = "judge_ended" // Reason: JudgeRecused, JudgeLate, JudgeInactive, JudgeRuled
	EvRuled            = "ruled"       // Reason is TRUE or FALSE
	EvAppealed         = "appealed"
	EvAppealUpheld     = "appeal_upheld" // the appeal replaced the ruling
	EvAppealRejected   = "appeal_rejected"
	EvTurnEnded        = "turn_ended"
	EvRoundWon         = "round_won" // Player won; Reason WinPoints or WinParadox
	EvRoundStarted     = "round_started"
)

// Reasons of point changes: the only ways points move (acceptance 3).
const (
	PointsDissent    = "dissent"     // voted against a proposal adopted by majority (U5)
	PointsDefeat     = "defeat"      // proposed a defeated proposal (U5)
	PointsLateJudge  = "late_judge"  // did not rule within the deadline (U9)
	PointsRoundStart = "round_start" // a new round sets everyone back to 0 (U6)
)

// Reasons a player leaves the Judicial Pool (U8).
const (
	PoolLeftByChoice = "choice"
	PoolInactive     = "inactive"
	PoolDrawn        = "drawn"
	PoolNoVote       = "no_vote"
)

// numbers returns the turns section of the ruleset in force, or a refusal
// when the game's ruleset has none (RULINGS R3).
func numbers(rs *ruleset.Ruleset) (ruleset.TurnsRules, error) {
	if rs == nil || rs.Turns == (ruleset.TurnsRules{}) {
		id := "(none)"
		if rs != nil {
			id = rs.ID
		}
		return ruleset.TurnsRules{}, rules.Refuse("not_in_ruleset",
			"The ruleset %s has no turns, points or judicial system (no turns section).", id)
	}
	return rs.Turns, nil
}

// New returns the state of a new game of rs created at createdAt: round 1
// starting then, the mutable rules of seed 003 numbered from the ruleset's
// firstRuleNumber, no players and no cases.
func New(rs *ruleset.Ruleset, createdAt time.Time) (*State, error) {
	n, err := numbers(rs)
	if err != nil {
		return nil, err
	}
	texts, err := InitialRules()
	if err != nil {
		return nil, err
	}
	s := &State{
		Round:     Round{Number: 1, Start: createdAt},
		Players:   []Player{},
		Proposals: []Proposal{},
		Cases:     []Case{},
		NextCase:  n.FirstCaseNumber,
	}
	for i, t := range texts {
		s.Rules = append(s.Rules, Rule{
			Number: n.FirstRuleNumber + i, Text: t.Text, Role: t.Role,
			History: []RuleEvent{{Kind: RuleEnacted, At: createdAt, Text: t.Text}},
		})
		if t.Role == RoleUnanimity {
			s.UnanimityRule = n.FirstRuleNumber + i
		}
	}
	s.NextRule = n.FirstRuleNumber + len(texts)
	return s, nil
}

// Player returns the player with id, or nil.
func (s *State) Player(id string) *Player {
	if len(s.byID) != len(s.Players) {
		s.byID = make(map[string]int, len(s.Players))
		for i, p := range s.Players {
			s.byID[p.ID] = i
		}
	}
	if i, ok := s.byID[id]; ok && s.Players[i].ID == id {
		return &s.Players[i]
	}
	for i := range s.Players { // the slice was replaced under the index
		if s.Players[i].ID == id {
			s.byID = nil
			return &s.Players[i]
		}
	}
	return s.lookup(id)
}

// Name is what people read for id: the player's display name, or the id
// itself for someone the game does not know.
func (s *State) Name(id string) string {
	if p := s.Player(id); p != nil && p.Name != "" {
		return p.Name
	}
	return id
}

func (s *State) names(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = s.Name(id)
	}
	return strings.Join(out, ", ")
}

// mustBeActive refuses anyone who is not an active player (U2: only active
// players propose, vote, request judgment, judge or sit in the pool).
func (s *State) mustBeActive(id, doing string) (*Player, error) {
	p := s.Player(id)
	switch {
	case p == nil || !p.Member:
		return nil, rules.Refuse("not_a_player", "Only players can %s, and %s is not one; join the game first.", doing, s.Name(id))
	case !p.Active:
		return nil, rules.Refuse("not_active",
			"Only active players can %s; %s is inactive. Declare yourself active again to take part.", doing, p.Name)
	}
	return p, nil
}

func (s *State) mustBePlaying() error {
	if s.Round.Over {
		r := s.Round
		e := rules.Refuse("round_over",
			"Round %d is over: %s won it on %s. Nothing more can be done until the administrator starts the next round.",
			r.Number, s.Name(r.Winner), when(r.EndedAt))
		return e.With("winner", r.Winner)
	}
	return nil
}

// award changes a player's points by delta for reason at at, and ends the
// round if they reached the winning points first (U6). It returns the
// events; won reports that this award ended the round.
func (s *State) award(id string, delta int, reason string, at time.Time, n ruleset.TurnsRules, turn string) (evs []Event, won bool) {
	p := s.Player(id)
	if p == nil || delta == 0 {
		return nil, false
	}
	p.Points += delta
	evs = append(evs, Event{Kind: EvPoints, At: at, Player: id, Delta: delta, Total: p.Points, Reason: reason, Turn: turn,
		Text: fmt.Sprintf("%s %s %d points (%s): %d in all.", p.Name, gainsOrLoses(delta), abs(delta), reasonWords[reason], p.Points)})
	if !s.Round.Over && p.Points >= n.WinPoints {
		evs = append(evs, s.win(id, WinPoints, 0, at))
		return evs, true
	}
	return evs, false
}

var reasonWords = map[string]string{
	PointsDissent:    "voted against a proposal adopted by majority",
	PointsDefeat:     "proposed a defeated proposal",
	PointsLateJudge:  "did not rule in time as Judge",
	PointsRoundStart: "a new round begins",
}

// reachedWin ends the round if someone already has the winning points:
// after a data change lowers them, the players who have them "achieve"
// them at that moment (U6). The most points win; equal points go to the
// one who joined first (RULINGS is silent on this case).
func (s *State) reachedWin(n ruleset.TurnsRules, at time.Time) []Event {
	if s.Round.Over {
		return nil
	}
	best := -1
	for i, p := range s.Players {
		if p.Points >= n.WinPoints && (best < 0 || p.Points > s.Players[best].Points) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	return []Event{s.win(s.Players[best].ID, WinPoints, 0, at)}
}

// WinByPoints ends the round at at with id the winner by points, as
// reachedWin does for the player with the most: an engine holding the
// players in parts finds them itself (a walk over every player after a
// data change), and the rules end the round the same way.
func (s *State) WinByPoints(id string, at time.Time) Event { return s.win(id, WinPoints, 0, at) }

func (s *State) win(id, by string, caseNo int, at time.Time) Event {
	s.Round.Over, s.Round.Winner, s.Round.WonBy, s.Round.WinCase, s.Round.EndedAt = true, id, by, caseNo, at
	pts := 0
	if p := s.Player(id); p != nil {
		pts = p.Points
	}
	text := fmt.Sprintf("%s wins round %d with %d points.", s.Name(id), s.Round.Number, pts)
	if by == WinParadox {
		text = fmt.Sprintf("%s wins round %d: their paradox (case %d) was ruled TRUE.", s.Name(id), s.Round.Number, caseNo)
	}
	return Event{Kind: EvRoundWon, At: at, Player: id, Reason: by, Case: caseNo, Text: text}
}

func gainsOrLoses(d int) string {
	if d < 0 {
		return "loses"
	}
	return "gains"
}

func abs(n int) int { return max(n, -n) }

// when formats a moment in the game's time zone (RULINGS T3).
func when(t time.Time) string { return t.In(calendar.Chicago()).Format("Mon 2 Jan 2006 15:04 MST") }

// sortedIDs returns ids sorted without duplicates or empty strings.
func sortedIDs(ids []string) []string {
	out := slices.DeleteFunc(slices.Clone(ids), func(s string) bool { return s == "" })
	order.Sort(out, cmp.Compare)
	return slices.Compact(out)
}
