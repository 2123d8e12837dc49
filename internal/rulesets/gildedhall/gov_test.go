package gildedhall_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
)

// gov drives the 000 governance of a Gilded Hall game, with votes pushed
// by a bridge (the default reaction source): what the Gilded Hall's tests
// of due work need of it (the governance's own tests are the engine's).
type gov struct {
	t   *testing.T
	ctx context.Context
	svc *game.Service
	clk *clock.Manual
	n   int
}

func pl(i int) string { return fmt.Sprintf("discord:%d", i) }

func pls(is ...int) []string {
	out := make([]string, len(is))
	for k, i := range is {
		out[k] = pl(i)
	}
	return out
}

func msg(id string) game.MessageRef {
	return game.MessageRef{Platform: "discord", Channel: "500", Message: id}
}

func (g *gov) key() string { g.n++; return fmt.Sprintf("k%d", g.n) }

func (g *gov) must(res *game.Result, err error) *game.Result {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
	return res
}

func (g *gov) propose(actor, message string, p game.SubmitProposal) game.ProposalView {
	g.t.Helper()
	p.Message = msg(message)
	return decode[game.ProposalView](g.t, g.must(g.svc.SubmitProposal(g.ctx, req(actor, g.key()), p)))
}

// vote replaces the reactions on a message (op "set").
func (g *gov) vote(message string, up, down []string) {
	g.t.Helper()
	g.must(g.svc.PushReactions(g.ctx, req(admin, g.key()), game.PushReactions{Message: msg(message), Up: up, Down: down}))
}

// elect makes judge the Judge through a week-49 election.
func (g *gov) elect(judge string) {
	g.t.Helper()
	g.clk.Set(time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)) // Thursday
	g.must(g.svc.StandForJudge(g.ctx, req(judge, g.key()), game.StandForJudge{Message: msg("cand-" + judge)}))
	g.vote("cand-"+judge, pls(11, 12), nil)
	g.clk.Set(time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)) // the next Monday
	if rep, err := g.svc.RunDue(g.ctx); err != nil || len(rep.Failed) > 0 {
		g.t.Fatalf("RunDue: %v %v", err, rep.Failed)
	}
	if j, _ := g.svc.Judge(g.ctx, "hall"); j.Judge != judge {
		g.t.Fatalf("elected %q, want %q", j.Judge, judge)
	}
}
