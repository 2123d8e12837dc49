package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// Thursday 2026-03-05 12:00 UTC, in Phase I of ISO week 10, which ends on
// Friday 2026-03-06 00:00 UTC: 36 hours later the phase is over.
var walkStart = time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC)

const testKey = "test-key"

// harness is `croupier serve`'s wiring (newServer, as serve builds it) behind
// an httptest server, and a CLI environment pointing at it.
type harness struct {
	t      *testing.T
	srv    *server
	ts     *httptest.Server
	data   string
	vars   map[string]string
	closed bool
	keys   int // idempotency keys handed out so far
}

func newHarness(t *testing.T, clockMode string) *harness {
	t.Helper()
	data := filepath.Join(t.TempDir(), "croupier.db")
	// A fixed entropy source and numbered idempotency keys (see cli) make
	// seeds, command ids and so every card drawn the same on every run: the
	// README's sample output is compared as printed.
	cfg := serveConfig{data: data, clockMode: clockMode, apiKeys: []string{testKey}, interval: time.Second,
		entropy: rand.NewChaCha8([32]byte{'c', 'r', 'o', 'u', 'p', 'i', 'e', 'r'})}
	if clockMode == "manual" {
		cfg.start = walkStart
	}
	srv, err := newServer(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, srv: srv, ts: httptest.NewServer(srv.handler), data: data}
	h.vars = map[string]string{"CROUPIER_URL": h.ts.URL, "CROUPIER_KEY": testKey}
	t.Cleanup(h.stop)
	return h
}

// stop shuts the server down and releases the store file.
func (h *harness) stop() {
	if h.closed {
		return
	}
	h.closed = true
	h.ts.Close()
	if err := h.srv.store.Close(); err != nil {
		h.t.Errorf("closing the store: %v", err)
	}
}

type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// cli runs `croupier args...` exactly as main does, with h.vars as the
// environment.
func (h *harness) cli(args ...string) result {
	h.t.Helper()
	return runCLIKeys(h.vars, func() string { h.keys++; return fmt.Sprintf("test-%d", h.keys) }, args...)
}

func runCLI(vars map[string]string, args ...string) result {
	return runCLIKeys(vars, nil, args...)
}

func runCLIKeys(vars map[string]string, newKey func() string, args ...string) result {
	var out, errOut bytes.Buffer
	e := &env{ctx: context.Background(), stdout: &out, stderr: &errOut, getenv: func(k string) string { return vars[k] }, newKey: newKey}
	code := e.run(args)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// must runs a command that has to succeed and returns its stdout.
func (h *harness) must(args ...string) string {
	h.t.Helper()
	r := h.cli(args...)
	if r.code != 0 {
		h.t.Fatalf("croupier %s: %s", strings.Join(args, " "), r)
	}
	return r.stdout
}

func contains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s: output lacks %q; got:\n%s", what, w, got)
		}
	}
}

