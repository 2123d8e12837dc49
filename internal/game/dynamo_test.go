package game_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
)

// Acceptance: 50 concurrent writers updating one player item through the
// game service against DynamoDB Local lose no update.
func TestConcurrentGrantsDynamoDB(t *testing.T) { ConcurrentGrants(t, gametest.Dynamo(t), 50) }

// With one attempt only, concurrent writers on DynamoDB Local really do meet
// conflicts: those that lose get the clear busy error, the winners' grants
// all count, and nothing else changes.
func TestConflictExhaustedOnDynamoDB(t *testing.T) {
	ctx := context.Background()
	st := gametest.Dynamo(t)
	newLedger(t, st)
	svc := newLedgerService(st, clock.NewManual(gametest.Start))
	if _, err := svc.Join(ctx, req("discord:2", "j"), game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	svc.MaxAttempts = 1
	const writers = 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, busy := 0, 0
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := credit(svc, ctx, req(admin, fmt.Sprintf("g%d", i)), Credit{Player: "discord:2", Points: 1, Reason: "test"})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, game.ErrBusy):
				busy++
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	if busy == 0 {
		t.Fatalf("30 simultaneous writers with one attempt each met no conflict")
	}
	if _, n := points(t, svc, "discord:2"); n != ok {
		t.Fatalf("%d grants succeeded but the player holds %d", ok, n)
	}
	t.Logf("one attempt each: %d applied, %d refused as busy", ok, busy)
}

func TestN2_VerifyOnDynamoDB(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Dynamo(t))
	svc.Join(ctx, req("discord:2", "j"), game.JoinGame{})
	for i := 0; i < 20; i++ {
		if _, err := svc.Roll(ctx, req("discord:2", fmt.Sprintf("r%d", i)), game.RollDice{Dice: "5d6"}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(5 * 24 * 60 * 60 * 1e9)
	if _, err := svc.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := svc.Audit(ctx, "hall")
	if err != nil || rep.Checked != 100 || !rep.OK() {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}
