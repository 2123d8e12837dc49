// Package rulesets lists the ruleset modules the engine runs: adding a
// ruleset is adding its module here (docs/architecture.md, "Adding a
// ruleset"). Only the wiring (config, cmd, tests) imports it; the engine
// never does.
package rulesets

import (
	"croupier/internal/clock"
	engine "croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
)

// All returns every ruleset module, in the order refusals list them.
func All() []engine.Module {
	return []engine.Module{gildedhall.Module(), obelisk.Module(), turns.Module()}
}

// New returns the engine's service over st running every ruleset of All.
func New(st store.Store, clk clock.Clock, opts ...engine.Option) *engine.Service {
	return engine.New(st, clk, append([]engine.Option{engine.WithModules(All()...)}, opts...)...)
}

// Registry returns the command catalogue of every ruleset of All, for an
// edge that runs no game (registering chat commands).
func Registry() *engine.Registry {
	reg, err := engine.NewRegistry(All()...)
	if err != nil {
		panic("rulesets: " + err.Error()) // the list above is code: a test builds it
	}
	return reg
}
