package trades_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// The trades' tests play in a Gilded Hall game, "hall" (its records trade
// cards, the richest goods), and in an Obelisk game: the shared harness's
// (internal/gametest) administrator and requests keep short names.
const admin = gametest.Admin

var req = gametest.Req

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
