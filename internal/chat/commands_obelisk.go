package chat

import (
	"context"
	"fmt"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk (seed 002; RULINGS O1-O12): tasks with the task to choose,
// the weekly observation, Gatherings started with an autocomplete of the
// game's ritual types and answered with a button per component (the
// chat-native form of reacting with a component's emoji: pressing it
// contributes, as the presser), and the end of a banishment.

// CompleteRitualTypes: the game's ritual types (id, with name and cost).
const CompleteRitualTypes Completion = "ritual-types"

// CompleteOpenGatherings: the game's open Gatherings, by ritual type and
// starter's name (the value is the Gathering's id, which the commands take).
const CompleteOpenGatherings Completion = "open-gatherings"

var obeliskCompletions = map[Completion]CompletionFunc{
	CompleteOpenGatherings: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		gs, err := openGatherings(ctx, s, inv.Game)
		if err != nil {
			return nil, err
		}
		var cs []Choice
		for _, g := range gs {
			label := fmt.Sprintf("%s, started by %s (%s of %s contributed)", g.Ritual.Name, gatheringName(g, g.Starter), g.Contributed, g.Ritual.Cost)
			cs = append(cs, Choice{Label: clip(label, 100), Value: g.ID})
		}
		return filterChoices(cs, partial), nil
	},
	CompleteRitualTypes: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		rs, err := s.Ruleset(ctx, inv.Game)
		if err != nil || rs.Obelisk == nil {
			return nil, err
		}
		var cs []Choice
		for _, rt := range rs.Obelisk.RitualTypes {
			cs = append(cs, Choice{Label: fmt.Sprintf("%s (costs %s)", rt.Name, rt.Cost), Value: rt.ID})
		}
		return filterChoices(cs, partial), nil
	},
}

// taskChoices are the tasks a player picks (Start a Gathering is its own
// command: it names a ritual type).
func taskChoices() []Choice {
	var cs []Choice
	for _, id := range ruleset.TaskIDs {
		if id == ruleset.TaskGathering {
			continue
		}
		cs = append(cs, Choice{Label: taskNames[id], Value: id})
	}
	return cs
}

var taskNames = map[string]string{
	ruleset.TaskMining: "Mining", ruleset.TaskHerbalism: "Herbalism", ruleset.TaskAlchemy: "Alchemy",
	ruleset.TaskHeart: "Beating of the Infernal Heart", ruleset.TaskBlood: "Blood Acquisition", ruleset.TaskBefriend: "Befriend a Grebe",
}

func componentChoices() []Choice {
	var cs []Choice
	for _, c := range ruleset.ComponentList {
		cs = append(cs, Choice{Label: c.Emoji + " " + c.Name, Value: c.ID})
	}
	return cs
}

