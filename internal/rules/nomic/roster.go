package nomic

import (
	"cmp"
	"croupier/internal/order"
)

// Roster is where a State finds the players it does not hold in Players:
// an engine that stores each player in an item of its own (issue 22: no
// per-player list in one item) reads one when a rule first looks them up,
// and the pool's slots from items of their own. Without a Roster, Players
// is every player (the default, as the pure rules' tests hold them).
//
// A State with a Roster runs the commands that touch players by id (join,
// leave, activity, the pool, proposals, votes, Requests for Judgment,
// recusals, rulings, appeals, and the pool's removals, which walk the
// slots); what reads every player (StartRound's points, a data change's
// reachedWin) sees only those in Players: the engine does those its own
// way (internal/rulesets/turns: points of an earlier round read as 0, a
// win pass over every player item).
type Roster interface {
	// Player returns the player with id, or nil if they never joined.
	Player(id string) *Player
	// PoolMember returns the id of the pool member stored in slot ("" if
	// none).
	PoolMember(slot int) string
}

// lookup returns the player with id that the Roster holds, once per State.
func (s *State) lookup(id string) *Player {
	if s.Roster == nil {
		return nil
	}
	if p, ok := s.held[id]; ok {
		return p
	}
	if s.held == nil {
		s.held = map[string]*Player{}
	}
	p := s.Roster.Player(id)
	if p != nil {
		c := *p // the State's own copy: Held is what changed
		p = &c
	}
	s.held[id] = p
	return p
}

// add makes id a player the State holds (Join).
func (s *State) add(id string) *Player {
	if s.Roster == nil {
		s.Players = append(s.Players, Player{ID: id})
		return &s.Players[len(s.Players)-1]
	}
	if s.held == nil {
		s.held = map[string]*Player{}
	}
	p := &Player{ID: id}
	s.held[id] = p
	return p
}

// Held returns the players the State read from its Roster or added, by
// id: what an engine writes back (those whose JSON changed).
func (s *State) Held() []*Player {
	var out []*Player
	for _, p := range s.held {
		if p != nil {
			out = append(out, p)
		}
	}
	order.Sort(out, func(a, b *Player) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// heldIn returns the held or listed player who is in slot now.
func (s *State) heldIn(slot int) *Player {
	for i := range s.Players {
		if p := &s.Players[i]; p.InPool && p.Slot == slot {
			return p
		}
	}
	for _, p := range s.held {
		if p != nil && p.InPool && p.Slot == slot {
			return p
		}
	}
	return nil
}
