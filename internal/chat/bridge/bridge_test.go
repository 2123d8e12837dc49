package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/bridge"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/bolt"
)

var (
	start  = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	secret = []byte("bridge-secret-current")
	old    = []byte("bridge-secret-previous")
)

type env struct {
	t   *testing.T
	srv *httptest.Server
	svc *game.Service
	clk *clock.Manual
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var seed [32]byte
	e := &env{t: t, clk: clock.NewManual(start)}
	e.svc = rulesets.New(st, e.clk, game.WithEntropy(rand.NewChaCha8(seed)), game.WithLogger(quiet))
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Bind(ctx, game.Request{Game: "hall", Actor: "matrix:admin", Key: "b"}, game.Bind{Platform: "matrix", Space: "room1"}); err != nil {
		t.Fatal(err)
	}
	h := &bridge.Handler{Router: chat.NewRouter(e.svc, quiet), Game: e.svc, Cache: &chat.ReplyCache{Store: st, Clock: e.clk},
		Secrets: []credential.Secret{{Value: secret, Scope: credential.Everyone}, {Value: old, Scope: credential.Everyone}}, Clock: e.clk, Log: quiet}
	m := http.NewServeMux()
	h.Routes(m)
	e.srv = httptest.NewServer(m)
	t.Cleanup(e.srv.Close)
	return e
}

