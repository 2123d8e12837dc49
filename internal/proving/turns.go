package proving

import (
	"context"
	"fmt"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// turnsTable is the turn-based nomic's part: proposals, votes for and
// against (changed at random), appeal votes, the Judicial Pool, Requests
// for Judgment, rulings and recusals by the drawn Judge, appeals,
// activity, leaves, joins and rolls; votes counted and points explained.
func turnsTable(t *table) {
	t.next = turnsNext
	t.probes = turnsProbes
	t.setup = func(g *ground) []*command {
		// Most players sit in the Judicial Pool from the start, so that
		// Requests for Judgment draw player Judges.
		var out []*command
		for i, c := range t.clients {
			if i%3 != 2 {
				out = append(out, g.cmd(t, c.id, "pool-enter", func(ctx context.Context, r game.Request) (*game.Result, error) {
					return turns.EnterPool(c.svc, ctx, r)
				}))
			}
		}
		return out
	}
	t.check = func(_ *ground, _ context.Context, c *Checks, s *Snapshot, obs Observed, _ bool) {
		s.Counted(c, obs)
		s.Points(c)
	}
}

// lastMinuteVote is a vote on proposal id whose again is the opposite
// vote, for the window to send until one is refused.
func lastMinuteVote(g *ground, c *client, id string, support bool) *command {
	vote := map[bool]string{true: "for", false: "against"}[support]
	cmd := g.cmd(c.t, c.id, "turns-vote", func(ctx context.Context, r game.Request) (*game.Result, error) {
		return turns.CastVote(c.svc, ctx, r, turns.Ballot{Proposal: id, Vote: vote})
	})
	cmd.tries, cmd.target = voteTries, id
	cmd.again = func() *command { return lastMinuteVote(g, c, id, !support) }
	return cmd
}

func isVote(name string) bool { return name == "turns-vote" || name == "appeal-vote" }

// voteTries: a vote is sent with its key until it is answered, so that a
// voter's votes on one proposal commit in the order they were answered
// (the invariant "counted" compares the tally with the last one).
const voteTries = 100

func turnsNext(g *ground, ctx context.Context, c *client) *command {
	t, svc := c.t, c.svc
	if !c.member && c.rnd.IntN(100) < 70 {
		return g.cmd(t, c.id, "join", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		})
	}
	st, err := turns.TurnsStatus(ctx, svc, t.game)
	if err != nil {
		return nil
	}
	var judging, appealable []turns.CaseView
	type openAppeal struct {
		cs int
		id string
	}
	var appeals []openAppeal
	for _, cs := range st.Cases {
		if cs.Judge == c.id {
			judging = append(judging, cs)
		}
		open := false
		for _, ap := range cs.Appeals {
			if ap.Status == nomic.AppealOpen {
				open = true
				appeals = append(appeals, openAppeal{cs.Number, ap.ID})
			}
		}
		if cs.Ruling != "" && !open {
			appealable = append(appealable, cs)
		}
	}
	active := false
	for _, p := range st.Players {
		if p.Player == c.id {
			active = p.Active
		}
	}
	r := c.rnd.IntN(100)
	// The last seconds of a turn: a last-minute voter changes their vote
	// on a proposal again and again until a vote is refused as late, so
	// that votes land all through the turn end's count (RULINGS T5).
	if left := st.Turn.End.Sub(c.clk.Now()); left > 0 && left < 2*time.Second && r < 60 {
		var open []string
		for _, p := range st.Proposals {
			if p.Status == nomic.ProposalOpen && p.VotingEnds.Equal(st.Turn.End) {
				open = append(open, p.ID)
			}
		}
		if id, ok := pick(c, open); ok {
			return lastMinuteVote(g, c, id, c.rnd.IntN(2) == 0)
		}
	}
	if c.member && !active && r < 50 {
		return g.cmd(t, c.id, "turns-active", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.SetActive(svc, ctx, r, turns.Activity{Active: true})
		})
	}
	vote := []string{"for", "against"}[c.rnd.IntN(2)]
	switch {
	case len(judging) > 0 && r < 25:
		cs, _ := pick(c, judging)
		if c.rnd.IntN(3) == 0 {
			return g.cmd(t, c.id, "judge-recuse", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return turns.Recuse(svc, ctx, r, turns.CaseRef{Case: cs.Number})
			})
		}
		ru := turns.Ruling{Case: cs.Number, Ruling: []string{"TRUE", "FALSE"}[c.rnd.IntN(2)], Reasons: "So the ground rules."}
		return g.cmd(t, c.id, "judge-rule", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.Rule(svc, ctx, r, ru)
		})
	case r < 55:
		var open []string
		for _, p := range st.Proposals {
			if p.Status == nomic.ProposalOpen {
				open = append(open, p.ID)
			}
		}
		id, ok := pick(c, open)
		if !ok {
			return nil
		}
		cmd := g.cmd(t, c.id, "turns-vote", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.CastVote(svc, ctx, r, turns.Ballot{Proposal: id, Vote: vote})
		})
		cmd.tries, cmd.target = voteTries, id
		return cmd
	case r < 63:
		ap, ok := pick(c, appeals)
		if !ok {
			return nil
		}
		cmd := g.cmd(t, c.id, "appeal-vote", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.VoteOnAppeal(svc, ctx, r, turns.AppealBallot{Case: ap.cs, Vote: vote})
		})
		cmd.tries, cmd.target = voteTries, ap.id
		return cmd
	case r < 71:
		p := turns.Propose{Op: "enact", Text: fmt.Sprintf("The proving ground shakes (%d).", c.rnd.IntN(1000)), Note: "a rule from the proving ground"}
		return g.cmd(t, c.id, "turns-propose", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.SubmitProposal(svc, ctx, r, p)
		})
	case r < 76:
		j := turns.Judgment{Statement: "The ground is level.", Arguments: "It was shaken."}
		if c.rnd.IntN(3) == 0 {
			j.Mentions = []string{c.other()}
		}
		return g.cmd(t, c.id, "judgment-request", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.RequestJudgment(svc, ctx, r, j)
		})
	case r < 80:
		cs, ok := pick(c, appealable)
		if !ok {
			return nil
		}
		ru := turns.Ruling{Case: cs.Number, Ruling: map[string]string{"TRUE": "FALSE", "FALSE": "TRUE"}[cs.Ruling], Reasons: "On appeal."}
		return g.cmd(t, c.id, "ruling-appeal", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.AppealRuling(svc, ctx, r, ru)
		})
	case r < 88:
		return g.cmd(t, c.id, "pool-enter", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.EnterPool(svc, ctx, r)
		})
	case r < 90:
		return g.cmd(t, c.id, "pool-leave", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.LeavePool(svc, ctx, r)
		})
	case r < 93:
		return g.cmd(t, c.id, "turns-active", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.SetActive(svc, ctx, r, turns.Activity{Active: false})
		})
	case r < 94:
		return g.cmd(t, c.id, "leave", svc.Leave)
	case r < 96:
		return g.cmd(t, c.id, "join", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		})
	default:
		return g.cmd(t, c.id, "roll", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Roll(ctx, r, game.RollDice{Dice: "1d20"})
		})
	}
}

// turnsProbes are turns commands the rules must refuse.
func turnsProbes(_ *ground, member *client, _ bool) []command {
	m, svc := member.id, member.svc
	return []command{
		{actor: m, name: "turns-vote", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.CastVote(svc, ctx, r, turns.Ballot{Proposal: "P99999", Vote: "for"})
		}},
		{actor: m, name: "appeal-vote", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.VoteOnAppeal(svc, ctx, r, turns.AppealBallot{Case: 1, Vote: "against"})
		}},
		{actor: m, name: "judge-rule", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.Rule(svc, ctx, r, turns.Ruling{Case: 1, Ruling: "TRUE"})
		}},
		{actor: m, name: "judge-recuse", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.Recuse(svc, ctx, r, turns.CaseRef{Case: 1})
		}},
		{actor: m, name: "round-start", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.StartRound(svc, ctx, r)
		}},
		{actor: "discord:424242", name: "turns-propose", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return turns.SubmitProposal(svc, ctx, r, turns.Propose{Op: "enact", Text: "Strangers rule."})
		}},
	}
}
