package client

import (
	"context"
	"net/http"
	"net/url"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// Governance (RULINGS G1-G5): proposals, requests for justice and rulings,
// votes of confidence, the Judge, candidacies, and the reactions a bridge
// pushes for the votes.

// SubmitProposal submits a proposal tied to a chat message.
func (c *Client) SubmitProposal(ctx context.Context, idemKey, g string, body game.SubmitProposal) (game.ProposalView, Reply, error) {
	var v game.ProposalView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "proposals"), body, idemKey, &v)
	return v, r, err
}

// Proposals lists the game's proposals with a status ("" for all).
func (c *Client) Proposals(ctx context.Context, g, status string) ([]game.ProposalView, Reply, error) {
	var v struct {
		Proposals []game.ProposalView `json:"proposals"`
	}
	path := gamePath(g, "proposals")
	if status != "" {
		path += "?status=" + url.QueryEscape(status)
	}
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v.Proposals, r, err
}

// Proposal returns one proposal.
func (c *Client) Proposal(ctx context.Context, g, id string) (game.ProposalView, Reply, error) {
	var v game.ProposalView
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "proposals", url.PathEscape(id)), nil, "", &v)
	return v, r, err
}

// WithdrawProposal withdraws the actor's open proposal.
func (c *Client) WithdrawProposal(ctx context.Context, idemKey, g, id string) (game.ProposalView, Reply, error) {
	var v game.ProposalView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "proposals", url.PathEscape(id), "withdraw"), struct{}{}, idemKey, &v)
	return v, r, err
}

// RequestJustice files a request for justice.
func (c *Client) RequestJustice(ctx context.Context, idemKey, g string, body game.RequestJustice) (game.JusticeRecord, Reply, error) {
	var v game.JusticeRecord
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "justice"), body, idemKey, &v)
	return v, r, err
}

// JusticeRequests lists requests for justice ("open" is the Judge's queue).
func (c *Client) JusticeRequests(ctx context.Context, g, status string) ([]game.JusticeRecord, Reply, error) {
	var v struct {
		Requests []game.JusticeRecord `json:"requests"`
	}
	path := gamePath(g, "justice")
	if status != "" {
		path += "?status=" + url.QueryEscape(status)
	}
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v.Requests, r, err
}

// Rule answers a request for justice (the Judge only).
func (c *Client) Rule(ctx context.Context, idemKey, g, request, answer string) (game.RulingView, Reply, error) {
	var v game.RulingView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "justice", url.PathEscape(request), "rulings"),
		map[string]string{"answer": answer}, idemKey, &v)
	return v, r, err
}

// Rulings lists every ruling, in the order made.
func (c *Client) Rulings(ctx context.Context, g string) ([]game.RulingView, Reply, error) {
	var v struct {
		Rulings []game.RulingView `json:"rulings"`
	}
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "rulings"), nil, "", &v)
	return v.Rulings, r, err
}

// Overturn overturns the Judge's own ruling.
func (c *Client) Overturn(ctx context.Context, idemKey, g, ruling string) (game.RulingView, Reply, error) {
	var v game.RulingView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "rulings", url.PathEscape(ruling), "overturn"), struct{}{}, idemKey, &v)
	return v, r, err
}

// OpenConfidence opens a vote of confidence on a ruling, on a poll message.
func (c *Client) OpenConfidence(ctx context.Context, idemKey, g, ruling string, poll game.MessageRef) (game.RulingView, Reply, error) {
	var v game.RulingView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "rulings", url.PathEscape(ruling), "confidence"),
		map[string]game.MessageRef{"poll": poll}, idemKey, &v)
	return v, r, err
}

// Judge returns the office of Judge.
func (c *Client) Judge(ctx context.Context, g string) (game.JudgeState, Reply, error) {
	var v game.JudgeState
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "judge"), nil, "", &v)
	return v, r, err
}

// AssentRemoval records the actor's assent to removing the Judge.
func (c *Client) AssentRemoval(ctx context.Context, idemKey, g string) (game.JudgeState, Reply, error) {
	var v game.JudgeState
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "judge", "removal-assents"), struct{}{}, idemKey, &v)
	return v, r, err
}

// Resign ends the acting Judge's term.
func (c *Client) Resign(ctx context.Context, idemKey, g string) (game.JudgeState, Reply, error) {
	var v game.JudgeState
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "judge", "resign"), struct{}{}, idemKey, &v)
	return v, r, err
}

// StandForJudge records the actor's candidacy for Judge this week.
func (c *Client) StandForJudge(ctx context.Context, idemKey, g string, body game.StandForJudge) (governance.Candidacy, Reply, error) {
	var v governance.Candidacy
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "candidacies"), body, idemKey, &v)
	return v, r, err
}

// Candidacies returns a week's Judge election ("" for the current week).
func (c *Client) Candidacies(ctx context.Context, g, week string) (game.CandidaciesView, Reply, error) {
	var v game.CandidaciesView
	path := gamePath(g, "candidacies")
	if week != "" {
		path += "?week=" + url.QueryEscape(week)
	}
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v, r, err
}

// PushReactions reports a message's 👍 and 👎 reactions (as a bridge does).
func (c *Client) PushReactions(ctx context.Context, idemKey, g string, body game.PushReactions) (game.PushedView, Reply, error) {
	var v game.PushedView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "reactions"), body, idemKey, &v)
	return v, r, err
}

// PushMessageEvent reports that a message was edited or deleted.
func (c *Client) PushMessageEvent(ctx context.Context, idemKey, g string, body game.MessageEvent) (game.PushedView, Reply, error) {
	var v game.PushedView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "message-events"), body, idemKey, &v)
	return v, r, err
}
