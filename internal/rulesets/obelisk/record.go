package obelisk

import (
	"fmt"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/economy"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
)

// Player is an Obelisk player record: the membership and the obelisk state
// (rules/obelisk.Player: components, experience, banishment, Grebe,
// boosts), and the trades component's index of their open trades. One
// flat item per player.
type Player struct {
	rob.Player
	Trades        []string `json:"trades,omitempty"`
	TradesIndexed bool     `json:"trades_indexed,omitempty"`
}

// NewPlayer is the record of a new stint: OnJoin gives it the join's ⚡.
func NewPlayer(m engine.Player) engine.PlayerRecord {
	return &Player{Player: rob.Player{Player: m}}
}

// asPlayer is the Obelisk record of r (every record of an obelisk game is
// one: the engine decodes player items with NewPlayer).
func asPlayer(r engine.PlayerRecord) (*Player, error) {
	if r == nil {
		return nil, nil
	}
	p, ok := r.(*Player)
	if !ok {
		return nil, fmt.Errorf("internal: player %s is a %T, not an Obelisk record", r.Core().ID, r)
	}
	return p, nil
}

// The trades component trades Ritual Components for an Obelisk record
// (trades.Trader): reputable players only, ⚡ never, a banished player
// only with a banished one (RULINGS O1, O11: rules/obelisk.CheckTrade).

// OpenTrades is the trades component's index on the record.
func (p *Player) OpenTrades() (*[]string, *bool) { return &p.Trades, &p.TradesIndexed }

// MayTrade refuses what an Obelisk trade may not be.
func (p *Player) MayTrade(t *engine.Tx, other trades.Trader, give, take economy.Items) error {
	o, ok := other.(*Player)
	if !ok {
		return fmt.Errorf("internal: trade between an Obelisk record and a %T", other)
	}
	for _, side := range []economy.Items{give, take} {
		if !side.CardsEmpty() {
			return rules.Refuse("not_in_ruleset", "Obelisk players trade Ritual Components only (e.g. {\"components\": {\"crystals\": 2}}); this game has no Vertebrae, Chips, cards or packs.")
		}
	}
	return rob.CheckTrade(&p.Player, &o.Player, give.Components, take.Components, envOf(t))
}

// Holds refuses a side the record does not hold all of.
func (p *Player) Holds(it economy.Items) error {
	if !p.Components.Covers(it.Components) {
		short := p.Components.Short(it.Components)
		return rules.Refuse("trade_items_missing", "%s does not hold everything the trade needs: %s is missing.", p.Label(), short).
			With("player", p.ID).With("missing", short)
	}
	return nil
}

// Swap moves the components of an allowed trade.
func (p *Player) Swap(t *engine.Tx, other trades.Trader, give, take economy.Items) error {
	o, ok := other.(*Player)
	if !ok {
		return fmt.Errorf("internal: trade between an Obelisk record and a %T", other)
	}
	_, err := rob.Swap(&p.Player, &o.Player, give.Components, take.Components, envOf(t))
	return err
}

// envOf is what the Obelisk's rules read of the game at t.
func envOf(t *engine.Tx) rob.Env {
	return rob.Env{RS: t.Rules, Now: t.Now, Season: t.Meta.Season, GameStart: t.Meta.CreatedAt}
}

// State is the Obelisk's part of a player's status (the "state" of their
// player view: Holdings).
type State struct {
	Components ruleset.Components `json:"components"`
	// Holding says the components for people, e.g. "2⚡ 1💎".
	Holding    string          `json:"holding"`
	Experience map[string]int  `json:"experience"`
	Banishment *rob.Banishment `json:"banishment,omitempty"`
	Grebe      int             `json:"grebe,omitempty"`
	Boosts     []rob.Boost     `json:"boosts,omitempty"`
}

// playerView fills in the player's obelisk state.
func playerView(_ *engine.Tx, r engine.PlayerRecord, v *engine.PlayerView) error {
	p, _ := r.(*Player)
	if p == nil {
		return nil
	}
	exp := map[string]int{}
	for k, n := range p.Experience {
		exp[k] = n
	}
	v.Holdings = Holdings{State: &State{Components: p.Components, Holding: p.Components.String(), Experience: exp,
		Banishment: p.Banishment, Grebe: p.Grebe, Boosts: p.Boosts}}
	return nil
}

// Holdings is the Obelisk's part of a player view: the player's State.
type Holdings struct {
	State *State `json:"state"`
}

// StateOf reads an Obelisk player's state back from their view; false for
// a player of a ruleset without it.
func StateOf(v engine.PlayerView) (State, bool) {
	h, ok := engine.HoldingsAs[Holdings](v, "state")
	if !ok || h.State == nil {
		return State{}, false
	}
	return *h.State, true
}

// componentsWord lists the components for a refusal.
func componentsWord() string {
	var s []string
	for _, c := range ruleset.ComponentList {
		s = append(s, c.Emoji+" "+c.ID)
	}
	return strings.Join(s, ", ")
}