// TestWalkthrough runs the README's five-minute walkthrough end to end:
// create a game, two players join, roll, grant, status, advance the clock
// past the phase end, the seed is revealed and verify passes.
func TestWalkthrough(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"

	out := h.must("play", "create-game", "hall", "--name", "Gilded Hall")
	contains(t, "create-game", out, `Created game hall ("Gilded Hall"), ruleset gilded-hall, admins discord:1.`, "Period 2026-W10-I (phase-1) runs until 2026-03-06T00:00:00Z")
	h.vars["CROUPIER_GAME"] = "hall"

	out = h.must("play", "join", "--name", "Ada")
	contains(t, "join", out, "Ada (discord:1) joined hall. Vertebrae 0, Chips 0, deck 0 cards; active;")
	out = h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	contains(t, "second join", out, "Bob (discord:2) joined hall.")

	out = h.must("play", "roll", "2d6", "--reason", "observe the Obelisk")
	m := regexp.MustCompile(`discord:1 rolled 2d6: ([1-6]) \+ ([1-6]) = (\d+) \(observe the Obelisk\)\. Period 2026-W10-I`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("roll output not as documented:\n%s", out)
	}
	if a, b, sum := atoi(m[1]), atoi(m[2]), atoi(m[3]); a+b != sum {
		t.Errorf("roll: %d + %d printed as %d", a, b, sum)
	}

	out = h.must("play", "grant", "discord:2", "--vertebrae", "5", "--chips", "2", "--reason", "carried over from the wiki")
	contains(t, "grant", out, "Granted discord:2 +5 Vertebrae, +2 Chips (carried over from the wiki). discord:2 now holds 5 Vertebrae, 2 Chips.")
	contains(t, "status", h.must("play", "status", "discord:2"), "Bob (discord:2) in hall (period 2026-W10-I): Vertebrae 5, Chips 2, deck 0 cards; active;")
	contains(t, "my status", h.must("play", "status"), "Ada (discord:1) in hall (period 2026-W10-I): Vertebrae 0, Chips 0")
	contains(t, "players", h.must("play", "players"), "hall has 2 players:", "Ada (discord:1)", "Bob (discord:2)  5")

	// Before the phase ends the roll's draws are pending, not verified.
	contains(t, "seeds before", h.must("play", "seeds"), "2026-W10-I\n", "not revealed yet")
	contains(t, "verify before", h.must("verify", "--game", "hall"), "verified 0 draws of game hall: all match (2 pending until their seeds are revealed: 2026-W10-I)")

	out = h.must("play", "clock", "--advance", "36h")
	contains(t, "clock", out, "The server's clock is now 2026-03-07T00:00:00Z (Saturday). Ended: hall/2026-W10-I")
	out = h.must("play", "seeds")
	contains(t, "seeds after", out, "revealed  2026-03-06T00:00:00Z  seed ", "2026-W10-II\n")
	contains(t, "game", h.must("play", "game"), "Period 2026-W10-II (phase-2)")

	contains(t, "verify", h.must("verify", "--game", "hall"), "verified 2 draws of game hall: all match (0 pending)")
	contains(t, "audit", h.must("play", "audit"), "verified 2 draws of game hall: all match (0 pending)")
	contains(t, "log", h.must("play", "log", "--all"), "period-end croupier:scheduler", "seed of 2026-W10-I revealed:", "raw values from 0): #0 d6=")

	// Offline, from the store file, once the server has stopped.
	h.stop()
	contains(t, "verify --data", runCLI(nil, "verify", "--game", "hall", "--data", h.data).stdout, "verified 2 draws of game hall: all match (0 pending)")
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// TestN2_VerifyFindsTamperedDraw: a draw value changed in the store after
// the fact is reported exactly (period, command id, index, purpose, logged
// and recomputed values), over HTTP and offline, with exit status 1.
func TestN2_VerifyFindsTamperedDraw(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join")
	h.must("play", "roll", "3d6")
	for i := 0; i < 10; i++ {
		h.must("play", "roll", "100d6") // 1,000 more draws
	}
	h.must("play", "clock", "--advance", "36h")
	r := h.cli("verify", "--game", "hall")
	if r.code != 0 {
		t.Fatalf("verify of an honest log: %s; want exit 0", r)
	}
	contains(t, "verify of 1,003 honest draws", r.stdout, "verified 1003 draws of game hall: all match")

	// Find the 3d6 roll's log entry and change its second draw.
	ctx := context.Background()
	st := h.srv.store
	page, err := st.Query(ctx, store.Query{PK: "GAME#hall", Prefix: "LOG#"})
	if err != nil {
		t.Fatal(err)
	}
	var target store.Item
	var entry game.Entry
	for _, it := range page.Items {
		var e game.Entry
		if err := json.Unmarshal(it.Data, &e); err != nil {
			t.Fatal(err)
		}
		if e.Command == "roll" && len(e.Draws) == 3 {
			target, entry = it, e
		}
	}
	if len(entry.Draws) != 3 {
		t.Fatalf("roll entry has %d draws, want 3: %+v", len(entry.Draws), entry)
	}
	honest := entry.Draws[1].Value
	entry.Draws[1].Value = (honest + 1) % 6
	data, err := json.Marshal(entry)
	if err != nil {
		t.Fatal(err)
	}
	target.Data = data
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: target, Expect: target.Version}}}); err != nil {
		t.Fatalf("tampering: %v", err)
	}

	want := fmt.Sprintf("period 2026-W10-I, command %s, index 1, purpose d6: logged %d, recomputed %d",
		entry.CommandID, (honest+1)%6, honest)

	r = h.cli("verify", "--game", "hall")
	if r.code != 1 {
		t.Fatalf("verify of a tampered log: %s; want exit 1", r)
	}
	contains(t, "verify over HTTP", r.stdout, "game hall FAILS verification: 1 of 1003 checked draws do not match:", want)

	r = h.cli("play", "audit")
	if r.code != 1 || !strings.Contains(r.stdout, want) {
		t.Errorf("audit of a tampered log: %s; want exit 1 and %q", r, want)
	}

	h.stop()
	r = runCLI(nil, "verify", "--game", "hall", "--data", h.data)
	if r.code != 1 {
		t.Fatalf("verify --data of a tampered log: %s; want exit 1", r)
	}
	contains(t, "verify --data", r.stdout, want)
}

