package obelisk

import (
	"strings"

	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// CheckTrade refuses a trade of Ritual Components that the rules do not
// allow (RULINGS O1, O11): ⚡ on either side; a negative count; a trade
// with oneself; either party not a reputable player (P4); a banished
// player with one who is not banished. The consents' 7-day window is the
// trades component's. It is checked when the trade is offered and again
// when it takes place.
func CheckTrade(a, b *Player, give, take Components, env Env) error {
	if err := member(a); err != nil {
		return err
	}
	if b == nil || !b.Member {
		return rules.Refuse("not_a_player", "You can trade only with a player of this game.")
	}
	if a.ID == b.ID {
		return rules.Refuse("self_trade", "You cannot trade with yourself.")
	}
	for _, s := range []struct {
		side string
		c    Components
	}{{"your", give}, {"their", take}} {
		side, c := s.side, s.c
		for _, ci := range ruleset.ComponentList {
			if !ci.Tradable && c.Get(ci.ID) != 0 {
				return rules.Refuse(ci.ID+"_not_tradable", "%s %s cannot be traded (unlike other Ritual Components); take it off %s side of the trade.", ci.Emoji, ci.Name, side)
			}
		}
		for _, id := range ruleset.ComponentIDs() {
			if c.Get(id) < 0 {
				return rules.Refuse("invalid_trade", "%s side has a negative count of %s; a trade gives items, it cannot take by giving less than nothing.", strings.ToUpper(side[:1])+side[1:], id)
			}
		}
	}
	if give.IsZero() && take.IsZero() {
		return rules.Refuse("invalid_trade", "The trade moves nothing; name what each side gives.")
	}
	d := env.RS.Durations
	for _, p := range []*Player{a, b} {
		if !players.Reputable(&p.Player, env.Now, env.GameStart, d.ReputableTenure.Std(), d.ReputableGrace.Std()) {
			return rules.Refuse("not_reputable", "%s is not reputable yet (a player for the past %s, or since within %s of the game's start), and only reputable players trade.",
				p.Label(), words.Duration(d.ReputableTenure.Std()), words.Duration(d.ReputableGrace.Std())).With("player", p.ID)
		}
	}
	if a.Banished() != b.Banished() {
		banished := a
		if b.Banished() {
			banished = b
		}
		return rules.Refuse("banished", "%s is banished, and a banished player cannot trade with a player who is not banished.", banished.Label()).
			With("player", banished.ID)
	}
	return nil
}

// Swap executes an allowed trade between a (giving give) and b (giving
// take) atomically: both sides are checked first, then both move, or
// nothing.
func Swap(a, b *Player, give, take Components, env Env) ([]Delta, error) {
	if err := CheckTrade(a, b, give, take, env); err != nil {
		return nil, err
	}
	for _, side := range []struct {
		p *Player
		c Components
	}{{a, give}, {b, take}} {
		if !side.p.Components.Covers(side.c) {
			short := side.p.Components.Short(side.c)
			return nil, rules.Refuse("trade_items_missing", "%s does not hold everything the trade needs: %s is missing.", side.p.Label(), short).
				With("player", side.p.ID).With("missing", short)
		}
	}
	var out []Delta
	changeAll(a, give, -1, CauseTrade, &out)
	changeAll(b, give, +1, CauseTrade, &out)
	changeAll(b, take, -1, CauseTrade, &out)
	changeAll(a, take, +1, CauseTrade, &out)
	return out, nil
}
