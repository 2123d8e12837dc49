// Package exoptosis is the Exoptosis card game (seed 001 over seed 000;
// RULINGS X1-X9) as a pure, deterministic state machine for one match.
//
// The design follows boardgame.io: a Match is plain data (every field
// exported and JSON-tagged, so the game layer stores it as one item and a
// client can render it whole), and every change goes through one entry
// point, Apply, which checks who is acting and whether the move is legal,
// then mutates the Match and returns the Events it caused. Time is always an
// argument and every random choice goes through a fair.Source, so replaying
// the Log with the logged draws rebuilds the match exactly.
//
// A refused move returns a *rules.Error and leaves the Match untouched: each
// move is validated completely before anything changes.
package exoptosis

import (
	"encoding/json"
	"slices"
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// Phase is where a match is in its life.
type Phase string

// The phases in order: hands are chosen (X1), then Chips are bet (X8), then
// cards are played (X3-X6), then the match is over.
const (
	PhaseSelection Phase = "selection"
	PhaseBetting   Phase = "betting"
	PhasePlay      Phase = "play"
	PhaseEnded     Phase = "ended"
)

// Participant statuses.
const (
	StatusActive    = "active"
	StatusForfeited = "forfeited"
)

// End reasons.
const (
	EndWon          = "won"           // a hand became empty (X6)
	EndLastStanding = "last_standing" // everyone else forfeited (X9)
	EndTerminated   = "terminated"    // every remaining participant consented (X9)
)

// Draw purposes: fixed strings so a logged draw says what it decided.
const (
	PurposeOrder  = "exoptosis.order"  // breaking a turn-order tie (X2)
	PurposeDraw   = "exoptosis.draw"   // which deck card a participant draws (X5)
	PurposeSelect = "exoptosis.select" // a hand chosen for an absent participant (X7)
	PurposeChoice = "exoptosis.choice" // a pending choice made at random on timeout (X4, X7)
)

// DefaultHandMin and DefaultTurnTimeout apply when a ruleset leaves the
// corresponding number unset (zero); the gilded-hall data sets both.
const (
	DefaultHandMin     = 4
	DefaultTurnTimeout = 24 * time.Hour
)

// MaxParticipants bounds a match so a malformed request cannot make the
// engine allocate without limit. Only len(cards)/handMin participants can
// actually hold a hand at once (X1); the rest cannot select and forfeit.
const MaxParticipants = 1000

// Participant is one player in a match.
type Participant struct {
	ID string `json:"id"`
	// Deck is the names of the cards the participant owns (one entry per
	// copy). It never changes during a match (X1): hands hold duplicates.
	Deck []string `json:"deck"`
	// Chips is what the participant holds outside the match, as far as the
	// engine knows: the game layer sets it when the match is made (and may
	// refresh it before a betting move); bets take from it and refunds give
	// back to it, and the Events say so, so the game layer mirrors them.
	Chips int `json:"chips,omitempty"`
	// Hand is the participant's current hand. During selection it holds the
	// submitted selection, which clients must not show until the
	// hands_revealed event (Phase past selection).
	Hand      []string `json:"hand"`
	Selected  bool     `json:"selected"`
	Bet       int      `json:"bet,omitempty"` // Chips this participant has in the pool
	Status    string   `json:"status"`
	Consented bool     `json:"consented,omitempty"` // consents to terminate (X9)
}

// Choice kinds: what a pending choice asks of its owner.
const (
	ChoiceAce   = "ace"   // choose another participant, who draws 2
	ChoiceQueen = "queen" // choose a participant and a card of their hand
	ChoiceKing  = "king"  // choose two different participants, each draws 1
	ChoiceGiver = "giver" // the owner cannot add or draw: choose who gives them a card
	ChoiceGive  = "give"  // the owner gives Receiver one card of their hand
)

// Pending is a choice the match waits for, possibly from someone whose turn
// it is not (a giver). It has its own deadline (X4, X7).
type Pending struct {
	Kind     string    `json:"kind"`
	Owner    string    `json:"owner"`
	Receiver string    `json:"receiver,omitempty"` // ChoiceGive: who receives the card
	Card     string    `json:"card,omitempty"`     // the card whose effect this is
	Deadline time.Time `json:"deadline"`
}

// Draw is a forced draw still owed (X5): resolved in order once no choice
// is pending. Exclude is the card a Queen sent away, which the replacement
// must differ from.
type Draw struct {
	Participant string `json:"participant"`
	Count       int    `json:"count"`
	Exclude     string `json:"exclude,omitempty"`
}

// Betting is the state of the betting round (X8). Each bettor's contribution
// is Participant.Bet; Pool is their sum.
type Betting struct {
	Level     int    `json:"level,omitempty"`     // what every remaining participant must have bet
	PrevLevel int    `json:"prevLevel,omitempty"` // the level before the open raise
	Pool      int    `json:"pool,omitempty"`
	Raiser    string `json:"raiser,omitempty"`  // whose raise is open; "" when none is
	Matched   bool   `json:"matched,omitempty"` // someone else met the open raise
	// Final is set once an unmatched raise was refunded: the level is
	// final, no more raises; whoever is below it must match or decline.
	Final    bool     `json:"final,omitempty"`
	Answered []string `json:"answered,omitempty"` // answered the open raise, or passed at Level
	Declined []string `json:"declined,omitempty"` // declined the open raise (forfeit if it is matched)
}

// LogEntry is one step of the match: a move, or a timeout acting at At.
// The match does not keep its steps (a stored match would grow with every
// move): the game layer records each step in the log entry of the command
// that made it, and a replay feeds them back to Apply and Timeout.
type LogEntry struct {
	At      time.Time `json:"at"`
	Move    *Move     `json:"move,omitempty"`
	Timeout bool      `json:"timeout,omitempty"`
}

// Match is the whole state of one Exoptosis match.
type Match struct {
	ID           string        `json:"id,omitempty"`
	Participants []Participant `json:"participants"`
	Phase        Phase         `json:"phase"`
	Started      time.Time     `json:"started,omitzero"`
	// Order is the turn order (X2), fixed when the hands are revealed.
	// Forfeited participants stay in it and are skipped.
	Order []string `json:"order,omitempty"`
	// Turn indexes Order: whose turn it is in betting and play.
	Turn int `json:"turn,omitempty"`
	// TurnStart is when the current turn (or, in selection, the match)
	// started; the turn deadline is TurnStart + the turn timeout (X7).
	TurnStart time.Time `json:"turnStart"`
	// Resolving is true once the current player has moved and the match is
	// resolving the consequences (effects, draws, gives) before the turn
	// passes.
	Resolving bool `json:"resolving,omitempty"`
	// Pile is the played cards, oldest first. Its last card is the card the
	// next play must follow (X3).
	Pile []string `json:"pile"`
	// Constraint is the colour a Joker on top of the pile demands, "" if none.
	Constraint string    `json:"constraint,omitempty"`
	Pending    *Pending  `json:"pending,omitempty"`
	Draws      []Draw    `json:"draws,omitempty"`
	Betting    Betting   `json:"betting"`
	Winner     string    `json:"winner,omitempty"`
	EndReason  string    `json:"endReason,omitempty"`
	Ended      time.Time `json:"ended,omitzero"`
	// Steps counts the moves applied and the deadlines acted on (each
	// expiry of a Timeout is one step).
	Steps int `json:"steps,omitempty"`
	// Waiting counts entrants the game layer keeps outside Participants (a
	// battle too large for one stored item) who have neither selected nor
	// forfeited. The hands are not revealed while any wait: the game layer
	// adds an entrant to Participants, in entry order, before their move,
	// and adds all who still wait before the selection deadline's Timeout.
	Waiting int `json:"waiting,omitempty"`
}

// UnmarshalJSON reads a match as stored, also one stored while a match kept
// its steps in a "log" list of its own (before the game layer logged each
// step with its command): its step count is that list's length.
func (m *Match) UnmarshalJSON(b []byte) error {
	type plain Match // without this method
	var v struct {
		plain
		Log []json.RawMessage `json:"log"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = Match(v.plain)
	if m.Steps == 0 {
		m.Steps = len(v.Log)
	}
	return nil
}

// Entrant is a player entering a match: their deck (card names, one per
// owned copy) and the Chips they hold.
type Entrant struct {
	ID    string   `json:"id"`
	Deck  []string `json:"deck"`
	Chips int      `json:"chips"`
}

// New makes a match in the selection phase. Entrants whose deck holds fewer
// than the minimum hand of distinct cards must forfeit (seed 001 Setup); if
// fewer than two can play, there is no match (too_few_players).
func New(rs *ruleset.Ruleset, id string, entrants []Entrant, now time.Time) (*Match, []Event, error) {
	if len(entrants) > MaxParticipants {
		return nil, nil, rules.Refuse("too_many_players", "A match holds at most %d participants; got %d.", MaxParticipants, len(entrants))
	}
	// Room for what a match of a few players typically grows to (every
	// participant's entry, a dozen cards played), so that playing it does
	// not reallocate them again and again.
	m := &Match{
		ID: id, Phase: PhaseSelection, Started: now, TurnStart: now,
		Participants: make([]Participant, 0, len(entrants)),
		Pile:         make([]string, 0, 16),
	}
	seen := map[string]bool{}
	var evs []Event
	playable := 0
	for _, e := range entrants {
		if e.ID == "" {
			return nil, nil, rules.Refuse("invalid_participant", "Every participant needs an id.")
		}
		if seen[e.ID] {
			return nil, nil, rules.Refuse("duplicate_participant", "%s is named twice.", e.ID)
		}
		seen[e.ID] = true
		if e.Chips < 0 {
			return nil, nil, rules.Refuse("invalid_chips", "%s cannot hold %d Chips.", e.ID, e.Chips)
		}
		for _, name := range e.Deck {
			if cardOf(rs, name) == nil {
				return nil, nil, rules.Refuse("unknown_card", "%s's deck names %q, which is not a card of this ruleset.", e.ID, name)
			}
		}
		p := Participant{ID: e.ID, Deck: slices.Clone(e.Deck), Chips: e.Chips, Hand: []string{}, Status: StatusActive}
		if countDistinct(p.Deck) < handMin(rs) {
			p.Status = StatusForfeited
			evs = append(evs, Event{Kind: EvForfeited, Participant: p.ID, Reason: "deck_too_small", At: now})
		} else {
			playable++
		}
		m.Participants = append(m.Participants, p)
	}
	if playable < 2 {
		return nil, nil, rules.Refuse("too_few_players", "A match needs at least 2 participants with %d or more different cards in their deck; %d have them.", handMin(rs), playable)
	}
	return m, evs, nil
}

// HandMin is the smallest hand a participant may select (X1), and so the
// fewest different names a deck must hold to play.
func HandMin(rs *ruleset.Ruleset) int { return handMin(rs) }

func handMin(rs *ruleset.Ruleset) int {
	if n := rs.Thresholds.HandMinCards; n > 0 {
		return n
	}
	return DefaultHandMin
}

// TurnTimeout is the ruleset's turn timeout (X7).
func TurnTimeout(rs *ruleset.Ruleset) time.Duration {
	if d := rs.Durations.TurnTimeout.Std(); d > 0 {
		return d
	}
	return DefaultTurnTimeout
}

// hasName reports whether names holds name, as slices.Contains does, but
// with same: the engine asks this of every card in the match whenever it
// lists or draws.
func hasName(names []string, name string) bool {
	for _, n := range names {
		if same(n, name) {
			return true
		}
	}
	return false
}

// same reports whether a == b, comparing the lengths and the first and last
// bytes before calling for the whole strings: names of one length abound
// ("7 of Hearts" and "8 of Spades"; participant ids), and most differ at an
// end.
func same(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if n := len(a); n > 0 && (a[0] != b[0] || a[n-1] != b[n-1]) {
		return false
	}
	return a == b
}

// countDistinct counts the different names in names.
func countDistinct(names []string) int {
	n := 0
	for i, name := range names {
		if !hasName(names[:i], name) {
			n++
		}
	}
	return n
}

// part returns the participant with the given id, or nil.
func (m *Match) part(id string) *Participant {
	for i := range m.Participants {
		if same(m.Participants[i].ID, id) {
			return &m.Participants[i]
		}
	}
	return nil
}

// Participant returns the participant with the given id.
func (m *Match) Participant(id string) (Participant, bool) {
	if p := m.part(id); p != nil {
		return *p, true
	}
	return Participant{}, false
}

func (m *Match) active(id string) bool {
	p := m.part(id)
	return p != nil && p.Status == StatusActive
}

// activeIDs lists the active participants in participant order.
func (m *Match) activeIDs() []string {
	var out []string
	for _, p := range m.Participants {
		if p.Status == StatusActive {
			out = append(out, p.ID)
		}
	}
	return out
}

// InMatch reports whether a card name is in the match: in a hand or on the
// pile (X1).
func (m *Match) InMatch(name string) bool {
	if hasName(m.Pile, name) {
		return true
	}
	for i := range m.Participants {
		if hasName(m.Participants[i].Hand, name) {
			return true
		}
	}
	return false
}

// available lists the distinct names of p's deck not in the match, in deck
// order, leaving out exclude.
func (m *Match) available(p *Participant, exclude string) []string {
	var in inMatch
	in.fill(m)
	return appendAvailable(nil, &in, p, exclude)
}

// appendAvailable appends to dst the distinct names of p's deck not in in
// (filled from p's match), in deck order, leaving out exclude.
func appendAvailable(dst []string, in *inMatch, p *Participant, exclude string) []string {
	for i, n := range p.Deck {
		if n != exclude && !in.has(n) && !hasName(p.Deck[:i], n) {
			dst = append(dst, n)
		}
	}
	return dst
}

// canAdd reports whether p has a card to add: available(p, "") is not empty.
func (m *Match) canAdd(p *Participant) bool {
	var in inMatch
	in.fill(m)
	for _, n := range p.Deck {
		if !in.has(n) {
			return true
		}
	}
	return false
}

// linearUpTo bounds the participants, and linearCards the cards on the pile
// and in hands, up to which inMatch lists the names in an array, which it
// fills without allocating. A larger match (a battle: its selection deadline
// asks for the available cards of thousands of participants) is put in a
// map instead, so that a question costs one pass over the hands, not one per
// name of the deck.
const (
	linearUpTo  = 16
	linearCards = 64
)

// inMatch is the set of names on the pile and in the hands of a match, for
// questions about several names (InMatch answers one).
type inMatch struct {
	n     int
	keys  [linearCards]uint32
	names [linearCards]string
	big   map[string]bool // kept from fill to fill, so a reused set does not allocate
	inBig bool            // the names are in big
}

// fill sets s to the names in m.
func (s *inMatch) fill(m *Match) {
	s.n = 0
	cards := m.cardsInMatch()
	s.inBig = len(m.Participants) > linearUpTo || cards > linearCards
	if !s.inBig {
		for _, c := range m.Pile {
			s.keys[s.n], s.names[s.n] = nameKey(c), c
			s.n++
		}
		for i := range m.Participants {
			for _, c := range m.Participants[i].Hand {
				s.keys[s.n], s.names[s.n] = nameKey(c), c
				s.n++
			}
		}
		return
	}
	if s.big == nil {
		s.big = make(map[string]bool, cards)
	}
	clear(s.big)
	for _, c := range m.Pile {
		s.big[c] = true
	}
	for i := range m.Participants {
		for _, c := range m.Participants[i].Hand {
			s.big[c] = true
		}
	}
}

func (s *inMatch) has(name string) bool {
	if s.inBig {
		return s.big[name]
	}
	k := nameKey(name)
	for i, key := range s.keys[:s.n] {
		if key == k && s.names[i] == name {
			return true
		}
	}
	return false
}

// nameKey packs a name's length and three of its bytes. Two card names of a
// table rarely share it ("7 of Hearts" and "7 of Spades" differ in the
// middle), so comparing keys first skips almost every string comparison.
func nameKey(s string) uint32 {
	if s == "" {
		return 0
	}
	return uint32(len(s)) | uint32(s[0])<<8 | uint32(s[len(s)/2])<<16 | uint32(s[len(s)-1])<<24
}

// cardsInMatch counts the cards on the pile and in hands.
func (m *Match) cardsInMatch() int {
	n := len(m.Pile)
	for i := range m.Participants {
		n += len(m.Participants[i].Hand)
	}
	return n
}

// current is the participant whose turn it is in betting and play, or nil.
func (m *Match) current() *Participant {
	if m.Turn < 0 || m.Turn >= len(m.Order) {
		return nil
	}
	return m.part(m.Order[m.Turn])
}

// Deadline is when the match next acts on its own (X7): the pending
// choice's deadline, else the end of the current turn (in selection: of the
// selection period). ok is false once the match has ended.
func (m *Match) Deadline(rs *ruleset.Ruleset) (at time.Time, ok bool) {
	if m.Phase == PhaseEnded {
		return time.Time{}, false
	}
	if m.Pending != nil {
		return m.Pending.Deadline, true
	}
	return m.TurnStart.Add(TurnTimeout(rs)), true
}
