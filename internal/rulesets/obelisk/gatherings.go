package obelisk

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// GatheringMove is the payload of gathering-contribute and
// gathering-withdraw: the Gathering and one component (id or emoji).
type GatheringMove struct {
	Gathering string `json:"gathering"`
	Component string `json:"component"`
}

// Moved is the response of a contribution or a withdrawal: what moved,
// the Gathering's ritual and cost, and what the mover holds after it.
type Moved struct {
	rob.Moved
	Ritual  string             `json:"ritual"`
	Holding ruleset.Components `json:"holding"`
	Cost    ruleset.Components `json:"cost"`
}

func checkGatheringID(id string) error {
	if id == "" || len(id) > 64 || strings.ContainsAny(id, "# /\t\n") {
		return rules.Refuse("invalid_request", "%q is not a Gathering id.", id)
	}
	return nil
}

// Contribute revokes one component from the actor into the Gathering
// (RULINGS O9); Withdraw grants back what they contributed of it. Each is
// one commit over the player and the Gathering, so concurrent ones apply
// once each, in the order they commit.
func (s *Service) Contribute(ctx context.Context, req engine.Request, m GatheringMove) (*engine.Result, error) {
	return s.move(ctx, req, m, "gathering-contribute")
}

// Withdraw is the actor's withdrawal of a component from a Gathering.
func (s *Service) Withdraw(ctx context.Context, req engine.Request, m GatheringMove) (*engine.Result, error) {
	return s.move(ctx, req, m, "gathering-withdraw")
}

func (s *Service) move(ctx context.Context, req engine.Request, m GatheringMove, command string) (*engine.Result, error) {
	m.Gathering, m.Component = strings.TrimSpace(m.Gathering), strings.TrimSpace(m.Component)
	if err := checkGatheringID(m.Gathering); err != nil {
		return nil, err
	}
	c, ok := ruleset.Component(m.Component)
	if !ok {
		return nil, rules.Refuse("unknown_component", "%q is not a Ritual Component; they are %s.", m.Component, componentsWord()).
			With("components", ruleset.ComponentIDs())
	}
	m.Component = c.ID // the emoji and the id are one request
	return s.run(ctx, spec{
		Req: req, Command: command, Body: m,
		Keys: func(g string) []store.Key {
			// The Obelisk too: the player catches up with its grants.
			return []store.Key{engine.PlayerKey(g, req.Actor), gatheringKey(g, m.Gathering), obeliskKey(g)}
		},
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			g, err := t.gathering(m.Gathering)
			if err != nil {
				return nil, err
			}
			apply, typ := rob.Contribute, "gathering_contributed"
			if command == "gathering-withdraw" {
				apply, typ = rob.Withdraw, "gathering_withdrawn"
			}
			res, err := apply(g, &p.Player, m.Component, envOf(t.Tx))
			if err != nil {
				return nil, err
			}
			t.Save(p)
			if err := t.putGathering(g); err != nil {
				return nil, err
			}
			t.Emit(typ, p.ID, res)
			if err := t.Acted(p); err != nil {
				return nil, err
			}
			return Moved{Moved: res, Ritual: g.Ritual.Name, Holding: p.Components, Cost: g.Ritual.Cost}, nil
		},
	})
}

// GatheringRef is the payload of gathering-complete.
type GatheringRef struct {
	Gathering string `json:"gathering"`
}

// Completed is the response of gathering-complete: what the completion
// did, who completed it and the ritual's name.
type Completed struct {
	rob.Completed
	Player     string `json:"player"`
	RitualName string `json:"ritual_name"`
}

