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

	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
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
	return newHarnessWith(t, clockMode, nil)
}

// newHarnessWith is newHarness with cfg changed by set first (chat keys...).
func newHarnessWith(t *testing.T, clockMode string, set func(*serveConfig)) *harness {
	t.Helper()
	data := filepath.Join(t.TempDir(), "croupier.db")
	// A fixed entropy source and numbered idempotency keys (see cli) make
	// seeds, command ids and so every card drawn the same on every run: the
	// README's sample output is compared as printed.
	cfg := serveConfig{data: data, clockMode: clockMode, apiKeys: credential.Keys{credential.AnyKey(testKey)}, interval: time.Second,
		entropy: rand.NewChaCha8([32]byte{'c', 'r', 'o', 'u', 'p', 'i', 'e', 'r'})}
	if clockMode == "manual" {
		cfg.start = walkStart
	}
	if set != nil {
		set(&cfg)
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
	contains(t, "create-game", out, `Created game hall ("Gilded Hall"), ruleset gilded-hall; its admin is you.`, "Period 2026-W10-I (phase-1) runs until 2026-03-06T00:00:00Z")
	h.vars["CROUPIER_GAME"] = "hall"

	out = h.must("play", "join", "--name", "Ada")
	contains(t, "join", out, "Ada joined hall. Vertebrae 0, Chips 0, deck 0 cards; active;")
	out = h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	contains(t, "second join", out, "Bob joined hall.")

	out = h.must("play", "roll", "2d6", "--reason", "observe the Obelisk")
	m := regexp.MustCompile(`Ada rolled 2d6: ([1-6]) \+ ([1-6]) = (\d+) \(observe the Obelisk\)\. Period 2026-W10-I`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("roll output not as documented:\n%s", out)
	}
	if a, b, sum := atoi(m[1]), atoi(m[2]), atoi(m[3]); a+b != sum {
		t.Errorf("roll: %d + %d printed as %d", a, b, sum)
	}

	out = h.must("play", "grant", "discord:2", "--vertebrae", "5", "--chips", "2", "--reason", "carried over from the wiki")
	contains(t, "grant", out, "Granted Bob +5 Vertebrae, +2 Chips (carried over from the wiki). Bob now holds 5 Vertebrae, 2 Chips.")
	contains(t, "status", h.must("play", "status", "discord:2"), "Bob in hall (period 2026-W10-I): Vertebrae 5, Chips 2, deck 0 cards; active;")
	contains(t, "my status", h.must("play", "status"), "Ada in hall (period 2026-W10-I): Vertebrae 0, Chips 0")
	contains(t, "players", h.must("play", "players"), "hall has 2 players:", "Ada", "Bob     5  ")

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
	contains(t, "log", h.must("play", "log", "--all"), "period end croupier:scheduler", "The seed of period 2026-W10-I was revealed:", "raw values from 0): #0 d6=")

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
		e, err := game.DecodeEntry(it.Data)
		if err != nil {
			t.Fatal(err)
		}
		if e.Command == "roll" && len(e.Draws) == 3 {
			target, entry = it, *e
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

	var v gildedhall.PlayerView
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

// TestClockSetBackwardIsRefused: `clock --set` before the clock's time is
// refused with both moments (issue 24 point 9), and the game is where it
// was: the clock resumes from its own time, the period is unchanged.
func TestClockSetBackwardIsRefused(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	contains(t, "forward", h.must("play", "clock", "--set", "2026-03-06T12:00:00Z"), "The server's clock is now 2026-03-06T12:00:00Z (Friday). Ended: hall/2026-W10-I")
	r := h.cli("play", "clock", "--set", "2026-03-05T12:00:00Z")
	if r.code != exitRefused || r.stdout != "" ||
		!strings.Contains(r.stderr, "The clock is at 2026-03-06T12:00:00Z: it cannot be set back to 2026-03-05T12:00:00Z, as a manual clock only moves forward.") ||
		!strings.Contains(r.stderr, "[invalid_clock]") {
		t.Errorf("clock --set into the past: %s", r)
	}
	contains(t, "the game after the refusal", h.must("play", "game"), "2026-W10-II")
	contains(t, "then forward again", h.must("play", "clock", "--advance", "1h"), "The server's clock is now 2026-03-06T13:00:00Z (Friday).")
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

// statusJSON is a player's status as --json prints it.
func (h *harness) statusJSON(player string) gildedhall.PlayerView {
	h.t.Helper()
	var v gildedhall.PlayerView
	if err := json.Unmarshal([]byte(h.must("play", "status", player, "--json")), &v); err != nil {
		h.t.Fatalf("status %s --json: %v", player, err)
	}
	return v
}

func matches(t *testing.T, what, got string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(got) {
			t.Errorf("%s: output does not match %q; got:\n%s", what, p, got)
		}
	}
}

// TestEconomyCLI plays the economy end to end through the CLI against the
// in-process server: the shop, an admin's grant of named cards and packs,
// buying and opening packs, a gift, a trade accepted and one withdrawn, a
// revocation, a price amendment, and victory at 25 Chips (C7).
func TestEconomyCLI(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join", "--name", "Ada")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")

	matches(t, "shop", h.must("play", "shop"), `random-card\s+5 Vertebrae\s+1 random card, each 10% holo`, `handy-pack\s+12 Vertebrae\s+Handy Pack \(3 cards`, `chip\s+25 Vertebrae\s+1 Chip`)
	if r := h.cli("play", "buy", "handy-pack"); r.code != 1 || !strings.Contains(r.stderr, "12 Vertebrae are missing") || !strings.Contains(r.stderr, "[insufficient_funds]") {
		t.Errorf("buying with nothing: %s", r)
	}

	out := h.must("play", "grant", "discord:1", "--vertebrae", "40", "--card", "2 7 of hearts", "--card", "holo Red Joker", "--pack", "Deck Pack", "--reason", "start")
	matches(t, "grant", out, `^Granted Ada \+40 Vertebrae, 2 × 7 of Hearts, holo Red Joker, pack \S+ \(deck-pack\) \(start\)\. Ada now holds 40 Vertebrae, 0 Chips\.`)

	out = h.must("play", "buy", "handy-pack")
	matches(t, "buy", out, `^Ada bought 1 × Handy Pack for 12 Vertebrae: pack \S+\. Now holds 28 Vertebrae, 0 Chips\. Open with: croupier play open handy-pack`)
	out = h.must("play", "me")
	contains(t, "me", out, "Vertebrae 28, Chips 0, deck 3 cards, 2 packs;")
	matches(t, "me", out, `(?m)^Deck, 3 cards:$`, `(?m)^  2\s+7 of Hearts$`, `(?m)^  1\s+Red Joker\s+1 holo$`,
		`(?m)^Unopened packs, 2:$`, `(?m)^  1\s+Deck Pack\s+deck-pack$`, `(?m)^  1\s+Handy Pack\s+handy-pack$`)
	matches(t, "me --ids", h.must("play", "me", "--ids"), `(?m)^  1\s+Red Joker\s+1 holo\s+\S+\.3 \(holo\)$`)

	matches(t, "open by kind", h.must("play", "open", "handy-pack"), `^Ada opened Handy Pack \S+: .+\.\n$`)
	matches(t, "open by name", h.must("play", "open", "Deck Pack"), `^Ada opened Deck Pack \S+: .+\.\n$`)
	ada := h.statusJSON("discord:1")
	if ada.DeckSize != 3+3+5 || len(ada.Packs) != 0 {
		t.Errorf("after opening a Handy and a Deck Pack: deck %d cards, packs %+v; want 11 cards and no packs", ada.DeckSize, ada.Packs)
	}
	if r := h.cli("play", "open", "handy-pack"); r.code != 1 || !strings.Contains(r.stderr, "[no_such_pack]") {
		t.Errorf("opening a pack not held: %s", r)
	}

	// C4: Bob is active and holds fewer than 5 cards: 1 + 1 cards.
	matches(t, "gift", h.must("play", "gift", "bob"), `^Ada gifted Bob 2 cards: .+\. Bonus cards: Bob held a small deck\.`)
	if bob := h.statusJSON("discord:2"); bob.DeckSize != 2 {
		t.Errorf("Bob's deck after the gift: %d cards, want 2", bob.DeckSize)
	}
	for _, c := range []struct {
		args []string
		code string
	}{
		{[]string{"play", "gift", "discord:2"}, "[already_gifted]"},
		{[]string{"play", "--as", "discord:2", "gift", "discord:2"}, "[self_gift]"},
		{[]string{"play", "--as", "discord:2", "gift", "discord:9"}, "[not_a_player]"},
	} {
		if r := h.cli(c.args...); r.code != 1 || !strings.Contains(r.stderr, c.code) {
			t.Errorf("croupier %s: %s; want exit 1 and %s", strings.Join(c.args, " "), r, c.code)
		}
	}

	// A trade: Ada's 3 Vertebrae and two 7 of Hearts for Bob's Chip.
	h.must("play", "grant", "discord:2", "--chips", "2", "--reason", "wiki")
	out = h.must("play", "trade", "offer", "discord:2", "--give", "3 vertebrae, 2 x 7 of Hearts", "--take", "1 chip", "--note", "deal?")
	m := regexp.MustCompile(`^Trade (t[0-9a-f]+), open: Ada gives 3 Vertebrae, 2 × 7 of Hearts; Bob gives 1 Chip\. Note: "deal\?"\. Open until 2026-03-12T12:00:00Z for Bob to accept`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("trade offer output:\n%s", out)
	}
	id := m[1]
	matches(t, "trades", h.must("play", "trades", "--player", "me", "--status", "open"), `(?m)^TRADE\s+STATUS\s+FROM\s+GIVES\s+TO\s+TAKES\s+UNTIL$`,
		`(?m)^`+id+`\s+open\s+Ada\s+3 Vertebrae, 2 × 7 of Hearts\s+Bob\s+1 Chip\s+2026-03-12T12:00:00Z$`)
	contains(t, "trade show", h.must("play", "trade", "show", id), "Trade "+id+", open:")
	if r := h.cli("play", "trade", "accept", id); r.code != 1 || !strings.Contains(r.stderr, "[not_your_trade]") {
		t.Errorf("the maker accepting their own offer: %s", r)
	}
	contains(t, "accept", h.must("play", "--as", "discord:2", "trade", "accept", id), "Trade "+id+", executed:", "Ada gave 3 Vertebrae, 2 × 7 of Hearts; Bob gave 1 Chip", "the items have changed hands")
	ada, bob := h.statusJSON("discord:1"), h.statusJSON("discord:2")
	if ada.Inventory.Vertebrae != 25 || ada.Inventory.Chips != 1 || ada.DeckSize != 9 || bob.Inventory.Vertebrae != 3 || bob.Inventory.Chips != 1 || bob.DeckSize != 4 {
		t.Errorf("after the trade: Ada %dV %dC %d cards, Bob %dV %dC %d cards; want 25V 1C 9 cards, 3V 1C 4 cards",
			ada.Inventory.Vertebrae, ada.Inventory.Chips, ada.DeckSize, bob.Inventory.Vertebrae, bob.Inventory.Chips, bob.DeckSize)
	}
	if r := h.cli("play", "--as", "discord:2", "trade", "accept", id); r.code != 1 || !strings.Contains(r.stderr, "[trade_closed]") {
		t.Errorf("accepting an executed trade again: %s", r)
	}

	// Bob offers back and withdraws.
	out = h.must("play", "--as", "discord:2", "trade", "offer", "discord:1", "--give", "7 of Hearts", "--take", "1 chip")
	id2 := regexp.MustCompile(`^Trade (t[0-9a-f]+), open`).FindStringSubmatch(out)
	if id2 == nil {
		t.Fatalf("second offer:\n%s", out)
	}
	h.must("play", "--as", "discord:2", "trade", "offer", "discord:1", "--give", "1 vertebrae")
	if r := h.cli("play", "--as", "discord:2", "trade", "withdraw"); r.code != 1 || !strings.Contains(r.stderr, "You can withdraw 2 open trades: ") || !strings.Contains(r.stderr, id2[1]) || !strings.Contains(r.stderr, "[ambiguous_trade]") {
		t.Errorf("withdraw without an id when two are open: %s", r)
	}
	contains(t, "withdraw", h.must("play", "--as", "discord:2", "trade", "withdraw", id2[1]), "Trade "+id2[1]+", withdrawn:", "Withdrawn by Bob at 2026-03-05T12:00:00Z.")
	contains(t, "withdrawn trades", h.must("play", "trades", "--status", "withdrawn"), id2[1])
	if r := h.cli("play", "trade", "offer", "discord:2", "--give", "King of Spades"); r.code != 1 || !strings.Contains(r.stderr, `discord:1 holds no card or pack "King of Spades"`) {
		t.Errorf("offering a card not held: %s", r)
	}

	// An admin's corrections.
	contains(t, "revoke", h.must("play", "revoke", "discord:2", "--card", "7 of Hearts", "--vertebrae", "1", "--reason", "duplicate import"),
		"Revoked from Bob: 1 Vertebra, 7 of Hearts (duplicate import).")
	out = h.must("play", "grant", "discord:2", "--card", "King of Spades", "--holo", "--random-cards", "1", "--pack", "2 Handy Pack", "--reason", "prize")
	if !strings.Contains(out, "holo King of Spades") || strings.Count(out, "(handy-pack)") != 2 {
		t.Errorf("grant of a holo card, a random card and 2 packs:\n%s", out)
	}
	matches(t, "revoke packs", h.must("play", "revoke", "discord:2", "--pack", "2 handy-pack", "--reason", "prize withdrawn"),
		`^Revoked from Bob: pack \S+ \(handy-pack\), pack \S+ \(handy-pack\) \(prize withdrawn\)\.\n$`)
	if bob := h.statusJSON("discord:2"); len(bob.Packs) != 0 {
		t.Errorf("Bob's packs after the revocation: %+v", bob.Packs)
	}
	if r := h.cli("play", "--as", "discord:2", "revoke", "discord:1", "--chips", "1", "--reason", "x"); r.code != 1 || !strings.Contains(r.stderr, "[forbidden]") {
		t.Errorf("a player revoking: %s", r)
	}
	contains(t, "amend", h.must("play", "amend", "--price", "chip=1", "--reason", "end-of-cycle sale"),
		"Amended the ruleset of hall (gilded-hall) to version 2 (end-of-cycle sale): 1 Chip costs 1 Vertebrae, was 25.")
	contains(t, "ruleset", h.must("play", "ruleset"), "hall plays gilded-hall version 2", "chip 1 Vertebra", "Victory at 25 Chips.")
	contains(t, "amend --patch", h.must("play", "amend", "--patch", `{"durations":{"tradeWindow":"72h"}}`, "--reason", "faster trades"),
		`to version 3 (faster trades): the time to consent to a trade is 3 days, was 7 days.`)
	contains(t, "log", h.must("play", "log", "--all"), "Ada was granted +40 Vertebrae, 3 cards: 7 of Hearts, 7 of Hearts, Red Joker (holo)", "Ada bought Handy Pack from the Croupier for 12 Vertebrae", "Trade "+id+" executed: Ada gives 3 Vertebrae and 2 × 7 of Hearts; Bob gives 1 Chip.", "The ruleset was amended to version 2 by Ada (end-of-cycle sale)")

	// C7: 24 more Chips make 25, and the game is over.
	contains(t, "victory", h.must("play", "buy", "chip", "--quantity", "24"), "Now holds 1 Vertebra, 25 Chips.", "Ada holds 25 Chips and wins the game!")
	if r := h.cli("play", "--as", "discord:2", "buy", "random-card"); r.code != 1 || !strings.Contains(r.stderr, "[game_over]") {
		t.Errorf("buying after the game ended: %s", r)
	}
	contains(t, "game after victory", h.must("play", "game"), "The game has ended; won by discord:1.")
	contains(t, "status after victory", h.must("play", "me"), "Vertebrae 1, Chips 25")
}

// TestEconomyUsage: malformed economy commands exit 2 before anything is
// sent, with a message saying what to type.
func TestEconomyUsage(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"], h.vars["CROUPIER_GAME"] = "discord:1", "hall"
	h.must("play", "create-game", "hall")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"play", "trade"}, "trade needs one of: offer, accept, withdraw, show"},
		{[]string{"play", "trade", "barter"}, "trade needs one of"},
		{[]string{"play", "trade", "offer", "discord:2"}, "a trade needs --give ITEMS or --take ITEMS"},
		{[]string{"play", "trade", "offer", "discord:2", "--give", "vertebrae"}, `--give: "vertebrae": say how many`},
		{[]string{"play", "trade", "withdraw", "t1", "t2"}, "expected at most the trade id"},
		{[]string{"play", "trades", "--status", "pending"}, "--status must be open, executed, withdrawn or expired"},
		{[]string{"play", "buy"}, "expected the item"},
		{[]string{"play", "buy", "chip", "--quantity", "0"}, "the quantity must be at least 1"},
		{[]string{"play", "buy", "2", "chip", "--quantity", "3"}, "two quantities"},
		{[]string{"play", "open"}, "open needs pack (an argument, or --pack); usage: croupier play open PACK"},
		{[]string{"play", "open", "Deck", "Pack"}, `"Pack" is one argument too many`},
		{[]string{"play", "gift"}, "gift needs to (an argument, or --to); usage: croupier play gift TO"},
		{[]string{"play", "grant", "discord:2", "--card", "Eight of Nothing", "--reason", "r"}, `there is no card "Eight of Nothing"`},
		{[]string{"play", "grant", "discord:2", "--pack", "mega-pack", "--reason", "r"}, "has no pack kind \"mega-pack\"; it has handy-pack, deck-pack, legendary-pack"},
		{[]string{"play", "revoke", "discord:2", "--reason", "r"}, "a revocation needs"},
		{[]string{"play", "revoke", "discord:2", "--chips", "1"}, "say why with --reason"},
		{[]string{"play", "amend", "--reason", "r"}, "exactly one of --patch JSON or --price ITEM=N"},
		{[]string{"play", "amend", "--patch", "{", "--reason", "r"}, "--patch is not valid JSON"},
		{[]string{"play", "amend", "--price", "pony=3", "--reason", "r"}, `sells no "pony"; it sells random-card, handy-pack`},
		{[]string{"play", "amend", "--price", "chip", "--reason", "r"}, "is not ITEM=N"},
	}
	for _, c := range cases {
		if r := h.cli(c.args...); r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("croupier %s: %s\nwant exit 2 and %q", strings.Join(c.args, " "), r, c.want)
		}
	}
	// An id-less accept is the server's to resolve (trade-accept's
	// default): with no trade offered, it refuses and says so.
	if r := h.cli("play", "trade", "accept"); r.code != 1 || !strings.Contains(r.stderr, "No open trade is offered to you; nothing to accept. [trade_not_found]") {
		t.Errorf("croupier play trade accept with none: %s", r)
	}
	r := runCLI(nil, "play", "help", "trade", "offer")
	if r.code != 0 || !strings.Contains(r.stdout, "[N] [holo] [card] NAME") {
		t.Errorf("play help trade offer: %s", r)
	}
	if r := runCLI(nil, "play", "help", "trade"); r.code != 0 || !strings.Contains(r.stdout, "croupier play trade withdraw [ID]") {
		t.Errorf("play help trade: %s", r)
	}
}
