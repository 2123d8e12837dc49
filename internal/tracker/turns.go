package tracker

import (
	"context"
	"net/http"

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
