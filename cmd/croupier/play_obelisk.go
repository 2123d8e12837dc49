package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// The play commands that read the Obelisk (seed 002): its views. Its
// commands (task, observe, gathering-start, gathering-contribute,
// gathering-withdraw, gathering-complete, components-grant,
// components-revoke, banishment-end) are catalogue commands: `croupier
// play NAME` runs them as their declarations say (play_catalogue.go:
// positional arguments, --NAME flags, help NAME) and prints the sentence
// their answer reads as.

func obeliskCommands() map[string]playCmd {
	return map[string]playCmd{
		"obelisk": {
			synopsis: "obelisk   (an obelisk game: its distance, Cuts, Grebes, observation, ritual types)", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					return show(p, obeliskText)(p.c.Obelisk(p.ctx, p.opts.game))
				}
			},
		},
		"gatherings": {
			synopsis: "gatherings   (an obelisk game's Gatherings, newest first)", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					return show(p, gatheringsText)(p.c.Gatherings(p.ctx, p.opts.game))
				}
			},
		},
	}
}

func obeliskText(v obelisk.ObeliskView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The Obelisk is %d km from the Gates, with %s; season %s.\n", v.Distance, plural(v.Cuts, "Cut", "Cuts"), v.Season)
	if len(v.Grebes) == 0 {
		b.WriteString("No Grebe exists.\n")
	}
	for _, g := range v.Grebes {
		if g.Aids == "" {
			fmt.Fprintf(&b, "Grebe %d aids the Obelisk.\n", g.Number)
		} else {
			fmt.Fprintf(&b, "Grebe %d aids %s.\n", g.Number, g.Aids)
		}
	}
	if v.Observed {
		fmt.Fprintf(&b, "Observed this week by %s; the next observation is possible from %s.\n", who(v.LastObservation.Player, v.LastObservation.PlayerName), stamp(v.NextObservation))
	} else {
		b.WriteString("Not observed this week: the first to observe it does (croupier play observe).\n")
	}
	if len(v.RitualTypes) == 0 {
		b.WriteString("No ritual types yet (an amendment or an adopted proposal adds them).")
	}
	for i, rt := range v.RitualTypes {
		if i == 0 {
			b.WriteString("Ritual types:")
		}
		fmt.Fprintf(&b, "\n  %s (%s): costs %s", rt.Name, rt.ID, rt.Cost)
	}
	return strings.TrimRight(b.String(), "\n")
}

func gatheringsText(gs []obelisk.GatheringView) string {
	if len(gs) == 0 {
		return "No Gatherings yet."
	}
	var b strings.Builder
	for _, g := range gs {
		status := g.Status
		if g.Failing {
			status = "failing (its phase has ended)"
		}
		fmt.Fprintf(&b, "Gathering %s of %s by %s, %s: cost %s", g.ID, g.Ritual.Name, who(g.Starter, g.Names[g.Starter]), status, g.Ritual.Cost)
		var spent, refunded []string
		for _, e := range g.Ledger {
			amount, name := componentsOf(e.Component, e.Amount), who(e.Player, g.Names[e.Player])
			switch e.Kind {
			case rob.EntrySpent:
				spent = append(spent, amount+" from "+name)
			case rob.EntryRefunded:
				refunded = append(refunded, amount+" to "+name)
			}
		}
		switch {
		case g.Status == rob.StatusOpen:
			fmt.Fprintf(&b, ", contributed %s", g.Contributed)
			if !g.Failing {
				fmt.Fprintf(&b, "; fails at %s unless completed", stamp(g.Ends))
			}
		case len(spent) > 0:
			b.WriteString("; spent " + strings.Join(spent, ", "))
		case len(refunded) > 0:
			b.WriteString("; refunded " + strings.Join(refunded, ", "))
		}
		b.WriteString(".\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// componentsOf says n of component id, e.g. "1⚡".
func componentsOf(id string, n int) string {
	var c ruleset.Components
	c.Add(id, n)
	return c.String()
}

// obeliskState is the Obelisk's part of a player's status, in words; ""
// when the view has none (another ruleset's player).
func obeliskState(v game.PlayerView) string {
	s, ok := obelisk.StateOf(v)
	if !ok {
		return ""
	}
	out := "Holds " + s.Components.String()
	var exp []string
	for task, n := range s.Experience {
		exp = append(exp, fmt.Sprintf("%s %d", task, n))
	}
	sort.Strings(exp)
	if len(exp) > 0 {
		out += "; experience " + strings.Join(exp, ", ")
	}
	if s.Banishment != nil {
		out += fmt.Sprintf("; banished since %s for %s", stamp(s.Banishment.Since), game.Duration(s.Banishment.Duration.Std()))
	}
	if s.Grebe != 0 {
		out += fmt.Sprintf("; aided by Grebe %d", s.Grebe)
	}
	return out
}
