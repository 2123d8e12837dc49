// Package turns is the turn-based nomic (seed 003) as a module of the
// engine. Until its own institutions land (turns, points, the judicial
// pool), it has the common commands only, and no seasons (RULINGS R3, T2).
package turns

import engine "croupier/internal/game"

// ID is the ruleset id of the turn-based nomic.
const ID = "turns"

// Module returns the turn-based nomic as the engine runs it.
func Module() engine.Module {
	return engine.Module{ID: ID, Title: "turns"}
}
