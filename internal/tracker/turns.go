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

func (h *Handler) turnsPage(ctx context.Context, r *http.Request, l *layout) (string, error) {
	g := l.Game.ID
	var d turnsData
	var err error
	if d.Status, err = turns.TurnsStatus(ctx, h.svc, g); err != nil {
		return "", err
	}
	if d.Proposals, err = turns.Proposals(ctx, h.svc, g); err != nil {
		return "", err
	}
	if d.Rules, err = turns.Rules(ctx, h.svc, g); err != nil {
		return "", err
	}
	l.Title, l.Section, l.Data = "Turns, points and rules", "turns", d
	return "turns", nil
}

func (h *Handler) casesPage(ctx context.Context, r *http.Request, l *layout) (string, error) {
	cs, err := turns.Cases(ctx, h.svc, l.Game.ID)
	if err != nil {
		return "", err
	}
	st, err := turns.TurnsStatus(ctx, h.svc, l.Game.ID)
	if err != nil {
		return "", err
	}
	l.Title, l.Section, l.Data = "Cases", "cases", struct {
		Cases []turns.CaseView
		Pool  []string
	}{cs, st.Pool}
	return "cases", nil
}
