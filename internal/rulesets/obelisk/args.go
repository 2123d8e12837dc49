package obelisk

import (
	"context"
	"fmt"
	"sync"

	engine "croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
)

// What the Obelisk's commands take, as every edge asks for it
// (engine.Arg): the tasks and the components as choices, the game's ritual
// types and open Gatherings as suggestions, read from its data.

// taskChoices are the tasks a player picks with task, named as the
// shipped data names them (Start a Gathering is gathering-start: it names
// a ritual type).
func taskChoices() []engine.Choice {
	var cs []engine.Choice
	for _, id := range ruleset.TaskIDs {
		if id != ruleset.TaskGathering {
			cs = append(cs, engine.Choice{Label: TaskName(id), Value: id})
		}
	}
	return cs
}

// TaskName is task id's name in the shipped data ("Blood Acquisition"),
// or the id.
func TaskName(id string) string {
	if rs := shipped(); rs != nil && rs.Obelisk != nil {
		if t, ok := rs.Obelisk.Tasks.Task(id); ok && t.Name != "" {
			return t.Name
		}
	}
	return id
}

// shipped is the Obelisk's shipped data, read once (nil if it cannot be).
var shipped = sync.OnceValue(func() *ruleset.Ruleset {
	rs, _ := ruleset.Load(ID)
	return rs
})

// componentChoices are the Ritual Components, by id, with their emoji.
func componentChoices() []engine.Choice {
	var cs []engine.Choice
	for _, c := range ruleset.ComponentList {
		cs = append(cs, engine.Choice{Label: c.Emoji + " " + c.Name, Value: c.ID})
	}
	return cs
}

// ritualTypes suggests the game's ritual types (its data, amendable), with
// what each costs.
var ritualTypes = engine.Suggest{Name: "ritual-types", List: func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	rs, err := s.Ruleset(ctx, q.Game)
	if err != nil || rs.Obelisk == nil {
		return nil, err
	}
	var cs []engine.Choice
	for _, rt := range rs.Obelisk.RitualTypes {
		cs = append(cs, engine.Choice{Label: fmt.Sprintf("%s (costs %s)", rt.Name, rt.Cost), Value: rt.ID})
	}
	return cs, nil
}}

// openGatherings suggests the game's open Gatherings by ritual and
// starter's name, with what is contributed of the cost; the value is the
// Gathering's id, which the commands take.
var openGatherings = engine.Suggest{Name: "open-gatherings", List: func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	gs, err := On(s).OpenGatherings(ctx, q.Game)
	if err != nil {
		return nil, err
	}
	var cs []engine.Choice
	for _, g := range gs {
		label := fmt.Sprintf("%s, started by %s (%s of %s contributed)", g.Ritual.Name, g.NameOf(g.Starter), g.Contributed, g.Ritual.Cost)
		cs = append(cs, engine.Choice{Label: engine.Clip(label, 100), Value: g.ID})
	}
	return cs, nil
}}

// The arguments the Gathering commands share.
var (
	argGathering = engine.Arg{Name: "gathering", Type: engine.FieldString, Required: true, Positional: true, Suggest: &openGatherings,
		Description: "The Gathering (type to pick an open one by ritual or starter)"}
	argComponent = engine.Arg{Name: "component", Type: engine.FieldString, Required: true, Positional: true, Choices: componentChoices(),
		Description: "Which component"}
)

// correctionArgs are the arguments of components-grant (or -revoke): the
// player, a count of each component, and the reason.
func correctionArgs(revoke bool) []engine.Arg {
	verb := "to grant"
	if revoke {
		verb = "to revoke"
	}
	args := []engine.Arg{{Name: "player", Type: engine.FieldPlayer, Required: true, Positional: true, Description: "The player"}}
	for _, c := range ruleset.ComponentList {
		args = append(args, engine.Arg{Name: c.ID, Type: engine.FieldInteger, Min: engine.Bound(0), Max: engine.Bound(rob.MaxCorrection),
			Description: c.Emoji + " " + c.Name + " " + verb})
	}
	return append(args, engine.Arg{Name: "reason", Type: engine.FieldString, Required: true, Description: "Why (shown in the log)"})
}

// NameOf is the display name of a player g names, or their id.
func (g GatheringView) NameOf(id string) string {
	if n := g.Names[id]; n != "" {
		return n
	}
	return id
}

// OpenGatherings are the game's Gatherings still open (not failing), the
// newest first.
func (s *Service) OpenGatherings(ctx context.Context, game string) ([]GatheringView, error) {
	gs, err := s.Gatherings(ctx, game)
	if err != nil {
		return nil, err
	}
	var open []GatheringView
	for _, g := range gs {
		if g.Status == rob.StatusOpen && !g.Failing {
			open = append(open, g)
		}
	}
	return open, nil
}
