package chat

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// A player view's holdings are the game's ruleset module's (the engine
// knows none): each function here reads them back with the module's own
// decoder and says them as that ruleset's players know them, so a turns
// player reads points, an Obelisk player components, and only a Gilded Hall
// player Vertebrae, Chips and cards.

// holdingFields are the status card's fields of p's holdings.
func holdingFields(p game.PlayerView) []Field {
	if h, ok := gildedhall.HoldingsOf(p); ok {
		fs := []Field{
			{Name: "Vertebrae", Value: fmt.Sprint(h.Inventory.Vertebrae), Inline: true},
			{Name: "Chips", Value: fmt.Sprint(h.Inventory.Chips), Inline: true},
			{Name: "Deck", Value: plural(h.DeckSize, "card", "cards"), Inline: true},
			{Name: "Packs", Value: plural(len(h.Inventory.Packs), "pack", "packs"), Inline: true},
			{Name: "Active", Value: yesNo(p.Active), Inline: true},
			{Name: "Reputable", Value: yesNo(p.Reputable), Inline: true},
			{Name: "Can gift this period", Value: yesNo(h.CanGift), Inline: true},
		}
		if h.Battle != "" {
			fs = append(fs, Field{Name: "Battle", Value: "Engaged in " + h.Battle + " (it starts when this phase ends)", Inline: true})
		}
		return fs
	}
	if s, ok := obelisk.StateOf(p); ok {
		fs := []Field{
			{Name: "Holds", Value: s.Components.String(), Inline: true},
			{Name: "Experience", Value: orNoneText(experienceText(s.Experience)), Inline: true},
			{Name: "Active", Value: yesNo(p.Active), Inline: true},
			{Name: "Reputable", Value: yesNo(p.Reputable), Inline: true},
		}
		if b := s.Banishment; b != nil {
			fs = append(fs, Field{Name: "Banished", Value: fmt.Sprintf("Since %s, for %s", b.Since.UTC().Format(time.RFC1123), game.Duration(b.Duration.Std())), Inline: true})
		}
		if s.Grebe != 0 {
			fs = append(fs, Field{Name: "Grebe", Value: fmt.Sprintf("Aided by Grebe %d", s.Grebe), Inline: true})
		}
		return fs
	}
	if s, ok := turns.StandingOf(p); ok {
		return []Field{
			{Name: "Points", Value: fmt.Sprint(s.Points), Inline: true},
			{Name: "Active", Value: yesNo(p.Active), Inline: true},
			{Name: "Judicial Pool", Value: inOut(s.InPool), Inline: true},
			{Name: "Judging", Value: orNoneText(casesText(s.Judging)), Inline: true},
		}
	}
	return []Field{{Name: "Active", Value: yesNo(p.Active), Inline: true}}
}

// holdingLine is p's holdings in a players list, every column of the
// status card that says what they hold or are, short enough that a page of
// players fits one reply: "5 Vertebrae, 2 Chips, 7 cards, 1 pack" (packs
// when they hold some), "holds 9⚡ 1🌿; experience Mining 2", "12 points, in
// the Judicial Pool, judging case 5301", and "inactive" when they are.
func holdingLine(p game.PlayerView) string {
	var ws []string
	if h, ok := gildedhall.HoldingsOf(p); ok {
		w := fmt.Sprintf("%s, %s, %s", plural(h.Inventory.Vertebrae, "Vertebra", "Vertebrae"),
			plural(h.Inventory.Chips, "Chip", "Chips"), plural(h.DeckSize, "card", "cards"))
		if n := len(h.Inventory.Packs); n > 0 {
			w += ", " + plural(n, "pack", "packs")
		}
		ws = append(ws, w)
		if h.Battle != "" {
			ws = append(ws, "engaged in battle "+h.Battle)
		}
	} else if s, ok := obelisk.StateOf(p); ok {
		ws = append(ws, "holds "+s.Components.String())
		if e := experienceText(s.Experience); e != "" {
			ws = append(ws, "experience "+e)
		}
		if s.Banishment != nil {
			ws = append(ws, "banished")
		}
		if s.Grebe != 0 {
			ws = append(ws, fmt.Sprintf("aided by Grebe %d", s.Grebe))
		}
	} else if s, ok := turns.StandingOf(p); ok {
		w := plural(s.Points, "point", "points")
		if s.InPool {
			w += ", in the Judicial Pool"
		}
		if len(s.Judging) > 0 {
			w += ", judging " + casesText(s.Judging)
		}
		ws = append(ws, w)
	} else {
		ws = append(ws, "playing")
	}
	if !p.Active {
		ws = append(ws, "inactive")
	}
	return strings.Join(ws, "; ")
}

// leaveWarning says what leaving costs p.
func leaveWarning(p game.PlayerView) string {
	if h, ok := gildedhall.HoldingsOf(p); ok {
		inv := h.Inventory
		return fmt.Sprintf("Leaving destroys everything you hold (%s, %s, %s, %s) and you cannot rejoin for a while.",
			plural(inv.Vertebrae, "Vertebra", "Vertebrae"), plural(inv.Chips, "Chip", "Chips"),
			plural(len(inv.Cards), "card", "cards"), plural(len(inv.Packs), "pack", "packs"))
	}
	if s, ok := obelisk.StateOf(p); ok {
		return fmt.Sprintf("Leaving destroys everything you hold (%s) and you cannot rejoin for a while.", s.Components.String())
	}
	if s, ok := turns.StandingOf(p); ok {
		w := "Leaving makes you inactive"
		if s.InPool {
			w += ", takes you out of the Judicial Pool"
		}
		if len(s.Judging) > 0 {
			w += ", gives " + casesText(s.Judging) + " a new Judge"
		}
		return w + fmt.Sprintf("; your %s stay yours should you rejoin in this round.", plural(s.Points, "point", "points"))
	}
	return "Leaving ends your membership and you cannot rejoin for a while."
}

func experienceText(exp map[string]int) string {
	var out []string
	for task, n := range exp {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s %d", taskName(task), n))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func taskName(id string) string { return obelisk.TaskName(id) }

// casesText is "case 5301" or "cases 5301, 5302".
func casesText(ns []int) string {
	if len(ns) == 0 {
		return ""
	}
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(ns) == 1 {
		return "case " + s[0]
	}
	return "cases " + strings.Join(s, ", ")
}

func inOut(in bool) string {
	if in {
		return "In it"
	}
	return "Not in it"
}

// periodWords is the current period in p's status: "turn 1-2, first half,
// until Thu 12 Mar 10:00 CDT" where the ruleset names it, else "period
// 2026-W10-I".
func periodWords(p game.PlayerView) string {
	if p.PeriodName != "" {
		return p.PeriodName
	}
	return "period " + p.Period
}
