package client

import (
	"context"
	"net/url"

	"croupier/internal/rulesets/gildedhall"
)

// Exoptosis: duels, battles and matches (RULINGS X1-X11).

// MoveRequest is the body of a move: a gildedhall.MatchMove without the match,
// which is in the path.
type MoveRequest struct {
	Kind    string   `json:"kind"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
}

// RequestDuel asks the invitees to a duel with the actor (X11).
func (c *Client) RequestDuel(ctx context.Context, idemKey, g string, invitees []string) (gildedhall.MatchView, Reply, error) {
	return post[gildedhall.MatchView](ctx, c, idemKey, gamePath(g, "duels"), gildedhall.RequestDuel{Invitees: invitees})
}

// AnswerDuel accepts or declines a duel the actor is invited to.
func (c *Client) AnswerDuel(ctx context.Context, idemKey, g, match string, accept bool) (gildedhall.MatchView, Reply, error) {
	body := map[string]bool{"accept": accept}
	return post[gildedhall.MatchView](ctx, c, idemKey, gamePath(g, "duels", url.PathEscape(match), "answer"), body)
}

// EngageBattle engages the actor in the current phase's battle (X10).
func (c *Client) EngageBattle(ctx context.Context, idemKey, g string) (gildedhall.BattleEngagement, Reply, error) {
	return post[gildedhall.BattleEngagement](ctx, c, idemKey, gamePath(g, "battles", "engage"), noBody)
}

// Matches lists g's matches, oldest id first; empty filter fields match all.
func (c *Client) Matches(ctx context.Context, g string, f gildedhall.MatchFilter) ([]gildedhall.MatchSummary, Reply, error) {
	path := withQuery(gamePath(g, "matches"), "player", f.Player, "status", f.Status, "kind", f.Kind)
	return getPaged[gildedhall.MatchSummary](ctx, c, path, "matches")
}

// Match returns a match as the client's actor sees it, with the actor's
// legal moves (the public view when the client has no actor).
func (c *Client) Match(ctx context.Context, g, match string) (gildedhall.MatchView, Reply, error) {
	return get[gildedhall.MatchView](ctx, c, gamePath(g, "matches", url.PathEscape(match)))
}

// Replay returns a match move by move.
func (c *Client) Replay(ctx context.Context, g, match string) (gildedhall.MatchReplay, Reply, error) {
	return get[gildedhall.MatchReplay](ctx, c, gamePath(g, "matches", url.PathEscape(match), "replay"))
}

// Move makes one move of the actor in a match.
func (c *Client) Move(ctx context.Context, idemKey, g, match string, mv MoveRequest) (gildedhall.MoveResult, Reply, error) {
	return post[gildedhall.MoveResult](ctx, c, idemKey, gamePath(g, "matches", url.PathEscape(match), "moves"), mv)
}
