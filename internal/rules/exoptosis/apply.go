package exoptosis

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// Move kinds.
const (
	MoveSelect    = "select"    // Cards: the hand (X1)
	MoveRaise     = "raise"     // Amount: the new level, the total each participant must bet (X8)
	MoveBet       = "bet"       // the same as raise
	MoveMatch     = "match"     // meet the current level
	MoveDecline   = "decline"   // refuse the current level
	MovePass      = "pass"      // no raise: stay at the current level
	MovePlay      = "play"      // Card (X3)
	MoveAdd       = "add"       // Card: from the deck, when nothing can be played (X4)
	MoveGiver     = "giver"     // Target: who gives the mover a card (X4)
	MoveGive      = "give"      // Card: given to the pending receiver (X4)
	MoveTarget    = "target"    // Targets (and Card for a Queen): an effect's choice (X5)
	MoveForfeit   = "forfeit"   // X9
	MoveTerminate = "terminate" // consent to end the match without a winner (X9)
)

// Move is what a participant asks to do.
type Move struct {
	Kind    string   `json:"kind"`
	Actor   string   `json:"actor,omitempty"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
}

// eng carries one Apply or Timeout call: the match being changed, its
// inputs, and the events collected so far.
type eng struct {
	m   *Match
	rs  *ruleset.Ruleset
	src fair.Source
	now time.Time
	evs []Event
}

func (e *eng) emit(ev Event) {
	ev.At = e.now
	if e.evs == nil {
		// Nine moves in ten cause one or two events (a play and the next
		// turn): one allocation for them.
		e.evs = make([]Event, 0, 2)
	}
	e.evs = append(e.evs, ev)
}

// Apply validates mv (who may make it now, and whether the rules allow it)
// and applies it to m at time now. On a refusal it returns a *rules.Error
// and m is unchanged. Apply does not act on expired deadlines: the caller
// runs Timeout first (see Timeout).
func Apply(m *Match, rs *ruleset.Ruleset, mv Move, now time.Time, src fair.Source) ([]Event, error) {
	if m.Phase == PhaseEnded {
		return nil, rules.Refuse("match_over", "The match is over%s.", endText(m))
	}
	p := m.part(mv.Actor)
	if p == nil {
		return nil, rules.Refuse("not_a_participant", "%q is not a participant of this match.", mv.Actor)
	}
	if p.Status != StatusActive {
		return nil, rules.Refuse("forfeited", "%s has forfeited this match.", p.ID)
	}
	e := &eng{m: m, rs: rs, src: src, now: now}
	var err *rules.Error
	switch mv.Kind {
	case MoveForfeit:
		e.forfeit(p, "forfeit")
	case MoveTerminate:
		err = e.consent(p)
	default:
		if !IsMover(m, p.ID) {
			return nil, notYourTurn(m, p.ID)
		}
		switch m.Phase {
		case PhaseSelection:
			err = e.selection(p, mv)
		case PhaseBetting:
			err = e.bet(p, mv)
		case PhasePlay:
			err = e.play(p, mv)
		}
	}
	if err != nil {
		return nil, err
	}
	m.Steps++
	return e.evs, nil
}

func endText(m *Match) string {
	switch {
	case m.Winner != "":
		return "; " + m.Winner + " won"
	case m.EndReason == EndTerminated:
		return "; it was terminated"
	}
	return ""
}

func notYourTurn(m *Match, id string) *rules.Error {
	movers := Movers(m)
	waiting := "nobody"
	if len(movers) > 0 {
		waiting = strings.Join(movers, ", ")
	}
	what := "it is not your turn"
	if m.Phase == PhaseSelection {
		what = "you have selected your hand"
	}
	return rules.Refuse("not_your_turn", "%s: %s; the match waits for %s.", id, what, waiting).With("waiting_for", movers)
}

// Movers lists who the match waits on: in selection everyone still to
// select, in betting and play the current participant, or the owner of a
// pending choice. Anyone active may forfeit or consent to terminate at any
// time; every other move from someone not listed is refused not_your_turn.
func Movers(m *Match) []string { return AppendMovers(nil, m) }

// AppendMovers appends Movers(m) to dst, so a caller that reuses dst lists
// the movers without allocating.
func AppendMovers(dst []string, m *Match) []string {
	switch m.Phase {
	case PhaseSelection:
		for i := range m.Participants {
			if p := &m.Participants[i]; toSelect(p) {
				dst = append(dst, p.ID)
			}
		}
	case PhaseBetting, PhasePlay:
		if id := turnMover(m); id != "" {
			dst = append(dst, id)
		}
	}
	return dst
}

// IsMover reports whether the match waits on id: whether id is in Movers(m).
func IsMover(m *Match, id string) bool {
	switch m.Phase {
	case PhaseSelection:
		p := m.part(id)
		return p != nil && toSelect(p)
	case PhaseBetting, PhasePlay:
		return id != "" && turnMover(m) == id
	}
	return false
}

// turnMover is the one mover in betting and play: the owner of the pending
// choice, else the current participant unless their move is resolving; ""
// for nobody.
func turnMover(m *Match) string {
	if m.Pending != nil {
		return m.Pending.Owner
	}
	if c := m.current(); c != nil && c.Status == StatusActive && !m.Resolving {
		return c.ID
	}
	return ""
}

// ---- Selection (X1) ----

// toSelect: p may still select a hand (Movers in selection).
func toSelect(p *Participant) bool { return p.Status == StatusActive && !p.Selected }

func (m *Match) anyToSelect() bool {
	for i := range m.Participants {
		if toSelect(&m.Participants[i]) {
			return true
		}
	}
	return false
}

func (e *eng) selection(p *Participant, mv Move) *rules.Error {
	if mv.Kind != MoveSelect {
		return wrongMove(mv.Kind, "the match is in selection: select your hand (at least %d cards of your deck)", handMin(e.rs))
	}
	if err := e.checkSelection(p, mv.Cards); err != nil {
		return err
	}
	e.selectHand(p, mv.Cards)
	return nil
}

func wrongMove(kind, format string, args ...any) *rules.Error {
	return rules.Refuse("invalid_move", "%q is not a move now: %s.", kind, fmt.Sprintf(format, args...))
}

func (e *eng) checkSelection(p *Participant, cards []string) *rules.Error {
	min := handMin(e.rs)
	if len(cards) < min {
		return rules.Refuse("selection_too_small", "Select at least %d cards; you selected %d.", min, len(cards))
	}
	for i, c := range cards {
		if slices.Contains(cards[:i], c) {
			return rules.Refuse("duplicate_card", "%s is selected twice; a card may be in a match only once.", c)
		}
		if !slices.Contains(p.Deck, c) {
			return rules.Refuse("card_not_in_deck", "%s is not in your deck.", c)
		}
	}
	var (
		in        inMatch
		conflicts []string
	)
	in.fill(e.m)
	for _, c := range cards {
		if in.has(c) {
			conflicts = append(conflicts, c)
		}
	}
	if len(conflicts) > 0 {
		return rules.Refuse("card_in_match", "Already in the match: %s. Select other cards.", strings.Join(conflicts, ", ")).With("cards", conflicts)
	}
	return nil
}

func (e *eng) selectHand(p *Participant, cards []string) {
	p.Hand = slices.Clone(cards)
	p.Selected = true
	e.emit(Event{Kind: EvSelected, Participant: p.ID, Cards: slices.Clone(cards)})
	e.afterSelection()
}

// afterSelection reveals the hands and opens betting once every active
// participant has selected (X1, X2).
func (e *eng) afterSelection() {
	m := e.m
	if m.Phase != PhaseSelection || m.Waiting > 0 || m.anyToSelect() {
		return
	}
	e.emit(Event{Kind: EvHandsRevealed})
	e.order()
	m.Phase = PhaseBetting
	m.Turn = 0
	m.TurnStart = e.now
	e.nextBettor(false)
}

// order fixes the turn order (X2): hand size descending; equal sizes in an
// order drawn from the source (a uniform shuffle of each tied group).
func (e *eng) order() {
	m := e.m
	var ids []string
	for _, p := range m.Participants {
		if p.Status == StatusActive {
			ids = append(ids, p.ID)
		}
	}
	size := func(id string) int { return len(m.part(id).Hand) }
	order.Stable(ids, func(a, b string) int { return size(b) - size(a) })
	for i := 0; i < len(ids); {
		j := i
		for j < len(ids) && size(ids[j]) == size(ids[i]) {
			j++
		}
		group := ids[i:j]
		for k := len(group) - 1; k > 0; k-- { // Fisher-Yates
			r := e.src.Intn(PurposeOrder, k+1)
			group[k], group[r] = group[r], group[k]
		}
		i = j
	}
	m.Order = ids
	e.emit(Event{Kind: EvTurnOrder, Cards: slices.Clone(ids)})
}

// ---- Forfeit and termination (X9) ----

// forfeit takes p out of the match. Before play their bet is refunded (a
// participant who does not meet a bet loses no Chips, X8); during play it
// stays in the pool. Their hand leaves the match.
func (e *eng) forfeit(p *Participant, reason string) {
	m := e.m
	p.Status = StatusForfeited
	e.emit(Event{Kind: EvForfeited, Participant: p.ID, Cards: slices.Clone(p.Hand), Reason: reason})
	p.Hand = []string{}
	if m.Phase != PhasePlay && p.Bet > 0 {
		e.refund(p, p.Bet)
	}
	m.Betting.Answered = remove(m.Betting.Answered, p.ID)
	m.Betting.Declined = remove(m.Betting.Declined, p.ID)
	if e.lastStanding() {
		return
	}
	if e.allConsented() {
		return
	}
	switch m.Phase {
	case PhaseSelection:
		e.afterSelection()
	case PhaseBetting:
		e.nextBettor(false)
	case PhasePlay:
		e.forfeitInPlay(p)
	}
}

func (e *eng) forfeitInPlay(p *Participant) {
	m := e.m
	// Draws owed to p lapse.
	var draws []Draw
	for _, d := range m.Draws {
		if d.Participant != p.ID {
			draws = append(draws, d)
		}
	}
	m.Draws = draws
	if pd := m.Pending; pd != nil {
		switch {
		case pd.Owner == p.ID && pd.Kind == ChoiceGive:
			// The receiver still needs a card: they choose another giver.
			e.pend(ChoiceGiver, pd.Receiver, "", "")
		case pd.Owner == p.ID, pd.Receiver == p.ID:
			// An effect p was choosing, or a card p was to receive, lapses.
			m.Pending = nil
		}
	}
	cur := m.current()
	if cur == p && !m.Resolving {
		e.nextTurn()
		return
	}
	if m.Pending == nil && m.Resolving {
		e.settle()
	}
}

func (e *eng) consent(p *Participant) *rules.Error {
	if p.Consented {
		return rules.Refuse("already_consented", "%s has already consented to terminate the match.", p.ID)
	}
	p.Consented = true
	e.emit(Event{Kind: EvConsented, Participant: p.ID})
	e.allConsented()
	return nil
}

// allConsented ends the match without a winner if every remaining
// participant consents (X9); bets are refunded by Settle.
func (e *eng) allConsented() bool {
	if e.m.Waiting > 0 { // entrants the game layer keeps outside have not consented
		return false
	}
	for _, p := range e.m.Participants {
		if p.Status == StatusActive && !p.Consented {
			return false
		}
	}
	e.end("", EndTerminated)
	return true
}

// lastStanding ends the match if one active participant is left (X9).
func (e *eng) lastStanding() bool {
	if e.m.Waiting > 0 { // entrants the game layer keeps outside are active too
		return false
	}
	last := ""
	for _, p := range e.m.Participants {
		if p.Status == StatusActive {
			if last != "" {
				return false
			}
			last = p.ID
		}
	}
	if last == "" {
		return false
	}
	e.end(last, EndLastStanding)
	return true
}

func (e *eng) end(winner, reason string) {
	m := e.m
	m.Phase = PhaseEnded
	m.Winner = winner
	m.EndReason = reason
	m.Ended = e.now
	m.Pending = nil
	m.Draws = nil
	m.Resolving = false
	e.emit(Event{Kind: EvEnded, Participant: winner, Reason: reason, Chips: m.Betting.Pool})
}

func remove(ids []string, id string) []string {
	return slices.DeleteFunc(ids, func(s string) bool { return s == id })
}
