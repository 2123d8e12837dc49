package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store/storetest"
)

// RULINGS G3 through the JSON API: an admin grants and revokes an Obelisk
// player's components on the commands route (checked against
// openapi.yaml), naming the player by display name and each component's
// count by its id; a player's attempt is 403, an unknown component 400
// (the payload is strict), a revocation of more than held 422, each with
// the game unchanged, and the answer says the correction in a sentence
// with the player's name (Croupier-Says).
func TestObeliskGrantAndRevokeComponentsThroughTheAPI(t *testing.T) {
	e := newEnv(t)
	e.mustStatus(e.Post("/v1/games", "create-ob", game.CreateGame{ID: "ob", Ruleset: obelisk.ID}), http.StatusCreated)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/ob/join", Actor: ada, Idem: "join-ada", Body: game.JoinGame{Name: "Ada"}}), http.StatusOK)
	post := func(cmd, actor, idem string, body any) *apitest.Response {
		return e.Do(apitest.Call{Method: "POST", Path: "/v1/games/ob/commands/" + cmd, Actor: actor, Idem: idem, Body: body})
	}
	var g obelisk.Corrected
	res := e.mustStatus(post("components-grant", admin, "g1", map[string]any{"player": "Ada", "crystals": 2, "herbs": 3, "reason": "ruling 4"}), http.StatusOK)
	res.Decode(t, &g)
	if says := says(res); !strings.Contains(says, "granted Ada 2💎 3🌿 (ruling 4); Ada now holds 1⚡ 2💎 3🌿.") || g.Player != ada || len(g.Changes) != 2 || g.Changes[0].Cause != "correction" {
		t.Errorf("the grant answered %+v: %q", g, says)
	}
	before := storetest.Partition(t, e.svc.Store(), "ob")
	for _, tc := range []struct {
		what, cmd, actor string
		body             map[string]any
		status           int
		code             string
		bad              bool
	}{
		{"a player's grant", "components-grant", ada, map[string]any{"player": ada, "heart": 1, "reason": "mine"}, http.StatusForbidden, "forbidden", false},
		{"an unknown component", "components-grant", admin, map[string]any{"player": ada, "gold": 1, "reason": "r"}, http.StatusBadRequest, "invalid_json", true},
		{"more than held", "components-revoke", admin, map[string]any{"player": ada, "crystals": 3, "reason": "r"}, http.StatusUnprocessableEntity, "insufficient_components", false},
	} {
		r := e.Do(apitest.Call{Method: "POST", Path: "/v1/games/ob/commands/" + tc.cmd, Actor: tc.actor, Idem: "x-" + tc.code, Body: tc.body, Bad: tc.bad})
		if r.Status != tc.status || r.Problem(t).Code != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.what, r.Status, r.Body, tc.status, tc.code)
		}
	}
	if after := storetest.Partition(t, e.svc.Store(), "ob"); after != before {
		t.Errorf("a refused correction changed the game")
	}
	var r obelisk.Corrected
	res = e.mustStatus(post("components-revoke", admin, "r1", map[string]any{"player": ada, "crystals": 2, "reason": "a duplicate"}), http.StatusOK)
	res.Decode(t, &r)
	if says := says(res); !r.Revoke || !strings.Contains(says, "revoked 2💎 from Ada (a duplicate); Ada now holds 1⚡ 3🌿.") {
		t.Errorf("the revocation answered %+v: %q", r, says)
	}
}

// says is the sentence an answer carries (Croupier-Says).
func says(r *apitest.Response) string {
	s, _ := url.PathUnescape(r.Header.Get(httpapi.HeaderSays))
	return s
}
