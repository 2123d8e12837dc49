package nomic

import "slices"

// The Judicial Pool in slots (issue 22): its n members hold the slots
// 0..n-1, one each. Entering takes slot n; leaving frees a slot, which the
// member of the last slot moves into. So the pool changes by a bounded
// number of writes whatever its size, and a Judge is drawn without listing
// it: the draw is uniform over the slots of the members who may judge
// (DrawnSlot), which is U7's uniform draw over the eligible members.

// checkPool makes the slots consistent once per State: a game stored
// before slots (or a State built by hand) has members without them, who
// get the slots in joining order.
func (s *State) checkPool() {
	if s.poolChecked || s.Roster != nil { // a Roster's engine keeps its slots
		return
	}
	s.poolChecked = true
	var slots []int
	for _, p := range s.Players {
		if p.InPool {
			slots = append(slots, p.Slot)
		}
	}
	slices.Sort(slots)
	if len(slots) == s.PoolSize && slices.Equal(slots, slices.Collect(func(yield func(int) bool) {
		for i := range s.PoolSize {
			if !yield(i) {
				return
			}
		}
	})) {
		return
	}
	s.PoolSize = 0
	for i := range s.Players {
		if p := &s.Players[i]; p.InPool {
			p.Slot = s.PoolSize
			s.PoolSize++
		} else {
			p.Slot = 0
		}
	}
}

// joinPool gives p the pool's next slot.
func (s *State) joinPool(p *Player) {
	s.checkPool()
	if p.InPool {
		return
	}
	p.InPool, p.Slot = true, s.PoolSize
	s.PoolSize++
}

// leavePool takes p out of the pool: the member of the last slot moves
// into theirs.
func (s *State) leavePool(p *Player) {
	s.checkPool()
	if !p.InPool {
		return
	}
	last := s.PoolSize - 1
	if p.Slot != last {
		if m := s.PoolMember(last); m != nil {
			m.Slot = p.Slot
		}
	}
	p.InPool, p.Slot = false, 0
	s.PoolSize--
}

// PoolMember returns the member in slot, or nil: one the State holds who
// is in it now, or else the one the Roster stores there (unless the State
// has moved them since).
func (s *State) PoolMember(slot int) *Player {
	s.checkPool()
	if p := s.heldIn(slot); p != nil || s.Roster == nil {
		return p
	}
	if p := s.Player(s.Roster.PoolMember(slot)); p != nil && p.InPool && p.Slot == slot {
		return p
	}
	return nil
}

// DrawnSlot is the slot a Judge draw's value v picks: the v-th slot (from
// 0) of a pool of size slots that is not among the excluded ones
// (ascending, each a slot of the pool). Anyone holding the draw log can
// recompute it from the event's PoolSize, Excluded and Slot (RULINGS N2).
func DrawnSlot(v int, excluded []int) int {
	slot := v
	for _, e := range excluded {
		if e <= slot {
			slot++
		}
	}
	return slot
}
