package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"testing"
	"time"

	"croupier/internal/credential"
	"croupier/internal/fair"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// TestHappyPath walks a bridge through a game's life: every exchange is
// checked against openapi.yaml by the test client's transport.
func TestHappyPath(t *testing.T) {
	e := newEnv(t)
	g := "/v1/games/" + gameID

	// The public routes need no key.
	var health struct {
		Status, Version string
		Time            time.Time
	}
	e.mustStatus(e.Do(apitest.Call{Method: "GET", Path: "/healthz", Omit: []string{"Authorization"}}), 200).Decode(t, &health)
	if health.Status != "ok" || health.Version != "test" || !health.Time.Equal(t0) {
		t.Errorf("healthz = %+v, want ok, test, %s", health, t0)
	}

	// Create: the actor becomes the admin; the period's seed is committed at once (N2).
	var created game.GameView
	e.mustStatus(e.Post("/v1/games", "create-1", game.CreateGame{ID: gameID, Name: "The Gilded Hall"}), http.StatusCreated).Decode(t, &created)
	if created.ID != gameID || created.Name != "The Gilded Hall" || created.Ruleset != "gilded-hall" ||
		!slices.Equal(created.Admins, []string{admin}) || created.Season != "Calm Spring" || created.Ended {
		t.Errorf("created = %+v", created)
	}
	if created.Period.ID != "2026-W49-I" || !created.Period.End.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("period = %+v, want 2026-W49-I ending Friday 4 December (T1)", created.Period)
	}
	var got game.GameView
	e.mustStatus(e.Get(g), 200).Decode(t, &got)
	if got.ID != created.ID || !got.CreatedAt.Equal(created.CreatedAt) || got.Period != created.Period {
		t.Errorf("GET game = %+v, want %+v", got, created)
	}

	// Join (P1): ada and the admin. The clock moves between commands: log
	// entries of the same millisecond are not ordered (see the report).
	e.clock.Advance(time.Second)
	var joined gildedhall.PlayerView
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Actor: ada, Idem: "j-ada", Body: game.JoinGame{Name: "Ada"}}), 200).Decode(t, &joined)
	if joined.ID != ada || joined.Name != "Ada" || !joined.Member || !joined.Active || joined.DeckSize != 0 || !joined.JoinedAt.Equal(t0.Add(time.Second)) {
		t.Errorf("joined = %+v", joined)
	}
	// A join with no body at all is fine: the body is optional.
	e.clock.Advance(time.Second)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/join", Idem: "j-admin"}), 200)

	var me gildedhall.PlayerView
	e.mustStatus(e.Do(apitest.Call{Method: "GET", Path: g + "/me", Actor: ada}), 200).Decode(t, &me)
	if me.ID != ada || me.Game != gameID || !me.Member {
		t.Errorf("me = %+v", me)
	}
	var list struct{ Players []gildedhall.PlayerView }
	e.mustStatus(e.Get(g+"/players"), 200).Decode(t, &list)
	if len(list.Players) != 2 {
		t.Errorf("players = %+v, want 2", list.Players)
	}

	// Roll (seed 002 Dice Rolls, N1): three d6, each a logged draw.
	e.clock.Advance(time.Second)
	var roll game.RollResult
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/rolls", Actor: ada, Idem: "r1", Body: game.RollDice{Dice: "3d6", Reason: "observe the Obelisk"}}), 200).Decode(t, &roll)
	sum := 0
	for _, r := range roll.Rolls {
		if r < 1 || r > 6 {
			t.Errorf("a d6 rolled %d", r)
		}
		sum += r
	}
	if roll.Dice != "3d6" || len(roll.Rolls) != 3 || roll.Total != sum || roll.Reason != "observe the Obelisk" || roll.Period != "2026-W49-I" {
		t.Errorf("roll = %+v", roll)
	}

	// Grant by the admin.
	e.clock.Advance(time.Second)
	var granted gildedhall.GrantResult
	e.mustStatus(e.Post(g+"/grants", "g1", gildedhall.Grant{Player: ada, Vertebrae: 40, Chips: 2, Reason: "from the wiki"}), 200).Decode(t, &granted)
	if granted.Player != ada || granted.Vertebrae != 40 || granted.Chips != 2 || granted.Reason != "from the wiki" || len(granted.Cards) != 0 || granted.Won {
		t.Errorf("grant = %+v", granted)
	}
	if p := e.player(gameID, ada); p.Inventory.Vertebrae != 40 || p.Inventory.Chips != 2 {
		t.Errorf("ada's inventory after the grant = %+v", p.Inventory)
	}

	// The log, two entries a page: create, join, join, roll, grant.
	var commands []string
	var rollEntry game.Entry
	path := g + "/log?limit=2"
	for pages := 1; ; pages++ {
		var page game.LogPage
		e.mustStatus(e.Get(path), 200).Decode(t, &page)
		if len(page.Entries) > 2 {
			t.Fatalf("page of %d entries with limit=2", len(page.Entries))
		}
		for _, en := range page.Entries {
			commands = append(commands, en.Command)
			if en.Command == "roll" {
				rollEntry = en
			}
		}
		if page.Next == "" {
			if pages != 3 {
				t.Errorf("%d pages, want 3", pages)
			}
			break
		}
		path = g + "/log?limit=2&cursor=" + url.QueryEscape(page.Next)
	}
	if want := []string{"create", "join", "join", "roll", "grant"}; !slices.Equal(commands, want) {
		t.Errorf("log commands = %v, want %v", commands, want)
	}
	if len(rollEntry.Draws) != 3 || rollEntry.Actor != ada {
		t.Errorf("roll entry = %+v, want 3 draws by %s", rollEntry, ada)
	}

	// Seeds: this period's commitment is public, its seed is not (N2).
	var seeds struct{ Seeds []game.SeedView }
	e.mustStatus(e.Get(g+"/seeds"), 200).Decode(t, &seeds)
	if len(seeds.Seeds) != 1 || seeds.Seeds[0].Period != "2026-W49-I" || seeds.Seeds[0].Seed != "" || seeds.Seeds[0].RevealedAt != nil {
		t.Errorf("seeds = %+v, want one unrevealed commitment", seeds.Seeds)
	}
	var audit fair.Report
	e.mustStatus(e.Get(g+"/audit"), 200).Decode(t, &audit)
	if audit.Checked != 0 || audit.Pending != 3 || !slices.Equal(audit.PendingPeriods, []string{"2026-W49-I"}) {
		t.Errorf("audit before the reveal = %+v, want 3 pending", audit)
	}

	// Leave (P1): items destroyed, rejoin in 7 days.
	e.clock.Set(t0.Add(time.Hour))
	var left game.LeaveResult
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/leave", Actor: ada, Idem: "l1", Body: map[string]any{}}), 200).Decode(t, &left)
	leftAt := t0.Add(time.Hour)
	if left.Player != ada || !left.LeftAt.Equal(leftAt) || left.Destroyed == nil || left.Destroyed.Vertebrae != 40 || left.Destroyed.Chips != 2 ||
		!left.RejoinPossibleAt.Equal(leftAt.Add(7*24*time.Hour)) {
		t.Errorf("leave = %+v", left)
	}
	if p := e.player(gameID, ada); p.Member || p.LeftAt == nil || !p.LeftAt.Equal(leftAt) || p.Inventory.Vertebrae != 0 {
		t.Errorf("ada after leaving = %+v", p)
	}
	e.mustStatus(e.Get(g+"/players"), 200).Decode(t, &list)
	if len(list.Players) != 1 || list.Players[0].ID != admin {
		t.Errorf("players after ada left = %+v", list.Players)
	}

	// The dev clock passes Friday 00:00: Phase I ends, its seed is revealed
	// and every draw checks out (N2, T4).
	var moved struct {
		Now time.Time
		Ran game.DueReport
	}
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: httpapi.ClockRequest{Advance: "72h"}}), 200).Decode(t, &moved)
	if !moved.Now.Equal(t0.Add(73*time.Hour)) || !slices.Equal(moved.Ran.Transitions, []string{gameID + "/2026-W49-I"}) {
		t.Errorf("clock = %+v, want %s and the end of 2026-W49-I", moved, t0.Add(73*time.Hour))
	}
	e.mustStatus(e.Get(g+"/seeds"), 200).Decode(t, &seeds)
	if len(seeds.Seeds) != 2 || seeds.Seeds[0].Seed == "" || seeds.Seeds[1].Period != "2026-W49-II" || seeds.Seeds[1].Seed != "" {
		t.Errorf("seeds after the phase end = %+v, want W49-I revealed and W49-II committed", seeds.Seeds)
	}
	e.mustStatus(e.Get(g+"/audit"), 200).Decode(t, &audit)
	if audit.Checked != 3 || audit.Pending != 0 || !audit.OK() {
		t.Errorf("audit after the reveal = %+v, want 3 checked, all good", audit)
	}
	e.mustStatus(e.Get(g), 200).Decode(t, &got)
	if got.Period.ID != "2026-W49-II" {
		t.Errorf("period after the phase end = %s", got.Period.ID)
	}
	set := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC) // Monday: the week ends, Winter comes (T2)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: httpapi.ClockRequest{Set: &set}}), 200).Decode(t, &moved)
	e.mustStatus(e.Get(g), 200).Decode(t, &got)
	if !moved.Now.Equal(set) || got.Season != "Winter" {
		t.Errorf("after Monday: now %s season %q, want %s Winter", moved.Now, got.Season, set)
	}
}

