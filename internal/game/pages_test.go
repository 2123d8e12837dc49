package game_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// A page of large records ends before its limit, so a response stays far
// below Lambda's 6 MB however large the records (a player holding
// thousands of cards), and following next_cursor still lists every record
// once. On DynamoDB Local, which reads at most 1 MB a request.
func TestPagesOfLargeRecordsEndEarly(t *testing.T) {
	ctx := context.Background()
	st := gametest.Dynamo(t)
	svc, _ := newLedger(t, st)
	var puts []store.Put
	for i := range 20 {
		p := ledgerPlayer{Player: players.Player{ID: fmt.Sprintf("discord:%d", 900+i), Member: true, JoinedAt: gametest.Start.AddDate(0, 0, -3)}}
		for j := range 4000 {
			p.Notes = append(p.Notes, fmt.Sprintf("note %d-%04d: a record as large as a deck", i, j))
		}
		data, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		puts = append(puts, store.Put{Item: store.Item{Key: store.Key{PK: "GAME#hall", SK: "PLAYER#" + p.ID}, Data: data}})
	}
	if err := st.Commit(ctx, store.Tx{Puts: puts}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	pr := game.PageRequest{Limit: game.MaxPageLimit}
	pages := 0
	for {
		ps, next, err := svc.PlayersPage(ctx, "hall", pr)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		b, _ := json.Marshal(ps)
		if len(b) > 4<<20 {
			t.Fatalf("a page of %d players is %d bytes", len(ps), len(b))
		}
		for _, p := range ps {
			if seen[p.ID] {
				t.Fatalf("%s listed twice", p.ID)
			}
			seen[p.ID] = true
		}
		if next == "" {
			break
		}
		pr.Cursor = next
	}
	if len(seen) != 20 || pages < 2 {
		t.Fatalf("20 players of about 170 KB each in more than one page of limit %d: %d in %d pages", game.MaxPageLimit, len(seen), pages)
	}
}
