package nomic

import (
	"fmt"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules"
)

// Join makes id (display name name) a player at now (U2): active, not in
// the Judicial Pool (U8: "When a player first becomes active, they are not
// in the Judicial Pool"). A returning player keeps the round's points they
// had: points are the round's score table, not possessions (RULINGS is
// silent; points change only by U5, U9 and the round's start).
func (s *State) Join(id, name string, now time.Time) (Event, error) {
	if strings.TrimSpace(id) == "" {
		return Event{}, rules.Refuse("invalid_id", "A player needs an id.")
	}
	if strings.TrimSpace(name) == "" {
		name = id
	}
	p := s.Player(id)
	switch {
	case p != nil && p.Member:
		return Event{}, rules.Refuse("already_a_player", "%s is already a player.", p.Name)
	case p == nil:
		p = s.add(id)
	}
	s.leavePool(p)
	p.Name, p.Member, p.Active, p.JoinedAt = name, true, true, now
	return Event{Kind: EvJoined, At: now, Player: id, Text: fmt.Sprintf("%s joins the game, active.", name)}, nil
}

// Leave ends id's membership at now: they are no longer active, leave the
// pool, and any case they are Judge of gets a new Judge (U2: only active
// players judge), drawn from src.
func (s *State) Leave(id string, now time.Time, src fair.Source) ([]Event, error) {
	p := s.Player(id)
	if p == nil || !p.Member {
		return nil, rules.Refuse("not_a_player", "%s is not a player.", s.Name(id))
	}
	evs := s.deactivate(p, now, src)
	p.Member = false
	return append(evs, Event{Kind: EvLeft, At: now, Player: id, Text: fmt.Sprintf("%s leaves the game.", p.Name)}), nil
}

// SetActive records that id declares themselves active or inactive at now
// (U2). Becoming inactive removes them from the Judicial Pool (U8) and,
// because only active players judge (U2), ends their appointment as Judge
// of any open case, which gets a new Judge drawn from src (RULINGS is
// silent on this; it is the reading that keeps every case judged by an
// active player). It does not cost points.
func (s *State) SetActive(id string, active bool, now time.Time, src fair.Source) ([]Event, error) {
	p := s.Player(id)
	if p == nil || !p.Member {
		return nil, rules.Refuse("not_a_player", "Only players can declare themselves active or inactive, and %s is not one.", s.Name(id))
	}
	if p.Active == active {
		state := map[bool]string{true: "active", false: "inactive"}[active]
		return nil, rules.Refuse("already_"+state, "%s is already %s.", p.Name, state)
	}
	if active {
		p.Active = true
		return []Event{{Kind: EvActive, At: now, Player: id, Text: fmt.Sprintf("%s is active again (not in the Judicial Pool until they enter it).", p.Name)}}, nil
	}
	evs := s.deactivate(p, now, src)
	return append(evs, Event{Kind: EvInactive, At: now, Player: id, Text: fmt.Sprintf("%s is now inactive.", p.Name)}), nil
}

func (s *State) deactivate(p *Player, now time.Time, src fair.Source) []Event {
	var evs []Event
	if p.InPool {
		s.leavePool(p)
		evs = append(evs, Event{Kind: EvPoolLeft, At: now, Player: p.ID, Reason: PoolInactive,
			Text: fmt.Sprintf("%s leaves the Judicial Pool: no longer active.", p.Name)})
	}
	p.Active = false
	for i := range s.Cases {
		c := &s.Cases[i]
		if a := c.current(); a != nil && a.Judge == p.ID {
			evs = append(evs, s.endAppointment(c, JudgeInactive, now)...)
			evs = append(evs, s.drawJudge(c, now, src)...)
		}
	}
	return evs
}

// EnterPool puts an active player into the Judicial Pool (U8: at any time).
func (s *State) EnterPool(id string, now time.Time) (Event, error) {
	if err := s.mustBePlaying(); err != nil {
		return Event{}, err
	}
	p, err := s.mustBeActive(id, "enter the Judicial Pool")
	if err != nil {
		return Event{}, err
	}
	if p.InPool {
		return Event{}, rules.Refuse("already_in_pool", "%s is already in the Judicial Pool.", p.Name)
	}
	s.joinPool(p)
	return Event{Kind: EvPoolEntered, At: now, Player: id, Text: fmt.Sprintf("%s enters the Judicial Pool.", p.Name)}, nil
}

// LeavePool takes a player out of the Judicial Pool at their request (U8).
func (s *State) LeavePool(id string, now time.Time) (Event, error) {
	if err := s.mustBePlaying(); err != nil {
		return Event{}, err
	}
	p := s.Player(id)
	if p == nil || !p.InPool {
		return Event{}, rules.Refuse("not_in_pool", "%s is not in the Judicial Pool.", s.Name(id))
	}
	s.leavePool(p)
	return Event{Kind: EvPoolLeft, At: now, Player: id, Reason: PoolLeftByChoice, Text: fmt.Sprintf("%s leaves the Judicial Pool.", p.Name)}, nil
}

// Pool returns the ids of the Judicial Pool's members, in slot order.
func (s *State) Pool() []string {
	out := make([]string, 0, s.PoolSize)
	for slot := range s.PoolSize {
		if p := s.PoolMember(slot); p != nil {
			out = append(out, p.ID)
		}
	}
	return out
}
