package gametest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/store"
)

// Gov drives the 000 governance of the game Game, whose players
// discord:10..discord:19 joined at Start (so they are reputable: RULINGS P4
// grace), with votes pushed by a bridge (the default reaction source).
type Gov struct {
	T   *testing.T
	Ctx context.Context
	Svc *game.Service
	Clk *clock.Manual
	n   int
}

// NewGov is the game Game of NewGame on st with its ten players.
func NewGov(t *testing.T, st store.Store) *Gov {
	t.Helper()
	svc, clk := NewGame(t, st)
	g := &Gov{T: t, Ctx: context.Background(), Svc: svc, Clk: clk}
	for i := 10; i < 20; i++ {
		g.Must(svc.Join(g.Ctx, Req(Pl(i), "join"), game.JoinGame{}))
	}
	return g
}

// Pl is the player discord:i.
func Pl(i int) string { return fmt.Sprintf("discord:%d", i) }

// Pls are the players discord:i of is.
func Pls(is ...int) []string {
	out := make([]string, len(is))
	for k, i := range is {
		out[k] = Pl(i)
	}
	return out
}

// Msg is the Discord message id of channel 500.
func Msg(id string) game.MessageRef {
	return game.MessageRef{Platform: "discord", Channel: "500", Message: id}
}

// Key is a new idempotency key.
func (g *Gov) Key() string { g.n++; return fmt.Sprintf("k%d", g.n) }

// Must is res, or ends the test on err.
func (g *Gov) Must(res *game.Result, err error) *game.Result {
	g.T.Helper()
	if err != nil {
		g.T.Fatal(err)
	}
	return res
}

// Propose submits p by actor, posted as the message message.
func (g *Gov) Propose(actor, message string, p game.SubmitProposal) game.ProposalView {
	g.T.Helper()
	p.Message = Msg(message)
	return Decode[game.ProposalView](g.T, g.Must(g.Svc.SubmitProposal(g.Ctx, Req(actor, g.Key()), p)))
}

// Vote replaces the reactions on a message (op "set").
func (g *Gov) Vote(message string, up, down []string) {
	g.T.Helper()
	g.Must(g.Svc.PushReactions(g.Ctx, Req(Admin, g.Key()), game.PushReactions{Message: Msg(message), Up: up, Down: down}))
}

// RunDue moves the clock to at and runs the due work, which must all succeed.
func (g *Gov) RunDue(at time.Time) game.DueReport {
	g.T.Helper()
	g.Clk.Set(at)
	rep, err := g.Svc.RunDue(g.Ctx)
	if err != nil || len(rep.Failed) > 0 {
		g.T.Fatalf("RunDue: %v %v", err, rep.Failed)
	}
	return rep
}

// Proposal reads the proposal id.
func (g *Gov) Proposal(id string) game.ProposalView {
	g.T.Helper()
	v, err := g.Svc.Proposal(g.Ctx, Game, id)
	if err != nil {
		g.T.Fatal(err)
	}
	return v
}

// Entries reads the whole log.
func (g *Gov) Entries() []game.Entry {
	g.T.Helper()
	return Entries(g.T, g.Svc)
}

// Events lists the log's events of type typ, in order.
func (g *Gov) Events(typ string) []game.Event { return Events(g.Entries(), typ) }

// Elect makes judge the Judge through a week-49 election: candidacy on
// Thursday, two votes for, the tally the next Monday.
func (g *Gov) Elect(judge string) {
	g.T.Helper()
	g.Clk.Set(time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC))
	g.Must(g.Svc.StandForJudge(g.Ctx, Req(judge, g.Key()), game.StandForJudge{Message: Msg("cand-" + judge)}))
	g.Vote("cand-"+judge, Pls(11, 12), nil)
	g.RunDue(time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC))
	if j, _ := g.Svc.Judge(g.Ctx, Game); j.Judge != judge {
		g.T.Fatalf("elected %q, want %q", j.Judge, judge)
	}
}
