package publish_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/rulesets"
	"croupier/internal/store/bolt"
)

// BenchmarkTail: entries handed per second by the local tail over a bolt
// file (the handler does nothing: this is the tail's own cost, the feed
// read and the cursor writes), and the cost of a poll with nothing new.
func BenchmarkTail(b *testing.B) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(b.TempDir(), "c.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := rulesets.New(st, clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)), game.WithLogger(quiet))
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:1", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		b.Fatal(err)
	}
	const entries = 500
	for i := range entries {
		if _, err := svc.Join(ctx, game.Request{Game: "hall", Actor: fmt.Sprintf("discord:%d", 100+i), Key: "j"}, game.JoinGame{Name: "p"}); err != nil {
			b.Fatal(err)
		}
	}
	noop := func(context.Context, publish.Message) error { return nil }
	b.Run("entries", func(b *testing.B) {
		// Each iteration is a new tail reading the whole feed, so the
		// feed is read through a Feed that does not trim: the first tail
		// would otherwise trim what the next is to read.
		feed := untrimmed{st}
		handed := 0
		for i := 0; b.Loop(); i++ {
			tl := &publish.Tail{Feed: feed, Store: st, Handle: noop, Log: quiet, Name: fmt.Sprintf("bench-%d", i)}
			n, err := tl.Poll(ctx)
			if err != nil {
				b.Fatal(err)
			}
			handed += n
		}
		b.ReportMetric(float64(handed)/b.Elapsed().Seconds(), "entries/s")
	})
	b.Run("idle", func(b *testing.B) {
		tl := &publish.Tail{Feed: st, Store: st, Handle: noop, Log: quiet}
		if _, err := tl.Poll(ctx); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := tl.Poll(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// untrimmed is a feed without TrimFeed (not a publish.Trimmer).
type untrimmed struct{ publish.Feed }
