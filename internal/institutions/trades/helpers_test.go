package trades_test

import "croupier/internal/gametest"

// The trades' tests play in a Gilded Hall game, "hall" (its records trade
// cards, the richest goods), and in an Obelisk game: the shared harness's
// (internal/gametest) administrator and requests keep short names.
const (
	admin            = gametest.Admin
	ada, bo, cy, dee = "discord:2", "discord:3", "discord:4", "discord:5"
)

var req = gametest.Req
