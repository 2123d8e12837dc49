// Package obelisk is the Obelisk ruleset (seed 002) as a module of the
// engine: Ritual Components held by each player, the seven tasks, the
// Obelisk with its Cuts and Grebes and the weekly observation, rituals
// (Gatherings tied to a chat message), banishment by proposal, and trades
// of components between reputable players, with the 000 governance
// (RULINGS R3, O1-O12). Its rules are the pure functions of
// internal/rules/obelisk; this package applies them inside the engine's
// transaction, every die a logged draw from the period's seed.
package obelisk

import (
	"context"

	engine "croupier/internal/game"
	"croupier/internal/institutions/trades"
	rob "croupier/internal/rules/obelisk"
)

// ID is the ruleset id of the Obelisk.
const ID = "obelisk"

// The module's institutions.
const (
	// InstObelisk is the Obelisk itself: components, tasks, the
	// observation, Grebes.
	InstObelisk = "obelisk"
	// InstRituals is rituals: Gatherings, contributions, completion,
	// failure at the phase end.
	InstRituals = "rituals"
	// InstBanishment is banishment: the proposal kind and its end.
	InstBanishment = "banishment"
)

// The module's views.
var (
	viewObelisk    = engine.View{Name: "obelisk", Institution: InstObelisk, What: "the Obelisk"}
	viewGatherings = engine.View{Name: "gatherings", Institution: InstRituals, What: "Gatherings"}
)

// Module returns the Obelisk as the engine runs it.
func Module() engine.Module {
	return engine.Module{ID: ID, Title: "Obelisk", Seasons: true,
		// Trades before the Obelisk: a departure withdraws its open trades,
		// then destroys what the leaver held.
		Components: []engine.Component{trades.Component(), Obelisk(), Rituals(), Banishment(), engine.Governance()},
		NewPlayer:  NewPlayer, PlayerView: playerView, Decoded: catchUp}
}

// Obelisk is the component of components, tasks and the Obelisk.
func Obelisk() engine.Component {
	return engine.Component{Name: InstObelisk, Views: []engine.View{viewObelisk},
		Commands: []engine.Command{
			{Name: "task", Institution: InstObelisk, Action: true, Draws: true, What: "tasks", Summary: "Perform a task (mining, herbalism, alchemy, heart, blood, befriend)",
				Help: "A task costs 1⚡ (the game's task cost) and its recipe; the answer says the roll, its N and modifiers, and what it gained. " +
					"Befriend a Grebe names the Grebe by its number. Start a Gathering is gathering-start.",
				Call: method((*Service).PerformTask), Says: saysTask,
				Args: []engine.Arg{
					{Name: "task", Type: engine.FieldString, Required: true, Positional: true, Choices: taskChoices(), Description: "Which task"},
					{Name: "grebe", Type: engine.FieldInteger, Positional: true, Min: engine.Bound(1), Description: "Befriend a Grebe: its number"},
				}},
			{Name: "observe", Institution: InstObelisk, Action: true, Draws: true, What: "observations of the Obelisk", Summary: "Observe the Obelisk (once a week, first come first served)", Call: engine.Bare(func(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
				return On(s).Observe(ctx, req)
			}), Says: saysObserve, Args: []engine.Arg{}},
			{Name: "components-grant", Institution: InstObelisk, Admin: true, What: "corrections of components", Summary: "Grant a player components, with the reason (admins)",
				Help: "An admin's correction (RULINGS G3), logged with its reason: give a count of each component to grant.",
				Call: method((*Service).GrantComponents), Says: saysCorrection, Chat: "components grant", Args: correctionArgs(false)},
			{Name: "components-revoke", Institution: InstObelisk, Admin: true, What: "corrections of components", Summary: "Revoke components a player holds, with the reason (admins)",
				Help: "An admin's correction (RULINGS G3), logged with its reason: all of the counts given are taken, or, if the player lacks any, none.",
				Call: method((*Service).RevokeComponents), Says: saysCorrection, Chat: "components revoke", Args: correctionArgs(true)},
		},
		OnJoin: func(t *engine.Tx, _, rec engine.PlayerRecord) error {
			p, _ := rec.(*Player)
			if p == nil {
				return nil
			}
			// A new stint is caught up to the grants made before it, none of
			// which is its own (rules/obelisk.Join); the check makes that so
			// at the commit too.
			g, err := grants(t)
			if err != nil {
				return err
			}
			checkGrants(t)
			changes := rob.Join(&p.Player, t.Rules, g) // 1⚡ on joining (RULINGS O1)
			// grants_seq: the grants after it are this stint's (docs/rules-obelisk.md).
			t.Emit("components_granted", p.ID, map[string]any{"changes": changes, "grants_seq": p.Grants.Seq})
			return nil
		},
		OnLeave: func(et *engine.Tx, r engine.PlayerRecord, res *engine.LeaveResult) error {
			p, err := asPlayer(r)
			if err != nil || p == nil {
				return err
			}
			// The record was caught up as it was read; the check makes it
			// so at the commit (checkGrants).
			checkGrants(et)
			t := wrap(et)
			o := &rob.Obelisk{}
			if p.Grebe != 0 {
				// Only a player aided by a Grebe changes the Obelisk.
				if o, err = t.obelisk(); err != nil {
					return err
				}
				t.touchObelisk()
			}
			held := p.Components
			changes := rob.Leave(&p.Player, o)
			t.Save(p)
			// grants_seq: the stint had the grants up to it (the record was
			// caught up as it was read; docs/rules-obelisk.md).
			t.Emit("components_destroyed", p.ID, map[string]any{"destroyed": held, "changes": changes, "grants_seq": p.Grants.Seq})
			if len(changes) > 0 {
				res.Lost = append(res.Lost, held.String())
			}
			return t.flushObelisk()
		},
		Events: obeliskEvents,
	}
}

