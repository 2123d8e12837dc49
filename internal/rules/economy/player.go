package economy

import (
	"croupier/internal/rules/players"
)

// Player is a Gilded Hall player record: the membership (players.Player,
// embedded, so the stored item is one flat object) and what the player
// holds and is part of in this ruleset.
type Player struct {
	players.Player
	Inventory players.Inventory `json:"inventory"`
	// GiftPeriod is the period of the player's last gift and GiftedTo its
	// receiver: one gift per period (RULINGS C4), reset by the period moving on.
	GiftPeriod string `json:"gift_period,omitempty"`
	GiftedTo   string `json:"gifted_to,omitempty"`
	// Owed lists gifts this player received while inactive: if they act in
	// the same period, each giver gets their card, once (RULINGS C4).
	Owed []players.Owed `json:"owed,omitempty"`
	// BattlePeriod is the period (phase) in which the player engaged in
	// battle; the battle of that phase starts when it ends (RULINGS X10).
	BattlePeriod string `json:"battle_period,omitempty"`
	// Matches indexes the Exoptosis matches the player is in that are not
	// over (requested duels, running matches), so a departure or a chat
	// command finds them without reading every match the game ever had.
	// The module maintains it (internal/rulesets/gildedhall/match_index.go).
	Matches []string `json:"matches,omitempty"`
	// Trades indexes the open trades the player is a party to (as offerer
	// or receiver), so a departure withdraws them without reading every
	// trade the game ever had. TradesIndexed says the index is complete: a
	// record made before the index existed lacks it, and its first
	// departure reads the game's trades once. The module maintains both
	// (internal/rulesets/gildedhall/trade_index.go).
	Trades        []string `json:"trades,omitempty"`
	TradesIndexed bool     `json:"trades_indexed,omitempty"`
}

// DestroyHoldings empties the inventory of p, who has left (RULINGS P1;
// seed 002 Items: an item owned by a non-player is destroyed), and returns
// what it held so the log can keep what it was.
func DestroyHoldings(p *Player) players.Inventory {
	destroyed := p.Inventory.Normalized()
	p.Inventory = players.Inventory{}
	return destroyed
}
