package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
)

// members decodes a JSON object's members.
func members(t *testing.T, r *apitest.Response) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	r.Decode(t, &m)
	return m
}

// TestPlayerJSONPerRuleset: a player's status, as join, GET players/{id} and
// the players list answer it (each exchange checked against openapi.yaml),
// carries the holdings of the game's ruleset and no other's: a turns
// player's points, pool and cases, an Obelisk player's state, Gilded
// Hall's inventory, deck, packs and gifts (RULINGS R3); a turns game names
// its period for people.
func TestPlayerJSONPerRuleset(t *testing.T) {
	e := newEnv(t)
	gh := []string{"inventory", "deck", "deck_size", "packs", "can_gift"}
	cases := []struct {
		game, ruleset string
		has, hasNot   []string
	}{
		{"nomic-1", "turns", []string{"points", "in_pool", "judging", "period_name"}, append(gh, "state")},
		{"stone-1", "obelisk", []string{"state"}, append(gh, "points", "period_name")},
		{"hall-1", "gilded-hall", gh, []string{"state", "points", "period_name"}},
	}
	for _, c := range cases {
		t.Run(c.ruleset, func(t *testing.T) {
			created := members(t, e.mustStatus(e.Post("/v1/games", "create-"+c.game, game.CreateGame{ID: c.game, Ruleset: c.ruleset}), http.StatusCreated))
			var period game.PeriodView
			if err := json.Unmarshal(created["period"], &period); err != nil {
				t.Fatal(err)
			}
			switch {
			case c.ruleset == "turns" && period.Name != "round 1, before turn 1-1, which begins Mon 7 Dec 22:00 CST":
				t.Errorf("a new turns game's period is named %q, want its round and first turn", period.Name)
			case c.ruleset != "turns" && period.Name != "":
				t.Errorf("a %s game's period is named %q; its id %s is its name", c.ruleset, period.Name, period.ID)
			}
			joined := members(t, e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + c.game + "/join", Actor: ada, Idem: "join-" + c.game,
				Body: game.JoinGame{Name: "Ada"}}), http.StatusOK))
			read := members(t, e.mustStatus(e.Get("/v1/games/"+c.game+"/players/"+ada), http.StatusOK))
			var list struct{ Players []map[string]json.RawMessage }
			e.mustStatus(e.Get("/v1/games/"+c.game+"/players"), http.StatusOK).Decode(t, &list)
			if len(list.Players) != 1 {
				t.Fatalf("the players list has %d players, want Ada", len(list.Players))
			}
			for what, m := range map[string]map[string]json.RawMessage{"join": joined, "status": read, "players list": list.Players[0]} {
				if string(m["ruleset"]) != `"`+c.ruleset+`"` {
					t.Errorf("%s: ruleset %s, want %q", what, m["ruleset"], c.ruleset)
				}
				for _, k := range c.has {
					if _, ok := m[k]; !ok {
						t.Errorf("%s of a %s player lacks %q: %v", what, c.ruleset, k, m)
					}
				}
				for _, k := range c.hasNot {
					if _, ok := m[k]; ok {
						t.Errorf("%s of a %s player has %q: %s", what, c.ruleset, k, m[k])
					}
				}
			}
			if c.ruleset == "turns" {
				if string(read["points"]) != "0" || string(read["in_pool"]) != "false" || string(read["judging"]) != "[]" || string(read["active"]) != "true" {
					t.Errorf("a new turns player: points %s, in_pool %s, judging %s, active %s; want 0, false, [], true",
						read["points"], read["in_pool"], read["judging"], read["active"])
				}
				if name := string(read["period_name"]); !strings.Contains(name, "before turn 1-1, which begins") {
					t.Errorf("a turns player's period_name is %s", name)
				}
			}
		})
	}
}
