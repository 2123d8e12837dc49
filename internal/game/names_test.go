package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// TestNames_ResolverAndIndexFollowMembership: every form resolves; the name
// index lists exactly the current members (a leave deletes the leaver's
// item, a rejoin under another name writes the new one), so a name once
// shared becomes unique when one of its holders leaves.
func TestNames_ResolverAndIndexFollowMembership(t *testing.T) {
	for _, b := range []struct {
		name string
		st   func(testing.TB) store.Store
	}{{"bolt", gametest.Bolt}, {"dynamodb", gametest.Dynamo}} {
		t.Run(b.name, func(t *testing.T) {
			st := b.st(t)
			svc, clk := newLedger(t, st)
			gametest.Join(t, svc, "discord:2", "Bob")
			gametest.Join(t, svc, "discord:3", "Cy")
			gametest.Join(t, svc, "discord:4", "cy")
			for _, text := range []string{"<@2>", "<@!2>", "discord:2", "2", "Bob", "bob", " BOB ", "@Bob"} {
				gametest.Resolves(t, svc, admin, text, "discord:2")
			}
			gametest.Resolves(t, svc, "slack:U1", "<@U9|someone>", "slack:U9")
			gametest.RefusedAs(t, svc, "CY", "ambiguous_player", "discord:3", "discord:4")
			gametest.RefusedAs(t, svc, "B", "unknown_player", "discord:2")
			gametest.RefusedAs(t, svc, "Zed", "unknown_player")
			gametest.RefusedAs(t, svc, "9", "unknown_player") // nobody's bare id
			if got := gametest.NameItems(t, st); !slices.Equal(got, []string{"discord:2", "discord:3", "discord:4"}) {
				t.Fatalf("the name index holds %v", got)
			}

			if _, err := svc.Leave(context.Background(), req("discord:4", "leave")); err != nil {
				t.Fatal(err)
			}
			gametest.Resolves(t, svc, admin, "cy", "discord:3")
			if got := gametest.NameItems(t, st); !slices.Equal(got, []string{"discord:2", "discord:3"}) {
				t.Fatalf("after a leave the name index holds %v", got)
			}
			clk.Advance(8 * 24 * time.Hour)
			if _, err := svc.Join(context.Background(), req("discord:4", "rejoin"), game.JoinGame{Name: "Dee"}); err != nil {
				t.Fatal(err)
			}
			gametest.Resolves(t, svc, admin, "dee", "discord:4")
			gametest.Resolves(t, svc, admin, "cy", "discord:3")
			if got := gametest.NameItems(t, st); !slices.Equal(got, []string{"discord:2", "discord:3", "discord:4"}) {
				t.Fatalf("after a rejoin the name index holds %v", got)
			}
		})
	}
}

// TestNames_ConcurrentJoinsOnDynamoDB: players joining at once, some under
// one name, each write their own index item (no two joins write one item),
// so every name resolves afterwards and a shared one is ambiguous.
func TestNames_ConcurrentJoinsOnDynamoDB(t *testing.T) {
	st := gametest.Dynamo(t)
	svc, _ := newLedger(t, st)
	const n = 24
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("P%d", i)
			if i >= n-3 {
				name = "Same"
			}
			_, errs[i] = svc.Join(context.Background(), req(fmt.Sprintf("discord:%d", 100+i), "j"), game.JoinGame{Name: name})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("join %d: %v", i, err)
		}
	}
	for i := range n - 3 {
		gametest.Resolves(t, svc, admin, fmt.Sprintf("p%d", i), fmt.Sprintf("discord:%d", 100+i))
	}
	gametest.RefusedAs(t, svc, "same", "ambiguous_player", "discord:121", "discord:122", "discord:123")
	if got := len(gametest.NameItems(t, st)); got != n {
		t.Errorf("the name index holds %d items, want %d", got, n)
	}
}

// TestNames_AGameFromBeforeTheIndexReadsItsPlayers: a game whose META does
// not say its members are indexed finds a name among its players.
func TestNames_AGameFromBeforeTheIndexReadsItsPlayers(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	svc, _ := newLedger(t, st)
	gametest.Join(t, svc, "discord:2", "Bob")
	gametest.Join(t, svc, "discord:3", "Cy")
	// META as a game created before the index wrote it, and no index.
	meta, err := st.Get(ctx, game.MetaKey("hall"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(meta.Data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "names_indexed")
	data, _ := json.Marshal(m)
	page, err := st.Query(ctx, store.Query{PK: game.GamePK("hall"), Prefix: "NAME#"})
	if err != nil {
		t.Fatal(err)
	}
	tx := store.Tx{Puts: []store.Put{{Item: store.Item{Key: meta.Key, Data: data, Due: meta.Due}, Expect: meta.Version}}}
	for _, it := range page.Items {
		tx.Deletes = append(tx.Deletes, store.Check{Key: it.Key, Version: it.Version})
	}
	if err := st.Commit(ctx, tx); err != nil {
		t.Fatal(err)
	}
	gametest.Resolves(t, svc, admin, "bob", "discord:2")
	gametest.RefusedAs(t, svc, "C", "unknown_player", "discord:3")
	// Joining there writes no index item: the index would be incomplete.
	gametest.Join(t, svc, "discord:4", "Dee")
	if got := gametest.NameItems(t, st); len(got) != 0 {
		t.Errorf("a game from before the index has index items %v", got)
	}
	gametest.Resolves(t, svc, admin, "DEE", "discord:4")
}

// TestNames_ARefusalNamesAtMostTenCandidates: a name twelve players share
// is refused naming ten of them "and 2 more"; candidates lists all twelve.
func TestNames_ARefusalNamesAtMostTenCandidates(t *testing.T) {
	svc, _ := newLedger(t, gametest.Bolt(t))
	var ids []string
	for i := range 12 {
		id := fmt.Sprintf("discord:%d", 100+i)
		ids = append(ids, id)
		gametest.Join(t, svc, id, "Same")
	}
	_, err := svc.ResolvePlayer(context.Background(), req(admin, ""), "same")
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != "ambiguous_player" {
		t.Fatalf("%v, want ambiguous_player", err)
	}
	want := `12 players of this game are named "same": Same (discord:100), Same (discord:101), Same (discord:102), Same (discord:103), Same (discord:104), Same (discord:105), Same (discord:106), Same (discord:107), Same (discord:108), Same (discord:109) and 2 more. Name one by mention or id.`
	if re.Message != want {
		t.Errorf("the refusal says\n%s\nwant\n%s", re.Message, want)
	}
	if got, _ := re.Fields["candidates"].([]string); !slices.Equal(got, ids) {
		t.Errorf("candidates %v, want %v", got, ids)
	}
}
