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

var obeliskCompletions = map[Completion]CompletionFunc{
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
	gathering := Option{Name: "gathering", Description: "The Gathering (its message's id, as its buttons say)", Required: true}
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
// button per component to contribute it, and one to complete it.
func gatheringReply(g *rob.Gathering, text string) *Reply {
	r := &Reply{Title: "Gathering of " + g.Ritual.Name, Text: text + fmt.Sprintf(" Cost %s; it fails at the end of the phase unless completed.", g.Ritual.Cost)}
	gatheringButtons(r, g.ID)
	return r
}

func gatheringButtons(r *Reply, id string) {
	for _, c := range ruleset.ComponentList {
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
	name := func(id string) string {
		if n := g.Names[id]; n != "" {
			return n
		}
		return id
	}
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
		gatheringButtons(r, g.ID)
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
		p.Title = "Banish " + v.Name + " for " + duration
	}
	v, r, err := submitted(ctx, s, inv, p)
	if err != nil {
		return nil, err
	}
	r.Text = banishmentStatus(v.Title, name, string(v.Status)) + " " + r.Text
	return r, nil
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
