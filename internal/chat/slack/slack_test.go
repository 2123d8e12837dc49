package slack_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/slack"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

var (
	start  = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	secret = []byte("8f742231b10e8888abcd99yyyzzz85a5")
)

const (
	admin = "UADMIN"
	ada   = "U0ADA"
	grace = "U0GRACE"
	team  = "T0TEAM"
)

// env is a Slack handler over a real game service on bolt, served on a
// loopback server, and a loopback "hooks.slack.com" for response_url.
type env struct {
	t      *testing.T
	srv    *httptest.Server
	svc    *game.Service
	clk    *clock.Manual
	n      int
	hooks  *httptest.Server
	mu     sync.Mutex
	hooked []slack.Message
	// sent notes every command path sent as a slash command.
	sent map[string]bool
	// last is the store cost of the last request served.
	last *store.Usage
	// h is the handler served.
	h *slack.Handler
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
	e := &env{t: t, clk: clock.NewManual(start), sent: map[string]bool{}}
	e.svc = rulesets.New(st, e.clk, game.WithEntropy(rand.NewChaCha8(seed)), game.WithLogger(quiet))
	if _, err := e.svc.Create(context.Background(), game.Request{Actor: "slack:" + admin, Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	e.hooks = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m slack.Message
		_ = json.NewDecoder(r.Body).Decode(&m)
		e.mu.Lock()
		e.hooked = append(e.hooked, m)
		e.mu.Unlock()
	}))
	t.Cleanup(e.hooks.Close)
	h := &slack.Handler{Router: chat.NewRouter(e.svc, quiet), Cache: &chat.ReplyCache{Store: st, Clock: e.clk},
		Secret: secret, Clock: e.clk, Log: quiet, ResponseURLPrefix: e.hooks.URL + "/"}
	e.h = h
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := new(store.Usage)
		e.mu.Lock()
		e.last = u
		e.mu.Unlock()
		h.ServeHTTP(w, r.WithContext(store.WithUsage(r.Context(), u)))
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// post sends body to path signed at ts (now when zero) with secret sec.
func (e *env) post(path, body string, sec []byte, ts time.Time) (int, []byte) {
	e.t.Helper()
	if ts.IsZero() {
		ts = e.clk.Now()
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	stamp := strconv.FormatInt(ts.Unix(), 10)
	req.Header.Set("X-Slack-Request-Timestamp", stamp)
	req.Header.Set("X-Slack-Signature", slack.Sign(sec, stamp, []byte(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func form(user, text, trigger string) string {
	return url.Values{"token": {"legacy"}, "team_id": {team}, "team_domain": {"hall"}, "channel_id": {"C0PLAY"},
		"channel_name": {"play"}, "user_id": {user}, "user_name": {strings.ToLower(user)}, "command": {"/croupier"},
		"text": {text}, "api_app_id": {"A0APP"}, "response_url": {"https://hooks.slack.com/commands/T0TEAM/1/x"},
		"trigger_id": {trigger}}.Encode()
}

// cmd runs "/croupier text" as user with a fresh trigger_id.
func (e *env) cmd(user, text string) slack.Message {
	e.t.Helper()
	e.n++
	return e.cmdKey(user, text, fmt.Sprintf("13345224609.%d.abc", e.n))
}

func (e *env) cmdKey(user, text, trigger string) slack.Message {
	e.t.Helper()
	if name, _, err := slack.Parse(text); err == nil {
		e.sent[name] = true
	}
	status, b := e.post("/slack/commands", form(user, text, trigger), secret, time.Time{})
	if status != http.StatusOK {
		e.t.Fatalf("/croupier %s: status %d %s", text, status, b)
	}
	var m slack.Message
	if err := json.Unmarshal(b, &m); err != nil || m.Text == "" || len(m.Blocks) == 0 ||
		(m.ResponseType != "ephemeral" && m.ResponseType != "in_channel") {
		e.t.Fatalf("/croupier %s: not a Block Kit response (%v): %s", text, err, b)
	}
	return m
}

// ok expects a reply that is not a refusal.
func (e *env) ok(user, text string) slack.Message {
	e.t.Helper()
	m := e.cmd(user, text)
	if refused(m) {
		e.t.Fatalf("/croupier %s was refused: %s", text, m.Text)
	}
	return m
}

func refused(m slack.Message) bool {
	b, _ := json.Marshal(m.Blocks)
	return strings.Contains(string(b), ":no_entry:")
}

func (e *env) player(id string) gildedhall.PlayerView {
	e.t.Helper()
	p, err := gildedhall.On(e.svc).Player(context.Background(), "hall", "slack:"+id)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// entries counts the game's log entries (any change writes one).
func (e *env) entries() int {
	e.t.Helper()
	n, cursor := 0, ""
	for {
		page, err := e.svc.Log(context.Background(), "hall", cursor, 100)
		if err != nil {
			e.t.Fatal(err)
		}
		n += len(page.Entries)
		if page.Next == "" {
			return n
		}
		cursor = page.Next
	}
}

// actionOf finds the action_id of the button labelled like label.
func actionOf(t *testing.T, m slack.Message, label string) string {
	t.Helper()
	for _, b := range m.Blocks {
		if b["type"] != "actions" {
			continue
		}
		for _, el := range b["elements"].([]any) {
			el := el.(map[string]any)
			if txt, _ := el["text"].(map[string]any); txt != nil && strings.Contains(strings.ToLower(txt["text"].(string)), strings.ToLower(label)) {
				return el["action_id"].(string)
			}
		}
	}
	t.Fatalf("no button %q in %+v", label, m.Blocks)
	return ""
}

func (e *env) press(user, actionID, trigger string) int {
	e.t.Helper()
	payload, _ := json.Marshal(map[string]any{"type": "block_actions", "user": map[string]any{"id": user, "username": "u", "team_id": team},
		"team": map[string]any{"id": team}, "channel": map[string]any{"id": "C0PLAY"}, "trigger_id": trigger,
		"response_url": e.hooks.URL + "/actions/T0TEAM/1/x", "actions": []any{map[string]any{"action_id": actionID, "type": "button", "value": actionID}}})
	status, _ := e.post("/slack/interactions", url.Values{"payload": {string(payload)}}.Encode(), secret, time.Time{})
	return status
}

// TestEveryCommand drives the whole table with signed slash commands and
// checks each reply and the state it leaves.
func TestEveryCommand(t *testing.T) {
	e := newEnv(t)
	// run labels a case (its command); the check at the end looks at what
	// was actually sent.
	run := func(_ string, f func()) { f() }

	run("help", func() {
		if m := e.ok(ada, ""); m.ResponseType != "ephemeral" || !strings.Contains(m.Text+fmt.Sprint(m.Blocks), "join") {
			t.Errorf("help: %+v", m)
		}
	})
	run("join", func() {
		if m := e.cmd(ada, "join"); !refused(m) || !strings.Contains(m.Text, "not bound") {
			t.Errorf("join before bind: %s", m.Text)
		}
	})
	run("bind", func() {
		if m := e.cmd(ada, "bind hall"); !refused(m) {
			t.Errorf("bind by a non-admin: %s", m.Text)
		}
		e.ok(admin, "bind game=hall announcements=<#C0ANN|announcements> actions:<#C0PLAY|play>")
		b, ok, err := e.svc.BindingFor(context.Background(), "slack", team)
		if err != nil || !ok || b.Game != "hall" || b.Channels[game.ChannelAnnouncements] != "C0ANN" || b.Channels[game.ChannelActions] != "C0PLAY" {
			t.Fatalf("binding %+v %v %v", b, ok, err)
		}
	})
	e.ok(ada, `join name="Ada Lovelace"`)
	e.ok(grace, "join Grace")
	if p := e.player(ada); !p.Member || p.Name != "Ada Lovelace" || e.player(grace).Name != "Grace" {
		t.Fatalf("after joins: %+v / %+v", p, e.player(grace))
	}
	run("grant", func() {
		e.ok(admin, "grant <@U0ADA|ada> vertebrae=100 pack=handy-pack reason=seed money for the test")
		if p := e.player(ada); p.Inventory.Vertebrae != 100 || len(p.Inventory.Packs) != 1 {
			t.Fatalf("after grant: %+v", p.Inventory)
		}
		if m := e.cmd(ada, "grant <@U0ADA> vertebrae=5 reason=self"); !refused(m) {
			t.Errorf("grant by a player: %s", m.Text)
		}
	})
	run("revoke", func() {
		e.ok(admin, "revoke U0ADA reason=oops vertebrae=1")
		if p := e.player(ada); p.Inventory.Vertebrae != 99 {
			t.Errorf("after revoke: %d Vertebrae", p.Inventory.Vertebrae)
		}
	})
	run("shop", func() {
		if m := e.ok(ada, "shop"); !strings.Contains(fmt.Sprint(m.Blocks), "25") {
			t.Errorf("shop without the Chip's price: %+v", m.Blocks)
		}
	})
	run("buy", func() {
		m := e.ok(ada, "buy chip")
		if m.ResponseType != "ephemeral" || e.player(ada).Inventory.Chips != 0 {
			t.Errorf("buy asks first, privately: %+v", m)
		}
		confirm := actionOf(t, m, "buy")
		if !strings.Contains(fmt.Sprint(m.Blocks), "/croupier buy confirm") {
			t.Errorf("no typed equivalent of the confirm button: %+v", m.Blocks)
		}
		run("buy confirm", func() {
			e.ok(ada, "buy confirm item=chip quantity=1")
			if p := e.player(ada); p.Inventory.Chips != 1 || p.Inventory.Vertebrae != 74 {
				t.Errorf("after buy confirm: %+v", p.Inventory)
			}
			// The button works too (interactivity): the reply goes to response_url.
			if s := e.press(ada, confirm, "btn-1"); s != http.StatusOK {
				t.Fatalf("button press: %d", s)
			}
			if p := e.player(ada); p.Inventory.Chips != 2 || len(e.hooked) != 1 || refused(e.hooked[0]) {
				t.Errorf("after the button: %+v, hooked %+v", p.Inventory, e.hooked)
			}
			// A replayed interaction changes nothing and answers the same.
			_ = e.press(ada, confirm, "btn-1")
			if p := e.player(ada); p.Inventory.Chips != 2 || len(e.hooked) != 2 {
				t.Errorf("after a replayed button: %+v", p.Inventory)
			}
		})
	})
	run("open", func() {
		before := len(e.player(ada).Inventory.Cards)
		e.ok(ada, "open handy-pack")
		if p := e.player(ada); len(p.Inventory.Cards) != before+3 || len(p.Inventory.Packs) != 0 {
			t.Errorf("after open: %d cards (had %d), %d packs", len(p.Inventory.Cards), before, len(p.Inventory.Packs))
		}
	})
	run("gift", func() {
		e.ok(ada, "gift <@U0GRACE|grace>")
		if n := len(e.player(grace).Inventory.Cards); n == 0 {
			t.Error("the gift gave Grace nothing")
		}
	})
	run("status", func() {
		if m := e.ok(ada, "status"); m.ResponseType != "ephemeral" || !strings.Contains(fmt.Sprint(m.Blocks), "Vertebrae") {
			t.Errorf("status: %+v", m)
		}
	})
	run("inventory", func() { e.ok(grace, "inventory") })
	run("players", func() {
		if m := e.ok(ada, "players"); !strings.Contains(fmt.Sprint(m.Blocks), "Grace") {
			t.Errorf("players: %+v", m.Blocks)
		}
	})
	run("roll", func() {
		if m := e.ok(ada, "roll 2d6 for luck"); !strings.Contains(m.Text+fmt.Sprint(m.Blocks), "2d6") {
			t.Errorf("roll: %+v", m)
		}
	})
	run("trade offer", func() {
		m := e.ok(ada, `trade offer <@U0GRACE> give_vertebrae=5 note=for your "best" card`)
		ts, _ := trades.On(e.svc).Trades(context.Background(), "hall", trades.TradeFilter{})
		if len(ts) != 1 || ts[0].Give.Vertebrae != 5 || ts[0].Note != "for your best card" {
			t.Fatalf("after offer: %+v (reply %s)", ts, m.Text)
		}
		id := ts[0].ID
		run("trade list", func() {
			if m := e.ok(grace, "trade list"); !strings.Contains(fmt.Sprint(m), id) {
				t.Errorf("trade list without %s: %+v", id, m)
			}
		})
		run("trade show", func() { e.ok(grace, "trade show "+id) })
		run("trade accept", func() {
			e.ok(grace, "trade accept")
			if tr, _ := trades.On(e.svc).Trade(context.Background(), "hall", id); tr.Status != trades.TradeExecuted || e.player(grace).Inventory.Vertebrae != 5 {
				t.Errorf("after accept: %+v", tr)
			}
		})
		run("trade withdraw", func() {
			e.ok(ada, "trade offer <@U0GRACE> give_vertebrae=1")
			e.ok(grace, "trade withdraw")
			open, _ := trades.On(e.svc).Trades(context.Background(), "hall", trades.TradeFilter{Status: trades.TradeOpen})
			if len(open) != 0 {
				t.Errorf("open trades after withdraw: %+v", open)
			}
		})
	})
	run("amend", func() {
		e.ok(admin, `amend patch={“durations”: {“tradeWindow”: “72h”}} reason=longer trades`)
		rs, err := e.svc.Ruleset(context.Background(), "hall")
		if err != nil || rs.Durations.TradeWindow.Std() != 72*time.Hour {
			t.Errorf("after amend: %v %v", rs.Durations.TradeWindow, err)
		}
	})
	run("rules", func() {
		if m := e.ok(ada, "rules"); !strings.Contains(all(m), "tradeWindow 3 days") {
			t.Errorf("rules after the amendment: %s", all(m))
		}
	})
	run("log", func() { e.ok(ada, "log 5") })
	run("seeds", func() { e.ok(ada, "seeds") })
	run("audit", func() { e.ok(ada, "audit") })
	run("game", func() { e.ok(ada, "game") })
	run("leave", func() {
		m := e.ok(grace, "leave")
		if !e.player(grace).Member {
			t.Fatal("leave did not ask first")
		}
		_ = actionOf(t, m, "leave")
		run("leave confirm", func() {
			e.ok(grace, "leave confirm")
			if e.player(grace).Member {
				t.Error("still a member after leave confirm")
			}
		})
	})
	run("dismiss", func() { e.ok(ada, "dismiss") })

	// The areas' scenarios, each in a game of its own.
	sent := maps.Clone(e.sent)
	for _, sc := range []struct {
		name string
		run  func(*testing.T) *env
	}{{"exoptosis", exoptosisScenario}, {"governance", governanceScenario}, {"obelisk", obeliskScenario}, {"the Obelisk in Slack", obeliskInSlack}, {"turns", turnsScenario}} {
		t.Run(sc.name, func(t *testing.T) { maps.Copy(sent, sc.run(t).sent) })
	}

	// Every slash command of the table has a case above that sends it and
	// checks its reply and state (hidden ones are also run by the buttons
	// and selects they belong to). Menu commands (on a message or user)
	// cannot be typed: Slack's answer is a refusal that says so, and their
	// typed equivalents (propose, rfj, stand, status) are cases above.
	for _, c := range chat.Commands() {
		switch {
		case c.Kind != chat.Slash:
			if m := e.cmd(ada, c.Name); !refused(m) || !strings.Contains(m.Text, "menu command") {
				t.Errorf("%q (a menu command): %s", c.Name, m.Text)
			}
		case !sent[c.Name] && !c.Hidden:
			t.Errorf("command %q has no Slack case", c.Name)
		}
	}
}

// Issue 16: a purchase through Slack is one read request and one commit
// of the buyer and the log entry, which is the reply's record: no reply
// cache, no read of the binding (the router has it, and META confirms it).
func TestPurchaseAtTheCostFloor(t *testing.T) {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	e.ok(ada, "join")
	e.ok(admin, "grant <@U0ADA> vertebrae=50 reason=x")
	if m := e.cmdKey(ada, "buy confirm item=chip", "floor-trigger"); refused(m) {
		t.Fatalf("purchase refused: %s", m.Text)
	}
	e.mu.Lock()
	c := e.last.Snapshot()
	e.mu.Unlock()
	if c.Requests != 2 || c.ItemsWritten != 2 || c.ReadUnits > 4 {
		t.Errorf("a Slack purchase cost %d requests, %d items written, %.2f RCU; want 2, 2, at most 4", c.Requests, c.ItemsWritten, c.ReadUnits)
	}
}

func TestReplayReturnsTheFirstReply(t *testing.T) {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	e.ok(ada, "join")
	e.ok(admin, "grant <@U0ADA> vertebrae=50 reason=x")
	first := e.cmdKey(ada, "buy confirm item=chip", "replayed-trigger")
	n := e.entries()
	again := e.cmdKey(ada, "buy confirm item=chip", "replayed-trigger")
	// Even another text under the same trigger_id is the same request.
	other := e.cmdKey(ada, "buy confirm item=chip quantity=2", "replayed-trigger")
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	c, _ := json.Marshal(other)
	if string(a) != string(b) || string(a) != string(c) {
		t.Errorf("replies differ:\n%s\n%s\n%s", a, b, c)
	}
	if p := e.player(ada); p.Inventory.Chips != 1 || e.entries() != n {
		t.Errorf("a replay changed state: %d Chips, %d entries (was %d)", p.Inventory.Chips, e.entries(), n)
	}
}

func TestSecurity(t *testing.T) {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	body := form(ada, "join", "sec-1")
	n := e.entries()
	send := func(name string, mutate func(*http.Request), b string, want int) {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/slack/commands", strings.NewReader(b))
			stamp := strconv.FormatInt(e.clk.Now().Unix(), 10)
			req.Header.Set("X-Slack-Request-Timestamp", stamp)
			req.Header.Set("X-Slack-Signature", slack.Sign(secret, stamp, []byte(b)))
			mutate(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var p struct{ Code, Detail string }
			_ = json.NewDecoder(resp.Body).Decode(&p)
			if resp.StatusCode != want || (want != 200 && p.Detail == "") {
				t.Errorf("status %d %+v, want %d with a problem", resp.StatusCode, p, want)
			}
		})
	}
	none := func(*http.Request) {}
	stamp := func(d time.Duration) func(*http.Request) {
		return func(r *http.Request) {
			ts := strconv.FormatInt(e.clk.Now().Add(d).Unix(), 10)
			r.Header.Set("X-Slack-Request-Timestamp", ts)
			r.Header.Set("X-Slack-Signature", slack.Sign(secret, ts, []byte(body)))
		}
	}
	send("wrong secret", func(r *http.Request) {
		ts := r.Header.Get("X-Slack-Request-Timestamp")
		r.Header.Set("X-Slack-Signature", slack.Sign([]byte("not the secret"), ts, []byte(body)))
	}, body, 401)
	send("missing signature", func(r *http.Request) { r.Header.Del("X-Slack-Signature") }, body, 401)
	send("missing timestamp", func(r *http.Request) { r.Header.Del("X-Slack-Request-Timestamp") }, body, 401)
	send("signature of another body", none, body, 200) // sanity: the harness signs correctly
	send("tampered body", func(r *http.Request) {
		r.Header.Set("X-Slack-Signature", slack.Sign(secret, r.Header.Get("X-Slack-Request-Timestamp"), []byte(form(ada, "leave", "sec-2"))))
	}, body, 401)
	send("stale timestamp (6 minutes old)", stamp(-6*time.Minute), body, 401)
	send("timestamp from the future", stamp(6*time.Minute), body, 401)
	send("timestamp not a number", func(r *http.Request) { r.Header.Set("X-Slack-Request-Timestamp", "yesterday") }, body, 401)
	send("v1 signature", func(r *http.Request) {
		r.Header.Set("X-Slack-Signature", strings.Replace(r.Header.Get("X-Slack-Signature"), "v0=", "v1=", 1))
	}, body, 401)
	big := form(ada, strings.Repeat("x", slack.MaxBody), "sec-3")
	send("body over 64 KiB", none, big, 413)
	if got := e.entries(); got != n+1 { // only the sanity join
		t.Errorf("log entries %d, want %d: a refused request changed state", got, n+1)
	}
	// Just inside the window is accepted.
	if s, b := e.post("/slack/commands", form(grace, "join", "sec-4"), secret, e.clk.Now().Add(-4*time.Minute)); s != 200 {
		t.Errorf("4 minutes old: %d %s", s, b)
	}
	// Interactions are verified the same way, and response_url must be Slack's.
	if s, _ := e.post("/slack/interactions", "payload=%7B%7D", []byte("wrong"), time.Time{}); s != 401 {
		t.Errorf("unsigned interaction: %d", s)
	}
	payload := `{"type":"block_actions","user":{"id":"U0ADA"},"team":{"id":"T0TEAM"},"trigger_id":"t","response_url":"http://169.254.169.254/latest","actions":[{"action_id":"a1:status"}]}`
	if s, _ := e.post("/slack/interactions", url.Values{"payload": {payload}}.Encode(), secret, time.Time{}); s != 400 {
		t.Errorf("interaction with a foreign response_url: %d, want 400", s)
	}
}

func TestParse(t *testing.T) {
	router := chat.NewRouter(newEnv(t).svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, tc := range []struct {
		text, name string
		opts       map[string]string
		err        string
	}{
		{"", "help", map[string]string{}, ""},
		{"buy chip 2", "buy", map[string]string{"item": "chip", "quantity": "2"}, ""},
		{"trade offer <@U1|ada> give_chips:2 note=hello there", "trade offer", map[string]string{"player": "slack:U1", "give_chips": "2", "note": "hello there"}, ""},
		{"gift U0ABC", "gift", map[string]string{"player": "slack:U0ABC"}, ""},
		{"gift slack:U0ABC", "gift", map[string]string{"player": "slack:U0ABC"}, ""},
		{`roll "2d6" "for the win"`, "roll", map[string]string{"dice": "2d6", "reason": "for the win"}, ""},
		{"roll 2d6 for the win", "roll", map[string]string{"dice": "2d6", "reason": "for the win"}, ""},
		{`amend {"a": [1, 2]} because`, "amend", map[string]string{"patch": `{"a": [1, 2]}`, "reason": "because"}, ""},
		{"trade", "trade", map[string]string{}, ""},
		{"shop extra", "", nil, "one too many"},
		{"buy item=chip item=chip", "", nil, "twice"},
		{`join "Ada`, "", nil, "quote"},
		{"Player status", "", nil, ""},
	} {
		// As the handler parses: the table's commands and the declared ones
		// (a gift's is its declaration's, its player option "player").
		name, opts, err := slack.ParseWith(router.Lookup, tc.text)
		if tc.err != "" || err != nil {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) error %v, want one about %q", tc.text, err, tc.err)
			}
			continue
		}
		if name != tc.name || fmt.Sprint(opts) != fmt.Sprint(tc.opts) {
			t.Errorf("Parse(%q) = %q %v, want %q %v", tc.text, name, opts, tc.name, tc.opts)
		}
	}
}

func FuzzVerify(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Add("1800000000", "v0=abc", []byte("token=x"))
	f.Add("1799999999", slack.Sign(secret, "1799999999", []byte("a=b")), []byte("a=b"))
	f.Add("", "", []byte{})
	f.Fuzz(func(t *testing.T, ts, sig string, body []byte) {
		h := http.Header{}
		h.Set("X-Slack-Request-Timestamp", ts)
		h.Set("X-Slack-Signature", sig)
		err := slack.Verify(secret, h, body, now)
		if err == nil && sig != slack.Sign(secret, h.Get("X-Slack-Request-Timestamp"), body) {
			t.Fatalf("accepted a signature that is not the body's: %q %q", ts, sig)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"buy chip 2", `amend {"a":1} x`, `join "a b"`, "trade offer <@U1|x> note=a b", "{[", `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _, _ = slack.Parse(s) // never panics
	})
}