// TestOpenAPIServed: GET /openapi.yaml is the embedded document, and it
// parses as the same valid OpenAPI document.
func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	r := e.mustStatus(e.Do(apitest.Call{Method: "GET", Path: "/openapi.yaml", Omit: []string{"Authorization"}}), 200)
	if ct := r.Header.Get("Content-Type"); ct != "application/yaml" {
		t.Errorf("Content-Type %q, want application/yaml", ct)
	}
	if !bytes.Equal(r.Body, httpapi.OpenAPI) {
		t.Fatalf("served document differs from the embedded one")
	}
	served, err := apitest.Load(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := apitest.Load(httpapi.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(served.Doc())
	b, _ := json.Marshal(embedded.Doc())
	if !bytes.Equal(a, b) {
		t.Error("the served document parses differently from the embedded one")
	}
	if served.Doc().OpenAPI != "3.0.3" {
		t.Errorf("openapi %q, want 3.0.3", served.Doc().OpenAPI)
	}
}

// TestDocumentCoversRoutes: every route the server has is in the document
// with the same methods, and the document has no route the server lacks.
func TestDocumentCoversRoutes(t *testing.T) {
	c, err := apitest.Load(httpapi.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"/healthz":                                       {"GET"},
		"/openapi.yaml":                                  {"GET"},
		"/v1/games":                                      {"POST"},
		"/v1/games/{game}":                               {"GET"},
		"/v1/games/{game}/join":                          {"POST"},
		"/v1/games/{game}/leave":                         {"POST"},
		"/v1/games/{game}/rolls":                         {"POST"},
		"/v1/games/{game}/grants":                        {"POST"},
		"/v1/games/{game}/revocations":                   {"POST"},
		"/v1/games/{game}/imports":                       {"POST"},
		"/v1/games/{game}/import-revocations":            {"POST"},
		"/v1/games/{game}/amendments":                    {"POST"},
		"/v1/games/{game}/ruleset":                       {"GET"},
		"/v1/games/{game}/shop":                          {"GET"},
		"/v1/games/{game}/purchases":                     {"POST"},
		"/v1/games/{game}/packs/open":                    {"POST"},
		"/v1/games/{game}/gifts":                         {"POST"},
		"/v1/games/{game}/trades":                        {"GET", "POST"},
		"/v1/games/{game}/trades/{trade}":                {"GET"},
		"/v1/games/{game}/trades/{trade}/accept":         {"POST"},
		"/v1/games/{game}/trades/{trade}/withdraw":       {"POST"},
		"/v1/games/{game}/obelisk":                       {"GET"},
		"/v1/games/{game}/gatherings":                    {"GET"},
		"/v1/games/{game}/gatherings/{gathering}":        {"GET"},
		"/v1/games/{game}/players":                       {"GET"},
		"/v1/games/{game}/players/{player}":              {"GET"},
		"/v1/games/{game}/me":                            {"GET"},
		"/v1/games/{game}/log":                           {"GET"},
		"/v1/games/{game}/seeds":                         {"GET"},
		"/v1/games/{game}/audit":                         {"GET"},
		"/v1/dev/clock":                                  {"POST"},
		"/v1/games/{game}/duels":                         {"POST"},
		"/v1/games/{game}/duels/{match}/answer":          {"POST"},
		"/v1/games/{game}/battles/engage":                {"POST"},
		"/v1/games/{game}/matches":                       {"GET"},
		"/v1/games/{game}/matches/{match}":               {"GET"},
		"/v1/games/{game}/matches/{match}/replay":        {"GET"},
		"/v1/games/{game}/matches/{match}/moves":         {"POST"},
		"/v1/games/{game}/proposals":                     {"GET", "POST"},
		"/v1/games/{game}/proposals/{proposal}":          {"GET"},
		"/v1/games/{game}/proposals/{proposal}/withdraw": {"POST"},
		"/v1/games/{game}/justice":                       {"GET", "POST"},
		"/v1/games/{game}/justice/{request}":             {"GET"},
		"/v1/games/{game}/justice/{request}/rulings":     {"POST"},
		"/v1/games/{game}/rulings":                       {"GET"},
		"/v1/games/{game}/rulings/{ruling}/overturn":     {"POST"},
		"/v1/games/{game}/rulings/{ruling}/confidence":   {"POST"},
		"/v1/games/{game}/judge":                         {"GET"},
		"/v1/games/{game}/judge/removal-assents":         {"POST"},
		"/v1/games/{game}/judge/resign":                  {"POST"},
		"/v1/games/{game}/candidacies":                   {"GET", "POST"},
		"/v1/games/{game}/reactions":                     {"POST"},
		"/v1/games/{game}/message-events":                {"POST"},
		"/v1/games/{game}/periods/{period}/activity":     {"GET"},
		"/v1/games/{game}/commands":                      {"GET"},
		"/v1/games/{game}/turns":                         {"GET"},
		"/v1/games/{game}/turns/rules":                   {"GET"},
		"/v1/games/{game}/turns/proposals":               {"GET"},
		"/v1/games/{game}/turns/cases":                   {"GET"},
		"/v1/games/{game}/turns/rounds":                  {"GET"},
		"/v1/bindings/{platform}/{space}":                {"GET"},
	}
	// And the one route shape of every command an edge may call.
	for _, cmd := range rulesets.Registry().Catalogue() {
		if cmd.Call != nil {
			want["/v1/games/{game}/commands/"+cmd.Name] = []string{"POST"}
		}
	}
	svc, clk := newService(t)
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, ManualClock: clk, Logger: quiet()})
	paths := c.Doc().Paths.Map()
	if len(paths) != len(want) {
		t.Errorf("the document has %d paths, want %d", len(paths), len(want))
	}
	for p, methods := range want {
		item := paths[p]
		if item == nil {
			t.Errorf("the document lacks %s", p)
			continue
		}
		var got []string
		for m := range item.Operations() {
			got = append(got, m)
		}
		slices.Sort(got)
		if !slices.Equal(got, methods) {
			t.Errorf("%s: the document has %v, the server %v", p, got, methods)
		}
		// Served: an authenticated route answers 401 without a key, where
		// an unknown one answers 404 or 405.
		for _, m := range methods {
			if p == "/healthz" || p == "/openapi.yaml" {
				continue
			}
			w := httptest.NewRecorder()
			api.ServeHTTP(w, httptest.NewRequest(m, pathParam.ReplaceAllString(p, "x"), nil))
			if w.Code != http.StatusUnauthorized {
				t.Errorf("%s %s: %d without a key, want 401 (a route the server serves)", m, p, w.Code)
			}
		}
	}
}

var pathParam = regexp.MustCompile(`\{[^/]+\}`)

// The auth scheme is case-insensitive (RFC 9110 11.1); kin-openapi's
// security check is not, so this exchange bypasses the contract harness.
func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	svc, _ := newService(t)
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, Logger: quiet()})
	for scheme, want := range map[string]int{"bearer": 404, "BEARER": 404, "Bearer": 404, "Basic": 401} {
		r := httptest.NewRequest("GET", "/v1/games/nowhere", nil)
		r.Header.Set("Authorization", scheme+" "+testKey)
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("%s scheme: status %d, want %d (404: authenticated, the game does not exist)", scheme, w.Code, want)
		}
	}
}
