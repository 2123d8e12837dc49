package game_test

import (
	"context"
	"errors"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/reactions"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
)

// discordOnly is a reaction source bound to one platform, like the
// Discord REST reader; this one is always down.
type discordOnly struct{}

func (discordOnly) Platform() string { return "discord" }
func (discordOnly) Reactions(context.Context, game.MessageRef) (reactions.Snapshot, error) {
	return reactions.Snapshot{}, errors.New("discord unreachable")
}

// A game bound to Slack as well as Discord: votes on a Slack message read the
// reactions a bridge pushed, not the Discord reader (which cannot read them
// and would block the game's period end).
func TestG1_OtherPlatformsVotesReadPushedReactions(t *testing.T) {
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	ctx := context.Background()
	svc = rulesets.New(svc.Store(), clk, game.WithEntropy(gametest.Seeded(2)), game.WithReactions(discordOnly{}))
	for i := 10; i < 13; i++ {
		if _, err := svc.Join(ctx, req(pl(i), "join"), game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(thursday)
	slackMsg := game.MessageRef{Platform: "slack", Channel: "C1", Message: "1700000000.000100"}
	res, err := svc.SubmitProposal(ctx, req(pl(10), "p"), game.SubmitProposal{Message: slackMsg})
	if err != nil {
		t.Fatal(err)
	}
	id := gametest.Decode[game.ProposalView](t, res).ID
	if _, err := svc.PushReactions(ctx, req(admin, "r"), game.PushReactions{Message: slackMsg, Up: pls(10, 11), Down: pls(12)}); err != nil {
		t.Fatal(err)
	}
	clk.Set(nextMonday)
	if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) != 0 {
		t.Fatalf("tally of a Slack proposal with a Discord reader configured: %+v %v", rep, err)
	}
	if v, _ := svc.Proposal(ctx, "hall", id); v.Status != governance.StatusAdopted || v.Result.For != 2 || v.Result.Against != 1 {
		t.Fatalf("status %s result %+v, want adopted 2 for 1 against", v.Status, v.Result)
	}
}
