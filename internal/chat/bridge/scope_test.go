package bridge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/bridge"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// scopedEnv is the bridge with the secrets of secretList, over two games
// administered by discord:1 (as in issue 11's report): hall, bound to the
// Matrix room room1, and other, bound to room2.
type scopedEnv struct {
	t   *testing.T
	h   http.Handler
	st  store.Store
	svc *game.Service
	clk *clock.Manual
}

const scopedSecrets = `matrix-relay-secret as=matrix:,
	irc-relay-secret as=irc:,
	hall-relay-secret as=matrix: games=hall,
	a-users-secret as=matrix:a*,
	mallory-secret as=matrix:mallory`

func newScopedEnv(t *testing.T) *scopedEnv {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	secrets, err := credential.ParseSecrets(scopedSecrets)
	if err != nil {
		t.Fatal(err)
	}
	e := &scopedEnv{t: t, st: st, clk: clock.NewManual(start)}
	e.svc = rulesets.New(st, e.clk, game.WithLogger(quiet))
	ctx := context.Background()
	for i, g := range []string{"hall", "other"} {
		room := []string{"room1", "room2"}[i]
		if _, err := e.svc.Create(ctx, game.Request{Actor: "discord:1", Key: "c-" + g}, game.CreateGame{ID: g, Admins: []string{"discord:1", "matrix:boss"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Bind(ctx, game.Request{Game: g, Actor: "discord:1", Key: "b-" + g}, game.Bind{Platform: "matrix", Space: room}); err != nil {
			t.Fatal(err)
		}
	}
	m := http.NewServeMux()
	(&bridge.Handler{Router: chat.NewRouter(e.svc, quiet), Game: e.svc, Cache: &chat.ReplyCache{Store: st, Clock: e.clk},
		Secrets: secrets, Clock: e.clk, Log: quiet}).Routes(m)
	e.h = m
	return e
}

// send signs v with secret and serves it in-process.
func (e *scopedEnv) send(secret, path string, v any) (int, []byte) {
	e.t.Helper()
	body, _ := json.Marshal(v)
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set(bridge.Header, bridge.Sign([]byte(secret), e.clk.Now(), body))
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// snapshot is every item the bridge could touch: both games, the
// bindings of every space named below, and the reply cache of the ids sent.
func (e *scopedEnv) snapshot(ids []string) string {
	e.t.Helper()
	pks := []string{"GAME#hall", "GAME#other", "BIND#discord:guild9", "BIND#matrix:room1", "BIND#matrix:room2", "BIND#matrix:room3"}
	for _, id := range ids {
		for _, p := range []string{"bridge-matrix", "bridge-discord", "bridge-irc"} {
			pks = append(pks, "REPLY#"+p+":"+id)
		}
	}
	var b strings.Builder
	for _, pk := range pks {
		page, err := e.st.Query(context.Background(), store.Query{PK: pk, Limit: 1000})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, it := range page.Items {
			b.WriteString(it.Key.String() + " " + string(it.Data) + "\n")
		}
	}
	return b.String()
}

// TestSecretScopes is the bridge half of the credential table (issue 11,
// acceptance 4): a relay's secret cannot choose another platform (the
// report's {"platform":"discord","user":"1"} binding a guild and granting
// 500 Vertebrae as the Discord admin), nor a user, a voter or a game
// outside its scope; each refusal is 403 with its code and changes nothing,
// and the same secrets in scope still work.
func TestSecretScopes(t *testing.T) {
	e := newScopedEnv(t)
	cmd := func(id, platform, space, user, name string, opts map[string]string) bridge.Command {
		return bridge.Command{ID: id, Platform: platform, Space: space, User: user, Command: name, Options: opts}
	}
	ev := func(id, space, typ, user string, up ...string) bridge.Event {
		return bridge.Event{ID: id, Platform: "matrix", Space: space, Type: typ, Channel: "c", Message: "m1", User: user, Emoji: "👍", Up: up}
	}
	refusals := []struct {
		name, secret, path string
		body               any
		code               string
	}{
		{"matrix relay binds a Discord guild as discord:1", "matrix-relay-secret", "/bridge/v1/commands",
			cmd("x1", "discord", "guild9", "1", "bind", map[string]string{"game": "hall"}), "platform_out_of_scope"},
		{"matrix relay grants as discord:1", "matrix-relay-secret", "/bridge/v1/commands",
			cmd("x2", "discord", "guild9", "discord:1", "grant", map[string]string{"player": "discord:1", "vertebrae": "500", "reason": "x"}), "platform_out_of_scope"},
		{"irc relay acts in a Matrix room", "irc-relay-secret", "/bridge/v1/commands",
			cmd("x3", "matrix", "room1", "boss", "grant", map[string]string{"player": "matrix:boss", "vertebrae": "500", "reason": "x"}), "platform_out_of_scope"},
		{"a-users secret acts as the admin, matrix:boss", "a-users-secret", "/bridge/v1/commands",
			cmd("x4", "matrix", "room1", "matrix:boss", "grant", map[string]string{"player": "matrix:ada", "vertebrae": "500", "reason": "x"}), "actor_out_of_scope"},
		{"a-users secret submits someone else's message", "a-users-secret", "/bridge/v1/commands",
			bridge.Command{ID: "x5", Platform: "matrix", Space: "room1", User: "ada", Command: "Submit as proposal",
				Target: &bridge.Target{Channel: "c", ID: "m9", Author: "bob", Content: "A rule."}}, "actor_out_of_scope"},
		{"hall relay acts in other's room", "hall-relay-secret", "/bridge/v1/commands",
			cmd("x6", "matrix", "room2", "ada", "join", nil), "game_out_of_scope"},
		{"hall relay binds a room to other", "hall-relay-secret", "/bridge/v1/commands",
			cmd("x7", "matrix", "room3", "boss", "bind", map[string]string{"game": "other"}), "game_out_of_scope"},
		{"irc relay pushes Matrix votes", "irc-relay-secret", "/bridge/v1/events", ev("y1", "room1", bridge.ReactionAdded, "ada"), "platform_out_of_scope"},
		{"a-users secret votes as bob", "a-users-secret", "/bridge/v1/events", ev("y2", "room1", bridge.ReactionAdded, "bob"), "actor_out_of_scope"},
		{"a-users secret sets bob among the voters", "a-users-secret", "/bridge/v1/events", ev("y3", "room1", bridge.ReactionsSet, "", "ada", "bob"), "actor_out_of_scope"},
		{"hall relay pushes votes in other", "hall-relay-secret", "/bridge/v1/events", ev("y4", "room2", bridge.ReactionAdded, "ada"), "game_out_of_scope"},
	}
	var ids []string
	for _, r := range refusals {
		switch b := r.body.(type) {
		case bridge.Command:
			ids = append(ids, b.ID)
		case bridge.Event:
			ids = append(ids, b.ID)
		}
	}
	before := e.snapshot(ids)
	for _, r := range refusals {
		s, b := e.send(r.secret, r.path, r.body)
		var p struct{ Code, Detail string }
		if s != http.StatusForbidden || json.Unmarshal(b, &p) != nil || p.Code != r.code || p.Detail == "" {
			t.Errorf("%s: %d %s, want 403 %s", r.name, s, b, r.code)
		}
	}
	if after := e.snapshot(ids); after != before {
		t.Fatalf("refused requests changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if _, bound, err := e.svc.BindingFor(context.Background(), "discord", "guild9"); err != nil || bound {
		t.Errorf("guild9 bound: %v %v", bound, err)
	}

	// In scope, the same secrets work (a command's reply is 200, its refusals included).
	for _, c := range []struct {
		name, secret, path string
		body               any
	}{
		{"matrix relay, a Matrix user joins hall", "matrix-relay-secret", "/bridge/v1/commands", cmd("ok1", "matrix", "room1", "ada", "join", nil)},
		{"hall relay, a Matrix user joins hall", "hall-relay-secret", "/bridge/v1/commands", cmd("ok2", "matrix", "room1", "bob", "join", nil)},
		{"hall relay, help needs no game", "hall-relay-secret", "/bridge/v1/commands", cmd("ok3", "matrix", "room2", "bob", "help", nil)},
		{"a-users secret, ada votes", "a-users-secret", "/bridge/v1/events", ev("ok4", "room1", bridge.ReactionAdded, "ada")},
		{"matrix relay, the Matrix admin (boss) grants", "matrix-relay-secret", "/bridge/v1/commands",
			cmd("ok5", "matrix", "room1", "boss", "grant", map[string]string{"player": "matrix:ada", "vertebrae": "7", "reason": "prize"})},
	} {
		if s, b := e.send(c.secret, c.path, c.body); s != 200 || bytes.Contains(b, []byte(`"refusal":true`)) {
			t.Errorf("%s: %d %s, want 200 without a refusal", c.name, s, b)
		}
	}
	if p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", "matrix:ada"); err != nil || !p.Member || p.Inventory.Vertebrae != 7 {
		t.Errorf("ada in hall: %+v %v, want a member with the 7 Vertebrae granted in scope", p, err)
	}
	if p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", "discord:1"); err == nil && p.Inventory.Vertebrae != 0 {
		t.Errorf("discord:1 holds %d Vertebrae, want none of the refused 500", p.Inventory.Vertebrae)
	}
}

// TestRequestIDsAnswerTheirOwnerOnly is issue 22's acceptance 5: a relay's
// request id is no secret (a Matrix event id is visible to the whole room),
// so the reply cached for it answers only the secret scope and the user
// that sent it first. Another secret reusing alice's id, or another user
// under alice's own secret (one scoped to several users), is refused 409
// request_id_reused: no cached reply (alice's private status), no command
// run under her id, nothing changed. Alice's relay replaying gets the
// first replies byte for byte.
func TestRequestIDsAnswerTheirOwnerOnly(t *testing.T) {
	e := newScopedEnv(t)
	cmd := func(id, user, name string, opts map[string]string) bridge.Command {
		return bridge.Command{ID: id, Platform: "matrix", Space: "room1", User: user, Command: name, Options: opts}
	}
	const path = "/bridge/v1/commands"
	for _, c := range []struct {
		secret string
		body   bridge.Command
	}{
		{"a-users-secret", cmd("$join-alice", "alice", "join", nil)},
		{"matrix-relay-secret", cmd("$grant-alice", "boss", "grant", map[string]string{"player": "matrix:alice", "vertebrae": "4321", "reason": "prize"})},
	} {
		if s, b := e.send(c.secret, path, c.body); s != 200 || bytes.Contains(b, []byte(`"refusal":true`)) {
			t.Fatalf("%s: %d %s", c.body.ID, s, b)
		}
	}
	// alice's private status (a read: its reply is what the cache keeps).
	s, status := e.send("a-users-secret", path, cmd("$status-alice", "alice", "status", nil))
	if s != 200 || !bytes.Contains(status, []byte("4321")) || !bytes.Contains(status, []byte(`"ephemeral":true`)) {
		t.Fatalf("alice's status: %d %s, want her private status with her 4321 Vertebrae", s, status)
	}
	s, join := e.send("a-users-secret", path, cmd("$join-alice", "alice", "join", nil))
	if s != 200 {
		t.Fatalf("alice's join replayed: %d %s", s, join)
	}

	ids := []string{"$join-alice", "$grant-alice", "$status-alice"}
	before := e.snapshot(ids)
	for _, r := range []struct {
		name, secret string
		body         bridge.Command
	}{
		{"mallory's own secret sends alice's status id", "mallory-secret", cmd("$status-alice", "mallory", "status", nil)},
		{"another secret, same user: matrix relay sends alice's status id as alice", "matrix-relay-secret", cmd("$status-alice", "alice", "status", nil)},
		{"same secret, another user: anna sends alice's status id", "a-users-secret", cmd("$status-alice", "anna", "status", nil)},
		{"same secret, another user: anna joins under alice's join id", "a-users-secret", cmd("$join-alice", "anna", "join", nil)},
		{"another secret, another command under alice's join id", "mallory-secret", cmd("$join-alice", "mallory", "join", nil)},
		{"another secret sends the admin's grant id", "mallory-secret", cmd("$grant-alice", "mallory", "status", nil)},
	} {
		s, b := e.send(r.secret, path, r.body)
		var p struct{ Code, Detail string }
		if s != http.StatusConflict || json.Unmarshal(b, &p) != nil || p.Code != "request_id_reused" || !strings.Contains(p.Detail, "someone else") {
			t.Errorf("%s: %d %s, want 409 request_id_reused", r.name, s, b)
		}
		if bytes.Contains(b, []byte("4321")) {
			t.Errorf("%s: the answer shows alice's status: %s", r.name, b)
		}
	}
	if after := e.snapshot(ids); after != before {
		t.Fatalf("refused reuses changed the store:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	for _, who := range []string{"matrix:anna", "matrix:mallory"} {
		if p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", who); err == nil && p.Member {
			t.Errorf("%s joined hall under alice's request id", who)
		}
	}

	// alice's relay replaying gets the first replies, byte for byte.
	for _, r := range []struct {
		body  bridge.Command
		first []byte
	}{{cmd("$status-alice", "alice", "status", nil), status}, {cmd("$join-alice", "alice", "join", nil), join}} {
		if s, b := e.send("a-users-secret", path, r.body); s != 200 || !bytes.Equal(b, r.first) {
			t.Errorf("alice replays %s: %d %s, want the first reply %s", r.body.ID, s, b, r.first)
		}
	}

	// An event id is the relay's too: mallory's relay sending alice's
	// relay's event id pushes mallory's own reaction, neither answered
	// with alice's push as a repeat nor swallowing it.
	react := func(secret, user string) []string {
		t.Helper()
		s, b := e.send(secret, "/bridge/v1/events", bridge.Event{ID: "$react-1", Platform: "matrix", Space: "room1",
			Type: bridge.ReactionAdded, Channel: "c", Message: "m1", User: user, Emoji: "👍"})
		var p struct{ Result struct{ Up []string } }
		if s != 200 || json.Unmarshal(b, &p) != nil {
			t.Fatalf("%s's reaction: %d %s", user, s, b)
		}
		return p.Result.Up
	}
	first := react("a-users-secret", "alice")
	if up := react("mallory-secret", "mallory"); len(up) != 2 {
		t.Errorf("after mallory's reaction under alice's event id, 👍 by %v; want alice and mallory", up)
	}
	if up := react("a-users-secret", "alice"); !slices.Equal(up, first) {
		t.Errorf("alice's relay repeating its event: 👍 by %v, want its first answer %v", up, first)
	}
	// The same secret sending that event id for another user is refused
	// (once a nil result answered as a panic).
	s, b := e.send("a-users-secret", "/bridge/v1/events", bridge.Event{ID: "$react-1", Platform: "matrix", Space: "room1",
		Type: bridge.ReactionAdded, Channel: "c", Message: "m1", User: "anna", Emoji: "👍"})
	if s != http.StatusUnprocessableEntity || !bytes.Contains(b, []byte("idempotency_key_reused")) {
		t.Errorf("anna's reaction under alice's event id, same secret: %d %s, want 422 idempotency_key_reused", s, b)
	}
}
