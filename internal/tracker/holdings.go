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

// moduleFacts is a player's page in a ruleset with no deck or packs: the
// membership and the module's facts.
func moduleFacts(l *layout, pv game.PlayerView, facts []fact) content {
	return func(p *page) {
		p.raw("\n<h1>")
		p.text(l.Title)
		p.raw("</h1>\n<dl class=\"facts\" id=\"holdings\">\n<dt>Id</dt><dd><code>")
		p.text(pv.ID)
		p.raw("</code></dd>\n<dt>Status</dt><dd>")
		membership(p, pv)
		p.raw("</dd>\n")
		for _, f := range facts {
			p.raw("<dt>")
			p.text(f.label)
			p.raw("</dt><dd id=\"")
			p.text(f.id)
			p.raw("\">")
			p.text(f.text)
			p.raw("</dd>\n")
		}
		p.raw("</dl>\n<p><a href=\"")
		p.text(gameURL(l.Game.ID, "log") + query("player", pv.ID))
		p.raw("\">This player's log entries</a></p>\n")
	}
}

// membership says whether pv plays, since when and how.
func membership(p *page, pv game.PlayerView) {
	if !pv.Member {
		p.raw("Left ")
		p.whenp(pv.LeftAt)
		if pv.RejoinPossibleAt != nil {
			p.raw("; may rejoin from ")
			p.when(*pv.RejoinPossibleAt)
		}
		return
	}
	p.raw("Player since ")
	p.when(pv.JoinedAt)
	if pv.Active {
		p.raw(", active")
	} else {
		p.raw(", inactive")
	}
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

// moduleTable is the players table of a ruleset: each player, the
// module's columns, then active and joined.
func moduleTable(l *layout, ps []game.PlayerView, caption string, cols []string, cells func(game.PlayerView) []string) content {
	return func(p *page) {
		if !playersCaption(p, len(ps), caption) {
			return
		}
		p.raw("</caption>\n<thead><tr><th scope=\"col\">Player</th>")
		for _, c := range cols {
			p.raw(`<th scope="col">`)
			p.text(c)
			p.raw("</th>")
		}
		p.raw(`<th scope="col">Active</th><th scope="col">Joined</th></tr></thead>` + "\n<tbody>\n")
		for _, m := range ps {
			p.raw(`<tr data-player="`)
			p.text(m.ID)
			p.raw(`"><th scope="row">`)
			p.player(l, m.ID)
			p.raw("</th>")
			for _, c := range cells(m) {
				p.raw("<td>")
				p.text(c)
				p.raw("</td>")
			}
			p.raw("<td>")
			p.raw(yesNo(m.Active))
			p.raw("</td><td>")
			p.when(m.JoinedAt)
			p.raw("</td></tr>\n")
		}
		p.raw("</tbody>\n</table>\n\n")
	}
}

// playersCaption opens the players page's table up to its caption's text
// ("4 current players and ..."); false, having said so, when nobody plays.
func playersCaption(p *page, n int, caption string) bool {
	p.raw("\n<h1>Players</h1>\n")
	if n == 0 {
		p.raw("<p>Nobody plays this game yet.</p>\n")
		return false
	}
	p.raw(`<table id="players">` + "\n<caption>")
	p.num(n)
	p.raw(" ")
	p.text(caption)
	return true
}
