// Package gametest is the harness the engine's, the rulesets' and the
// institutions' tests share, so each lives once: a store (bolt in a
// temporary file, or a DynamoDB Local table), the game "hall" created by
// Admin at Start on a manual clock, requests and results, the log, a store
// that runs other work at a chosen operation (Interleaved), the name
// index's checks, a driver of the 000 governance (Gov) and of a Gilded
// Hall's economy (Econ). Only tests import it (no function links it), so it
// may depend on every ruleset.
package gametest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// Start is when every test game begins: Monday 2026-11-30 12:00 UTC,
// Phase I of ISO week 49.
var Start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	// Admin creates the test game, so it is its administrator.
	Admin = "discord:1"
	// Game is the test game's id.
	Game = "hall"
)

// Bolt is an empty bolt store in a file of the test's temporary directory,
// closed when the test ends.
func Bolt(t testing.TB) store.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Dynamo is an empty table of DynamoDB Local (started if need be).
func Dynamo(t testing.TB) store.Store {
	t.Helper()
	client, table := testenv.DynamoTable(t, "game")
	return dynamo.New(client, table)
}

// Seeded returns a deterministic entropy source so failures reproduce.
func Seeded(n uint64) *rand.ChaCha8 {
	var s [32]byte
	s[0] = byte(n)
	return rand.NewChaCha8(s)
}

// NewGame is the game Game of the default ruleset, on st, served with
// every shipped ruleset on a manual clock at Start.
func NewGame(t testing.TB, st store.Store) (*game.Service, *clock.Manual) {
	t.Helper()
	return NewGameOf(t, st, "", rulesets.All()...)
}

// NewGameOf is the game Game of ruleset ("": the default one) on st,
// served with the modules ms on a manual clock at Start.
func NewGameOf(t testing.TB, st store.Store, ruleset string, ms ...game.Module) (*game.Service, *clock.Manual) {
	t.Helper()
	clk := clock.NewManual(Start)
	svc := game.New(st, clk, game.WithModules(ms...), game.WithEntropy(Seeded(1)))
	if _, err := svc.Create(context.Background(), game.Request{Actor: Admin, Key: "create"}, game.CreateGame{ID: Game, Ruleset: ruleset}); err != nil {
		t.Fatalf("create: %v", err)
	}
	return svc, clk
}

// Req is a request of actor in the game Game with the idempotency key key.
func Req(actor, key string) game.Request { return game.Request{Game: Game, Actor: actor, Key: key} }

// RuleCode is the code of a refusal, or says err is none.
func RuleCode(err error) string {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return fmt.Sprintf("not a rule error: %v", err)
}

// Decode reads a result's body as a T.
func Decode[T any](t testing.TB, res *game.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Body, &v); err != nil {
		t.Fatalf("decoding %s: %v", res.Body, err)
	}
	return v
}

// Fataler is what the checks that also run in property tests need of a
// *testing.T or a *rapid.T.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Entries reads the whole log of the game Game, oldest first.
func Entries(t Fataler, svc *game.Service) []game.Entry {
	t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := svc.Log(context.Background(), Game, cursor, 500)
		if err != nil {
			t.Fatalf("reading the log: %v", err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

// Events lists the events of type typ of entries, in order.
func Events(entries []game.Entry, typ string) []game.Event {
	var out []game.Event
	for _, e := range entries {
		for _, ev := range e.Events {
			if ev.Type == typ {
				out = append(out, ev)
			}
		}
	}
	return out
}

// Refusal fails the test unless err is nil or a rule refusal: a step a
// property test draws may be illegal, but must be refused as such.
func Refusal(t Fataler, err error) {
	t.Helper()
	var re *rules.Error
	if err != nil && !errors.As(err, &re) {
		t.Fatalf("not a refusal: %v", err)
	}
}

// RunDue runs svc's due work, all of which must succeed.
func RunDue(t Fataler, svc *game.Service) game.DueReport {
	t.Helper()
	rep, err := svc.RunDue(context.Background())
	if err != nil || len(rep.Failed) > 0 {
		t.Fatalf("run due: %+v %v", rep, err)
	}
	return rep
}
