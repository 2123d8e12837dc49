package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// Governance (RULINGS G1-G5): proposals, requests for justice and rulings,
// votes of confidence, the Judge, candidacies, and the reactions a bridge
// pushes for the votes.

// SubmitProposal submits a proposal tied to a chat message.
func (c *Client) SubmitProposal(ctx context.Context, idemKey, g string, body game.SubmitProposal) (game.ProposalView, Reply, error) {
	return post[game.ProposalView](ctx, c, idemKey, gamePath(g, "proposals"), body)
}

// Proposals lists the game's proposals with a status ("" for all).
func (c *Client) Proposals(ctx context.Context, g, status string) ([]game.ProposalView, Reply, error) {
	return getPaged[game.ProposalView](ctx, c, withQuery(gamePath(g, "proposals"), "status", status), "proposals")
}

// Proposal returns one proposal.
func (c *Client) Proposal(ctx context.Context, g, id string) (game.ProposalView, Reply, error) {
	return get[game.ProposalView](ctx, c, gamePath(g, "proposals", url.PathEscape(id)))
}

// WithdrawProposal withdraws the actor's open proposal.
func (c *Client) WithdrawProposal(ctx context.Context, idemKey, g, id string) (game.ProposalView, Reply, error) {
	return post[game.ProposalView](ctx, c, idemKey, gamePath(g, "proposals", url.PathEscape(id), "withdraw"), noBody)
}

// RequestJustice files a request for justice.
func (c *Client) RequestJustice(ctx context.Context, idemKey, g string, body game.RequestJustice) (game.JusticeRecord, Reply, error) {
	return post[game.JusticeRecord](ctx, c, idemKey, gamePath(g, "justice"), body)
}

// JusticeRequests lists requests for justice ("open" is the Judge's queue).
func (c *Client) JusticeRequests(ctx context.Context, g, status string) ([]game.JusticeRecord, Reply, error) {
	return getPaged[game.JusticeRecord](ctx, c, withQuery(gamePath(g, "justice"), "status", status), "requests")
}

// Rule answers a request for justice (the Judge only).
func (c *Client) Rule(ctx context.Context, idemKey, g, request, answer string) (game.RulingView, Reply, error) {
	return post[game.RulingView](ctx, c, idemKey, gamePath(g, "justice", url.PathEscape(request), "rulings"),
		map[string]string{"answer": answer})
}

// Rulings lists every ruling, in the order made.
func (c *Client) Rulings(ctx context.Context, g string) ([]game.RulingView, Reply, error) {
	return getPaged[game.RulingView](ctx, c, gamePath(g, "rulings"), "rulings")
}

// Overturn overturns the Judge's own ruling.
func (c *Client) Overturn(ctx context.Context, idemKey, g, ruling string) (game.RulingView, Reply, error) {
	return post[game.RulingView](ctx, c, idemKey, gamePath(g, "rulings", url.PathEscape(ruling), "overturn"), noBody)
}

// OpenConfidence opens a vote of confidence on a ruling, on a poll message.
func (c *Client) OpenConfidence(ctx context.Context, idemKey, g, ruling string, poll game.MessageRef) (game.RulingView, Reply, error) {
	return post[game.RulingView](ctx, c, idemKey, gamePath(g, "rulings", url.PathEscape(ruling), "confidence"),
		map[string]game.MessageRef{"poll": poll})
}

// Judge returns the office of Judge.
func (c *Client) Judge(ctx context.Context, g string) (game.JudgeState, Reply, error) {
	return get[game.JudgeState](ctx, c, gamePath(g, "judge"))
}

// AssentRemoval records the actor's assent to removing the Judge.
func (c *Client) AssentRemoval(ctx context.Context, idemKey, g string) (game.JudgeState, Reply, error) {
	return post[game.JudgeState](ctx, c, idemKey, gamePath(g, "judge", "removal-assents"), noBody)
}

// Resign ends the acting Judge's term.
func (c *Client) Resign(ctx context.Context, idemKey, g string) (game.JudgeState, Reply, error) {
	return post[game.JudgeState](ctx, c, idemKey, gamePath(g, "judge", "resign"), noBody)
}

// StandForJudge records the actor's candidacy for Judge this week.
func (c *Client) StandForJudge(ctx context.Context, idemKey, g string, body game.StandForJudge) (governance.Candidacy, Reply, error) {
	return post[governance.Candidacy](ctx, c, idemKey, gamePath(g, "candidacies"), body)
}

// Candidacies returns a week's Judge election ("" for the current week),
// every page of it (game.AllCandidacies); when there were several pages,
// the Reply's Body is the whole election, as one page would have held it.
func (c *Client) Candidacies(ctx context.Context, g, week string) (game.CandidaciesView, Reply, error) {
	var last Reply
	pages := 0
	seen := map[string]bool{}
	v, err := game.AllCandidacies(func(pr game.PageRequest) (game.CandidaciesView, error) {
		if seen[pr.Cursor] {
			return game.CandidaciesView{}, fmt.Errorf("the server returned the candidacies cursor %q twice; stopping", pr.Cursor)
		}
		seen[pr.Cursor] = true
		pages++
		page, r, err := get[game.CandidaciesView](ctx, c, withQuery(gamePath(g, "candidacies"), "week", week, "limit", strconv.Itoa(pr.Limit), "cursor", pr.Cursor))
		last = r
		return page, err
	})
	if err != nil {
		return v, last, err
	}
	if pages > 1 {
		if last.Body, err = json.Marshal(v); err != nil {
			return v, last, err
		}
	}
	return v, last, nil
}

// PushReactions reports a message's 👍 and 👎 reactions (as a bridge does).
func (c *Client) PushReactions(ctx context.Context, idemKey, g string, body game.PushReactions) (game.PushedView, Reply, error) {
	return post[game.PushedView](ctx, c, idemKey, gamePath(g, "reactions"), body)
}

// PushMessageEvent reports that a message was edited or deleted.
func (c *Client) PushMessageEvent(ctx context.Context, idemKey, g string, body game.MessageEvent) (game.PushedView, Reply, error) {
	return post[game.PushedView](ctx, c, idemKey, gamePath(g, "message-events"), body)
}
