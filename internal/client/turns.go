package client

import (
	"context"

	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// TurnsStatus reads a turns game's turn, countdown, points, pool, open
// proposals and cases.
func (c *Client) TurnsStatus(ctx context.Context, g string) (turns.Status, Reply, error) {
	return get[turns.Status](ctx, c, gamePath(g, "turns"))
}

// TurnsRules reads a turns game's numbered rules with their history.
func (c *Client) TurnsRules(ctx context.Context, g string) ([]nomic.Rule, Reply, error) {
	return getList[nomic.Rule](ctx, c, gamePath(g, "turns", "rules"), "rules")
}

// TurnsProposals reads every proposal of a turns game with its votes.
func (c *Client) TurnsProposals(ctx context.Context, g string) ([]turns.ProposalView, Reply, error) {
	return getList[turns.ProposalView](ctx, c, gamePath(g, "turns", "proposals"), "proposals")
}

// TurnsCases reads every case of a turns game.
func (c *Client) TurnsCases(ctx context.Context, g string) ([]turns.CaseView, Reply, error) {
	return getList[turns.CaseView](ctx, c, gamePath(g, "turns", "cases"), "cases")
}
