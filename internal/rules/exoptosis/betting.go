package exoptosis

import (
	"slices"

	"croupier/internal/rules"
)

// Betting (X8) runs in turn order. With no raise open, each participant in
// turn raises or passes; when everyone has passed at the current level,
// betting closes. A raise must be answered by every other participant
// (match, raise further, or decline). Once all have answered: if someone
// met the raise, the decliners forfeit (their Chips refunded) and a new
// round of passes begins; if nobody did, the raise is refunded, the level
// returns to what it was, and that level is final: whoever is below it
// matches or declines (forfeits), then play begins.

// needsToBet reports whether the match waits for p's betting answer.
func (m *Match) needsToBet(p *Participant) bool {
	b := &m.Betting
	if p.Status != StatusActive || slices.Contains(b.Answered, p.ID) {
		return false
	}
	switch {
	case b.Raiser != "":
		return p.ID != b.Raiser
	case b.Final:
		return p.Bet < b.Level
	}
	return true
}

func (e *eng) bet(p *Participant, mv Move) *rules.Error {
	m := e.m
	b := &m.Betting
	answering := b.Raiser != "" || b.Final
	switch mv.Kind {
	case MoveRaise, MoveBet:
		if b.Final {
			return rules.Refuse("betting_final", "An unmatched raise was refunded, so the bet of %d is final: match or decline.", b.Level)
		}
		if mv.Amount <= b.Level {
			return rules.Refuse("raise_too_small", "A raise must be above the current bet of %d; you offered %d.", b.Level, mv.Amount)
		}
		if cost := mv.Amount - p.Bet; cost > p.Chips {
			return rules.Refuse("insufficient_chips", "Raising to %d costs you %d Chips; you have %d.", mv.Amount, cost, p.Chips).
				With("cost", cost).With("have", p.Chips)
		}
		// Raising further meets the open raise; the new raise replaces it,
		// and if nobody meets the new one the level returns to the old.
		paid := e.pay(p, mv.Amount)
		b.PrevLevel = b.Level
		b.Level = mv.Amount
		b.Raiser = p.ID
		b.Matched = false
		b.Answered = nil
		b.Declined = nil
		e.emit(Event{Kind: EvRaised, Participant: p.ID, Chips: paid, Level: b.Level})
	case MoveMatch:
		if !answering {
			return rules.Refuse("nothing_to_match", "No raise is open: pass, or raise above %d.", b.Level)
		}
		if cost := b.Level - p.Bet; cost > p.Chips {
			return rules.Refuse("insufficient_chips", "Matching %d costs you %d Chips; you have %d: decline (you lose no Chips).", b.Level, cost, p.Chips).
				With("cost", cost).With("have", p.Chips)
		}
		paid := e.pay(p, b.Level)
		if b.Raiser != "" {
			b.Matched = true
		}
		b.Answered = append(b.Answered, p.ID)
		e.emit(Event{Kind: EvMatched, Participant: p.ID, Chips: paid, Level: b.Level})
	case MoveDecline:
		if !answering {
			return rules.Refuse("nothing_to_decline", "No raise is open: pass, or raise above %d.", b.Level)
		}
		e.emit(Event{Kind: EvDeclined, Participant: p.ID, Level: b.Level})
		if b.Final {
			e.forfeit(p, "declined")
			return nil
		}
		b.Answered = append(b.Answered, p.ID)
		b.Declined = append(b.Declined, p.ID)
	case MovePass:
		if answering {
			return rules.Refuse("must_answer", "A bet of %d is open: match, decline%s.", b.Level, orRaise(b.Final))
		}
		b.Answered = append(b.Answered, p.ID)
		e.emit(Event{Kind: EvPassed, Participant: p.ID, Level: b.Level})
	default:
		return wrongMove(mv.Kind, "the match is in betting: raise, match, decline or pass")
	}
	e.nextBettor(true)
	return nil
}

func orRaise(final bool) string {
	if final {
		return ""
	}
	return " or raise"
}

// pay brings p's bet up to level and returns the Chips moved.
func (e *eng) pay(p *Participant, level int) int {
	cost := level - p.Bet
	p.Chips -= cost
	p.Bet = level
	e.m.Betting.Pool += cost
	return cost
}

func (e *eng) refund(p *Participant, chips int) {
	p.Chips += chips
	p.Bet -= chips
	e.m.Betting.Pool -= chips
	e.emit(Event{Kind: EvRefunded, Participant: p.ID, Chips: chips})
}

// nextBettor moves the betting turn to the next participant in turn order
// who owes an answer, resolving a fully answered raise, or closes betting.
// acted says the current participant has just moved: the search starts
// after them (they come last) and the turn clock restarts; otherwise (a
// forfeit by someone else) the current participant keeps the turn and its
// clock if they still owe an answer.
func (e *eng) nextBettor(acted bool) {
	m := e.m
	from := m.Turn
	if acted {
		from++ // the one who just moved comes last
	}
	for m.Phase == PhaseBetting {
		n := len(m.Order)
		for i := range n {
			idx := (from + i) % n
			if m.needsToBet(m.part(m.Order[idx])) {
				if idx != m.Turn || acted {
					m.Turn = idx
					m.TurnStart = e.now
				}
				return
			}
		}
		if !e.resolveBets() {
			return
		}
		acted = true
	}
}

// resolveBets is called when nobody owes an answer. It reports whether
// betting goes on.
func (e *eng) resolveBets() bool {
	m := e.m
	b := &m.Betting
	if b.Raiser != "" {
		raiser := m.part(b.Raiser)
		if b.Matched {
			declined := b.Declined
			b.Raiser, b.Answered, b.Declined, b.Matched = "", nil, nil, false
			for _, id := range declined {
				if m.Phase == PhaseBetting {
					e.forfeit(m.part(id), "declined")
				}
			}
			return m.Phase == PhaseBetting
		}
		// Nobody met the raise: refund it, back to the previous level, final.
		if raiser.Status == StatusActive && raiser.Bet > b.PrevLevel {
			e.refund(raiser, raiser.Bet-b.PrevLevel)
		}
		b.Level = b.PrevLevel
		b.Raiser, b.Answered, b.Declined, b.Matched = "", nil, nil, false
		b.Final = true
		return true
	}
	e.startPlay()
	return false
}

func (e *eng) startPlay() {
	m := e.m
	e.emit(Event{Kind: EvBettingClosed, Level: m.Betting.Level, Chips: m.Betting.Pool})
	m.Phase = PhasePlay
	m.Betting.Answered, m.Betting.Declined = nil, nil
	m.Turn = -1
	e.emit(Event{Kind: EvPlayStarted})
	e.nextTurn()
}
