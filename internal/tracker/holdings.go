package tracker

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// The players pages show what the game's ruleset gives a player (R3): a
// Gilded Hall player's inventory, an Obelisk player's Ritual Components,
// a turns player's points and seat in the Judicial Pool. The holdings are
// the module's (game.PlayerView.Holdings), read back by its own function.

func playersPage(l *layout, ps []game.PlayerView) content {
	switch l.Game.Ruleset {
	case obelisk.ID:
		return obeliskPlayersContent(l, ps)
	case turns.ID:
		return turnsPlayersContent(l, ps)
	}
	return playersContent(l, gildedhall.ViewsOf(ps))
}

func playerPage(l *layout, p game.PlayerView) content {
	switch l.Game.Ruleset {
	case obelisk.ID:
		st, _ := obelisk.StateOf(p)
		return moduleFacts(l, p, []fact{{"Holds", "holds", cmp.Or(st.Holding, "nothing")}, {"Experience", "experience", experience(st.Experience)},
			{"Banished", "banished", banished(st)}, {"Grebe", "grebe", grebe(st.Grebe)}})
	case turns.ID:
		sd, _ := turns.StandingOf(p)
		return moduleFacts(l, p, []fact{{"Points", "points", strconv.Itoa(sd.Points)}, {"Judicial Pool", "pool", inPool(sd.InPool)},
			{"Judging", "judging", judging(sd.Judging)}})
	}
	return playerContent(l, gildedhall.ViewOf(p))
}

// fact is one line of a player's facts: its label, element id and text.
type fact struct{ label, id, text string }

func experience(xp map[string]int) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(xp)) {
		if xp[k] != 0 {
			out = append(out, k+" "+strconv.Itoa(xp[k]))
		}
	}
	if len(out) == 0 {
		return "none yet"
	}
	return strings.Join(out, ", ")
}

func banished(st obelisk.State) string {
	if st.Banishment == nil {
		return "no"
	}
	return "since " + st.Banishment.Since.UTC().Format("Mon 2 Jan 2006 15:04 MST") + ", for " + game.Duration(st.Banishment.Duration.Std())
}

func grebe(n int) string {
	if n == 0 {
		return "none"
	}
	return "Grebe " + strconv.Itoa(n)
}

func inPool(b bool) string {
	if b {
		return "in the pool"
	}
	return "not in the pool"
}

func judging(cases []int) string {
	if len(cases) == 0 {
		return "no case"
	}
	out := make([]string, len(cases))
	for i, c := range cases {
		out[i] = "case " + strconv.Itoa(c)
	}
	return strings.Join(out, ", ")
}

func obeliskPlayersContent(l *layout, ps []game.PlayerView) content {
	return moduleTable(l, ps, "current players and their Ritual Components", []string{"Holds", "Banished", "Grebe"},
		func(v game.PlayerView) []string {
			st, _ := obelisk.StateOf(v)
			b := "no"
			if st.Banishment != nil {
				b = "yes"
			}
			return []string{st.Holding, b, grebe(st.Grebe)}
		})
}

func turnsPlayersContent(l *layout, ps []game.PlayerView) content {
	return moduleTable(l, ps, "current players and their points", []string{"Points", "Judicial Pool", "Judging"},
		func(v game.PlayerView) []string {
			sd, _ := turns.StandingOf(v)
			return []string{strconv.Itoa(sd.Points), inPool(sd.InPool), judging(sd.Judging)}
		})
}