// TestPlayRefusalsAndUsage: a server refusal prints its detail and code and
// exits 1; a malformed command line exits 2 before anything is sent.
func TestPlayRefusalsAndUsage(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")

	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"not a player", []string{"play", "roll", "2d6"}, 1, "refused: You are not a player in this game; join it first. [not_a_player]"},
		{"bad dice", []string{"play", "join"}, 0, ""},
		{"bad dice", []string{"play", "roll", "2x6"}, 1, "[invalid_dice]"},
		{"not admin", []string{"play", "--as", "discord:2", "grant", "discord:1", "--chips", "1", "--reason", "r"}, 1, "[forbidden]"},
		{"no such game", []string{"play", "--game", "nope", "game"}, 1, `There is no game "nope". [game_not_found]`},
		{"wrong key", []string{"play", "--key", "wrong", "game"}, 1, "[invalid_api_key]"},
		{"no dice", []string{"play", "roll"}, 2, "expected the dice"},
		{"no actor", []string{"play", "--as", "", "join"}, 2, "say who you are"},
		{"empty grant", []string{"play", "grant", "discord:2", "--reason", "r"}, 2, "needs --vertebrae N, --chips N, --card, --random-cards N or --pack"},
		{"grant without reason", []string{"play", "grant", "discord:2", "--chips", "1"}, 2, "say why with --reason"},
		{"unknown command", []string{"play", "dance"}, 2, `unknown play command "dance"`},
		{"unknown flag", []string{"play", "roll", "2d6", "--loud"}, 2, "flag provided but not defined: -loud"},
		{"two clock moves", []string{"play", "clock", "--advance", "1h", "--set", "2026-03-06T00:00:00Z"}, 2, "exactly one of"},
		{"bad duration", []string{"play", "clock", "--advance", "soon"}, 2, `"soon" is not a positive duration`},
		{"bad url", []string{"play", "--url", "localhost:8080", "game"}, 2, "is not an http(s) URL"},
		{"verify without game", []string{"verify", "--game", ""}, 2, "say which game to verify"},
		{"unknown top command", []string{"deal"}, 2, `unknown command "deal"`},
	}
	for _, c := range cases {
		r := h.cli(c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("%s: croupier %s: %s\nwant exit %d and stderr containing %q", c.name, strings.Join(c.args, " "), r, c.code, c.stderr)
		}
	}
}

// TestPlayIdempotencyKey: repeating a command with the same --key-id
// changes nothing twice and says so; --json prints the server's JSON.
func TestPlayIdempotencyKey(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join")
	h.must("play", "grant", "discord:1", "--chips", "3", "--key-id", "wiki-import-1", "--reason", "wiki")
	out := h.must("play", "grant", "discord:1", "--chips", "3", "--key-id", "wiki-import-1", "--reason", "wiki")
	contains(t, "repeat", out, "now holds 0 Vertebrae, 3 Chips", "(a repeat: the server had already done this with idempotency key wiki-import-1; nothing changed)")

	var v game.PlayerView
	if err := json.Unmarshal([]byte(h.must("play", "status", "--json")), &v); err != nil {
		t.Fatalf("status --json is not JSON: %v", err)
	}
	if v.Inventory.Chips != 3 {
		t.Errorf("chips after a repeated grant = %d, want 3", v.Inventory.Chips)
	}

	r := h.cli("play", "grant", "discord:1", "--chips", "4", "--key-id", "wiki-import-1", "--reason", "wiki", "--json")
	var p map[string]any
	if r.code != 1 || json.Unmarshal([]byte(r.stdout), &p) != nil || p["code"] != "idempotency_key_reused" {
		t.Errorf("reusing a key for another grant with --json: %s; want exit 1 and a problem with code idempotency_key_reused", r)
	}
}

// TestClockNeedsManualServer: a real-clock server cannot be moved, and the
// CLI says how to start one that can.
func TestClockNeedsManualServer(t *testing.T) {
	h := newHarness(t, "real")
	r := h.cli("play", "clock", "--advance", "1h")
	if r.code != 1 || !strings.Contains(r.stderr, "start it with `croupier serve --clock manual`") || !strings.Contains(r.stderr, "[clock_not_manual]") {
		t.Errorf("clock on a real-clock server: %s", r)
	}
}

// TestClockToPeriodEnd: --to-period-end moves just past the game's current
// period, whatever time the server started at.
func TestClockToPeriodEnd(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	contains(t, "to period end", h.must("play", "clock", "--to-period-end"), "2026-03-06T00:00:01Z (Friday). Ended: hall/2026-W10-I")
	contains(t, "again", h.must("play", "clock", "--to-period-end"), "2026-03-09T00:00:01Z (Monday). Ended: hall/2026-W10-II")
}

func TestHelp(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"help"}, 0, "Commands:\n  serve"},
		{[]string{"help", "play"}, 0, "create-game ID"},
		{[]string{"help", "serve"}, 0, "--clock manual"},
		{[]string{"play", "help", "roll"}, 0, "croupier play roll DICE"},
		{[]string{"version"}, 0, "croupier "},
		{nil, 2, "Usage:"},
	}
	for _, c := range cases {
		r := runCLI(nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout+r.stderr, c.want) {
			t.Errorf("croupier %s: %s\nwant exit %d and %q", strings.Join(c.args, " "), r, c.code, c.want)
		}
	}
	// -h on a command prints its flags and exits 0.
	r := runCLI(nil, "play", "grant", "-h")
	if r.code != 0 || !strings.Contains(r.stderr, "-vertebrae") {
		t.Errorf("play grant -h: %s", r)
	}
}

