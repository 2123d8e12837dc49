package client

import (
	"context"
	"net/http"
	"net/url"

	"croupier/internal/game"
)

// Exoptosis: duels, battles and matches (RULINGS X1-X11).

// MoveRequest is the body of a move: a game.MatchMove without the match,
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
func (c *Client) RequestDuel(ctx context.Context, idemKey, g string, invitees []string) (game.MatchView, Reply, error) {
	var v game.MatchView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "duels"), game.RequestDuel{Invitees: invitees}, idemKey, &v)
	return v, r, err
}

// AnswerDuel accepts or declines a duel the actor is invited to.
func (c *Client) AnswerDuel(ctx context.Context, idemKey, g, match string, accept bool) (game.MatchView, Reply, error) {
	var v game.MatchView
	body := map[string]bool{"accept": accept}
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "duels", url.PathEscape(match), "answer"), body, idemKey, &v)
	return v, r, err
}

// EngageBattle engages the actor in the current phase's battle (X10).
func (c *Client) EngageBattle(ctx context.Context, idemKey, g string) (game.BattleEngagement, Reply, error) {
	var v game.BattleEngagement
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "battles", "engage"), struct{}{}, idemKey, &v)
	return v, r, err
}

// Matches lists g's matches, oldest id first; empty filter fields match all.
func (c *Client) Matches(ctx context.Context, g string, f game.MatchFilter) ([]game.MatchSummary, Reply, error) {
	q := url.Values{}
	for k, v := range map[string]string{"player": f.Player, "status": f.Status, "kind": f.Kind} {
		if v != "" {
			q.Set(k, v)
		}
	}
	path := gamePath(g, "matches")
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var v struct {
		Matches []game.MatchSummary `json:"matches"`
	}
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v.Matches, r, err
}

// Match returns a match as the client's actor sees it, with the actor's
// legal moves (the public view when the client has no actor).
func (c *Client) Match(ctx context.Context, g, match string) (game.MatchView, Reply, error) {
	var v game.MatchView
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "matches", url.PathEscape(match)), nil, "", &v)
	return v, r, err
}

// Replay returns a match move by move.
func (c *Client) Replay(ctx context.Context, g, match string) (game.MatchReplay, Reply, error) {
	var v game.MatchReplay
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "matches", url.PathEscape(match), "replay"), nil, "", &v)
	return v, r, err
}

// Move makes one move of the actor in a match.
func (c *Client) Move(ctx context.Context, idemKey, g, match string, mv MoveRequest) (game.MoveResult, Reply, error) {
	var v game.MoveResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "matches", url.PathEscape(match), "moves"), mv, idemKey, &v)
	return v, r, err
}
