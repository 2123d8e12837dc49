package exoptosis

import (
	"slices"

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
func LegalMoves(m *Match, rs *ruleset.Ruleset, id string) []Move {
	p := m.part(id)
	if p == nil || p.Status != StatusActive || m.Phase == PhaseEnded {
		return nil
	}
	var out []Move
	if slices.Contains(Movers(m), id) {
		switch m.Phase {
		case PhaseSelection:
			if avail := m.available(p, ""); len(avail) >= handMin(rs) {
				out = append(out, Move{Kind: MoveSelect, Actor: id, Cards: avail})
			}
		case PhaseBetting:
			out = append(out, bettingMoves(m, p)...)
		case PhasePlay:
			if m.Pending != nil {
				out = append(out, pendingMoves(m, p)...)
			} else {
				out = append(out, turnMoves(m, rs, p)...)
			}
		}
	}
	out = append(out, Move{Kind: MoveForfeit, Actor: id})
	if !p.Consented {
		out = append(out, Move{Kind: MoveTerminate, Actor: id})
	}
	return out
}

func bettingMoves(m *Match, p *Participant) []Move {
	b := &m.Betting
	var out []Move
	if b.Raiser != "" || b.Final {
		if p.Chips >= b.Level-p.Bet {
			out = append(out, Move{Kind: MoveMatch, Actor: p.ID})
		}
		out = append(out, Move{Kind: MoveDecline, Actor: p.ID})
	} else {
		out = append(out, Move{Kind: MovePass, Actor: p.ID})
	}
	if !b.Final {
		for amt := b.Level + 1; amt <= p.Bet+p.Chips && amt <= b.Level+MaxListedRaises; amt++ {
			out = append(out, Move{Kind: MoveRaise, Actor: p.ID, Amount: amt})
		}
	}
	return out
}

func turnMoves(m *Match, rs *ruleset.Ruleset, p *Participant) []Move {
	var out []Move
	for _, c := range legalPlays(m, rs, p) {
		out = append(out, Move{Kind: MovePlay, Actor: p.ID, Card: c})
	}
	if len(out) > 0 {
		return out
	}
	for _, c := range m.available(p, "") {
		out = append(out, Move{Kind: MoveAdd, Actor: p.ID, Card: c})
	}
	if len(out) > 0 {
		return out
	}
	return giverMoves(m, p)
}

func giverMoves(m *Match, p *Participant) []Move {
	var out []Move
	for _, o := range m.Participants {
		if o.Status == StatusActive && o.ID != p.ID && len(o.Hand) > 0 {
			out = append(out, Move{Kind: MoveGiver, Actor: p.ID, Target: o.ID})
		}
	}
	return out
}

// pendingMoves lists the answers to the pending choice owned by p.
func pendingMoves(m *Match, p *Participant) []Move {
	pd := m.Pending
	if pd == nil || pd.Owner != p.ID {
		return nil
	}
	var out []Move
	active := m.activeIDs()
	switch pd.Kind {
	case ChoiceAce:
		for _, t := range active {
			if t != p.ID {
				out = append(out, Move{Kind: MoveTarget, Actor: p.ID, Targets: []string{t}})
			}
		}
	case ChoiceQueen:
		for _, t := range active {
			for _, c := range m.part(t).Hand {
				out = append(out, Move{Kind: MoveTarget, Actor: p.ID, Targets: []string{t}, Card: c})
			}
		}
	case ChoiceKing:
		for i, a := range active {
			for _, b := range active[i+1:] {
				out = append(out, Move{Kind: MoveTarget, Actor: p.ID, Targets: []string{a, b}})
			}
		}
	case ChoiceGiver:
		out = giverMoves(m, p)
	case ChoiceGive:
		for _, c := range p.Hand {
			out = append(out, Move{Kind: MoveGive, Actor: p.ID, Card: c})
		}
	}
	return out
}
