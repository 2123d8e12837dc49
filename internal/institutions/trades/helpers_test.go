package trades_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// The trades' tests play in a Gilded Hall game, "hall" (its records trade
// cards, the richest goods), and in an Obelisk game.

// Monday 2026-11-30 12:00 UTC: Phase I of ISO week 49.
var start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const admin = "discord:1"

func newBolt(t *testing.T) store.Store {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func newDynamo(t *testing.T) store.Store {
	t.Helper()
	client, table := testenv.DynamoTable(t, "game")
	return dynamo.New(client, table)
}

// seeded returns a deterministic entropy source so failures reproduce.
func seeded(n uint64) *rand.ChaCha8 {
	var s [32]byte
	s[0] = byte(n)
	return rand.NewChaCha8(s)
}

func newGame(t *testing.T, st store.Store) (*game.Service, *clock.Manual) {
	t.Helper()
	clk := clock.NewManual(start)
	svc := rulesets.New(st, clk, game.WithEntropy(seeded(1)))
	if _, err := svc.Create(context.Background(), game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatalf("create: %v", err)
	}
	return svc, clk
}

func req(actor, key string) game.Request { return game.Request{Game: "hall", Actor: actor, Key: key} }

func ruleCode(err error) string {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return fmt.Sprintf("not a rule error: %v", err)
}

func decode[T any](t *testing.T, res *game.Result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Body, &v); err != nil {
		t.Fatalf("decoding %s: %v", res.Body, err)
	}
	return v
}

const ada, bo, cy, dee = "discord:2", "discord:3", "discord:4", "discord:5"

// keys makes unique idempotency keys for a test's commands.
var keySeq atomic.Int64

func k(prefix string) string { return fmt.Sprintf("%s-%d", prefix, keySeq.Add(1)) }

// enrol joins id and grants them the named cards and Chips.
func enrol(t *testing.T, svc *game.Service, id string, cardNames []string, chips int) {
	t.Helper()
	ctx := context.Background()
	if _, err := svc.Join(ctx, req(id, k("join")), game.JoinGame{}); err != nil {
		t.Fatalf("join %s: %v", id, err)
	}
	g := gildedhall.Grant{Player: id, Chips: chips, Reason: "test"}
	for _, n := range cardNames {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: n})
	}
	if g.Chips == 0 && len(g.Cards) == 0 {
		return
	}
	if _, err := gildedhall.On(svc).Grant(ctx, req(admin, k("grant")), g); err != nil {
		t.Fatalf("grant %s: %v", id, err)
	}
}

// fataler is what the index checks need of a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// record reads a player's stored record (the index is not part of any view).
func record(t fataler, svc *game.Service, id string) *gildedhall.Player {
	t.Helper()
	it, err := svc.Store().Get(context.Background(), store.Key{PK: "GAME#hall", SK: "PLAYER#" + id})
	if err != nil {
		t.Fatalf("reading %s: %v", id, err)
	}
	if !it.Exists() {
		return nil
	}
	var p gildedhall.Player
	if err := json.Unmarshal(it.Data, &p); err != nil {
		t.Fatalf("decoding %s: %v", id, err)
	}
	return &p
}

func sameIDs(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}
