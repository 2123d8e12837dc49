package gildedhall_test

import (
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
)

// The Gilded Hall's tests play one game, "hall", from the same moment, with
// the shared harness (internal/gametest) under short names.
var (
	start     = gametest.Start
	newBolt   = gametest.Bolt
	newDynamo = gametest.Dynamo
	seeded    = gametest.Seeded
	newGame   = gametest.NewGame
	req       = gametest.Req
	ruleCode  = gametest.RuleCode
)

const admin = gametest.Admin

func decode[T any](t testing.TB, res *game.Result) T {
	t.Helper()
	return gametest.Decode[T](t, res)
}
