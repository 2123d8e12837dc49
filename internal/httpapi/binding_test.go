package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"croupier/internal/game"
)

// GET /v1/bindings/{platform}/{space} says which game, and so which
// ruleset, a chat server plays (what `croupier discord register --bound`
// reads); a key limited to other games may not learn it, a space bound to
// no game is 404 space_not_bound, a malformed one 400 invalid_space.
func TestBindingReadNamesTheGameAndItsRuleset(t *testing.T) {
	e := newCredEnv(t, "bolt")
	e.must("all-key", admin, "POST", "/v1/games", `{"id":"ob","ruleset":"obelisk"}`, http.StatusCreated)
	if _, err := e.svc.Bind(context.Background(), game.Request{Game: "ob", Actor: admin, Key: "bind"}, game.Bind{Platform: "discord", Space: "777"}); err != nil {
		t.Fatal(err)
	}
	var v game.SpaceView
	if err := json.Unmarshal(e.must("all-key", "", "GET", "/v1/bindings/discord/777", "", http.StatusOK), &v); err != nil {
		t.Fatal(err)
	}
	if v.Game != "ob" || v.Ruleset != "obelisk" || v.RulesetTitle != "Obelisk" || v.By != admin {
		t.Errorf("binding of discord 777: %+v", v)
	}
	for _, c := range []struct {
		key, path string
		status    int
		code      string
	}{
		{"hall-a-key", "/v1/bindings/discord/777", http.StatusForbidden, "game_out_of_scope"},
		{"all-key", "/v1/bindings/discord/778", http.StatusNotFound, "space_not_bound"},
		{"all-key", "/v1/bindings/Discord!/777", http.StatusBadRequest, "invalid_space"},
	} {
		status, p, body := e.do(c.key, "", "GET", c.path, "")
		if status != c.status || p.Code != c.code {
			t.Errorf("GET %s with %s: %d %s (%s), want %d %s", c.path, c.key, status, p.Code, body, c.status, c.code)
		}
	}
}
