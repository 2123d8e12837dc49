package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store/storetest"
)

// RULINGS G3 through the JSON API: an admin grants and revokes an Obelisk
// player's components on the commands route (checked against
// openapi.yaml); a player's attempt is 403, an unknown component and a
// revocation of more than held are 422 with the game unchanged, and the
// answer says the correction in a sentence with the player's name.
func TestObeliskGrantAndRevokeComponentsThroughTheAPI(t *testing.T) {
	e := newEnv(t)
	e.mustStatus(e.Post("/v1/games", "create-ob", game.CreateGame{ID: "ob", Ruleset: obelisk.ID}), http.StatusCreated)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/ob/join", Actor: ada, Idem: "join-ada", Body: game.JoinGame{Name: "Ada"}}), http.StatusOK)
	post := func(cmd, actor, idem string, body any) *apitest.Response {
		return e.Do(apitest.Call{Method: "POST", Path: "/v1/games/ob/commands/" + cmd, Actor: actor, Idem: idem, Body: body})
	}
	var g obelisk.Corrected
	e.mustStatus(post("components-grant", admin, "g1", map[string]any{"player": ada, "components": map[string]int{"crystals": 2, "🌿": 3}, "reason": "ruling 4"}), http.StatusOK).Decode(t, &g)
	if !strings.Contains(g.Text, "granted Ada 2💎 3🌿 (ruling 4); Ada now holds 1⚡ 2💎 3🌿.") || len(g.Changes) != 2 || g.Changes[0].Cause != "correction" {
		t.Errorf("the grant answered %+v", g)
	}
	before := storetest.Partition(t, e.svc.Store(), "ob")
	for _, tc := range []struct {
		what, cmd, actor string
		body             map[string]any
		status           int
		code             string
	}{
		{"a player's grant", "components-grant", ada, map[string]any{"player": ada, "components": map[string]int{"heart": 1}, "reason": "mine"}, http.StatusForbidden, "forbidden"},
		{"an unknown component", "components-grant", admin, map[string]any{"player": ada, "components": map[string]int{"gold": 1}, "reason": "r"}, http.StatusUnprocessableEntity, "unknown_component"},
		{"more than held", "components-revoke", admin, map[string]any{"player": ada, "components": map[string]int{"crystals": 3}, "reason": "r"}, http.StatusUnprocessableEntity, "insufficient_components"},
	} {
		r := post(tc.cmd, tc.actor, "x-"+tc.code, tc.body)
		if r.Status != tc.status || r.Problem(t).Code != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.what, r.Status, r.Body, tc.status, tc.code)
		}
	}
	if after := storetest.Partition(t, e.svc.Store(), "ob"); after != before {
		t.Errorf("a refused correction changed the game")
	}
	var r obelisk.Corrected
	e.mustStatus(post("components-revoke", admin, "r1", map[string]any{"player": ada, "components": map[string]int{"crystals": 2}, "reason": "a duplicate"}), http.StatusOK).Decode(t, &r)
	if !r.Revoke || !strings.Contains(r.Text, "revoked 2💎 from Ada (a duplicate); Ada now holds 1⚡ 3🌿.") {
		t.Errorf("the revocation answered %+v", r)
	}
}
