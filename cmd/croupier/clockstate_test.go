package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"croupier/internal/store/bolt"
)

// runServeUntil runs `croupier serve args...` until the returned stop is
// called, and returns the address it listens on and its log.
func runServeUntil(t *testing.T, args ...string) (string, *syncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	addrCh := make(chan string, 1)
	e := &env{ctx: ctx, stdout: io.Discard, stderr: logs, getenv: func(string) string { return "" },
		onListen: func(a string) { addrCh <- a }}
	done := make(chan int, 1)
	go func() { done <- e.run(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("serve exited %d after cancel:\n%s", code, logs)
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("serve did not stop within 15s of cancel:\n%s", logs)
		}
	}
	t.Cleanup(stop)
	select {
	case addr := <-addrCh:
		return addr, logs, stop
	case code := <-done:
		stopped = true
		t.Fatalf("serve %s exited %d, want it serving:\n%s", strings.Join(args, " "), code, logs)
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not listen within 10s:\n%s", logs)
	}
	return "", nil, stop
}

// storedLog reads game's whole log from the store file at path.
func storedLog(t *testing.T, path, g string) []game.Entry {
	t.Helper()
	st, err := bolt.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	page, err := rulesets.New(st, clock.Real{}).Log(context.Background(), g, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	return page.Entries
}

// Issue 15 defect 7: a manual-clock server restarted on the same data
// without --start resumes at the time its clock was moved to, applies no
// period end, and says so; --data may name a directory.
func TestServeManualClockResumesFromTheStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "play") // missing, no extension: a directory
	addr, _, stop := runServeUntil(t, "--data", dir, "--clock", "manual", "--start", "2026-03-05T12:00:00Z")
	vars := map[string]string{"CROUPIER_URL": "http://" + addr, "CROUPIER_AS": "discord:1", "CROUPIER_GAME": "hall"}
	for _, args := range [][]string{{"play", "create-game", "hall"}, {"play", "clock", "--advance", "36h"}} {
		if r := runCLI(vars, args...); r.code != 0 {
			t.Fatalf("croupier %s: %s", strings.Join(args, " "), r)
		}
	}
	stop()
	path := filepath.Join(dir, "croupier.db")
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("--data %s: no store file %s (%v)", dir, path, err)
	}
	before := storedLog(t, path, "hall")

	addr, logs, stop := runServeUntil(t, "--data", dir, "--clock", "manual")
	contains(t, "restart log", logs.String(), "mode=manual", "now=2026-03-07T00:00:00Z", `from="resumed at the time stored with the data"`)
	// Moving the clock to where it is runs the due work there: none.
	vars["CROUPIER_URL"] = "http://" + addr
	r := runCLI(vars, "play", "clock", "--set", "2026-03-07T00:00:00Z")
	if r.code != 0 || strings.Contains(r.stdout, "Ended") {
		t.Errorf("clock after the restart: %s; want no period ended", r)
	}
	stop()
	if after := storedLog(t, path, "hall"); len(after) != len(before) {
		t.Errorf("the restart changed the log: %d entries, was %d", len(after), len(before))
	}

	// --start wins, and says it differs from the stored time.
	_, logs, stop = runServeUntil(t, "--data", dir+"/", "--clock", "manual", "--start", "2026-03-07T06:00:00Z")
	contains(t, "--start log", logs.String(), "now=2026-03-07T06:00:00Z", `from="set by --start"`,
		`"--start differs from the time stored with the data"`, "stored=2026-03-07T00:00:00Z")
	stop()
}

// A real-clock start on a store whose games are months behind refuses,
// naming the period ends it would apply, and changes nothing; with
// --catch-up it applies exactly them.
func TestServeRefusesToCatchUpSilently(t *testing.T) {
	data := filepath.Join(t.TempDir(), "behind.db")
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := newServer(serveConfig{data: data, clockMode: "manual", start: walkStart, interval: time.Second}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.svc.Create(context.Background(), game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	srv.store.Close()
	before := storedLog(t, data, "hall")

	r := runCLI(nil, "serve", "--addr", "127.0.0.1:0", "--data", data)
	m := regexp.MustCompile(`starting would apply (\d+) period ends at once \(hall: (\d+) from 2026-W10-I\)`).FindStringSubmatch(r.stderr)
	if r.code != 1 || m == nil || !strings.Contains(r.stderr, "Pass --catch-up") || strings.Contains(r.stderr, "croupier listening") {
		t.Fatalf("serve on a store months behind: %s\nwant a refusal naming the period ends and --catch-up", r)
	}
	// The count is the phases from the game's to now's (give or take the
	// one a phase boundary passing during the test adds).
	n, _ := strconv.Atoi(m[1])
	want := 0
	for p := calendar.PhaseAt(walkStart); !p.End.After(time.Now()); p = p.Next() {
		want++
	}
	if n != want && n != want-1 || m[2] != m[1] {
		t.Errorf("the refusal names %s period ends (hall: %s); the calendar has %d", m[1], m[2], want)
	}
	if after := storedLog(t, data, "hall"); len(after) != len(before) {
		t.Errorf("the refusal changed the log: %d entries, was %d", len(after), len(before))
	}
	// The manual clock too refuses to jump from its stored time to a far --start.
	if r := runCLI(nil, "serve", "--addr", "127.0.0.1:0", "--data", data, "--clock", "manual", "--start", "2026-06-01T00:00:00Z"); r.code != 1 || !strings.Contains(r.stderr, "Pass --catch-up") {
		t.Errorf("manual --start months ahead: %s; want a refusal", r)
	}

	srv, err = newServer(serveConfig{data: data, clockMode: "real", catchUp: true, interval: time.Second}, quiet)
	if err != nil {
		t.Fatalf("--catch-up: %v", err)
	}
	defer srv.store.Close()
	if srv.caughtUp < n {
		t.Errorf("--catch-up applied %d period ends, the refusal named %d", srv.caughtUp, n)
	}
	g, err := srv.svc.Game(context.Background(), "hall")
	if err != nil {
		t.Fatal(err)
	}
	if now := time.Now(); !g.Period.End.After(now) {
		t.Errorf("after --catch-up hall's open period %s ended at %s, before now", g.Period.ID, g.Period.End)
	}
}
