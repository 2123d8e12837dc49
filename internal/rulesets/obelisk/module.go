// Package obelisk is the Obelisk ruleset (seed 002) as a module of the
// engine. Until its own institutions land (resolve, tasks, rituals, grebes,
// banishment), it has what its rulings give it already: the common
// commands, the 000 governance and trades between reputable players
// (RULINGS R3).
package obelisk

import (
	engine "croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// ID is the ruleset id of the Obelisk.
const ID = "obelisk"

// Module returns the Obelisk as the engine runs it.
func Module() engine.Module {
	return engine.Module{ID: ID, Title: "Obelisk", Seasons: true,
		Components: []engine.Component{gildedhall.Holdings(), gildedhall.Trades(), engine.Governance()},
		// Trades move the items Gilded Hall's players hold, so until the
		// Obelisk's own items land its players hold them too, and a
		// player's status shows them.
		NewPlayer: gildedhall.NewPlayer, PlayerView: gildedhall.HoldingsView}
}