func obeliskCommands() []Command {
	gathering := Option{Name: "gathering", Description: "The Gathering (type to pick an open one by ritual or starter)", Required: true, Complete: CompleteOpenGatherings}
	component := Option{Name: "component", Description: "Which component", Required: true, Choices: componentChoices()}
	return []Command{
		{Name: "task", Runs: []string{"task"}, Description: "Perform a task (costs 1⚡)",
			Options: []Option{
				{Name: "task", Description: "Which task", Required: true, Choices: taskChoices()},
				{Name: "grebe", Description: "Befriend a Grebe: its number", Type: Integer, Min: intp(1)},
			},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				g, err := inv.Int("grebe")
				if err != nil {
					return nil, err
				}
				d, err := decoded[*obelisk.TaskDone](obelisk.On(s).PerformTask(ctx, req(inv), obelisk.Task{Task: inv.Opt("task"), Grebe: g}))
				if err != nil {
					return nil, err
				}
				return &Reply{Title: d.Name, Text: d.Text + ". You hold " + d.Holding.String() + "."}, nil
			}},
		{Name: "observe", Runs: []string{"observe"}, Description: "Observe the Obelisk (once a week, first come first served)",
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				o, err := decoded[*obelisk.Observed](obelisk.On(s).Observe(ctx, req(inv)))
				if err != nil {
					return nil, err
				}
				return &Reply{Title: "The Obelisk", Text: o.Text}, nil
			}},
		{Name: "gathering start", Runs: []string{"gathering-start"}, Description: "Start a Gathering of a ritual type (costs 1⚡)",
			Options: []Option{
				{Name: "ritual_type", Description: "The ritual type", Required: true, Complete: CompleteRitualTypes},
				{Name: "player", Description: "The player the ritual names, if it names one", Type: User},
			},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				// The reply is the Gathering's message: its id is the
				// interaction's, and its buttons contribute.
				d, err := decoded[*obelisk.TaskDone](obelisk.On(s).StartGathering(ctx, req(inv),
					obelisk.StartGathering{RitualType: inv.Opt("ritual_type"), Message: inv.Key, Named: inv.Opt("player")}))
				if err != nil {
					return nil, err
				}
				return gatheringReply(d.Gathering, d.Text+"."), nil
			}},
		{Name: "gathering contribute", Runs: []string{"gathering-contribute"}, Description: "Contribute one component to a Gathering",
			Options: []Option{gathering, component}, Handler: gatheringMove(false)},
		{Name: "gathering withdraw", Runs: []string{"gathering-withdraw"}, Description: "Withdraw what you contributed of a component",
			Options: []Option{gathering, component}, Handler: gatheringMove(true)},
		{Name: "gathering complete", Runs: []string{"gathering-complete"}, Description: "Complete your Gathering (its cost covered)",
			Options: []Option{gathering},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				c, err := decoded[*obelisk.Completed](obelisk.On(s).Complete(ctx, req(inv), obelisk.GatheringRef{Gathering: inv.Opt("gathering")}))
				if err != nil {
					return nil, err
				}
				return &Reply{Title: "Gathering completed", Text: c.Text, Shared: sharedGathering(ctx, s, inv, c.Gathering)}, nil
			}},
		{Name: "obelisk", Runs: []string{"obelisk"}, Private: true, Description: "The Obelisk: its distance, Cuts, Grebes, this week's observation, open Gatherings",
			Handler: obeliskView},
		{Name: "gatherings", Runs: []string{"gatherings"}, Private: true, Description: "The open Gatherings: ritual, starter, cost, what is contributed and missing",
			Handler: gatheringsView},
		correctionCommand(false),
		correctionCommand(true),
		// A banishment proposal is a governance proposal of the Obelisk's
		// kind; banishment-end stands for the Obelisk in Runs, so only
		// Obelisk games offer it (RULINGS R3).
		{Name: "banishment propose", Runs: []string{"proposal-submit", "banishment-end"}, Description: "Propose banishing a player for a duration",
			Options: []Option{
				{Name: "player", Description: "The player to banish", Type: User, Required: true},
				{Name: "duration", Description: "How long the banishment lasts, e.g. 72h", Required: true},
				{Name: "message", Required: true, Description: "The proposal message: its link (Copy Message Link) or its id in this channel"},
			},
			Handler: proposeBanishment},
		{Name: "banishment end", Runs: []string{"banishment-end"}, Description: "End your banishment once its duration has passed",
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				b, err := decoded[*obelisk.BanishmentEnded](obelisk.On(s).EndBanishment(ctx, req(inv)))
				if err != nil {
					return nil, err
				}
				return &Reply{Text: b.Text}, nil
			}},
	}
}

// gatheringReply is a Gathering's message as it starts: what it is and a
// button per component its cost names to contribute it, and one to
// complete it.
func gatheringReply(g *rob.Gathering, text string) *Reply {
	r := &Reply{Title: "Gathering of " + g.Ritual.Name, Text: text + fmt.Sprintf(" Cost %s; it fails at the end of the phase unless completed.", g.Ritual.Cost)}
	gatheringButtons(r, g.ID, g.Ritual.Cost)
	return r
}

