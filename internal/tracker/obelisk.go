package tracker

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk's page (seed 002): the Obelisk's distance, Cuts and Grebes,
// the season and the week's observation, the ritual types, each player's
// components, experience and banishment, and every Gathering with its
// cost, contributions and outcome.

// obeliskPlayer is one row of the players' table.
type obeliskPlayer struct {
	ID, Name   string
	State      obelisk.State
	Experience string
}

type obeliskData struct {
	O          obelisk.ObeliskView
	Players    []obeliskPlayer
	Gatherings []obelisk.GatheringView
	Components []ruleset.ComponentInfo
}

func (h *Handler) obelisk(ctx context.Context, r *http.Request, l *layout) (content, error) {
	svc := obelisk.On(h.svc)
	o, err := svc.Obelisk(ctx, l.Game.ID)
	if err != nil {
		return nil, err
	}
	gs, err := svc.Gatherings(ctx, l.Game.ID)
	if err != nil {
		return nil, err
	}
	d := obeliskData{O: o, Gatherings: gs, Components: ruleset.ComponentList}
	for _, p := range l.members {
		row := obeliskPlayer{ID: p.ID, Name: p.Name, State: stateOf(p)}
		var exp []string
		for _, t := range ruleset.TaskIDs {
			if n := row.State.Experience[t]; n > 0 {
				exp = append(exp, t+" "+strconv.Itoa(n))
			}
		}
		row.Experience = strings.Join(exp, ", ")
		d.Players = append(d.Players, row)
	}
	order.Sort(d.Players, func(a, b obeliskPlayer) int { return strings.Compare(a.ID, b.ID) })
	l.Title, l.Section = "The Obelisk", "obelisk"
	return obeliskContent(l, d), nil
}

// stateOf is the Obelisk's part of a player's view.
func stateOf(p game.PlayerView) obelisk.State {
	s, _ := obelisk.StateOf(p)
	return s
}
