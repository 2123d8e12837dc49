package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// The engine's tests play the shared harness's game (internal/gametest);
// admin and req, in nearly every call, keep short names.
const admin = gametest.Admin

var req = gametest.Req

func TestP1_RejoinWithinSevenDaysRefusedWithDate(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	if _, err := svc.Join(ctx, req("discord:2", "j1"), game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if _, err := credit(svc, ctx, req(admin, "g1"), Credit{Player: "discord:2", Points: 12, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Leave(ctx, req("discord:2", "l1"))
	if err != nil {
		t.Fatal(err)
	}
	left := gametest.Decode[game.LeaveResult](t, res)
	if left.LostText() != "12 points" {
		t.Fatalf("leaving destroys what the module says, and the answer says so: %+v (%s)", left, left.LostText())
	}
	clk.Advance(3 * 24 * time.Hour)
	_, err = svc.Join(ctx, req("discord:2", "j2"), game.JoinGame{})
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != "rejoin_too_soon" {
		t.Fatalf("rejoin after 3 days: %v", err)
	}
	if got, want := re.Fields["possible_at"], gametest.Start.Add(7*24*time.Hour); got != want {
		t.Fatalf("possible_at %v, want %v", got, want)
	}
	if v, _ := points(t, svc, "discord:2"); v.Member || v.RejoinPossibleAt == nil || !v.RejoinPossibleAt.Equal(gametest.Start.Add(7*24*time.Hour)) {
		t.Fatalf("status of a leaver: %+v", v)
	}
	clk.Set(gametest.Start.Add(7 * 24 * time.Hour))
	res, err = svc.Join(ctx, req("discord:2", "j3"), game.JoinGame{})
	if err != nil {
		t.Fatalf("rejoin after 7 days: %v", err)
	}
	if p := gametest.Decode[game.PlayerView](t, res); p.Name != "Ada" || !p.Member {
		t.Fatalf("a rejoining player keeps their name: %+v", p)
	}
	if v, n := points(t, svc, "discord:2"); n != 0 {
		t.Fatalf("a rejoining player starts empty: %+v holds %d points", v, n)
	}
}

func TestP3_InactiveAfterAPhaseWithoutAction(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	svc.Join(ctx, req("discord:2", "j"), game.JoinGame{})
	status := func() game.PlayerView {
		v, _ := points(t, svc, "discord:2")
		return v
	}
	if !status().Active {
		t.Fatal("active in the phase of joining")
	}
	clk.Set(time.Date(2026, 12, 4, 1, 0, 0, 0, time.UTC)) // Friday: Phase II
	if !status().Active {
		t.Fatal("joining in Phase I is an action: active in Phase II")
	}
	clk.Set(time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)) // next Monday: Phase I
	if status().Active {
		t.Fatal("no action in Phase II: inactive now")
	}
}

func TestP4_ReputableWithinThreeDaysOfStart(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	svc.Join(ctx, req("discord:2", "j"), game.JoinGame{})
	clk.Advance(4 * 24 * time.Hour)
	svc.Join(ctx, req("discord:3", "j"), game.JoinGame{})
	early, _ := points(t, svc, "discord:2")
	late, _ := points(t, svc, "discord:3")
	if !early.Reputable || late.Reputable {
		t.Fatalf("reputable: early %v (want true), late %v (want false)", early.Reputable, late.Reputable)
	}
}

func TestIdempotencyKey_AppliedOnceSameResponse(t *testing.T) {
	ctx := context.Background()
	svc, _ := newLedger(t, gametest.Bolt(t))
	svc.Join(ctx, req("discord:2", "j"), game.JoinGame{})

	var bodies []string
	for i := 0; i < 3; i++ {
		res, err := credit(svc, ctx, req(admin, "same-key"), Credit{Player: "discord:2", Points: 5, Reason: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Replayed != (i > 0) {
			t.Fatalf("attempt %d: replayed=%v", i, res.Replayed)
		}
		bodies = append(bodies, string(res.Body))
	}
	// Concurrently too.
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := credit(svc, ctx, req(admin, "other-key"), Credit{Player: "discord:2", Points: 7, Reason: "test"})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			bodies = append(bodies, string(res.Body))
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, b := range bodies[1:3] {
		if b != bodies[0] {
			t.Fatalf("repeat answered %s, first %s", b, bodies[0])
		}
	}
	for _, b := range bodies[4:] {
		if b != bodies[3] {
			t.Fatalf("concurrent repeat answered %s, first %s", b, bodies[3])
		}
	}
	if _, n := points(t, svc, "discord:2"); n != 12 {
		t.Fatalf("each key applied once: want 5+7=12 points, got %d", n)
	}
	_, err := credit(svc, ctx, req(admin, "same-key"), Credit{Player: "discord:2", Points: 6, Reason: "test"})
	if gametest.RuleCode(err) != "idempotency_key_reused" {
		t.Fatalf("same key, different request: %v", err)
	}
}

func TestRuleRefusalsLeaveStateUntouched(t *testing.T) {
	ctx := context.Background()
	svc, _ := newLedger(t, gametest.Bolt(t))
	before, _ := svc.Log(ctx, "hall", "", 100)
	cases := []struct {
		name string
		run  func() error
		code string
	}{
		{"leave before joining", func() error { _, err := svc.Leave(ctx, req("discord:9", "a")); return err }, "not_a_player"},
		{"an admin's command by a non-admin", func() error {
			_, err := credit(svc, ctx, req("discord:9", "b"), Credit{Player: "discord:9", Points: 1, Reason: "test"})
			return err
		}, "forbidden"},
		{"roll by non-player", func() error { _, err := svc.Roll(ctx, req("discord:9", "c"), game.RollDice{Dice: "1d6"}); return err }, "not_a_player"},
		{"bad dice", func() error { _, err := svc.Roll(ctx, req("discord:9", "d"), game.RollDice{Dice: "6d"}); return err }, "invalid_dice"},
		{"unknown game", func() error {
			_, err := svc.Join(ctx, game.Request{Game: "nope", Actor: "discord:9"}, game.JoinGame{})
			return err
		}, "game_not_found"},
		{"bad identity", func() error { _, err := svc.Join(ctx, req("bob", "e"), game.JoinGame{}); return err }, "invalid_actor"},
		{"game exists", func() error {
			_, err := svc.Create(ctx, game.Request{Actor: admin, Key: "again"}, game.CreateGame{ID: "hall", Ruleset: ledgerID})
			return err
		}, "game_exists"},
		{"unknown ruleset", func() error {
			_, err := svc.Create(ctx, game.Request{Actor: admin}, game.CreateGame{ID: "x", Ruleset: "chess"})
			return err
		}, "unknown_ruleset"},
	}
	for _, c := range cases {
		if got := gametest.RuleCode(c.run()); got != c.code {
			t.Errorf("%s: code %q, want %q", c.name, got, c.code)
		}
	}
	after, _ := svc.Log(ctx, "hall", "", 100)
	if len(after.Entries) != len(before.Entries) {
		t.Fatalf("refusals wrote %d log entries", len(after.Entries)-len(before.Entries))
	}
}

// conflicting is a store whose every commit meets a concurrent writer.
type conflicting struct{ store.Store }

func (conflicting) Commit(context.Context, store.Tx) error {
	return &store.ConflictError{Keys: []store.Key{{PK: "GAME#hall", SK: "PLAYER#discord:2"}}}
}

func TestConflictExhaustingRetriesIsAClearError(t *testing.T) {
	st := gametest.Bolt(t)
	newLedger(t, st)
	svc := newLedgerService(conflicting{st}, clock.NewManual(gametest.Start))
	svc.MaxAttempts, svc.Backoff = 3, time.Microsecond
	_, err := svc.Join(context.Background(), req("discord:2", "j"), game.JoinGame{})
	if !errors.Is(err, game.ErrBusy) || gametest.RuleCode(err) != "busy" {
		t.Fatalf("got %v, want the busy error", err)
	}
}

// ConcurrentGrants is acceptance 3's scenario, run on any store: writers
// credit one player at once.
func ConcurrentGrants(t *testing.T, st store.Store, writers int) {
	ctx := context.Background()
	svc, _ := newLedger(t, st)
	if _, err := svc.Join(ctx, req("discord:2", "j"), game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	attempts := make(chan int, writers)
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := credit(svc, ctx, req(admin, fmt.Sprintf("grant-%d", i)), Credit{Player: "discord:2", Points: 1, Reason: "test"})
			errs <- err
			if err == nil {
				attempts <- res.Attempts
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(attempts)
	for err := range errs {
		if err != nil {
			t.Fatalf("a writer failed: %v", err)
		}
	}
	retried, total, most := 0, 0, 0
	for a := range attempts {
		total += a
		most = max(most, a)
		if a > 1 {
			retried++
		}
	}
	if retried == 0 {
		t.Errorf("%d writers on one item and none retried: the conflict path was not exercised", writers)
	}
	t.Logf("%d writers: %d retried after conflicts, %d attempts in all, at most %d for one (limit %d)", writers, retried, total, most, svc.MaxAttempts)
	if _, n := points(t, svc, "discord:2"); n != writers {
		t.Fatalf("lost update: %d writers granted 1 each, player holds %d", writers, n)
	}
	page, _ := svc.Log(ctx, "hall", "", 500)
	grants := 0
	for _, e := range page.Entries {
		if e.Command == "credit" {
			grants++
		}
	}
	if grants != writers {
		t.Fatalf("%d grant log entries, want %d", grants, writers)
	}
}

func TestConcurrentGrantsBolt(t *testing.T) { ConcurrentGrants(t, gametest.Bolt(t), 50) }

func TestN2_VerifyAfterThousandDraws(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	svc, clk := newLedger(t, st)
	svc.Join(ctx, req("discord:2", "j"), game.JoinGame{})
	for i := 0; i < 100; i++ {
		if _, err := svc.Roll(ctx, req("discord:2", fmt.Sprintf("roll-%d", i)), game.RollDice{Dice: "10d54"}); err != nil {
			t.Fatal(err)
		}
		if i == 49 {
			clk.Set(time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)) // half the rolls in Phase II
		}
	}
	rep, err := svc.Audit(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pending != 1000 || !rep.OK() {
		t.Fatalf("before the reveal every draw is pending: %+v", rep)
	}
	clk.Set(time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC))
	if _, err := svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err = svc.Audit(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked != 1000 || rep.Pending != 0 || !rep.OK() {
		t.Fatalf("after the reveal: %+v", rep)
	}

	// Alter one logged value: the audit names exactly that draw.
	page, _ := svc.Log(ctx, "hall", "", 500)
	var target game.Entry
	for _, e := range page.Entries {
		if e.Command == "roll" && e.Key == "roll-73" {
			target = e
		}
	}
	k := store.Key{PK: "GAME#hall", SK: "LOG#" + target.CommandID}
	it, err := st.Get(ctx, k)
	if err != nil || !it.Exists() {
		t.Fatalf("reading %s: %v", k, err)
	}
	e, err := game.DecodeEntry(it.Data)
	if err != nil {
		t.Fatal(err)
	}
	e.Draws[4].Value = (e.Draws[4].Value + 1) % 54
	it.Data, _ = json.Marshal(e)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: it, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
	rep, _ = svc.Audit(ctx, "hall")
	if len(rep.Mismatches) != 1 {
		t.Fatalf("want exactly one mismatch, got %+v", rep.Mismatches)
	}
	m := rep.Mismatches[0]
	if m.Record.Command != target.CommandID || m.Record.Index != 4 || m.Record.Period != target.Period {
		t.Fatalf("mismatch names the wrong draw: %+v (want command %s index 4)", m.Record, target.CommandID)
	}
}

func TestT4_LateAndDuplicatePeriodEndsApplyOnceAsOfTheirDueMoment(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	// Two weeks late: four phase ends are due.
	clk.Set(time.Date(2026, 12, 14, 13, 0, 0, 0, time.UTC))
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); svc.RunDue(ctx) }()
	}
	wg.Wait()
	rep, err := svc.RunDue(ctx)
	if err != nil || len(rep.Transitions) != 0 {
		t.Fatalf("nothing left due: %+v %v", rep, err)
	}
	page, _ := svc.Log(ctx, "hall", "", 100)
	var ends []game.Entry
	for _, e := range page.Entries {
		if e.Command == "period-end" {
			ends = append(ends, e)
		}
	}
	want := []time.Time{
		time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 11, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC),
	}
	if len(ends) != len(want) {
		t.Fatalf("%d period ends logged, want %d", len(ends), len(want))
	}
	for i, e := range ends {
		if !e.At.Equal(want[i]) {
			t.Errorf("period end %d at %v, want %v", i, e.At, want[i])
		}
	}
	g, _ := svc.Game(ctx, "hall")
	if g.Season != "Long night" {
		t.Fatalf("two week ends from Calm Spring: season %q, want Long night", g.Season)
	}
	seeds, _ := svc.Seeds(ctx, "hall")
	revealed := 0
	for _, s := range seeds {
		if s.Seed != "" {
			revealed++
		}
	}
	if len(seeds) != 5 || revealed != 4 {
		t.Fatalf("seeds: %d committed (want 5), %d revealed (want 4)", len(seeds), revealed)
	}
}

// Entries made at the same instant (a manual clock makes many) read back in
// the order they were made.
func TestLogKeepsOrderWithinOneInstant(t *testing.T) {
	ctx := context.Background()
	svc, _ := newLedger(t, gametest.Bolt(t))
	for i := 0; i < 20; i++ {
		if _, err := svc.Join(ctx, req(fmt.Sprintf("discord:%d", 100+i), "j"), game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	page, _ := svc.Log(ctx, "hall", "", 100)
	if page.Entries[0].Command != "create" {
		t.Fatalf("first entry is %q, want create", page.Entries[0].Command)
	}
	for i, e := range page.Entries[1:] {
		if want := fmt.Sprintf("discord:%d", 100+i); e.Actor != want {
			t.Fatalf("entry %d by %s, want %s", i+1, e.Actor, want)
		}
	}
}
