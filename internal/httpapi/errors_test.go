package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets/gildedhall"
)

// TestBadInputNeverServerError is the acceptance test "bad input never
// 500": each malformed or refused request gets its documented status, a
// problem+json body and its stable code, and changes nothing.
func TestBadInputNeverServerError(t *testing.T) {
	e := withGame(t)
	g := "/v1/games/" + gameID
	e.mustStatus(e.Post(g+"/grants", "seed-funds", gildedhall.Grant{Player: ada, Vertebrae: 10, Reason: "test"}), 200)
	before := len(e.logEntries(gameID))
	adaBefore := e.player(gameID, ada)

	huge := `{"dice":"1d6","reason":"` + strings.Repeat("x", 64<<10) + `"}`
	longKey := strings.Repeat("k", 256)
	cases := []struct {
		name   string
		call   apitest.Call
		status int
		code   string
		header string // a response header that must be set
	}{
		// Malformed JSON, several kinds.
		{"syntax error", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":`, Bad: true}, 400, "invalid_json", ""},
		{"not JSON at all", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `roll 2d6 please`, Bad: true}, 400, "invalid_json", ""},
		{"wrong type", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":6}`, Bad: true}, 400, "invalid_json", ""},
		{"array instead of object", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `["1d6"]`, Bad: true}, 400, "invalid_json", ""},
		{"trailing object", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"} {"dice":"1d6"}`, Bad: true}, 400, "invalid_json", ""},
		{"trailing garbage", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"}x`, Bad: true}, 400, "invalid_json", ""},
		{"trailing brace", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"}}`, Bad: true}, 400, "invalid_json", ""},
		{"trailing bracket", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"}]`, Bad: true}, 400, "invalid_json", ""},
		{"unknown field", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6","sides":6}`, Bad: true}, 400, "invalid_json", ""},
		{"unknown field on leave", apitest.Call{Method: "POST", Path: g + "/leave", Actor: ada, Body: `{"now":true}`, Bad: true}, 400, "invalid_json", ""},
		{"wrong type in grant", apitest.Call{Method: "POST", Path: g + "/grants", Body: `{"player":"discord:2000","chips":"10"}`, Bad: true}, 400, "invalid_json", ""},
		{"empty body on roll", apitest.Call{Method: "POST", Path: g + "/rolls", Bad: true}, 400, "invalid_json", ""},
		{"whitespace body on grant", apitest.Call{Method: "POST", Path: g + "/grants", Body: " \n", Bad: true}, 400, "invalid_json", ""},
		{"empty body on create", apitest.Call{Method: "POST", Path: "/v1/games", Bad: true}, 400, "invalid_json", ""},
		{"null body on roll", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `null`, Bad: true}, 400, "invalid_dice", ""},
		{"empty body on clock", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Bad: true}, 400, "invalid_json", ""},

		// Routes and methods.
		{"unknown route", apitest.Call{Method: "GET", Path: "/v1/nothing"}, 404, "not_found", ""},
		{"unknown sub-route", apitest.Call{Method: "POST", Path: g + "/explode", Body: `{}`}, 404, "not_found", ""},
		{"root", apitest.Call{Method: "GET", Path: "/"}, 404, "not_found", ""},
		{"wrong method on a game", apitest.Call{Method: "DELETE", Path: g}, 405, "method_not_allowed", "Allow"},
		{"GET on a command", apitest.Call{Method: "GET", Path: g + "/rolls"}, 405, "method_not_allowed", "Allow"},
		{"PUT on games", apitest.Call{Method: "PUT", Path: "/v1/games", Body: `{}`}, 405, "method_not_allowed", "Allow"},

		// Authentication.
		{"missing API key", apitest.Call{Method: "GET", Path: g, Omit: []string{"Authorization"}, Bad: true}, 401, "missing_api_key", "WWW-Authenticate"},
		{"missing API key on a command", apitest.Call{Method: "POST", Path: g + "/rolls", Body: game.RollDice{Dice: "1d6"}, Omit: []string{"Authorization"}, Bad: true}, 401, "missing_api_key", "WWW-Authenticate"},
		{"wrong API key", apitest.Call{Method: "GET", Path: g, Key: "guess"}, 401, "invalid_api_key", "WWW-Authenticate"},
		{"not a bearer key", apitest.Call{Method: "GET", Path: g, Header: http.Header{"Authorization": {"Basic dGVzdDp0ZXN0"}}, Bad: true}, 401, "invalid_api_key", "WWW-Authenticate"},

		// Size and media type.
		{"body over 64 KiB", apitest.Call{Method: "POST", Path: g + "/rolls", Body: huge, Bad: true}, 413, "body_too_large", ""},
		{"text/plain body", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"}`, ContentType: "text/plain", Bad: true}, 415, "unsupported_media_type", ""},
		{"form body", apitest.Call{Method: "POST", Path: "/v1/games", Body: `id=x`, ContentType: "application/x-www-form-urlencoded", Bad: true}, 415, "unsupported_media_type", ""},
		{"unparsable content type", apitest.Call{Method: "POST", Path: g + "/rolls", Body: `{"dice":"1d6"}`, ContentType: "application/", Bad: true}, 415, "unsupported_media_type", ""},

		// Headers and identifiers.
		{"missing actor", apitest.Call{Method: "POST", Path: g + "/rolls", Body: game.RollDice{Dice: "1d6"}, Omit: []string{"X-Croupier-Actor"}, Bad: true}, 400, "missing_actor", ""},
		{"missing actor on me", apitest.Call{Method: "GET", Path: g + "/me", Omit: []string{"X-Croupier-Actor"}, Bad: true}, 400, "missing_actor", ""},
		{"invalid actor", apitest.Call{Method: "POST", Path: g + "/rolls", Actor: "Discord 2000", Body: game.RollDice{Dice: "1d6"}, Bad: true}, 400, "invalid_actor", ""},
		{"invalid game id", apitest.Call{Method: "GET", Path: "/v1/games/Hall_16", Bad: true}, 400, "invalid_game_id", ""},
		{"invalid game id on a command", apitest.Call{Method: "POST", Path: "/v1/games/-x/rolls", Body: game.RollDice{Dice: "1d6"}, Bad: true}, 400, "invalid_game_id", ""},
		{"invalid game id on create", apitest.Call{Method: "POST", Path: "/v1/games", Body: game.CreateGame{ID: "No Spaces"}, Bad: true}, 400, "invalid_game_id", ""},
		{"invalid actor on me", apitest.Call{Method: "GET", Path: g + "/me", Actor: "Discord 2000", Bad: true}, 400, "invalid_actor", ""},
		{"clock: too far ahead", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"advance":"10000h"}`}, 400, "invalid_clock", ""},
		{"clock: set too far ahead", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"set":"9999-01-01T00:00:00Z"}`}, 400, "invalid_clock", ""},
		// The path names a player as a person does (game.ResolvePlayer).
		{"unknown player name", apitest.Call{Method: "GET", Path: g + "/players/nobody", Bad: true}, 404, "unknown_player", ""},
		{"too long idempotency key", apitest.Call{Method: "POST", Path: g + "/rolls", Idem: longKey, Actor: ada, Body: game.RollDice{Dice: "1d6"}, Bad: true}, 400, "invalid_idempotency_key", ""},
		{"bad dice", apitest.Call{Method: "POST", Path: g + "/rolls", Actor: ada, Body: game.RollDice{Dice: "2x6"}, Bad: true}, 400, "invalid_dice", ""},
		{"too many dice", apitest.Call{Method: "POST", Path: g + "/rolls", Actor: ada, Body: game.RollDice{Dice: "101d6"}}, 400, "invalid_dice", ""},
		{"zero-sided die", apitest.Call{Method: "POST", Path: g + "/rolls", Actor: ada, Body: game.RollDice{Dice: "1d0"}}, 400, "invalid_dice", ""},
		{"log limit zero", apitest.Call{Method: "GET", Path: g + "/log?limit=0", Bad: true}, 400, "invalid_limit", ""},
		{"log limit not a number", apitest.Call{Method: "GET", Path: g + "/log?limit=ten", Bad: true}, 400, "invalid_limit", ""},
		{"players limit too large", apitest.Call{Method: "GET", Path: g + "/players?limit=501", Bad: true}, 400, "invalid_limit", ""},
		{"trades limit negative", apitest.Call{Method: "GET", Path: g + "/trades?limit=-1", Bad: true}, 400, "invalid_limit", ""},
		{"matches forged cursor", apitest.Call{Method: "GET", Path: g + "/matches?cursor=not-a-cursor"}, 400, "invalid_cursor", ""},
		{"proposals empty cursor", apitest.Call{Method: "GET", Path: g + "/proposals?cursor=", Bad: true}, 400, "invalid_cursor", ""},
		{"activity of a period not ended", apitest.Call{Method: "GET", Path: g + "/periods/2030-W01-I/activity"}, 404, "period_not_ended", ""},
		{"activity forged cursor", apitest.Call{Method: "GET", Path: g + "/periods/2030-W01-I/activity?cursor=x"}, 404, "period_not_ended", ""},
		{"forged cursor", apitest.Call{Method: "GET", Path: g + "/log?cursor=not-a-cursor"}, 400, "invalid_cursor", ""},
		{"unknown ruleset", apitest.Call{Method: "POST", Path: "/v1/games", Body: game.CreateGame{ID: "other", Ruleset: "chess"}, Bad: true}, 400, "unknown_ruleset", ""},
		{"unknown season", apitest.Call{Method: "POST", Path: "/v1/games", Body: game.CreateGame{ID: "other", Season: "Summer"}, Bad: true}, 400, "invalid_request", ""},
		{"empty grant", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: ada, Reason: "test"}}, 400, "invalid_request", ""},
		{"clock: both", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"set":"2027-01-01T00:00:00Z","advance":"1h"}`}, 400, "invalid_clock", ""},
		{"clock: neither", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{}`}, 400, "invalid_clock", ""},
		{"clock: backwards", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"advance":"-1h"}`}, 400, "invalid_clock", ""},
		{"clock: not a duration", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"advance":"soon"}`}, 400, "invalid_clock", ""},
		{"clock: not a time", apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"set":"tomorrow"}`, Bad: true}, 400, "invalid_json", ""},

		// Well-formed requests the state refuses.
		{"unknown game", apitest.Call{Method: "GET", Path: "/v1/games/no-such-game"}, 404, "game_not_found", ""},
		{"command on an unknown game", apitest.Call{Method: "POST", Path: "/v1/games/no-such-game/join", Body: `{}`}, 404, "game_not_found", ""},
		{"never played", apitest.Call{Method: "GET", Path: g + "/players/" + bob}, 404, "player_not_found", ""},
		{"me when never played", apitest.Call{Method: "GET", Path: g + "/me", Actor: bob}, 404, "player_not_found", ""},
		{"game exists", apitest.Call{Method: "POST", Path: "/v1/games", Body: game.CreateGame{ID: gameID}}, 409, "game_exists", ""},
		{"already a player", apitest.Call{Method: "POST", Path: g + "/join", Actor: ada}, 409, "already_a_player", ""},
		{"roll by a non-player", apitest.Call{Method: "POST", Path: g + "/rolls", Actor: bob, Body: game.RollDice{Dice: "1d6"}}, 409, "not_a_player", ""},
		{"leave by a non-player", apitest.Call{Method: "POST", Path: g + "/leave", Actor: bob}, 409, "not_a_player", ""},
		{"grant to a non-player", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: bob, Chips: 1, Reason: "test"}}, 409, "not_a_player", ""},
		{"grant by a non-admin", apitest.Call{Method: "POST", Path: g + "/grants", Actor: ada, Body: gildedhall.Grant{Player: ada, Chips: 1, Reason: "test"}}, 403, "forbidden", ""},
		{"balance below zero", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: ada, Vertebrae: -11, Reason: "test"}}, 422, "insufficient_funds", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.T = t
			r := e.Do(tc.call)
			if r.Status != tc.status {
				t.Errorf("status %d, want %d; body %s", r.Status, tc.status, r.Body)
			}
			p := r.Problem(t)
			if p.Code != tc.code || p.Status != tc.status || p.Detail == "" || p.Type != "https://croupier.dev/problems/"+tc.code {
				t.Errorf("problem = %+v, want code %s", p, tc.code)
			}
			if tc.header != "" && r.Header.Get(tc.header) == "" {
				t.Errorf("no %s header", tc.header)
			}
		})
	}
	e.T = t

	if after := len(e.logEntries(gameID)); after != before {
		t.Errorf("the log has %d entries after the bad requests, want %d", after, before)
	}
	if p := e.player(gameID, ada); p.Inventory.Vertebrae != adaBefore.Inventory.Vertebrae || !p.Member {
		t.Errorf("ada after the bad requests = %+v, want %+v", p, adaBefore)
	}
	var gv game.GameView
	e.mustStatus(e.Get("/v1/games/other"), 404)
	e.mustStatus(e.Get(g), 200).Decode(t, &gv)
	if !e.clock.Now().Equal(t0) {
		t.Errorf("the clock moved to %s", e.clock.Now())
	}
}

// TestMethodNotAllowedAllow: 405 names the methods the path has.
func TestMethodNotAllowedAllow(t *testing.T) {
	e := newEnv(t)
	for path, allow := range map[string]string{
		"/v1/games/x":       "GET",
		"/v1/games/x/rolls": "POST",
		"/v1/games":         "POST",
		"/healthz":          "GET",
	} {
		r := e.Do(apitest.Call{Method: "PATCH", Path: path, Body: `{}`})
		if r.Status != 405 || r.Header.Get("Allow") != allow {
			t.Errorf("PATCH %s: %d Allow %q, want 405 Allow %q", path, r.Status, r.Header.Get("Allow"), allow)
		}
	}
}

// TestP1_RejoinTooSoon: someone who left 3 days ago cannot join; the problem
// says when they can (possible_at = left + 7 days, and the date in detail),
// and at that moment they can.
func TestP1_RejoinTooSoon(t *testing.T) {
	e := withGame(t)
	g := "/v1/games/" + gameID
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/leave", Actor: ada, Idem: "leave"}), 200)
	leftAt := t0
	possible := leftAt.Add(7 * 24 * time.Hour)

	e.clock.Advance(3 * 24 * time.Hour)
	r := e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: ada, Idem: "rejoin-early"})
	if r.Status != http.StatusConflict {
		t.Fatalf("status %d, want 409; body %s", r.Status, r.Body)
	}
	p := r.Problem(t)
	if p.Code != "rejoin_too_soon" {
		t.Errorf("code %q, want rejoin_too_soon", p.Code)
	}
	at, _ := p.Extra["possible_at"].(string)
	if got, err := time.Parse(time.RFC3339, at); err != nil || !got.Equal(possible) {
		t.Errorf("possible_at = %q, want %s (RFC 3339)", at, possible.Format(time.RFC3339))
	}
	if !strings.Contains(p.Detail, possible.Format(time.RFC1123)) {
		t.Errorf("detail %q does not name the date %s", p.Detail, possible.Format(time.RFC1123))
	}
	if v := e.player(gameID, ada); v.Member || v.RejoinPossibleAt == nil || !v.RejoinPossibleAt.Equal(possible) {
		t.Errorf("ada's status = %+v, want not a member, rejoin_possible_at %s", v, possible)
	}

	e.clock.Set(possible.Add(-time.Nanosecond))
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: ada, Idem: "rejoin-almost"}), http.StatusConflict)
	e.clock.Set(possible)
	var v gildedhall.PlayerView
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: ada, Idem: "rejoin"}), 200).Decode(t, &v)
	if !v.Member || v.Name != "Ada" || v.Inventory.Vertebrae != 0 || v.RejoinPossibleAt != nil {
		t.Errorf("rejoined = %+v, want a member named Ada with an empty inventory", v)
	}
}
