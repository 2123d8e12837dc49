package trades_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
)

// Under obelisk (seed 002 Trading, "Reputable players can trade items with
// other reputable players") a trade needs both parties reputable (RULINGS
// P4); under gilded-hall (seed 000 Inventory) any two players may trade.
func TestP4_ObeliskTradesNeedReputablePlayers(t *testing.T) {
	ctx := context.Background()
	clk := clock.NewManual(gametest.Start)
	st := gametest.Bolt(t)
	svc := rulesets.New(st, clk, game.WithEntropy(gametest.Seeded(3)))
	if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall", Ruleset: "obelisk"}); err != nil {
		t.Fatal(err)
	}
	// Joining 4 days after the start: past the 3-day grace, so reputable
	// only after 7 days of membership.
	clk.Advance(4 * 24 * time.Hour)
	for _, p := range []string{"discord:2", "discord:3"} {
		if _, err := svc.Join(ctx, req(p, "join"), game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	// The Obelisk has no grants (RULINGS R3): the holding is stored directly.
	holdHerbs(t, st, "hall", "discord:2", 10)
	offer := trades.OfferTrade{To: "discord:3", Give: economy.Items{Components: ruleset.Components{Herbs: 4}}}
	_, err := trades.On(svc).OfferTrade(ctx, req("discord:2", "t1"), offer)
	if gametest.RuleCode(err) != "not_reputable" {
		t.Fatalf("offer by a 0-day player: got %v, want not_reputable", err)
	}
	clk.Advance(7 * 24 * time.Hour)
	if _, err := svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := trades.On(svc).OfferTrade(ctx, req("discord:2", "t2"), offer)
	if err != nil {
		t.Fatalf("offer after 7 days: %v", err)
	}
	tr := gametest.Decode[trades.Trade](t, res)
	if _, err := trades.On(svc).AcceptTrade(ctx, req("discord:3", "a"), tr.ID); err != nil {
		t.Fatalf("accept: %v", err)
	}
	p3, err := svc.Player(ctx, "hall", "discord:3")
	if st, _ := obelisk.StateOf(p3); err != nil || st.Components.Herbs != 4 {
		t.Fatalf("receiver holds %+v (%v), want 4🌿", p3.Holdings, err)
	}
}

// holdHerbs sets an Obelisk player's Herbs in the store, bypassing the
// commands (the Obelisk has no command granting them).
func holdHerbs(t *testing.T, st store.Store, g, player string, n int) {
	t.Helper()
	ctx := context.Background()
	k := store.Key{PK: "GAME#" + g, SK: "PLAYER#" + player}
	it, err := st.Get(ctx, k)
	if err != nil || !it.Exists() {
		t.Fatalf("reading %s: %v (exists %v)", k, err, it.Exists())
	}
	var p obelisk.Player
	if err := json.Unmarshal(it.Data, &p); err != nil {
		t.Fatal(err)
	}
	p.Components.Herbs = n
	data, _ := json.Marshal(p)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
}
