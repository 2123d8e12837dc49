package gildedhall_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/bolt"
	"io"
	"log/slog"
)

// BenchmarkEngineCommand is the engine's cost of one command, store
// included, on bolt in memory (tmpfs), so the engine's own work is most of
// what is timed: join, roll (a draw), purchase (a draw and a player),
// gift (two players). Run before and after a change to the command path
// (make bench prints it; issue 12 acceptance 5 compared it across the
// module move).
func BenchmarkEngineCommand(b *testing.B) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("/dev/shm", "croupier-bench-")
	if err != nil {
		dir = b.TempDir()
	} else {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	st, err := bolt.Open(filepath.Join(dir, "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	clk := clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	svc := rulesets.New(st, clk, game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	admin := "discord:1"
	if _, err := svc.Create(ctx, game.Request{Game: "bench", Actor: admin, Key: "create"}, game.CreateGame{ID: "bench"}); err != nil {
		b.Fatal(err)
	}
	n := 0
	req := func(actor string) game.Request {
		n++
		return game.Request{Game: "bench", Actor: actor, Key: fmt.Sprint("k", n)}
	}
	player := func(i int) string { return fmt.Sprint("discord:", 1000+i) }
	// setup joins player i and grants them Vertebrae to buy with.
	setup := func(i int) {
		if _, err := svc.Join(ctx, req(player(i)), game.JoinGame{Name: fmt.Sprint("P", i)}); err != nil {
			b.Fatal(err)
		}
		if _, err := gildedhall.On(svc).Grant(ctx, req(admin), gildedhall.Grant{Player: player(i), Vertebrae: 1000, Reason: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	next := 0
	b.Run("join", func(b *testing.B) {
		for b.Loop() {
			next++
			if _, err := svc.Join(ctx, req(player(next)), game.JoinGame{Name: "P"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	next++
	buyer := next
	setup(buyer)
	b.Run("roll", func(b *testing.B) {
		for b.Loop() {
			if _, err := svc.Roll(ctx, req(player(buyer)), game.RollDice{Dice: "2d6"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// What a command needs beforehand is made with the timer stopped, a
	// batch at a time: b.Loop runs until the timed part has run its time,
	// so a setup commit per command (a grant per purchase, a join and a
	// grant per gift) made the benchmark spend two or three times its
	// time in setup, and every stop of the timer stops the world to read
	// the memory statistics.
	const batch = 100
	b.Run("purchase", func(b *testing.B) {
		funds := 1000 / 5 // setup's grant: 200 Random Cards at 5 Vertebrae
		for b.Loop() {
			if funds == 0 {
				b.StopTimer()
				if _, err := gildedhall.On(svc).Grant(ctx, req(admin), gildedhall.Grant{Player: player(buyer), Vertebrae: 5 * batch, Reason: "bench"}); err != nil {
					b.Fatal(err)
				}
				funds = batch
				b.StartTimer()
			}
			if _, err := gildedhall.On(svc).Purchase(ctx, req(player(buyer)), gildedhall.Purchase{Item: "random-card"}); err != nil {
				b.Fatal(err)
			}
			funds--
		}
	})
	b.Run("gift", func(b *testing.B) {
		// One gift per period: each gift is by a new giver (a gift costs
		// the giver nothing, so a giver only joins).
		var givers []int
		for b.Loop() {
			if len(givers) == 0 {
				b.StopTimer()
				for range batch {
					next++
					if _, err := svc.Join(ctx, req(player(next)), game.JoinGame{Name: fmt.Sprint("P", next)}); err != nil {
						b.Fatal(err)
					}
					givers = append(givers, next)
				}
				b.StartTimer()
			}
			giver := givers[0]
			givers = givers[1:]
			if _, err := gildedhall.On(svc).Gift(ctx, req(player(giver)), gildedhall.Gift{To: player(buyer)}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
