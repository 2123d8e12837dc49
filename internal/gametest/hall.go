package gametest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets/gildedhall"
)

var keySeq atomic.Int64

// K is a new idempotency key, unique in the test binary, naming its command.
func K(prefix string) string { return fmt.Sprintf("%s-%d", prefix, keySeq.Add(1)) }

// Enrol joins id to the Gilded Hall game Game and grants them the named
// cards and Chips.
func Enrol(t testing.TB, svc *game.Service, id string, cardNames []string, chips int) {
	t.Helper()
	ctx := context.Background()
	if _, err := svc.Join(ctx, Req(id, K("join")), game.JoinGame{}); err != nil {
		t.Fatalf("join %s: %v", id, err)
	}
	g := gildedhall.Grant{Player: id, Chips: chips, Reason: "test"}
	for _, n := range cardNames {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: n})
	}
	if g.Chips == 0 && len(g.Cards) == 0 {
		return
	}
	if _, err := gildedhall.On(svc).Grant(ctx, Req(Admin, K("grant")), g); err != nil {
		t.Fatalf("grant %s: %v", id, err)
	}
}

// Record reads a player's stored Gilded Hall record (its indexes are part
// of no view), or nil.
func Record(t Fataler, svc *game.Service, id string) *gildedhall.Player {
	t.Helper()
	it, err := svc.Store().Get(context.Background(), game.PlayerKey(Game, id))
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

// SameIDs says whether a and b hold the same ids, in any order.
func SameIDs(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// CardIDs are the ids of cs, in order.
func CardIDs(cs []players.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// PackIDs are the ids of ps, in order.
func PackIDs(ps []players.Pack) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}
