package gildedhall_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets/gildedhall"
)

// TestC6_ConcurrentPurchasesDynamo is acceptance 3 for purchases (RULINGS
// C6): 100 simultaneous purchases of a 5-Vertebrae card by a player holding
// exactly 50 Vertebrae, each with its own idempotency key, against DynamoDB
// Local. Exactly 10 succeed, the balance ends at 0, never below, and the
// other 90 are refused for lack of funds: none is lost to contention.
func TestC6_ConcurrentPurchasesDynamo(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Dynamo(t))
	const buyer, buyers = "discord:2", 100
	if _, err := svc.Join(ctx, req(buyer, "j"), game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	if _, err := gildedhall.On(svc).Grant(ctx, req(admin, "g"), gildedhall.Grant{Player: buyer, Vertebrae: 50, Reason: "test"}); err != nil {
		t.Fatal(err)
	}

	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		bought   []players.Card
		attempts []int
		codes    = map[string]int{}
		other    []error
	)
	for i := range buyers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := gildedhall.On(svc).Purchase(ctx, req(buyer, fmt.Sprintf("buy-%d", i)), gildedhall.Purchase{Item: "random-card"})
			mu.Lock()
			defer mu.Unlock()
			var re *rules.Error
			switch {
			case err == nil:
				codes["ok"]++
				attempts = append(attempts, res.Attempts)
				bought = append(bought, gametest.Decode[gildedhall.PurchaseResult](t, res).Cards...)
			case errors.As(err, &re):
				codes[re.Code]++
			default:
				other = append(other, err)
			}
		}()
	}
	wg.Wait()
	most, total := 0, 0
	for _, a := range attempts {
		most, total = max(most, a), total+a
	}
	t.Logf("%d purchases: outcomes %v; the successes took %d attempts in all, at most %d for one (limit %d)",
		buyers, codes, total, most, svc.MaxAttempts)
	if len(other) > 0 {
		t.Errorf("%d purchases failed with other errors, e.g. %v", len(other), other[0])
	}
	if codes["ok"] != 10 || codes["insufficient_funds"] != 90 || codes["busy"] != 0 || len(codes) != 2 {
		t.Fatalf("outcomes %v: want exactly 10 ok and 90 insufficient_funds", codes)
	}

	v, err := gildedhall.On(svc).Player(ctx, "hall", buyer)
	if err != nil {
		t.Fatal(err)
	}
	if v.Inventory.Vertebrae != 0 || len(v.Inventory.Cards) != 10 {
		t.Fatalf("after 10 purchases of 5 from 50: %d Vertebrae and %d cards, want 0 and 10", v.Inventory.Vertebrae, len(v.Inventory.Cards))
	}
	if got, want := sortedIDs(gametest.CardIDs(v.Inventory.Cards)), sortedIDs(gametest.CardIDs(bought)); !slices.Equal(got, want) {
		t.Fatalf("deck %v, but the purchases answered %v", got, want)
	}
	page, err := svc.Log(ctx, "hall", "", 500)
	if err != nil {
		t.Fatal(err)
	}
	purchases := 0
	for _, e := range page.Entries {
		if e.Command == "purchase" {
			purchases++
		}
	}
	if purchases != 10 {
		t.Fatalf("%d purchase log entries, want 10", purchases)
	}
}

func sortedIDs(ids []string) []string {
	ids = slices.Clone(ids)
	sort.Strings(ids)
	return ids
}
