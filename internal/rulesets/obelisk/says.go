package obelisk

import (
	"fmt"
	"strings"

	engine "croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
)

// How each command's answer reads (engine.Command.Says): the answers are
// data, and these make the one sentence every edge shows of them, with
// the names the edge knows (a player's id reads as their display name).

func saysTask(a engine.Answer) string {
	var v TaskDone
	a.Decode(&v)
	return a.Who(v.Player, "") + " — " + v.Summary() + "."
}

// saysStart is how gathering-start's answer reads: the task, and what the
// Gathering costs and when it fails.
func saysStart(a engine.Answer) string {
	var v TaskDone
	a.Decode(&v)
	s := saysTask(a)
	if g := v.Gathering; g != nil {
		s += fmt.Sprintf(" Cost %s; it fails at the end of the phase unless completed.", g.Ritual.Cost)
	}
	return s
}

func saysObserve(a engine.Answer) string {
	var v Observed
	a.Decode(&v)
	return observationText(v.Observation, a.Who(v.Player, ""))
}

// observationText says an observation: the roll, how far the Obelisk
// moved, a Grebe it summoned and the ⚡ every player gains.
func observationText(o rob.Observation, who string) string {
	s := fmt.Sprintf("%s observed the Obelisk: %s; it moved %d km closer (now %d km from the Gates)", who, o.Roll.String(), o.Moved, o.Distance)
	if o.Summon != nil {
		if o.Summon.CeasedToExist {
			s += fmt.Sprintf("; the roll was odd: Grebe %d was summoned and ceased to exist at once (5 already aid the Obelisk)", o.Summon.Number)
		} else {
			s += fmt.Sprintf("; the roll was odd: Grebe %d now aids the Obelisk", o.Summon.Number)
		}
	}
	return s + fmt.Sprintf("; every player gains %d⚡.", o.Resolve)
}

// saysMove is how a contribution (or a withdrawal) reads: what moved, and
// what the Gathering has of its cost now.
func saysMove(withdraw bool) func(engine.Answer) string {
	return func(a engine.Answer) string {
		var v Moved
		a.Decode(&v)
		verb := "contributed %s to"
		if withdraw {
			verb = "withdrew %s from"
		}
		s := fmt.Sprintf("%s "+verb+" the Gathering of %s: %s of %s contributed", a.Who(v.Player, ""), componentWord(v.Component, v.Amount),
			orWord(v.Ritual, "a ritual"), v.Contributed, v.Cost)
		if v.Covered {
			s += " (the cost is covered)"
		}
		return s + "."
	}
}

func saysComplete(a engine.Answer) string {
	var v Completed
	a.Decode(&v)
	var effects []string
	for _, e := range v.Effects {
		if e.Text != "" {
			effects = append(effects, e.Text)
		}
	}
	s := fmt.Sprintf("%s completed the Gathering of %s, spending %s", a.Who(v.Player, ""), orWord(v.RitualName, "a ritual"), v.Spent)
	if len(effects) > 0 {
		s += ": " + strings.Join(effects, "; ")
	}
	return s + "."
}

func saysCorrection(a engine.Answer) string {
	var v Corrected
	a.Decode(&v)
	admin, target := a.Who(v.Admin, ""), a.Who(v.Player, "")
	if v.Revoke {
		return fmt.Sprintf("%s revoked %s from %s%s; %s now holds %s.", admin, v.Components, target, engine.Because(v.Reason), target, v.Holding)
	}
	return fmt.Sprintf("%s granted %s %s%s; %s now holds %s.", admin, target, v.Components, engine.Because(v.Reason), target, v.Holding)
}

func saysBanishmentEnd(a engine.Answer) string {
	var v BanishmentEnded
	a.Decode(&v)
	return a.Who(v.Player, "") + " ended their banishment."
}
