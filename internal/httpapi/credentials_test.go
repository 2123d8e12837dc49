package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// The keys of the credential tests, in the configuration syntax operators
// write (docs/operations.md "Credentials").
const credentialKeys = `all-key as=*,
	slack-key as=slack:,
	hall-a-key as=* games=hall-a,
	ada-key as=discord:20*,
	admin-a-key as=discord:1000 games=hall-a`

// credEnv is an API with the keys above over a store (bolt, or a fresh
// table on DynamoDB Local) holding two games, hall-a and hall-b, both
// administered by discord:1000, with ada (discord:2000) and slack:U1
// playing and holding Vertebrae.
type credEnv struct {
	t        *testing.T
	api      http.Handler
	contract *apitest.Contract
	st       store.Store
	svc      *game.Service
}

func newCredEnv(t *testing.T, backend string) *credEnv {
	t.Helper()
	var st store.Store
	if backend == "dynamo" {
		client, table := testenv.DynamoTable(t, "creds")
		st = dynamo.New(client, table)
	} else {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		st = b
	}
	clk := clock.NewManual(t0)
	keys, err := credential.ParseKeys(credentialKeys)
	if err != nil {
		t.Fatal(err)
	}
	svc := rulesets.New(st, clk, game.WithLogger(quiet()))
	contract, err := apitest.Load(httpapi.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	e := &credEnv{t: t, api: httpapi.New(svc, httpapi.Config{Keys: keys, ManualClock: clk, Logger: quiet()}), contract: contract, st: st, svc: svc}
	for _, g := range []string{"hall-a", "hall-b"} {
		e.must("all-key", admin, "POST", "/v1/games", `{"id":"`+g+`"}`, http.StatusCreated)
		for _, p := range []string{ada, "slack:U1"} {
			e.must("all-key", p, "POST", "/v1/games/"+g+"/join", ``, http.StatusOK)
			e.must("all-key", admin, "POST", "/v1/games/"+g+"/grants", `{"player":"`+p+`","vertebrae":50,"reason":"setup"}`, http.StatusOK)
		}
		// Each game's Discord server (binding is chat's, not the API's).
		if _, err := svc.Bind(context.Background(), game.Request{Game: g, Actor: admin, Key: "bind-" + g}, game.Bind{Platform: "discord", Space: "space-" + g}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

var idem int

// do sends one request in-process; the exchange must be one openapi.yaml
// describes (the request itself may be deliberately incomplete).
func (e *credEnv) do(key, actor, method, path, body string) (int, apitest.Problem, []byte) {
	e.t.Helper()
	req, _ := http.NewRequest(method, "http://croupier.test"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	if actor != "" {
		req.Header.Set(httpapi.HeaderActor, actor)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == "POST" {
		idem++
		req.Header.Set(httpapi.HeaderIdempotency, fmt.Sprintf("cred-%d", idem))
	}
	ex, rec := e.contract.Serve(e.api, apitest.ResponseOnly(req))
	if err := e.contract.Check(ex); err != nil {
		e.t.Errorf("contract: %s: %v", ex, err)
	}
	var p apitest.Problem
	if rec.Code >= 400 {
		_ = json.Unmarshal(rec.Body.Bytes(), &p)
	}
	return rec.Code, p, rec.Body.Bytes()
}

func (e *credEnv) must(key, actor, method, path, body string, want int) []byte {
	e.t.Helper()
	status, _, b := e.do(key, actor, method, path, body)
	if status != want {
		e.t.Fatalf("%s %s as %s with %s: %d %s, want %d", method, path, actor, key, status, b, want)
	}
	return b
}

// snapshot is every item of both games (and of a game that must not come
// to be), to prove refusals changed nothing.
func (e *credEnv) snapshot() string {
	e.t.Helper()
	var b strings.Builder
	for _, pk := range []string{"GAME#hall-a", "GAME#hall-b", "GAME#hall-c"} {
		cursor := ""
		for {
			page, err := e.st.Query(context.Background(), store.Query{PK: pk, Limit: 1000, Cursor: cursor})
			if err != nil {
				e.t.Fatal(err)
			}
			for _, it := range page.Items {
				b.WriteString(it.Key.String() + " " + string(it.Data) + "\n")
			}
			if cursor = page.Next; cursor == "" {
				break
			}
		}
	}
	return b.String()
}

// route is one authenticated operation of openapi.yaml.
type route struct{ method, path string }

// routes lists every operation openapi.yaml documents as needing a key,
// with its path parameters filled in for game g.
func (e *credEnv) routes(g string) []route {
	var out []route
	for path, item := range e.contract.Doc().Paths.Map() {
		for method, op := range item.Operations() {
			if op.Security != nil && len(*op.Security) == 0 {
				continue // public: /healthz, /openapi.yaml, the tracker
			}
			p := strings.NewReplacer("{game}", g, "{player}", ada, "{trade}", "t1", "{match}", "m1", "{proposal}", "p1",
				"{request}", "r1", "{ruling}", "u1", "{period}", "2026-W49-I", "{gathering}", "g1",
				"{platform}", "discord", "{space}", "space-"+g).Replace(path)
			if strings.Contains(p, "{") {
				e.t.Fatalf("the test does not know a parameter of %s", path)
			}
			out = append(out, route{method, p})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path+out[i].method < out[j].path+out[j].method })
	return out
}

// TestCredentialScopes is the table of credential scopes (issue 11,
// acceptance 4): a key scoped to slack: cannot act as discord:1000 on any
// route, a key scoped to hall-a cannot touch hall-b on any route (reads,
// commands, admin), and each refusal is 403 with its code and changes
// nothing; the same keys in scope still work, and admin routes still need
// the game's admin. On bolt and on DynamoDB Local.
func TestCredentialScopes(t *testing.T) {
	for _, backend := range []string{"bolt", "dynamo"} {
		t.Run(backend, func(t *testing.T) { testCredentialScopes(t, backend) })
	}
}

func testCredentialScopes(t *testing.T, backend string) {
	e := newCredEnv(t, backend)
	before := e.snapshot()

	all := e.routes("hall-b")
	if len(all) < 40 {
		t.Fatalf("only %d authenticated routes found in openapi.yaml", len(all))
	}
	families := map[string]int{}
	for _, r := range all {
		// Out of the actor scope: the slack key naming a Discord actor.
		if s, p, b := e.do("slack-key", admin, r.method, r.path, `{}`); s != http.StatusForbidden || p.Code != "actor_out_of_scope" {
			t.Errorf("%s %s with slack-key as %s: %d %s, want 403 actor_out_of_scope", r.method, r.path, admin, s, b)
		}
		// Out of the game scope: the hall-a key on hall-b, acting for anyone.
		want := "game_out_of_scope"
		if s, p, b := e.do("hall-a-key", admin, r.method, r.path, `{"id":"hall-b"}`); s != http.StatusForbidden || p.Code != want {
			t.Errorf("%s %s with hall-a-key: %d %s, want 403 %s", r.method, r.path, s, b, want)
		}
		switch {
		case r.method == "GET":
			families["reads"]++
		case strings.Contains(r.path, "grants") || strings.Contains(r.path, "revocations") || strings.Contains(r.path, "amendments") || strings.Contains(r.path, "imports"):
			families["admin"]++
		default:
			families["commands"]++
		}
	}
	if families["reads"] < 10 || families["commands"] < 10 || families["admin"] != 5 {
		t.Errorf("route families swept: %v; want every read, command and admin route", families)
	}

	// The cases the issue names, and their in-scope twins, one by one.
	for _, c := range []struct {
		name                     string
		key, actor, method, path string
		body                     string
		wantStatus               int
		wantCode                 string
	}{
		{"slack key as discord:1", "slack-key", "discord:1", "POST", "/v1/games/hall-a/rolls", `{"dice":"1d6"}`, 403, "actor_out_of_scope"},
		{"slack key views a Discord player's own view", "slack-key", ada, "GET", "/v1/games/hall-a/me", ``, 403, "actor_out_of_scope"},
		{"slack key as the Discord admin grants", "slack-key", admin, "POST", "/v1/games/hall-a/grants", `{"player":"slack:U1","vertebrae":500,"reason":"x"}`, 403, "actor_out_of_scope"},
		{"ada's key as the admin", "ada-key", admin, "POST", "/v1/games/hall-a/grants", `{"player":"discord:2000","vertebrae":500,"reason":"x"}`, 403, "actor_out_of_scope"},
		{"hall-a key creates hall-c", "hall-a-key", admin, "POST", "/v1/games", `{"id":"hall-c"}`, 403, "game_out_of_scope"},
		{"hall-a key moves the clock of every game", "hall-a-key", admin, "POST", "/v1/dev/clock", `{"advance":"1h"}`, 403, "game_out_of_scope"},
		{"hall-a admin key grants in hall-b", "admin-a-key", admin, "POST", "/v1/games/hall-b/grants", `{"player":"discord:2000","vertebrae":500,"reason":"x"}`, 403, "game_out_of_scope"},
		{"slack key pushes Discord votes", "slack-key", "slack:U1", "POST", "/v1/games/hall-a/reactions",
			`{"message":{"platform":"slack","channel":"C1","message":"M1"},"op":"add","up":["discord:2000"]}`, 403, "actor_out_of_scope"},
		{"slack key reports on a Discord message", "slack-key", "slack:U1", "POST", "/v1/games/hall-a/message-events",
			`{"message":{"platform":"discord","channel":"C1","message":"M1"},"event":"deleted"}`, 403, "platform_out_of_scope"},
		{"an in-scope non-admin still cannot grant", "slack-key", "slack:U1", "POST", "/v1/games/hall-a/grants", `{"player":"slack:U1","vertebrae":500,"reason":"x"}`, 403, "forbidden"},
	} {
		if s, p, b := e.do(c.key, c.actor, c.method, c.path, c.body); s != c.wantStatus || p.Code != c.wantCode {
			t.Errorf("%s: %d %s, want %d %s", c.name, s, b, c.wantStatus, c.wantCode)
		}
	}
	if after := e.snapshot(); after != before {
		t.Fatalf("refused requests changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	// In scope, the same keys work.
	for _, c := range []struct {
		name                     string
		key, actor, method, path string
		body                     string
		want                     int
	}{
		{"slack key as a Slack player", "slack-key", "slack:U1", "POST", "/v1/games/hall-b/rolls", `{"dice":"1d6"}`, 200},
		{"slack key reads without an actor", "slack-key", "", "GET", "/v1/games/hall-b/players", ``, 200},
		{"slack key pushes Slack votes", "slack-key", "slack:U1", "POST", "/v1/games/hall-a/reactions",
			`{"message":{"platform":"slack","channel":"C1","message":"M1"},"op":"add","up":["slack:U1"]}`, 200},
		{"ada's prefix key as ada", "ada-key", ada, "GET", "/v1/games/hall-b/me", ``, 200},
		{"hall-a key on hall-a", "hall-a-key", ada, "POST", "/v1/games/hall-a/rolls", `{"dice":"2d6"}`, 200},
		{"hall-a admin key grants in hall-a", "admin-a-key", admin, "POST", "/v1/games/hall-a/grants", `{"player":"discord:2000","vertebrae":5,"reason":"prize"}`, 200},
	} {
		if s, _, b := e.do(c.key, c.actor, c.method, c.path, c.body); s != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, s, b, c.want)
		}
	}
	var p gildedhall.PlayerView
	if err := json.Unmarshal(e.must("all-key", "", "GET", "/v1/games/hall-a/players/"+ada, "", 200), &p); err != nil || p.Inventory.Vertebrae != 55 {
		t.Errorf("ada in hall-a: %+v %v, want 50 + the in-scope grant of 5 (and none of the refused 500s)", p, err)
	}
}
