package proving

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// The Obelisk game's ruleset data, amended before anyone joins: 002 gives
// 1⚡ on joining and 1⚡ a week, which would leave most tasks refused for
// want of ⚡ after the first; and 002 names no ritual type (O8), so two
// are added for Gatherings to start, be contributed to and complete.
const obeliskAmendment = `[{"op":"replace","path":"/thresholds/joinEnergy","value":12},` +
	`{"op":"replace","path":"/obelisk/observation/resolve","value":3},` +
	`{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":1,"herbs":1},` +
	`"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"resolve":1}}]}},` +
	`{"op":"add","path":"/obelisk/ritualTypes/herb-circle","value":{"id":"herb-circle","name":"Herb Circle","cost":{"herbs":2},` +
	`"effects":[{"kind":"grant","target":"contributors","components":{"resolve":2}}]}}]`

// obeliskTable is the Obelisk's part: tasks, observations (a race for the
// week's one), Gatherings started, contributed to, withdrawn from and
// completed (racing their failure at the phase end), trades of components,
// leaves, joins and rolls; components accounted for and every Gathering
// closed once.
func obeliskTable(t *table) {
	t.rituals = []string{"cut-the-obelisk", "herb-circle"}
	t.next = obeliskNext
	t.probes = obeliskProbes
	t.setup = func(g *ground) []*command {
		return []*command{g.cmd(t, Admin, "amend", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return g.admin.Amend(ctx, r, game.Amend{Patch: json.RawMessage(obeliskAmendment), Reason: "the proving ground's ⚡ and ritual types"})
		})}
	}
	t.check = func(g *ground, ctx context.Context, c *Checks, s *Snapshot, _ Observed, settled bool) {
		s.Components(c)
		s.Gatherings(c, settled)
	}
}

var obeliskTasks = []string{ruleset.TaskMining, ruleset.TaskHerbalism, ruleset.TaskAlchemy, ruleset.TaskHeart, ruleset.TaskBlood}

func obeliskNext(g *ground, ctx context.Context, c *client) *command {
	t, svc, ob := c.t, c.svc, obelisk.On(c.svc)
	if !c.member && c.rnd.IntN(100) < 70 {
		return g.cmd(t, c.id, "join", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		})
	}
	gatherings := func() []obelisk.GatheringView {
		gs, err := ob.Gatherings(ctx, t.game)
		if err != nil {
			return nil
		}
		return slices.DeleteFunc(gs, func(g obelisk.GatheringView) bool { return g.Status != rob.StatusOpen })
	}
	r := c.rnd.IntN(100)
	switch {
	case r < 35:
		task := obelisk.Task{Task: obeliskTasks[c.rnd.IntN(len(obeliskTasks))]}
		return g.cmd(t, c.id, "task", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.PerformTask(ctx, r, task)
		})
	case r < 40:
		return g.cmd(t, c.id, "observe", ob.Observe)
	case r < 48:
		a := obelisk.StartGathering{RitualType: t.rituals[c.rnd.IntN(len(t.rituals))], Message: fmt.Sprint(920000000000000000 + g.keys.Add(1))}
		return g.cmd(t, c.id, "gathering-start", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.StartGathering(ctx, r, a)
		})
	case r < 62:
		gv, ok := pick(c, gatherings())
		if !ok {
			return nil
		}
		comp, ok := pick(c, componentIDs(gv.Ritual.Cost))
		if !ok {
			return nil
		}
		m := obelisk.GatheringMove{Gathering: gv.ID, Component: comp}
		return g.cmd(t, c.id, "gathering-contribute", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.Contribute(ctx, r, m)
		})
	case r < 66:
		var mine []obelisk.GatheringMove
		for _, gv := range gatherings() {
			for _, x := range gv.Contributions {
				if x.Player == c.id {
					mine = append(mine, obelisk.GatheringMove{Gathering: gv.ID, Component: x.Component})
				}
			}
		}
		m, ok := pick(c, mine)
		if !ok {
			return nil
		}
		return g.cmd(t, c.id, "gathering-withdraw", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.Withdraw(ctx, r, m)
		})
	case r < 74:
		var mine []string
		for _, gv := range gatherings() {
			if gv.Starter == c.id {
				mine = append(mine, gv.ID)
			}
		}
		id, ok := pick(c, mine)
		if !ok {
			return nil
		}
		return g.cmd(t, c.id, "gathering-complete", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.Complete(ctx, r, obelisk.GatheringRef{Gathering: id})
		})
	case r < 82:
		o := trades.OfferTrade{To: c.other(), Give: economy.Items{Components: ruleset.Components{Crystals: 1}}}
		if c.rnd.IntN(2) == 0 {
			o.Give = economy.Items{Components: ruleset.Components{Herbs: 1}}
		}
		if c.rnd.IntN(2) == 0 {
			o.Take = economy.Items{Components: ruleset.Components{Reagents: 1}}
		}
		return g.cmd(t, c.id, "offer", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return trades.On(svc).OfferTrade(ctx, r, o)
		})
	case r < 90:
		accept := r < 88
		trs, err := trades.On(svc).Trades(ctx, t.game, trades.TradeFilter{Player: c.id, Status: trades.TradeOpen})
		if err != nil {
			return nil
		}
		var ids []string
		for _, tr := range trs {
			if (accept && tr.To == c.id) || (!accept && tr.From == c.id) {
				ids = append(ids, tr.ID)
			}
		}
		id, ok := pick(c, ids)
		if !ok {
			return nil
		}
		if accept {
			return g.cmd(t, c.id, "accept", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return trades.On(svc).AcceptTrade(ctx, r, id)
			})
		}
		return g.cmd(t, c.id, "withdraw", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return trades.On(svc).WithdrawTrade(ctx, r, id)
		})
	case r < 91:
		return g.cmd(t, c.id, "leave", svc.Leave)
	case r < 93:
		return g.cmd(t, c.id, "join", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		})
	default:
		return g.cmd(t, c.id, "roll", func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Roll(ctx, r, game.RollDice{Dice: "2d6"})
		})
	}
}

// componentIDs are the components cs has some of.
func componentIDs(cs ruleset.Components) []string {
	var out []string
	for id, n := range componentMap(cs) {
		if n > 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// componentMap is cs by component id.
func componentMap(cs ruleset.Components) map[string]int {
	m := map[string]int{}
	b, _ := json.Marshal(cs)
	_ = json.Unmarshal(b, &m)
	return m
}

// obeliskProbes are Obelisk commands the rules must refuse.
func obeliskProbes(_ *ground, member *client, _ bool) []command {
	m, ob := member.id, obelisk.On(member.svc)
	svc := member.svc
	return []command{
		{actor: m, name: "task", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.PerformTask(ctx, r, obelisk.Task{Task: ruleset.TaskBefriend, Grebe: 1})
		}},
		{actor: m, name: "offer", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return trades.On(svc).OfferTrade(ctx, r, trades.OfferTrade{To: member.other(), Give: economy.Items{Components: ruleset.Components{Resolve: 1}}})
		}},
		{actor: m, name: "gathering-contribute", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.Contribute(ctx, r, obelisk.GatheringMove{Gathering: "no-such-gathering", Component: ruleset.Herbs})
		}},
		{actor: m, name: "gathering-complete", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return ob.Complete(ctx, r, obelisk.GatheringRef{Gathering: "no-such-gathering"})
		}},
		{actor: "discord:424242", name: "observe", run: ob.Observe},
	}
}
