package tracker

import (
	"context"
	"net/http"
	"strconv"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// The turns ruleset's pages (seed 003): the turn with its countdown, the
// points table, the Judicial Pool, the proposals with their votes and the
// numbered rules with their history; and the cases with their Judges,
// deadlines, rulings and appeals.

type turnsData struct {
	Status    turns.Status
	Proposals []turns.ProposalView
	Rules     []nomic.Rule
}

func (h *Handler) turnsPage(ctx context.Context, r *http.Request, l *layout) (content, error) {
	g := l.Game.ID
	var d turnsData
	var err error
	if d.Status, err = turns.TurnsStatus(ctx, h.svc, g); err != nil {
		return nil, err
	}
	if d.Proposals, err = turns.Proposals(ctx, h.svc, g); err != nil {
		return nil, err
	}
	if d.Rules, err = turns.Rules(ctx, h.svc, g); err != nil {
		return nil, err
	}
	l.Title, l.Section = "Turns, points and rules", "turns"
	return turnsContent(l, d), nil
}

func (h *Handler) casesPage(ctx context.Context, r *http.Request, l *layout) (content, error) {
	cs, err := turns.Cases(ctx, h.svc, l.Game.ID)
	if err != nil {
		return nil, err
	}
	st, err := turns.TurnsStatus(ctx, h.svc, l.Game.ID)
	if err != nil {
		return nil, err
	}
	l.Title, l.Section = "Cases", "cases"
	return casesContent(l, casesData{Cases: cs, Pool: st.Pool}), nil
}

type casesData struct {
	Cases []turns.CaseView
	Pool  []string // the Judicial Pool's names
}

// partText says where a turn is, as people do ("first half"), never the
// rules' term (first_half).
func partText(part string) string {
	switch part {
	case nomic.BeforeFirstTurn:
		return "before the round's first turn"
	case nomic.FirstHalf:
		return "first half"
	case nomic.LatterHalf:
		return "latter half"
	case nomic.Interim:
		return "interim between turns"
	}
	return part
}

// nextText says the next scheduled effect: "the middle of turn 1-2",
// "case 5301's Judge deadline".
func nextText(kind, turn string, cs int) string {
	switch kind {
	case "turn-begin":
		return "the beginning of turn " + turn
	case "turn-middle":
		return "the middle of turn " + turn
	case "turn-end":
		return "the end of turn " + turn
	case "judge-deadline":
		return "case " + strconv.Itoa(cs) + "'s Judge deadline"
	}
	return kind
}

// turnsFacts are a turns game's facts on its overview: the round (and who
// won it, and how), the next moment, the leaders, the Judicial Pool and
// the open cases, linked to the turns and cases pages.
func turnsFacts(p *page, l *layout, s *turns.Status) {
	p.raw("<dt>Round</dt><dd id=\"round\" data-round=\"")
	p.num(s.Round.Number)
	p.raw(`" data-over="`)
	p.raw(yesNo(s.Round.Over))
	p.raw(`"><a href="`)
	p.text(gameURL(l.Game.ID, "turns"))
	p.raw(`">Round `)
	p.num(s.Round.Number)
	p.raw("</a>")
	if s.Round.Over {
		p.raw(`, won by <strong id="round-winner">`)
		p.player(l, s.Round.Winner)
		p.raw("</strong>")
		if s.Round.WonBy == nomic.WinParadox {
			p.raw(" with a paradox ruled TRUE (case ")
			p.num(s.Round.WinCase)
			p.raw(")")
		} else {
			p.raw(" with the winning points")
		}
		p.raw(" on ")
		p.when(s.Round.EndedAt)
	} else if s.Turn.ID != "" {
		p.text(", turn " + s.Turn.ID + ", " + partText(s.Turn.Part))
	}
	p.raw("</dd>\n")
	if n := s.Next; n != nil && !s.Round.Over {
		p.raw("<dt>Next</dt><dd id=\"turns-next\">")
		p.text(nextText(n.Kind, n.Turn, n.Case) + ", ")
		p.when(n.At)
		p.raw("</dd>\n")
	}
	p.raw("<dt>Leading</dt><dd id=\"leaders\">")
	if len(s.Players) == 0 || s.Players[0].Points == 0 {
		p.raw("nobody has points yet")
	} else {
		for i, ps := range s.Players[:min(3, len(s.Players))] {
			if i > 0 {
				p.raw(", ")
			}
			p.player(l, ps.Player)
			p.raw(" ")
			p.num(ps.Points)
		}
	}
	p.raw("</dd>\n<dt>Judicial Pool</dt><dd id=\"pool-size\" data-count=\"")
	p.num(len(s.Pool))
	p.raw(`">`)
	p.text(game.Count(len(s.Pool), "player", "players"))
	p.raw("</dd>\n<dt>Open cases</dt><dd id=\"open-cases\" data-count=\"")
	p.num(len(s.Cases))
	p.raw(`"><a href="`)
	p.text(gameURL(l.Game.ID, "cases"))
	p.raw(`">`)
	if len(s.Cases) == 0 {
		p.raw("none")
	} else {
		p.text(game.Count(len(s.Cases), "case", "cases"))
	}
	p.raw("</a></dd>\n")
}

// pastRounds is a turns game's won rounds on its overview, newest first:
// each round's winner by name and how it was won.
func pastRounds(p *page, l *layout, rs []turns.PastRound, pg pager) {
	p.raw("<section aria-labelledby=\"rounds-h\">\n<h2 id=\"rounds-h\">Past rounds</h2>\n")
	if pg.Total == 0 {
		p.raw("<p id=\"rounds-none\">No round has been won yet.</p>\n</section>\n")
		return
	}
	p.raw("<table id=\"rounds\">\n<caption>The rounds won, newest first</caption>\n" +
		"<thead><tr><th scope=\"col\">Round</th><th scope=\"col\">Winner</th><th scope=\"col\">Won</th><th scope=\"col\">Ended</th></tr></thead>\n<tbody>\n")
	for _, r := range rs {
		p.raw(`<tr id="round-`)
		p.num(r.Number)
		p.raw(`" data-won-by="`)
		p.text(r.WonBy)
		p.raw(`"><th scope="row">Round `)
		p.num(r.Number)
		p.raw("</th><td>")
		if !r.Recorded {
			p.raw("not recorded (won before rounds were kept: see the log)</td><td>—</td><td>—</td></tr>\n")
			continue
		}
		if _, member := l.Names[r.Winner]; member {
			p.player(l, r.Winner)
		} else if r.WinnerName != "" {
			p.text(r.WinnerName)
		} else {
			p.player(l, r.Winner)
		}
		p.raw("</td><td>")
		if r.WonBy == nomic.WinParadox {
			p.raw("by a paradox ruled TRUE (case ")
			p.num(r.WinCase)
			p.raw(")")
		} else {
			p.raw("by reaching the winning points")
		}
		p.raw("</td><td>")
		p.when(r.EndedAt)
		p.raw("</td></tr>\n")
	}
	p.raw("</tbody>\n</table>\n")
	writePager(p, pg, "Past rounds")
	p.raw("\n</section>\n")
}