// Complete is the starter's completion of a Gathering (RULINGS O10): the
// cost covered and the prerequisites holding, its effects apply in the
// same commit and every contribution is spent. The Gathering's version
// is checked at commit, so a contribution or withdrawal that commits first
// makes it read again: it completes at most once, and only while covered.
func (s *Service) Complete(ctx context.Context, req engine.Request, r GatheringRef) (*engine.Result, error) {
	r.Gathering = strings.TrimSpace(r.Gathering)
	if err := checkGatheringID(r.Gathering); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: "gathering-complete", Body: r,
		Keys: func(g string) []store.Key {
			return []store.Key{engine.PlayerKey(g, req.Actor), gatheringKey(g, r.Gathering), obeliskKey(g)}
		},
		Apply: func(t *tx) (any, error) {
			by, err := t.actor()
			if err != nil {
				return nil, err
			}
			g, err := t.gathering(r.Gathering)
			if err != nil {
				return nil, err
			}
			o, err := t.obelisk()
			if err != nil {
				return nil, err
			}
			// Who the effects concern is read only once the rules would let
			// the starter complete it: a refusal reads nothing more. An
			// effect on every player is a game-level grant on the Obelisk
			// (rules/obelisk.Grants): no player record is read for it.
			if _, err := rob.Complete(clone(g), clone(o), clonePlayer(&by.Player), nil, envOf(t.Tx)); err != nil {
				return nil, err
			}
			roster, err := t.records(g.Players())
			if err != nil {
				return nil, err
			}
			res, err := rob.Complete(g, o, &by.Player, robPlayers(roster), envOf(t.Tx))
			if err != nil {
				return nil, err
			}
			touched := map[string]bool{}
			for _, d := range res.Changes {
				touched[d.Player] = true
			}
			for _, e := range res.Effects {
				for _, id := range e.Players {
					touched[id] = true
				}
			}
			for _, p := range roster {
				if touched[p.ID] {
					t.Save(p)
				}
			}
			t.touchObelisk()
			if err := t.putGathering(g); err != nil {
				return nil, err
			}
			t.Emit("gathering_completed", by.ID, res)
			for _, e := range res.Effects {
				for _, sm := range e.Summons {
					t.Emit("grebe_summoned", by.ID, sm)
				}
			}
			if err := t.Acted(by); err != nil {
				return nil, err
			}
			return Completed{Completed: res, Player: by.ID, RitualName: g.Ritual.Name}, nil
		},
	})
}

// clone copies v through JSON, so a dry run of the rules leaves it as read.
func clone[T any](v *T) *T {
	b, _ := json.Marshal(v)
	var out T
	_ = json.Unmarshal(b, &out)
	return &out
}

func clonePlayer(p *rob.Player) *rob.Player { return clone(p) }

// gatheringWork fails the open Gatherings whose phase has ended (RULINGS
// O10), as of that end (T4).
var gatheringWork = engine.DueWork{Kind: "gathering", Prefix: gatheringPrefix, Run: func(s *engine.Service, ctx context.Context, g, sk string) ([]string, error) {
	id := strings.TrimPrefix(sk, gatheringPrefix)
	failed, err := On(s).FailGathering(ctx, g, id)
	if err != nil || !failed {
		return nil, err
	}
	return []string{g + "/" + id}, nil
}}

// FailGathering fails the Gathering id if it is open and its phase has
// ended, as of that end: every contributor gets back what they contributed
// and was not refunded. It reports whether it did; a Gathering completed
// or already failed is left alone, so running it late or twice is safe.
func (s *Service) FailGathering(ctx context.Context, game, id string) (bool, error) {
	return s.RunScheduled(ctx, game, "gathering-fail", "gathering-fail:"+id, []store.Key{gatheringKey(game, id)}, func(et *engine.Tx) (any, error) {
		t := wrap(et)
		g, err := t.gathering(id)
		if err != nil {
			return nil, err
		}
		if g.Status != rob.StatusOpen || t.Now.Before(g.Ends) {
			return nil, engine.ErrNothingDue
		}
		t.AsOf(g.Ends)
		roster, err := t.records(g.Contributors())
		if err != nil {
			return nil, err
		}
		res, err := rob.Fail(g, robPlayers(roster), g.Ends)
		if err != nil {
			return nil, err
		}
		for _, p := range roster {
			if slices.ContainsFunc(res.Changes, func(d rob.Delta) bool { return d.Player == p.ID }) {
				t.Save(p)
			}
		}
		if err := t.putGathering(g); err != nil {
			return nil, err
		}
		t.Emit("gathering_failed", g.Starter, map[string]any{"gathering": g.ID, "ritual": g.Ritual.ID, "ritual_name": g.Ritual.Name,
			"changes": res.Changes, "destroyed": res.Destroyed, "ends": g.Ends})
		return res, nil
	})
}
