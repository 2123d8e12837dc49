package gildedhall_test

import "croupier/internal/gametest"

// gov drives the 000 governance of a Gilded Hall game (the shared
// harness's): what the Gilded Hall's tests of due work need of it (the
// governance's own tests are the engine's).
type gov = gametest.Gov

var (
	pl  = gametest.Pl
	pls = gametest.Pls
	msg = gametest.Msg
)