func (e *env) send(path string, body []byte, sig string) (int, []byte, http.Header) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if sig != "" {
		req.Header.Set(bridge.Header, sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b, resp.Header
}

func (e *env) signed(path string, v any) (int, []byte) {
	e.t.Helper()
	body, _ := json.Marshal(v)
	s, b, _ := e.send(path, body, bridge.Sign(secret, e.clk.Now(), body))
	return s, b
}

func (e *env) command(c bridge.Command) bridge.Reply {
	e.t.Helper()
	s, b := e.signed("/bridge/v1/commands", c)
	var out struct{ Reply bridge.Reply }
	if s != 200 || json.Unmarshal(b, &out) != nil {
		e.t.Fatalf("command %+v: %d %s", c, s, b)
	}
	return out.Reply
}

func (e *env) player(id string) gildedhall.PlayerView {
	p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", id)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// member reports whether id is a member ("never played" is not).
func (e *env) member(id string) bool {
	p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", id)
	return err == nil && p.Member
}

func TestCommandsThroughTheTable(t *testing.T) {
	e := newEnv(t)
	cmd := func(id, user, name string, opts map[string]string) bridge.Command {
		return bridge.Command{ID: id, Platform: "matrix", Space: "room1", Channel: "general", User: user, UserName: "Ada", Command: name, Options: opts}
	}
	if r := e.command(cmd("1", "ada", "join", nil)); r.Refusal {
		t.Fatalf("join: %+v", r)
	}
	if !e.player("matrix:ada").Member {
		t.Fatal("not a member after join")
	}
	if r := e.command(cmd("2", "matrix:admin", "grant", map[string]string{"player": "matrix:ada", "vertebrae": "60", "reason": "x"})); r.Refusal {
		t.Fatalf("grant: %+v", r)
	}
	r := e.command(cmd("3", "ada", "buy", map[string]string{"item": "chip"}))
	if !r.Ephemeral || len(r.Buttons) == 0 || e.player("matrix:ada").Inventory.Chips != 0 {
		t.Fatalf("buy asks first: %+v", r)
	}
	// The relay sends the button's action back when it is pressed.
	press := bridge.Command{ID: "4", Platform: "matrix", Space: "room1", User: "ada", Action: r.Buttons[0].Action}
	first := e.command(press)
	if first.Refusal || e.player("matrix:ada").Inventory.Chips != 1 {
		t.Fatalf("confirm: %+v, %d Chips", first, e.player("matrix:ada").Inventory.Chips)
	}
	// A retried request answers the same and changes nothing.
	if again := e.command(press); again.Text != first.Text || e.player("matrix:ada").Inventory.Chips != 1 {
		t.Errorf("replay: %+v, %d Chips", again, e.player("matrix:ada").Inventory.Chips)
	}
	// Refusals are replies (the rule's sentence), not HTTP errors.
	if r := e.command(cmd("5", "ada", "buy confirm", map[string]string{"item": "chip", "quantity": "9"})); !r.Refusal || !strings.Contains(r.Text, "Vertebrae") {
		t.Errorf("unaffordable: %+v", r)
	}
	// Bad requests are 400 with a reason.
	for _, bad := range []bridge.Command{
		{Platform: "matrix", Space: "room1", User: "ada", Command: "status"},                          // no id
		{ID: "6", Platform: "Matrix!", Space: "room1", User: "ada", Command: "status"},                // platform
		{ID: "7", Platform: "matrix", Space: "room1", User: "ada"},                                    // neither command nor action
		{ID: "8", Platform: "matrix", Space: "room1", User: "@ada:example.org!", Command: "status"},   // user
		{ID: "9", Platform: "matrix", Space: "room1", User: "ada", Command: "x", Action: "a1:status"}, // both
	} {
		if s, b := e.signed("/bridge/v1/commands", bad); s != 400 || !strings.Contains(string(b), "invalid_request") {
			t.Errorf("%+v: %d %s, want 400 invalid_request", bad, s, b)
		}
	}
	if s, b := e.signed("/bridge/v1/commands", map[string]any{"id": "10", "surprise": true}); s != 400 || !strings.Contains(string(b), "invalid_json") {
		t.Errorf("unknown field: %d %s", s, b)
	}
}

func TestEvents(t *testing.T) {
	e := newEnv(t)
	ev := func(id, typ string) bridge.Event {
		return bridge.Event{ID: id, Platform: "matrix", Space: "room1", Type: typ, Channel: "proposals", Message: "m1"}
	}
	type pushed struct {
		Game   string
		Result struct {
			Up, Down        []string
			Edited, Deleted bool
		}
	}
	push := func(e2 bridge.Event) pushed {
		t.Helper()
		s, b := e.signed("/bridge/v1/events", e2)
		var p pushed
		if s != 200 || json.Unmarshal(b, &p) != nil {
			t.Fatalf("%+v: %d %s", e2, s, b)
		}
		return p
	}
	a := ev("e1", bridge.ReactionAdded)
	a.User, a.Emoji = "ada", "👍"
	if p := push(a); p.Game != "hall" || len(p.Result.Up) != 1 || p.Result.Up[0] != "matrix:ada" {
		t.Errorf("after 👍: %+v", p)
	}
	b := ev("e2", bridge.ReactionAdded)
	b.User, b.Emoji = "grace", "thumbsdown"
	if p := push(b); len(p.Result.Down) != 1 {
		t.Errorf("after 👎: %+v", p)
	}
	// A repeat of e1 is a replay, not a second change.
	body, _ := json.Marshal(a)
	if s, _, h := e.send("/bridge/v1/events", body, bridge.Sign(secret, e.clk.Now(), body)); s != 200 || h.Get("Idempotent-Replayed") != "true" {
		t.Errorf("repeat: %d replayed=%q", s, h.Get("Idempotent-Replayed"))
	}
	r := ev("e3", bridge.ReactionRemoved)
	r.User, r.Emoji = "ada", "+1"
	if p := push(r); len(p.Result.Up) != 0 {
		t.Errorf("after removing 👍: %+v", p)
	}
	set := ev("e4", bridge.ReactionsSet)
	set.Up, set.Down = []string{"ada", "matrix:grace"}, []string{}
	if p := push(set); len(p.Result.Up) != 2 || len(p.Result.Down) != 0 {
		t.Errorf("after set: %+v", p)
	}
	if p := push(ev("e5", bridge.MessageEdited)); !p.Result.Edited {
		t.Errorf("after edit: %+v", p)
	}
	if p := push(ev("e6", bridge.MessageDeleted)); !p.Result.Deleted {
		t.Errorf("after delete: %+v", p)
	}
	other := ev("e7", bridge.ReactionAdded)
	other.User, other.Emoji = "ada", "🎉"
	if s, b := e.signed("/bridge/v1/events", other); s != 200 || !strings.Contains(string(b), "ignored") {
		t.Errorf("🎉: %d %s", s, b)
	}
	unbound := ev("e8", bridge.MessageEdited)
	unbound.Space = "room2"
	if s, b := e.signed("/bridge/v1/events", unbound); s != 422 || !strings.Contains(string(b), "not_bound") {
		t.Errorf("unbound space: %d %s", s, b)
	}
	badType := ev("e9", "reaction_exploded")
	if s, b := e.signed("/bridge/v1/events", badType); s != 400 || !strings.Contains(string(b), "reaction_added") {
		t.Errorf("bad type: %d %s", s, b)
	}
	noMsg := ev("e10", bridge.MessageEdited)
	noMsg.Message = ""
	if s, b := e.signed("/bridge/v1/events", noMsg); s != 422 || !strings.Contains(string(b), "invalid_message") {
		t.Errorf("no message id: %d %s", s, b)
	}
}

func TestSecurity(t *testing.T) {
	e := newEnv(t)
	body, _ := json.Marshal(bridge.Command{ID: "s1", Platform: "matrix", Space: "room1", User: "ada", Command: "join"})
	now := e.clk.Now()
	for _, tc := range []struct {
		name, sig string
		body      []byte
		want      int
	}{
		{"missing", "", body, 401},
		{"malformed", "v1=abc", body, 401},
		{"no v1", "t=" + bridge.Sign(secret, now, body)[2:12], body, 401},
		{"wrong secret", bridge.Sign([]byte("guess"), now, body), body, 401},
		{"stale", bridge.Sign(secret, now.Add(-6*time.Minute), body), body, 401},
		{"future", bridge.Sign(secret, now.Add(6*time.Minute), body), body, 401},
		{"tampered body", bridge.Sign(secret, now, body), bytes.Replace(body, []byte("join"), []byte("leave"), 1), 401},
		{"timestamp swapped", strings.Replace(bridge.Sign(secret, now, body), "t=", "t=1", 1), body, 401},
		{"over 64 KiB", "t=1", bytes.Repeat([]byte(" "), bridge.MaxBody+1), 413},
	} {
		s, b, _ := e.send("/bridge/v1/commands", tc.body, tc.sig)
		if s != tc.want || !strings.Contains(string(b), "detail") {
			t.Errorf("%s: %d %s, want %d", tc.name, s, b, tc.want)
		}
		if e.member("matrix:ada") {
			t.Fatalf("%s: a refused request changed state", tc.name)
		}
	}
	// The previous secret still works during a rotation, as does a header
	// with both signatures.
	s, _, _ := e.send("/bridge/v1/commands", body, bridge.Sign(old, now, body))
	if s != 200 || !e.member("matrix:ada") {
		t.Errorf("previous secret: %d", s)
	}
	both := bridge.Sign([]byte("unknown"), now, body) + ",v1=" + strings.Split(bridge.Sign(secret, now, body), "v1=")[1]
	if s, _, _ := e.send("/bridge/v1/commands", body, both); s != 200 {
		t.Errorf("two v1 signatures: %d", s)
	}
}

func FuzzVerify(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Add(bridge.Sign(secret, now, []byte("{}")), []byte("{}"))
	f.Add("t=1800000000,v1=00", []byte("x"))
	f.Add("t=,v1=,v1=", []byte{})
	f.Fuzz(func(t *testing.T, sig string, body []byte) {
		h := http.Header{}
		h.Set(bridge.Header, sig)
		if _, err := bridge.Verify([]credential.Secret{{Value: secret, Scope: credential.Everyone}}, h, body, now); err == nil && !strings.Contains(strings.ToLower(h.Get(bridge.Header)), strings.Split(bridge.Sign(secret, now, body), "v1=")[1][:16]) {
			// Accepted: the header must carry the body's MAC for some time in the window.
			ok := false
			for d := -bridge.Window; d <= bridge.Window; d += time.Second {
				if strings.Contains(strings.ToLower(sig), strings.Split(bridge.Sign(secret, now.Add(d), body), "v1=")[1]) {
					ok = true
					break
				}
			}
			if !ok {
				t.Fatalf("accepted %q for %q", sig, body)
			}
		}
	})
}
