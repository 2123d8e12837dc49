package tracker

import (
	"context"
	"net/http"

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

// whereText says where a turns round is as every surface does
// (turns.Where): "turn 1-2, first half", "the interim after turn 1-2".
func whereText(ti nomic.TurnInfo) string { return turns.Where(ti) }

// nextText says the next scheduled effect as every surface does
// (turns.MomentWords): "turn 1-2 reaches its middle".
func nextText(kind, turn string, cs int) string { return turns.MomentWords(kind, turn, cs) }

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
	} else {
		p.text(", " + whereText(s.Turn))
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