// gatheringButtons are a contribute button for each component the cost
// names, in the seed's order, and Complete: a component the ritual does
// not need has no button (its contribution would only wait for a refund).
func gatheringButtons(r *Reply, id string, cost ruleset.Components) {
	for _, c := range ruleset.ComponentList {
		if cost.Get(c.ID) == 0 {
			continue
		}
		r.Buttons = append(r.Buttons, Button{Label: c.Emoji, Style: StyleSecondary,
			Action: Action{Command: "gathering contribute", Options: map[string]string{"gathering": id, "component": c.ID}}})
	}
	r.Buttons = append(r.Buttons, Button{Label: "Complete", Style: StyleSuccess,
		Action: Action{Command: "gathering complete", Options: map[string]string{"gathering": id}}})
}

// gatheringMessage is a Gathering's shared message as it stands: who
// started it, its cost, what each player has contributed (public, as
// reactions would be), and its buttons while it is open. It never holds
// anyone's holdings.
func gatheringMessage(g obelisk.GatheringView) *Reply {
	name := func(id string) string { return gatheringName(g, id) }
	text := fmt.Sprintf("%s started it. Cost %s", name(g.Starter), g.Ritual.Cost)
	var cs []string
	for _, c := range g.Contributions {
		emoji := c.Component
		if ci, ok := ruleset.Component(c.Component); ok {
			emoji = ci.Emoji
		}
		cs = append(cs, fmt.Sprintf("%d%s by %s", c.Amount, emoji, name(c.Player)))
	}
	if len(cs) == 0 {
		text += "; nothing contributed yet."
	} else {
		text += "; contributed: " + strings.Join(cs, ", ") + "."
	}
	switch {
	case g.Status == rob.StatusCompleted:
		text += " Completed."
	case g.Status == rob.StatusFailed || g.Failing:
		text += " It failed: the phase ended before it was completed."
	case g.Covered:
		text += fmt.Sprintf(" The cost is covered: %s may complete it.", name(g.Starter))
	default:
		text += " It fails at the end of the phase unless completed."
	}
	r := &Reply{Title: "Gathering of " + g.Ritual.Name, Text: text}
	if g.Status == rob.StatusOpen && !g.Failing {
		gatheringButtons(r, g.ID, g.Ritual.Cost)
	}
	return r
}

// sharedGathering is the Gathering's message after a press on it, nil
// when it cannot be read (the message then stays as it was).
func sharedGathering(ctx context.Context, s *game.Service, inv *Invocation, id string) *Reply {
	if inv.SharedMessage() == nil {
		return nil
	}
	g, err := obelisk.On(s).Gathering(ctx, inv.Game, id)
	if err != nil {
		return nil
	}
	return gatheringMessage(g)
}

// gatheringMove is the handler of a contribution (or a withdrawal): the
// mover's answer says what they now hold (theirs alone to see, when the
// press was on the Gathering's message).
func gatheringMove(withdraw bool) Handler {
	return func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		run := obelisk.On(s).Contribute
		if withdraw {
			run = obelisk.On(s).Withdraw
		}
		m, err := decoded[*obelisk.Moved](run(ctx, req(inv), obelisk.GatheringMove{Gathering: inv.Opt("gathering"), Component: inv.Opt("component")}))
		if err != nil {
			return nil, err
		}
		r := &Reply{Text: m.Text + " You hold " + m.Holding.String() + ".", Shared: sharedGathering(ctx, s, inv, m.Gathering)}
		if !withdraw {
			// Pressed on the private answer, it still brings the
			// Gathering's message up to date (OnOption).
			r.Buttons = []Button{{Label: "Withdraw it", Style: StyleSecondary,
				Action: naming(inv, Action{Command: "gathering withdraw", Options: map[string]string{"gathering": m.Gathering, "component": m.Component}})}}
		}
		return r, nil
	}
}

