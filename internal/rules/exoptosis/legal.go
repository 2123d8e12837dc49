package exoptosis

import (
	"croupier/internal/ruleset"
)

// MaxListedRaises bounds how many raise amounts LegalMoves lists (from the
// smallest up); any larger amount the participant can pay is legal too.
const MaxListedRaises = 25

// LegalMoves lists the moves participant id may make now. Every listed move
// is accepted by Apply (at the same time, before any timeout). Two
// simplifications keep the list short: a select move lists in Cards every
// card the participant may choose from (any subset of at least the minimum
// hand is legal), and raises are listed up to MaxListedRaises amounts.
// Forfeit, and terminate until consented, are always listed for an active
// participant of a match that is not over.
//
// The list and its moves' Cards and Targets belong to the caller. A caller
// that lists often (a player or a simulation) uses a Lister instead, which
// allocates nothing once warm.
func LegalMoves(m *Match, rs *ruleset.Ruleset, id string) []Move {
	var l Lister
	return l.LegalMoves(m, rs, id)
}

// A Lister lists legal moves into buffers it keeps from one listing to the
// next, so that once they have grown to a match's size a listing allocates
// nothing. What LegalMoves returns, and the Cards and Targets of its moves,
// live in those buffers: they are valid until the Lister's next listing,
// which overwrites them (copy what must outlive it; Apply copies what it
// keeps). Each move's Cards and Targets are capped at their length, so
// appending to one never writes over another. The zero Lister is ready to
// use; a Lister is not safe for concurrent use.
type Lister struct {
	moves []Move
	names []string // backing of the listed moves' Cards and Targets
	in    inMatch
}

// LegalMoves is the package's LegalMoves, into l's buffers (see Lister).
func (l *Lister) LegalMoves(m *Match, rs *ruleset.Ruleset, id string) []Move {
	p := m.part(id)
	if p == nil || p.Status != StatusActive || m.Phase == PhaseEnded {
		return nil
	}
	l.moves, l.names = l.moves[:0], l.names[:0]
	if IsMover(m, id) {
		switch m.Phase {
		case PhaseSelection:
			from := len(l.names)
			l.in.fill(m)
			l.names = appendAvailable(l.names, &l.in, p, "")
			if len(l.names)-from >= handMin(rs) {
				l.add(Move{Kind: MoveSelect, Actor: id, Cards: l.names[from:len(l.names):len(l.names)]})
			}
		case PhaseBetting:
			l.bettingMoves(m, p)
		case PhasePlay:
			if m.Pending != nil {
				l.pendingMoves(m, p)
			} else {
				l.turnMoves(m, rs, p)
			}
		}
	}
	l.add(Move{Kind: MoveForfeit, Actor: id})
	if !p.Consented {
		l.add(Move{Kind: MoveTerminate, Actor: id})
	}
	return l.moves
}

func (l *Lister) add(mv Move) { l.moves = append(l.moves, mv) }

// targets returns ids as a Targets slice in l.names.
func (l *Lister) targets(ids ...string) []string {
	from := len(l.names)
	l.names = append(l.names, ids...)
	return l.names[from:len(l.names):len(l.names)]
}

func (l *Lister) bettingMoves(m *Match, p *Participant) {
	b := &m.Betting
	if b.Raiser != "" || b.Final {
		if p.Chips >= b.Level-p.Bet {
			l.add(Move{Kind: MoveMatch, Actor: p.ID})
		}
		l.add(Move{Kind: MoveDecline, Actor: p.ID})
	} else {
		l.add(Move{Kind: MovePass, Actor: p.ID})
	}
	if !b.Final {
		for amt := b.Level + 1; amt <= p.Bet+p.Chips && amt <= b.Level+MaxListedRaises; amt++ {
			l.add(Move{Kind: MoveRaise, Actor: p.ID, Amount: amt})
		}
	}
}

// turnMoves lists p's moves on their turn with nothing pending: the cards
// they can play; if none, the cards they can add; if none, who may give
// them a card (X3, X4).
func (l *Lister) turnMoves(m *Match, rs *ruleset.Ruleset, p *Participant) {
	// The names are only read here, so they need not stay in l.names.
	start, from := len(l.moves), len(l.names)
	l.names = appendPlays(l.names, m, rs, p)
	for _, c := range l.names[from:] {
		l.add(Move{Kind: MovePlay, Actor: p.ID, Card: c})
	}
	l.names = l.names[:from]
	if len(l.moves) > start {
		return
	}
	l.in.fill(m)
	l.names = appendAvailable(l.names, &l.in, p, "")
	for _, c := range l.names[from:] {
		l.add(Move{Kind: MoveAdd, Actor: p.ID, Card: c})
	}
	l.names = l.names[:from]
	if len(l.moves) > start {
		return
	}
	l.giverMoves(m, p)
}

func (l *Lister) giverMoves(m *Match, p *Participant) {
	for i := range m.Participants {
		if o := &m.Participants[i]; o.Status == StatusActive && o.ID != p.ID && len(o.Hand) > 0 {
			l.add(Move{Kind: MoveGiver, Actor: p.ID, Target: o.ID})
		}
	}
}

// pendingMoves lists the answers to the pending choice owned by p, the
// participants in participant order.
func (l *Lister) pendingMoves(m *Match, p *Participant) {
	pd := m.Pending
	if pd == nil || pd.Owner != p.ID {
		return
	}
	ps := m.Participants
	switch pd.Kind {
	case ChoiceAce:
		for i := range ps {
			if t := &ps[i]; t.Status == StatusActive && t.ID != p.ID {
				l.add(Move{Kind: MoveTarget, Actor: p.ID, Targets: l.targets(t.ID)})
			}
		}
	case ChoiceQueen:
		for i := range ps {
			if t := &ps[i]; t.Status == StatusActive {
				for _, c := range t.Hand {
					l.add(Move{Kind: MoveTarget, Actor: p.ID, Targets: l.targets(t.ID), Card: c})
				}
			}
		}
	case ChoiceKing:
		for i := range ps {
			if ps[i].Status != StatusActive {
				continue
			}
			for j := i + 1; j < len(ps); j++ {
				if ps[j].Status == StatusActive {
					l.add(Move{Kind: MoveTarget, Actor: p.ID, Targets: l.targets(ps[i].ID, ps[j].ID)})
				}
			}
		}
	case ChoiceGiver:
		l.giverMoves(m, p)
	case ChoiceGive:
		for _, c := range p.Hand {
			l.add(Move{Kind: MoveGive, Actor: p.ID, Card: c})
		}
	}
}

// pendingMoves lists the answers to the pending choice owned by p, in
// buffers of their own.
func pendingMoves(m *Match, p *Participant) []Move {
	var l Lister
	l.pendingMoves(m, p)
	return l.moves
}
