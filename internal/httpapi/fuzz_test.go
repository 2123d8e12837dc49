package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
)

// FuzzAPI throws arbitrary method, path, body and header combinations at
// the API: it must never answer 500, every problem must carry a code and
// its own status, and every response must be one the document describes.
// The dev clock is off: moving it to year 9999 would end every period in
// between, which is slow by design, not a bug.
func FuzzAPI(f *testing.F) {
	svc, _ := newService(f)
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, Logger: quiet()})
	contract, err := apitest.Load(httpapi.OpenAPI)
	if err != nil {
		f.Fatal(err)
	}
	setup := []struct{ path, actor, body string }{
		{"/v1/games", admin, `{"id":"hall-16"}`},
		{"/v1/games/hall-16/join", ada, ``},
		{"/v1/games/hall-16/join", bob, ``},
		{"/v1/games/hall-16/grants", admin, `{"player":"discord:2000","vertebrae":100,"packs":[{"pack":"handy-pack"}],"reason":"fuzz"}`},
		{"/v1/games/hall-16/trades", ada, `{"to":"slack:U024BE7LH","give":{"vertebrae":5}}`},
	}
	for _, s := range setup {
		req, _ := http.NewRequest("POST", "http://croupier.test"+s.path, strings.NewReader(s.body))
		req.Header.Set("Authorization", "Bearer "+testKey)
		req.Header.Set(httpapi.HeaderActor, s.actor)
		if ex, _ := contract.Serve(api, req); ex.Status >= 300 {
			f.Fatalf("setup %s: %d %s", s.path, ex.Status, ex.Body)
		}
	}

	seeds := []struct {
		method, path, ct, auth, actor, idem string
		body                                string
	}{
		{"GET", "/healthz", "", "", "", "", ""},
		{"GET", "/v1/games/hall-16", "", "Bearer " + testKey, "", "", ""},
		{"POST", "/v1/games/hall-16/rolls", "application/json", "Bearer " + testKey, ada, "k1", `{"dice":"2d6"}`},
		{"POST", "/v1/games/hall-16/rolls", "application/json", "Bearer " + testKey, ada, "k1", `{"dice":"2d6"}}`},
		{"POST", "/v1/games/hall-16/grants", "application/json", "Bearer " + testKey, admin, "", `{"player":"discord:2000","chips":-5}`},
		{"POST", "/v1/games", "application/json; charset=utf-8", "Bearer " + testKey, admin, "", `{"id":"x","admins":["discord:1"]}`},
		{"POST", "/v1/games/hall-16/leave", "text/plain", "Bearer wrong", "bad actor", "", `{`},
		{"DELETE", "/v1/games/hall-16/players/discord:2000", "", "Bearer " + testKey, "", "", ""},
		{"GET", "/v1/games/hall-16/log?limit=1&cursor=%00", "", "Bearer " + testKey, "", "", ""},
		{"GET", "/v1/games/HALL/me", "", "Basic x", "discord:", "", ""},
		{"POST", "/v1/games/hall-16/join", "application/problem+json", "Bearer " + testKey, bob, strings.Repeat("k", 300), `{"name":null}`},
		{"HEAD", "/v1/games/hall-16/seeds", "", "Bearer " + testKey, "", "", ""},
		{"GET", "/v1/games/hall-16/../../healthz", "", "", "", "", ""},
		{"POST", "/v1/dev/clock", "application/json", "Bearer " + testKey, "", "", `{"advance":"1h"}`},
		{"POST", "/v1/games/hall-16/purchases", "application/json", "Bearer " + testKey, ada, "b1", `{"item":"random-card","quantity":2}`},
		{"POST", "/v1/games/hall-16/purchases", "application/json", "Bearer " + testKey, ada, "", `{"item":"legendary-pack","quantity":-1}`},
		{"POST", "/v1/games/hall-16/packs/open", "application/json", "Bearer " + testKey, ada, "o1", `{"pack":"handy-pack"}`},
		{"POST", "/v1/games/hall-16/gifts", "application/json", "Bearer " + testKey, ada, "g1", `{"to":"slack:U024BE7LH"}`},
		{"POST", "/v1/games/hall-16/trades", "application/json", "Bearer " + testKey, bob, "", `{"to":"discord:2000","give":{"cards":["x.1","x.1"]},"take":{"chips":-1}}`},
		{"GET", "/v1/games/hall-16/trades?player=discord:2000&status=open", "", "Bearer " + testKey, "", "", ""},
		{"GET", "/v1/games/hall-16/trades/t0000000000", "", "Bearer " + testKey, "", "", ""},
		{"POST", "/v1/games/hall-16/trades/t0000000000/accept", "", "Bearer " + testKey, bob, "", ``},
		{"POST", "/v1/games/hall-16/trades/t0000000000/withdraw", "application/json", "Bearer " + testKey, ada, "", `{}`},
		{"GET", "/v1/games/hall-16/shop", "", "Bearer " + testKey, "", "", ""},
		{"GET", "/v1/games/hall-16/ruleset", "", "Bearer " + testKey, "", "", ""},
		{"POST", "/v1/games/hall-16/revocations", "application/json", "Bearer " + testKey, admin, "", `{"player":"discord:2000","vertebrae":1,"cards":["nope"],"reason":"fuzz"}`},
		{"POST", "/v1/games/hall-16/amendments", "application/json", "Bearer " + testKey, admin, "", `{"patch":{"chances":{"holoPack":7}},"reason":"fuzz"}`},
		{"POST", "/v1/games/hall-16/amendments", "application/json", "Bearer " + testKey, admin, "", `{"patch":[1],"reason":""}`},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.ct, s.auth, s.actor, s.idem, []byte(s.body))
	}

	f.Fuzz(func(t *testing.T, method, path, ct, auth, actor, idem string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://croupier.test"+path, bytes.NewReader(body))
		if err != nil {
			return // not an HTTP request a server could receive
		}
		for k, v := range map[string]string{"Content-Type": ct, "Authorization": auth, httpapi.HeaderActor: actor, httpapi.HeaderIdempotency: idem} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		ex, _ := contract.Serve(api, apitest.ResponseOnly(req))
		if ex.Status == http.StatusInternalServerError {
			t.Fatalf("%s: 500: %s", ex, ex.Body)
		}
		if strings.HasPrefix(ex.Header.Get("Content-Type"), "application/problem+json") {
			var p httpapi.Problem
			if err := json.Unmarshal(ex.Body, &p); err != nil || p.Code == "" || p.Status != ex.Status {
				t.Fatalf("%s: problem without code or with the wrong status (%v): %s", ex, err, ex.Body)
			}
		}
		if err := contract.Check(ex); err != nil {
			t.Fatalf("contract: %s: %v", ex, err)
		}
	})
}

// TestFuzzSetupIsValid keeps the fuzz target's assumptions honest: the
// game it targets exists and a valid roll in it succeeds.
func TestFuzzSetupIsValid(t *testing.T) {
	e := withGame(t)
	var r game.RollResult
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/rolls", Actor: ada, Body: game.RollDice{Dice: "2d6"}}), 200).Decode(t, &r)
	if len(r.Rolls) != 2 {
		t.Errorf("roll = %+v", r)
	}
}