// Rituals is the component of Gatherings.
func Rituals() engine.Component {
	return engine.Component{Name: InstRituals, Views: []engine.View{viewGatherings}, Due: []engine.DueWork{gatheringWork},
		Commands: []engine.Command{
			{Name: "gathering-start", Institution: InstRituals, Action: true, Draws: true, What: "Gatherings", Summary: "Start a Gathering of a ritual type (the task Start a Gathering)",
				Help: "Costs 1⚡ like any task. The Gathering fails at the end of the phase unless its starter completes it; in chat, its message's buttons contribute.",
				Call: method((*Service).StartGathering, engine.Creates), Says: saysStart, Chat: "gathering start",
				Args: []engine.Arg{
					{Name: "ritual_type", Type: engine.FieldString, Required: true, Positional: true, Suggest: &ritualTypes, Description: "The ritual type"},
					{Name: "message", Type: engine.FieldString, Description: "The chat message that starts it, whose reactions contribute (chat: the command's own reply)"},
					{Name: "player", Type: engine.FieldPlayer, Description: "The player the ritual names, if it names one"},
				}},
			{Name: "gathering-contribute", Institution: InstRituals, Action: true, What: "contributions to Gatherings", Summary: "Contribute one component to a Gathering",
				Call: method((*Service).Contribute), Says: saysMove(false), Chat: "gathering contribute", Args: []engine.Arg{argGathering, argComponent}},
			{Name: "gathering-withdraw", Institution: InstRituals, Action: true, What: "contributions to Gatherings", Summary: "Withdraw what you contributed of a component",
				Call: method((*Service).Withdraw), Says: saysMove(true), Chat: "gathering withdraw", Args: []engine.Arg{argGathering, argComponent}},
			{Name: "gathering-complete", Institution: InstRituals, Action: true, What: "Gatherings", Summary: "Complete your Gathering (its cost covered)",
				Call: method((*Service).Complete), Says: saysComplete, Chat: "gathering complete", Args: []engine.Arg{argGathering}},
			{Name: "gathering-fail", Institution: InstRituals, AfterEnd: true, Scheduled: true, What: "Gatherings"},
		},
		Events: ritualEvents,
	}
}

// Banishment is the component of banishment: the proposal kind (submitted
// as any proposal is, proposal-submit with kind "banishment") and its end.
func Banishment() engine.Component {
	return engine.Component{Name: InstBanishment, Proposals: []engine.ProposalKind{banishmentKind},
		Commands: []engine.Command{
			{Name: "banishment-end", Institution: InstBanishment, What: "banishments", Summary: "End your banishment once its duration has passed", Call: engine.Bare(func(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
				return On(s).EndBanishment(ctx, req)
			}), Says: saysBanishmentEnd, Chat: "banishment end", Args: []engine.Arg{}},
		},
		Events: banishmentEvents,
	}
}