// syncBuffer collects serve's log while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeRunsAndStops runs `croupier serve` itself on a free port: its log
// says where it listens, the data path, the clock mode and the dev key; the
// CLI can play against it; cancelling it (as SIGINT does) shuts it down
// cleanly and releases the store.
func TestServeRunsAndStops(t *testing.T) {
	data := filepath.Join(t.TempDir(), "srv.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs := &syncBuffer{}
	addrCh := make(chan string, 1)
	e := &env{ctx: ctx, stdout: io.Discard, stderr: logs, getenv: func(string) string { return "" },
		onListen: func(a string) { addrCh <- a }}
	done := make(chan int, 1)
	go func() {
		done <- e.run([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--clock", "manual", "--start", "2026-03-05T12:00:00Z"})
	}()
	var addr string
	select {
	case addr = <-addrCh:
	case code := <-done:
		t.Fatalf("serve exited %d before listening:\n%s", code, logs)
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not listen within 10s:\n%s", logs)
	}
	contains(t, "serve log", logs.String(), "croupier listening", "url=http://"+addr, "data="+data, "mode=manual", "now=2026-03-05T12:00:00Z", `development key \"dev-key\"`)

	vars := map[string]string{"CROUPIER_URL": "http://" + addr, "CROUPIER_AS": "discord:1", "CROUPIER_GAME": "hall"}
	if r := runCLI(vars, "play", "create-game", "hall"); r.code != 0 {
		t.Fatalf("create-game against serve: %s", r)
	}
	if r := runCLI(vars, "play", "clock", "--advance", "36h"); r.code != 0 || !strings.Contains(r.stdout, "Ended: hall/2026-W10-I") {
		t.Fatalf("clock: %s", r)
	}

	// A second server on the same port or the same store is refused clearly.
	if r := runCLI(nil, "serve", "--addr", addr, "--data", filepath.Join(t.TempDir(), "other.db")); r.code != 1 || !strings.Contains(r.stderr, "the port is already in use") {
		t.Errorf("serve on a taken port: %s", r)
	}
	if r := runCLI(nil, "serve", "--addr", "127.0.0.1:0", "--data", data); r.code != 1 || !strings.Contains(r.stderr, "cannot open the store") || !strings.Contains(r.stderr, "in use by another croupier process") {
		t.Errorf("serve on a locked store: %s", r)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d after cancel:\n%s", code, logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not stop within 15s of cancel:\n%s", logs)
	}
	contains(t, "serve log", logs.String(), "shutting down", "scheduler stopped", "msg=stopped")
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Errorf("%s still accepts connections after shutdown", addr)
	}
	st, err := bolt.Open(data)
	if err != nil {
		t.Fatalf("the store is still locked after shutdown: %v", err)
	}
	st.Close()
}

func TestServeUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--clock", "sundial"}, "--clock must be real or manual"},
		{[]string{"serve", "--clock", "manual", "--start", "tomorrow"}, "is not an RFC 3339 time"},
		{[]string{"serve", "--start", "2026-03-05T12:00:00Z"}, "--start needs --clock manual"},
		{[]string{"serve", "now"}, "serve takes no arguments"},
	}
	for _, c := range cases {
		if r := runCLI(nil, c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("croupier %s: %s\nwant exit 2 and %q", strings.Join(c.args, " "), r, c.want)
		}
	}
}

func TestDisplayURL(t *testing.T) {
	for in, want := range map[string]string{"[::]:8080": "http://localhost:8080", "0.0.0.0:80": "http://localhost:80", "127.0.0.1:9": "http://127.0.0.1:9"} {
		addr, err := net.ResolveTCPAddr("tcp", in)
		if err != nil {
			t.Fatal(err)
		}
		if got := displayURL(addr); got != want {
			t.Errorf("displayURL(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestBenchOnBolt: `croupier bench` prints a row per command for the
// embedded store; asking for the functions without a DynamoDB is a usage error.
func TestBenchOnBolt(t *testing.T) {
	r := runCLI(nil, "bench", "--n", "2")
	if r.code != 0 {
		t.Fatalf("bench: %s", r)
	}
	contains(t, "bench", r.stdout, "store", "bolt", "join", "roll 2d6", "WCU")
	if r := runCLI(nil, "bench", "--functions"); r.code != 2 || !strings.Contains(r.stderr, "--functions needs a DynamoDB") {
		t.Errorf("bench --functions without an endpoint: %s", r)
	}
}