// proposeBanishment submits a banishment proposal (RULINGS O11): adopted,
// it banishes the player for the duration from the end of its vote.
func proposeBanishment(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	id, err := s.RulesetOf(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	if !s.Registry.HasCommand(id, "banishment-end") {
		return nil, s.Registry.NotInRuleset(inv.Game, id, "banishment propose", "banishment proposals")
	}
	m, err := messageOption(inv, "message")
	if err != nil {
		return nil, err
	}
	player, duration := inv.Opt("player"), inv.Opt("duration")
	p := obelisk.BanishmentProposal(m, player, duration)
	name := player
	if v, err := s.Player(ctx, inv.Game, player); err == nil && v.Name != "" {
		name = v.Name
		p.Title = obelisk.BanishmentTitle(v.Name, duration)
	}
	v, r, err := submitted(ctx, s, inv, p)
	if err != nil {
		return nil, err
	}
	r.Text = banishmentStatus(v.Title, name, string(v.Status)) + " " + r.Text
	return r, nil
}

// gatheringName is the display name of a player a Gathering names, or
// their id (a mention, where the platform renders one).
func gatheringName(g obelisk.GatheringView, id string) string {
	if n := g.Names[id]; n != "" {
		return n
	}
	return id
}

// openGatherings are the game's Gatherings still open (not failing), the
// newest first.
func openGatherings(ctx context.Context, s *game.Service, game string) ([]obelisk.GatheringView, error) {
	gs, err := obelisk.On(s).Gatherings(ctx, game)
	if err != nil {
		return nil, err
	}
	var open []obelisk.GatheringView
	for _, g := range gs {
		if g.Status == rob.StatusOpen && !g.Failing {
			open = append(open, g)
		}
	}
	return open, nil
}

// gatheringLine says one open Gathering: its ritual, starter, cost, what
// each player contributed, what is missing, and when it fails.
func gatheringLine(g obelisk.GatheringView) string {
	name := func(id string) string { return gatheringName(g, id) }
	text := fmt.Sprintf("%s, started by %s, costs %s", g.Ritual.Name, name(g.Starter), g.Ritual.Cost)
	if g.Named != "" {
		text += fmt.Sprintf(" and names %s", name(g.Named))
	}
	var cs []string
	for _, c := range g.Contributions {
		cs = append(cs, fmt.Sprintf("%s by %s", componentsOf(c.Component, c.Amount), name(c.Player)))
	}
	if len(cs) == 0 {
		text += "; nothing is contributed yet"
	} else {
		text += "; contributed: " + strings.Join(cs, ", ")
	}
	if missing := g.Contributed.Short(g.Ritual.Cost); missing.IsZero() {
		text += fmt.Sprintf("; the cost is covered, so %s may complete it", name(g.Starter))
	} else {
		text += "; missing: " + missing.String()
	}
	return text + fmt.Sprintf(". It fails at %s unless completed.", g.Ends.UTC().Format("Mon 2 Jan 15:04 MST"))
}

// componentsOf says n of component id, e.g. "1⚡".
func componentsOf(id string, n int) string {
	var c ruleset.Components
	if _, ok := ruleset.Component(id); ok {
		c.Add(id, n)
	}
	return c.String()
}

// gatheringsView is /gatherings: every open Gathering in a sentence.
func gatheringsView(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	gs, err := openGatherings(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	return listReply("Open Gatherings", "No Gathering is open: /gathering start begins one.", gs, gatheringLine), nil
}

// obeliskView is /obelisk: what the Obelisk's view holds (distance, Cuts,
// Grebes and whom they aid, the season, this week's observation, the
// ritual types) and the open Gatherings, in sentences with names.
func obeliskView(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	v, err := obelisk.On(s).Obelisk(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	name := func(id string) string {
		if p, err := s.Player(ctx, inv.Game, id); err == nil && p.Name != "" {
			return p.Name
		}
		return id
	}
	var ls []string
	ls = append(ls, fmt.Sprintf("The Obelisk stands %s from the Gates, with %s; the season is %s.", plural(v.Distance, "km", "km"), plural(v.Cuts, "Cut", "Cuts"), v.Season))
	switch {
	case len(v.Grebes) == 0:
		ls = append(ls, "No Grebe exists.")
	default:
		var aiding []string
		for _, g := range v.Grebes {
			if g.Aids == "" {
				aiding = append(aiding, fmt.Sprintf("Grebe %d aids the Obelisk", g.Number))
			} else {
				aiding = append(aiding, fmt.Sprintf("Grebe %d aids %s", g.Number, name(g.Aids)))
			}
		}
		ls = append(ls, strings.Join(aiding, "; ")+".")
	}
	if v.Observed && v.LastObservation != nil {
		who := v.LastObservation.PlayerName
		if who == "" {
			who = name(v.LastObservation.Player)
		}
		ls = append(ls, fmt.Sprintf("%s observed it this week; the next observation is possible from %s.", who, v.NextObservation.UTC().Format("Mon 2 Jan 15:04 MST")))
	} else {
		ls = append(ls, "Nobody has observed it this week: the first to /observe does.")
	}
	if len(v.RitualTypes) == 0 {
		ls = append(ls, "There are no ritual types yet (an amendment or an adopted proposal adds them).")
	} else {
		var rts []string
		for _, rt := range v.RitualTypes {
			rts = append(rts, fmt.Sprintf("%s (costs %s)", rt.Name, rt.Cost))
		}
		ls = append(ls, "Ritual types: "+strings.Join(rts, ", ")+".")
	}
	gs, err := openGatherings(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		ls = append(ls, "No Gathering is open.")
	}
	for _, g := range gs {
		ls = append(ls, "Open Gathering: "+gatheringLine(g))
	}
	return &Reply{Title: "The Obelisk", Text: lines(ls), Ephemeral: true}, nil
}

// correctionCommand is /components grant (or revoke): an admin's
// correction of a player's components (RULINGS G3), an amount option per
// component of the list and the reason.
func correctionCommand(revoke bool) Command {
	name, runs, desc, verb := "components grant", "components-grant", "Grant a player components, with the reason (admins)", "to grant"
	if revoke {
		name, runs, desc, verb = "components revoke", "components-revoke", "Revoke components a player holds, with the reason (admins)", "to revoke"
	}
	opts := []Option{{Name: "player", Description: "The player", Type: User, Required: true}}
	for _, c := range ruleset.ComponentList {
		opts = append(opts, Option{Name: c.ID, Description: c.Emoji + " " + c.Name + " " + verb, Type: Integer, Min: intp(0), Max: intp(rob.MaxCorrection)})
	}
	opts = append(opts, Option{Name: "reason", Description: "Why (shown in the log)", Required: true})
	return Command{Name: name, Runs: []string{runs}, Admin: true, Description: desc, Options: opts,
		Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
			c := obelisk.Correction{Player: inv.Opt("player"), Reason: inv.Opt("reason"), Components: map[string]int{}}
			var ids []string
			for _, ci := range ruleset.ComponentList {
				ids = append(ids, ci.ID)
				n, err := inv.Int(ci.ID)
				if err != nil {
					return nil, err
				}
				if n > 0 {
					c.Components[ci.ID] = n
				}
			}
			if len(c.Components) == 0 {
				return nil, refusef("invalid_option", "/%s needs a count of at least one component (%s), e.g. crystals:2.", name, strings.Join(ids, ", "))
			}
			run := obelisk.On(s).GrantComponents
			if revoke {
				run = obelisk.On(s).RevokeComponents
			}
			d, err := decoded[*obelisk.Corrected](run(ctx, req(inv), c))
			if err != nil {
				return nil, err
			}
			return &Reply{Title: "Components corrected", Text: d.Text}, nil
		}}
}

// banishmentStatus says a banishment proposal's status as it is: open
// while its vote runs (what adoption would do), adopted once it is.
func banishmentStatus(title, name, status string) string {
	switch governance.Status(status) {
	case governance.StatusOpen:
		return fmt.Sprintf("%s: open. If it is adopted, %s is banished from the end of its vote.", title, name)
	case governance.StatusAdopted:
		return fmt.Sprintf("%s: adopted; %s is banished from the end of its vote.", title, name)
	}
	return fmt.Sprintf("%s: %s.", title, status)
}
