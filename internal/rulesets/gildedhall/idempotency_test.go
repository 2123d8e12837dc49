package gildedhall_test

import (
	"context"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rulesets/gildedhall"
)

// A body that spells out a default is the same request as one that leaves
// it out (issue 11: {"item":"random-card"} and the same with "quantity":1
// under one key were refused idempotency_key_reused); a different value is
// a different request.
func TestIdempotencyKey_DefaultsSpelledOutAreTheSameRequest(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	if _, err := svc.Join(ctx, req("discord:2", "j"), game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	if _, err := gildedhall.On(svc).Grant(ctx, req(admin, "g"), gildedhall.Grant{Player: "discord:2", Vertebrae: 20, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	first, err := gildedhall.On(svc).Purchase(ctx, req("discord:2", "buy"), gildedhall.Purchase{Item: "random-card"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := gildedhall.On(svc).Purchase(ctx, req("discord:2", "buy"), gildedhall.Purchase{Item: " random-card ", Quantity: 1})
	if err != nil {
		t.Fatalf("the same purchase with quantity 1 spelled out: %v", err)
	}
	if !again.Replayed || string(again.Body) != string(first.Body) {
		t.Fatalf("not answered as a repeat: replayed=%v\n%s\nfirst:\n%s", again.Replayed, again.Body, first.Body)
	}
	if _, err := gildedhall.On(svc).Purchase(ctx, req("discord:2", "buy"), gildedhall.Purchase{Item: "random-card", Quantity: 2}); gametest.RuleCode(err) != "idempotency_key_reused" {
		t.Fatalf("quantity 2 under the same key: %v", err)
	}
	if _, err := gildedhall.On(svc).Grant(ctx, req(admin, "cards"), gildedhall.Grant{Player: "discord:2", Cards: []gildedhall.CardGrant{{Name: "7 of Hearts"}}, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if res, err := gildedhall.On(svc).Grant(ctx, req(admin, "cards"), gildedhall.Grant{Player: "discord:2", Cards: []gildedhall.CardGrant{{Name: "7 of Hearts", Count: 1}}, Reason: "test"}); err != nil || !res.Replayed {
		t.Fatalf("the same grant with count 1 spelled out: %v", err)
	}
	v, err := gildedhall.On(svc).Player(ctx, "hall", "discord:2")
	if err != nil {
		t.Fatal(err)
	}
	if v.Inventory.Vertebrae != 15 || v.DeckSize != 2 {
		t.Fatalf("each request applied once: want 15 Vertebrae and 2 cards, got %d and %d", v.Inventory.Vertebrae, v.DeckSize)
	}
}
