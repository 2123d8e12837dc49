package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/bolt"
)

const (
	testKey = "test-bridge-key"
	admin   = "discord:1000"
	ada     = "discord:2000"
	bob     = "slack:U024BE7LH"
	gameID  = "hall-16"
)

// t0 is a Tuesday noon, in Phase I of ISO week 49 of 2026 (RULINGS T1):
// the phase ends on Friday 4 December 00:00 UTC.
var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// env is a real API over a real game service on a bolt store with a manual
// clock, served on a local test server whose every exchange is checked
// against openapi.yaml.
type env struct {
	*apitest.Client
	clock *clock.Manual
	svc   *game.Service
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newService(t testing.TB) (*game.Service, *clock.Manual) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	clk := clock.NewManual(t0)
	return rulesets.New(st, clk, game.WithLogger(quiet())), clk
}

func newEnv(t *testing.T) *env {
	t.Helper()
	svc, clk := newService(t)
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, ManualClock: clk, Logger: quiet(), Version: "test"})
	c := apitest.NewServer(t, httpapi.OpenAPI, api)
	c.Key, c.Actor = testKey, admin
	return &env{Client: c, clock: clk, svc: svc}
}

// withGame creates gameID (admin as admin) and joins ada.
func withGame(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.mustStatus(e.Post("/v1/games", "create-1", game.CreateGame{ID: gameID, Name: "The Gilded Hall"}), http.StatusCreated)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: ada, Idem: "join-ada", Body: game.JoinGame{Name: "Ada"}}), http.StatusOK)
	return e
}

func (e *env) mustStatus(r *apitest.Response, want int) *apitest.Response {
	e.T.Helper()
	if r.Status != want {
		e.T.Fatalf("status %d, want %d; body %s", r.Status, want, r.Body)
	}
	return r
}

// logEntries reads the whole log of g, page by page.
func (e *env) logEntries(g string) []game.Entry {
	e.T.Helper()
	var all []game.Entry
	cursor := ""
	for range 1000 {
		path := "/v1/games/" + g + "/log?limit=500"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page game.LogPage
		e.mustStatus(e.Get(path), http.StatusOK).Decode(e.T, &page)
		all = append(all, page.Entries...)
		if page.Next == "" {
			return all
		}
		cursor = page.Next
	}
	e.T.Fatal("log paging does not end")
	return nil
}

func (e *env) player(g, id string) gildedhall.PlayerView {
	e.T.Helper()
	var p gildedhall.PlayerView
	e.mustStatus(e.Get("/v1/games/"+g+"/players/"+id), http.StatusOK).Decode(e.T, &p)
	return p
}
