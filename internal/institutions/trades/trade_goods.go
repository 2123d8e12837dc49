package trades

import (
	"fmt"

	engine "croupier/internal/game"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
)

// Trader is what the trades component needs of a player record: its index
// of open trades, and what its ruleset lets it trade. The component runs
// in every module that includes it, so it learns what a player can trade
// from the player's record, not from the module: a record of the seed 002
// economy (economy.Player, the Gilded Hall's) trades Vertebrae, Chips,
// cards and packs (cardTrader); a module whose players hold other items
// gives its record these methods (the Obelisk's trade Ritual Components,
// internal/rulesets/obelisk).
type Trader interface {
	engine.PlayerRecord
	// OpenTrades is the record's index of open trades (trade_index.go) and
	// whether it is complete.
	OpenTrades() (ids *[]string, indexed *bool)
	// MayTrade refuses a trade of give (by the record) for take (by other)
	// that the game's rules forbid at t: who may trade, and what.
	MayTrade(t *engine.Tx, other Trader, give, take economy.Items) error
	// Holds refuses a side the record does not hold all of.
	Holds(it economy.Items) error
	// Swap moves give from the record to other and take back, both held,
	// or refuses with nothing moved.
	Swap(t *engine.Tx, other Trader, give, take economy.Items) error
}

// cardTrader is a record of the seed 002 economy (the Gilded Hall's) as a
// Trader.
type cardTrader struct{ *economy.Player }

func (c cardTrader) OpenTrades() (*[]string, *bool) { return &c.Trades, &c.TradesIndexed }

func (c cardTrader) MayTrade(t *engine.Tx, other Trader, _, _ economy.Items) error {
	return MayTradeReputable(t, c.Player, other)
}

func (c cardTrader) Holds(it economy.Items) error {
	return economy.Holds(&c.Player.Player, &c.Inventory, it)
}

func (c cardTrader) Swap(_ *engine.Tx, other Trader, give, take economy.Items) error {
	o, ok := other.(cardTrader)
	if !ok {
		return fmt.Errorf("internal: trade between a card-economy record and a %T", other)
	}
	return economy.Swap(c.Player, o.Player, give, take)
}

// traderOf is the record r as a Trader (nil for nil).
func traderOf(r engine.PlayerRecord) (Trader, error) {
	switch p := r.(type) {
	case nil:
		return nil, nil
	case *economy.Player:
		if p == nil {
			return nil, nil
		}
		return cardTrader{p}, nil
	case Trader:
		return p, nil
	}
	return nil, fmt.Errorf("internal: player %s is a %T, which the trades component cannot trade for", r.Core().ID, r)
}

// trader returns the record of id as a Trader, nil if they never joined.
func (t *tx) trader(id string) (Trader, error) {
	r, err := t.Record(id)
	if err != nil || r == nil {
		return nil, err
	}
	return traderOf(r)
}

// memberTrader returns id's record if they are a current player, else nil.
func (t *tx) memberTrader(id string) (Trader, error) {
	p, err := t.trader(id)
	if err != nil || p == nil || !p.Core().Member {
		return nil, err
	}
	return p, nil
}

// traderActor returns the acting player as a Trader, refusing a non-player.
func (t *tx) traderActor() (Trader, error) {
	p, err := t.memberTrader(t.Entry.Actor)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, players.NotAPlayer()
	}
	return p, nil
}

// recordOf is the player record p stands for: the one the engine and the
// module's hooks know (an economy record, not its Trader).
func recordOf(p Trader) engine.PlayerRecord {
	if c, ok := p.(cardTrader); ok {
		return c.Player
	}
	return p
}
