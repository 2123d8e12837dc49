package exoptosis

import (
	"time"

	"croupier/internal/fair"
	"croupier/internal/ruleset"
)

// maxExpiries bounds one Timeout call (a match nobody touches for years
// skips a turn a day); a later call continues where it stopped.
const maxExpiries = 10000

// Timeout acts on every deadline of m that has passed by now (X7), each as
// of its own deadline, so a late run does what a punctual one would have and
// a second run does nothing:
//   - selection: each participant still to select gets a random hand of the
//     minimum size from their deck's cards not in the match, or forfeits if
//     too few remain;
//   - betting: the participant whose turn it is passes, or declines if a
//     bet is open to them (a participant who does not meet a bet forfeits);
//   - play: an expired pending choice is made at random; an expired turn is
//     skipped without penalty.
func Timeout(m *Match, rs *ruleset.Ruleset, now time.Time, src fair.Source) []Event {
	e := &eng{m: m, rs: rs, src: src}
	for range maxExpiries {
		at, ok := m.Deadline(rs)
		if !ok || now.Before(at) {
			break
		}
		e.now = at
		e.expire()
		m.Steps++
	}
	return e.evs
}

func (e *eng) expire() {
	m := e.m
	switch m.Phase {
	case PhaseSelection:
		for i := range m.Participants {
			p := &m.Participants[i]
			if m.Phase != PhaseSelection {
				break
			}
			if p.Status != StatusActive || p.Selected {
				continue
			}
			avail := m.available(p, "")
			if len(avail) < handMin(e.rs) {
				e.forfeit(p, "cannot_select")
				continue
			}
			e.emit(Event{Kind: EvChosenAtRandom, Participant: p.ID, Reason: MoveSelect})
			e.selectHand(p, pick(e.src, avail, handMin(e.rs)))
		}
		if m.Phase == PhaseSelection { // only while entrants the game layer has not added wait
			m.TurnStart = e.now
		}
	case PhaseBetting:
		p := m.current()
		if p == nil || !m.needsToBet(p) { // defensive: look for whoever owes an answer
			e.nextBettor(true)
			return
		}
		kind := MovePass
		if m.Betting.Raiser != "" || m.Betting.Final {
			kind = MoveDecline
		}
		e.emit(Event{Kind: EvChosenAtRandom, Participant: p.ID, Reason: kind})
		_ = e.bet(p, Move{Kind: kind, Actor: p.ID})
	case PhasePlay:
		if m.Pending != nil {
			e.choose()
			return
		}
		if m.Resolving { // defensive: nothing pending, so the turn can pass
			e.settle()
			return
		}
		if p := m.current(); p != nil {
			e.emit(Event{Kind: EvTurnSkipped, Participant: p.ID})
		}
		e.nextTurn()
	}
}

// pick draws k distinct names from names, in drawn order.
func pick(src fair.Source, names []string, k int) []string {
	pool := append([]string(nil), names...)
	out := make([]string, 0, k)
	for range k {
		i := src.Intn(PurposeSelect, len(pool))
		out = append(out, pool[i])
		pool = append(pool[:i], pool[i+1:]...)
	}
	return out
}

// choose makes the pending choice at random (X4, X7), uniformly among the
// choices a participant could have made.
func (e *eng) choose() {
	m := e.m
	pd := m.Pending
	owner := m.part(pd.Owner)
	moves := pendingMoves(m, owner)
	if len(moves) == 0 { // defensive: nothing can be chosen, so the choice lapses
		m.Pending = nil
		e.settle()
		return
	}
	mv := moves[e.src.Intn(PurposeChoice, len(moves))]
	e.emit(Event{Kind: EvChosenAtRandom, Participant: owner.ID, Reason: pd.Kind})
	if err := e.play(owner, mv); err != nil { // defensive: a listed move is legal
		m.Pending = nil
		e.settle()
	}
}
