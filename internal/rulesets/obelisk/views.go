package obelisk

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/rules/calendar"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// ObeliskView is the Obelisk as the tracker and the API show it.
type ObeliskView struct {
	rob.Obelisk
	// Aiding are the numbers of the Grebes aiding the Obelisk.
	Aiding []int  `json:"aiding"`
	Season string `json:"season"`
	// Observed: this week's observation is made; NextObservation is when
	// the next one is possible (now, if not observed).
	Observed        bool      `json:"observed"`
	NextObservation time.Time `json:"next_observation"`
	// RitualTypes are the game's ritual types (ruleset data, O8).
	RitualTypes []ruleset.RitualType `json:"ritual_types"`
}

// Obelisk returns the game's Obelisk.
func (s *Service) Obelisk(ctx context.Context, game string) (ObeliskView, error) {
	et, err := s.ViewIn(ctx, viewObelisk, game, obeliskKey(game))
	if err != nil {
		return ObeliskView{}, err
	}
	t := wrap(et)
	o, err := t.obelisk()
	if err != nil {
		return ObeliskView{}, err
	}
	v := ObeliskView{Obelisk: *o, Aiding: o.AidingObelisk(), Season: t.Meta.Season, RitualTypes: t.Rules.Obelisk.RitualTypes}
	if v.Aiding == nil {
		v.Aiding = []int{}
	}
	if v.RitualTypes == nil {
		v.RitualTypes = []ruleset.RitualType{}
	}
	week := calendar.WeekAt(t.Now)
	v.NextObservation = t.Now
	if last := o.LastObservation; last != nil && last.Week == week.String() {
		v.Observed, v.NextObservation = true, week.End()
	}
	return v, nil
}

// GatheringView is a Gathering as shown, its state as of now: an open one
// past its phase end is failing (the scheduler refunds it, as of that end).
type GatheringView struct {
	rob.Gathering
	Contributed ruleset.Components `json:"contributed"`
	Covered     bool               `json:"covered"`
	Failing     bool               `json:"failing,omitempty"`
	// Names are the display names of the players it names (starter,
	// named player, contributors), by id.
	Names map[string]string `json:"names,omitempty"`
}

func gatheringView(g rob.Gathering, now time.Time) GatheringView {
	return GatheringView{Gathering: g, Contributed: g.Contributed(), Covered: g.Covered(),
		Failing: g.Status == rob.StatusOpen && !now.Before(g.Ends)}
}

// Gatherings lists the game's Gatherings, the newest first.
func (s *Service) Gatherings(ctx context.Context, game string) ([]GatheringView, error) {
	t, err := s.ViewIn(ctx, viewGatherings, game)
	if err != nil {
		return nil, err
	}
	out := []GatheringView{}
	err = s.Scan(ctx, store.Query{PK: engine.GamePK(game), Prefix: gatheringPrefix}, func(it store.Item) error {
		var g rob.Gathering
		if err := json.Unmarshal(it.Data, &g); err != nil {
			return fmt.Errorf("decoding %s: %w", it.Key, err)
		}
		out = append(out, gatheringView(g, t.Now))
		return nil
	})
	if err != nil {
		return nil, err
	}
	order.Stable(out, func(a, b GatheringView) int { return b.StartedAt.Compare(a.StartedAt) })
	return out, s.name(ctx, game, out)
}

// name fills in the display names of the players the Gatherings name, read
// in one request.
func (s *Service) name(ctx context.Context, game string, gs []GatheringView) error {
	var keys []store.Key
	seen := map[string]bool{}
	for _, g := range gs {
		ids := []string{g.Starter, g.Named}
		for _, e := range g.Ledger {
			ids = append(ids, e.Player)
		}
		for _, id := range ids {
			if id != "" && !seen[id] {
				seen[id] = true
				keys = append(keys, engine.PlayerKey(game, id))
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	items, err := s.Store().GetMany(ctx, keys)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, it := range items {
		var p engine.Player
		if it.Exists() && json.Unmarshal(it.Data, &p) == nil && p.Name != "" {
			names[p.ID] = p.Name
		}
	}
	for i := range gs {
		gs[i].Names = names
	}
	return nil
}

// Gathering returns one Gathering.
func (s *Service) Gathering(ctx context.Context, game, id string) (GatheringView, error) {
	if err := checkGatheringID(id); err != nil {
		return GatheringView{}, err
	}
	et, err := s.ViewIn(ctx, viewGatherings, game, gatheringKey(game, id))
	if err != nil {
		return GatheringView{}, err
	}
	g, err := wrap(et).gathering(id)
	if err != nil {
		return GatheringView{}, err
	}
	out := []GatheringView{gatheringView(*g, et.Now)}
	return out[0], s.name(ctx, game, out)
}
