package proving

import (
	"context"
	"fmt"
	"slices"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// gildedHallTable is the Gilded Hall's part: a starting grant for every
// player; purchases, pack openings, gifts, trades, duels, match moves,
// battles, rolls, proposals, leaves, joins and admin grants; conservation
// and match replays.
func gildedHallTable(t *table, rs *ruleset.Ruleset) {
	t.handMin = exoptosis.HandMin(rs)
	t.next = ghNext
	t.setup = func(g *ground) []*command {
		var out []*command
		for _, c := range t.clients {
			out = append(out, g.cmd(t, Admin, "grant", func(ctx context.Context, r game.Request) (*game.Result, error) {
				return gildedhall.On(g.admin).Grant(ctx, r, gildedhall.Grant{Player: c.id, Vertebrae: 150, RandomCards: 4, Reason: "starting stake"})
			}))
		}
		return out
	}
	t.check = func(g *ground, ctx context.Context, c *Checks, s *Snapshot, _ Observed, _ bool) {
		s.Conservation(c)
		s.Replays(ctx, c, rulesets.New(g.cfg.Store, g.clk))
	}
	t.probes = ghProbes
}

// ghProbes are Gilded Hall commands the rules must refuse.
func ghProbes(_ *ground, member *client, _ bool) []command {
	m, svc := member.id, member.svc
	return []command{
		{actor: m, name: "purchase", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, gildedhall.Purchase{Item: "legendary-pack", Quantity: 90})
		}},
		{actor: m, name: "open", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Open(ctx, r, gildedhall.OpenPack{Pack: "no-such-pack"})
		}},
		{actor: m, name: "gift", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Gift(ctx, r, gildedhall.Gift{To: m})
		}},
		{actor: m, name: "accept", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return trades.On(svc).AcceptTrade(ctx, r, "no-such-trade")
		}},
		{actor: m, name: "grant", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Grant(ctx, r, gildedhall.Grant{Player: m, Vertebrae: 1000, Reason: "not an admin"})
		}},
		{actor: "discord:424242", name: "purchase", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, gildedhall.Purchase{Item: "random-card"})
		}},
		{actor: m, name: "answer", run: func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).AnswerDuel(ctx, r, gildedhall.AnswerDuel{Match: "no-such-match", Accept: true})
		}},
	}
}

