package gildedhall_test

import (
	"croupier/internal/gametest"
)

// The Gilded Hall's tests play one game, "hall", from the same moment: the
// shared harness's (internal/gametest), whose administrator and requests
// they name in nearly every call.
const admin = gametest.Admin

var req = gametest.Req
