package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk (seed 002; RULINGS O1-O12). Its commands are declared in
// its module's catalogue (task, observe, gathering contribute, withdraw
// and complete, components grant and revoke, banishment end) and offered
// from their declarations (catalogue.go). What a declaration cannot say
// is here: /gathering start, whose Gathering is named by the reply's own
// message (a command made from its declaration); the presenters (a
// reply's title, what the caller holds, a Gathering's buttons, the
// chat-native form of reacting with a component's emoji, and the shared
// message a press brings up to date); the views /obelisk and /gatherings;
// and a banishment proposal, a governance proposal of the Obelisk's kind.

func obeliskCommands() []Command {
	return []Command{
		gatheringStart(),
		// banishment propose's Runs name banishment-end, so the catalogue
		// does not offer it as itself: the table does, as declared.
		declaredIn(obelisk.Banishment(), "banishment-end"),
		{Name: "obelisk", Runs: []string{"obelisk"}, Private: true, Past: true, Description: "The Obelisk: its distance, Cuts, Grebes, this week's observation, open Gatherings",
			Handler: obeliskView},
		{Name: "gatherings", Runs: []string{"gatherings"}, Private: true, Past: true, Description: "The open Gatherings: ritual, starter, cost, what is contributed and missing",
			Handler: gatheringsView},
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
	}
}

// gatheringStart is /gathering start as gathering-start's declaration
// says it, but for its message: the reply is the Gathering's message, so
// the Gathering is named by the interaction, whose id that message takes,
// and reactions and buttons on it contribute.
func gatheringStart() Command {
	cmd := declaredIn(obelisk.Rituals(), "gathering-start")
	cmd.Options = slices.DeleteFunc(cmd.Options, func(o Option) bool { return o.Name == "message" })
	run := cmd.Handler
	cmd.Handler = func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		inv.Options["message"] = inv.Key
		return run(ctx, s, inv)
	}
	return cmd
}

// declaredIn is the chat command of component c's command name, as its
// declaration says it (catalogueCommand).
func declaredIn(c game.Component, name string) Command {
	i := slices.IndexFunc(c.Commands, func(cmd game.Command) bool { return cmd.Name == name })
	return catalogueCommand(c.Commands[i])
}

// obeliskPresenters add to the Obelisk's answers what their sentence does
// not say.
var obeliskPresenters = map[string]Presenter{
	"task": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if d, err := decoded[*obelisk.TaskDone](res, nil); err == nil {
			r.Title, r.Text = d.Name, r.Text+" You hold "+d.Holding.String()+"."
		}
	},
	"observe": func(_ context.Context, _ *game.Service, _ *Invocation, _ *game.Result, r *Reply) {
		r.Title = "The Obelisk"
	},
	// The reply is the Gathering's message as it starts: what it is, a
	// button per component its cost names to contribute it, and one to
	// complete it.
	"gathering-start": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		d, err := decoded[*obelisk.TaskDone](res, nil)
		if err != nil || d.Gathering == nil {
			return
		}
		g := d.Gathering
		r.Title = "Gathering of " + g.Ritual.Name
		gatheringButtons(r, g.ID, g.Ritual.Cost)
	},
	"gathering-contribute": gatheringMoved(false),
	"gathering-withdraw":   gatheringMoved(true),
	"gathering-complete": func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply) {
		r.Title = "Gathering completed"
		if c, err := decoded[*obelisk.Completed](res, nil); err == nil {
			r.Shared = sharedGathering(ctx, s, inv, c.Gathering)
		}
	},
	"components-grant":  correctionTitle,
	"components-revoke": correctionTitle,
}

func correctionTitle(_ context.Context, _ *game.Service, _ *Invocation, _ *game.Result, r *Reply) {
	r.Title = "Components corrected"
}

// gatheringMoved presents a contribution (or a withdrawal): the mover's
// answer says what they now hold (theirs alone to see, when the press was
// on the Gathering's message), and the message is brought up to date.
func gatheringMoved(withdraw bool) Presenter {
	return func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply) {
		m, err := decoded[*obelisk.Moved](res, nil)
		if err != nil {
			return
		}
		r.Text += " You hold " + m.Holding.String() + "."
		r.Shared = sharedGathering(ctx, s, inv, m.Gathering)
		if !withdraw {
			// Pressed on the private answer, it still brings the
			// Gathering's message up to date (OnOption).
			r.Buttons = []Button{{Label: "Withdraw it", Style: StyleSecondary,
				Action: naming(inv, Action{Command: "gathering withdraw", Options: map[string]string{"gathering": m.Gathering, "component": m.Component}})}}
		}
	}
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
	name := g.NameOf
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

// gatheringLine says one open Gathering: its ritual, starter, cost, what
// each player contributed, what is missing, and when it fails.
func gatheringLine(g obelisk.GatheringView) string {
	name := g.NameOf
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
	gs, err := obelisk.On(s).OpenGatherings(ctx, inv.Game)
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
	gs, err := obelisk.On(s).OpenGatherings(ctx, inv.Game)
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
