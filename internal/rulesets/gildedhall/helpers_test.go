package gildedhall_test

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

// The Gilded Hall's tests play one game, "hall", from the same moment.

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