// next picks a client's next command at random, reading what it needs (its
// trades, duel requests, cards) through its own faulty service; nil when
// such a read failed.
func ghNext(g *ground, ctx context.Context, c *client) *command {
	other := c.other()
	cmd := &command{t: c.t, actor: c.id, key: g.key()}
	svc, gm := c.svc, c.t.game
	r := c.rnd.IntN(100)
	if !c.member && r < 60 {
		r = 90 // mostly joins; the rest are refused as not a player
	}
	switch {
	case r < 16:
		items := []string{"random-card", "handy-pack", "deck-pack", "chip", "legendary-pack"}
		b := gildedhall.Purchase{Item: items[c.rnd.IntN(len(items))], Quantity: 1 + c.rnd.IntN(2)}
		cmd.name = "purchase"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Purchase(ctx, r, b)
		}
	case r < 28:
		kinds := []string{"handy-pack", "deck-pack", "legendary-pack"}
		o := gildedhall.OpenPack{Pack: kinds[c.rnd.IntN(len(kinds))]}
		cmd.name = "open"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Open(ctx, r, o)
		}
	case r < 37:
		cmd.name = "gift"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Gift(ctx, r, gildedhall.Gift{To: other})
		}
	case r < 48:
		o := trades.OfferTrade{To: other, Give: itemsOf(c.rnd.IntN(4), nil)}
		if c.rnd.IntN(2) == 0 {
			if v, err := svc.Player(ctx, gm, c.id); err == nil && len(gildedhall.ViewOf(v).Inventory.Cards) > 0 {
				cs := gildedhall.ViewOf(v).Inventory.Cards
				o.Give.Cards = []string{cs[c.rnd.IntN(len(cs))].ID}
			}
		}
		if c.rnd.IntN(3) == 0 {
			o.Take.Vertebrae = 1
		}
		if o.Give.Vertebrae == 0 && len(o.Give.Cards) == 0 {
			o.Give.Vertebrae = 1
		}
		cmd.name = "offer"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return trades.On(svc).OfferTrade(ctx, r, o)
		}
	case r < 58, r < 63:
		accept := r < 58
		trs, err := trades.On(svc).Trades(ctx, gm, trades.TradeFilter{Player: c.id, Status: trades.TradeOpen})
		if err != nil {
			return nil
		}
		var pick []string
		for _, t := range trs {
			if (accept && t.To == c.id) || (!accept && t.From == c.id) {
				pick = append(pick, t.ID)
			}
		}
		if len(pick) == 0 {
			return nil
		}
		id := pick[c.rnd.IntN(len(pick))]
		if accept {
			cmd.name = "accept"
			cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
				return trades.On(svc).AcceptTrade(ctx, r, id)
			}
		} else {
			cmd.name = "withdraw"
			cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
				return trades.On(svc).WithdrawTrade(ctx, r, id)
			}
		}
	case r < 69:
		cmd.name = "duel"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).RequestDuel(ctx, r, gildedhall.RequestDuel{Invitees: []string{other}})
		}
	case r < 72:
		ms, err := gildedhall.On(svc).Matches(ctx, gm, gildedhall.MatchFilter{Player: c.id, Status: "requested", Kind: "duel"})
		if err != nil || len(ms) == 0 {
			return nil
		}
		a := gildedhall.AnswerDuel{Match: ms[c.rnd.IntN(len(ms))].ID, Accept: c.rnd.IntN(4) != 0}
		cmd.name = "answer"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).AnswerDuel(ctx, r, a)
		}
	case r < 76:
		mv, ok := ghMove(ctx, c)
		if !ok {
			return nil
		}
		cmd.name = "move"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Move(ctx, r, mv)
		}
	case r < 81:
		cmd.name = "engage"
		cmd.run = gildedhall.On(svc).EngageBattle
	case r < 85:
		cmd.name = "roll"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Roll(ctx, r, game.RollDice{Dice: "2d6"})
		}
	case r < 86:
		cmd.name = "leave"
		cmd.run = svc.Leave
	case r < 90:
		p := game.SubmitProposal{Message: game.MessageRef{Platform: "discord", Channel: c.t.channel, Message: fmt.Sprint(910000000000000000 + g.keys.Add(1))},
			Title: "A proposal from the proving ground", Text: "Let the ground shake."}
		cmd.name = "proposal"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) { return svc.SubmitProposal(ctx, r, p) }
	case r < 92:
		cmd.name = "join"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return svc.Join(ctx, r, game.JoinGame{})
		}
	default:
		gr := gildedhall.Grant{Player: other, Vertebrae: 5 + c.rnd.IntN(25), RandomCards: c.rnd.IntN(3), Reason: "proving ground"}
		if c.rnd.IntN(3) == 0 {
			gr.Packs = []gildedhall.PackGrant{{Pack: "handy-pack", Count: 1}}
		}
		cmd.actor, cmd.name = Admin, "grant"
		cmd.run = func(ctx context.Context, r game.Request) (*game.Result, error) {
			return gildedhall.On(svc).Grant(ctx, r, gr)
		}
	}
	return cmd
}

// move picks a move in one of the client's live matches where it is to
// move: a hand of distinct cards in the selection, a raise, match, pass or
// decline in the betting (Chips leave the bettor into the pool), a pass or
// a forfeit in play. Many are refused (not legal now): refusals too must
// change nothing.
func ghMove(ctx context.Context, c *client) (gildedhall.MatchMove, bool) {
	ms, err := gildedhall.On(c.svc).Matches(ctx, c.t.game, gildedhall.MatchFilter{Player: c.id, Status: gildedhall.MatchPlaying})
	if err != nil {
		return gildedhall.MatchMove{}, false
	}
	var mine []gildedhall.MatchSummary
	for _, m := range ms {
		if slices.Contains(m.Movers, c.id) {
			mine = append(mine, m)
		}
	}
	if len(mine) == 0 {
		return gildedhall.MatchMove{}, false
	}
	m := mine[c.rnd.IntN(len(mine))]
	mv := gildedhall.MatchMove{Match: m.ID}
	switch exoptosis.Phase(m.Phase) {
	case exoptosis.PhaseSelection:
		v, err := c.svc.Player(ctx, c.t.game, c.id)
		if err != nil {
			return gildedhall.MatchMove{}, false
		}
		var names []string
		for _, cd := range gildedhall.ViewOf(v).Inventory.Cards {
			if !slices.Contains(names, cd.Name) && len(names) < c.t.handMin {
				names = append(names, cd.Name)
			}
		}
		mv.Kind, mv.Cards = exoptosis.MoveSelect, names
	case exoptosis.PhaseBetting:
		switch c.rnd.IntN(4) {
		case 0:
			mv.Kind, mv.Amount = exoptosis.MoveRaise, 1+c.rnd.IntN(3)
		case 1:
			mv.Kind = exoptosis.MoveMatch
		case 2:
			mv.Kind = exoptosis.MovePass
		default:
			mv.Kind = exoptosis.MoveDecline
		}
	default:
		mv.Kind = exoptosis.MovePass
		if c.rnd.IntN(4) == 0 {
			mv.Kind = exoptosis.MoveForfeit
		}
	}
	return mv, true
}

func itemsOf(vertebrae int, cards []string) economy.Items {
	return economy.Items{Vertebrae: vertebrae, Cards: cards}
}
