package bolt

import (
	"context"
	"fmt"
	"testing"

	"croupier/internal/store"
)

// BenchmarkCommit commits what a single-player command writes at the cost
// floor (DESIGN.md): its state item and one log entry that doubles as the
// idempotency record. Every commit is one fsync'd bbolt transaction.
func BenchmarkCommit(b *testing.B) {
	s := openTemp(b)
	var u store.Usage
	ctx := store.WithUsage(context.Background(), &u)
	state := store.Key{PK: "GAME#bench", SK: "PLAYER#ann"}
	data := make([]byte, 600)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		log := store.Key{PK: "GAME#bench", SK: fmt.Sprintf("LOG#%08d", i)}
		tx := store.Tx{
			Puts: []store.Put{
				{Item: store.Item{Key: state, Data: data}, Expect: int64(i)},
				{Item: store.Item{Key: log, Data: data, Order: fmt.Sprintf("%08d", i)}},
			},
			Idem: &log,
		}
		if err := s.Commit(ctx, tx); err != nil {
			b.Fatal(err)
		}
	}
	reportUsage(b, &u)
}

// BenchmarkGet reads one item of a store holding a thousand.
func BenchmarkGet(b *testing.B) {
	s := openTemp(b)
	ctx := context.Background()
	for batch := 0; batch < 10; batch++ {
		var puts []store.Put
		for i := 0; i < 100; i++ {
			k := store.Key{PK: fmt.Sprintf("GAME#%d", i%7), SK: fmt.Sprintf("PLAYER#%d-%d", batch, i)}
			puts = append(puts, store.Put{Item: store.Item{Key: k, Data: make([]byte, 600)}})
		}
		if err := s.Commit(ctx, store.Tx{Puts: puts}); err != nil {
			b.Fatal(err)
		}
	}
	var u store.Usage
	ctx = store.WithUsage(ctx, &u)
	k := store.Key{PK: "GAME#3", SK: "PLAYER#5-52"}
	b.ReportAllocs()
	for b.Loop() {
		it, err := s.Get(ctx, k)
		if err != nil || !it.Exists() {
			b.Fatal(it, err)
		}
	}
	reportUsage(b, &u)
}

// reportUsage adds the AWS-priced cost per operation to the benchmark output.
func reportUsage(b *testing.B, u *store.Usage) {
	got := u.Snapshot()
	n := float64(b.N)
	b.ReportMetric(float64(got.Requests)/n, "req/op")
	b.ReportMetric(float64(got.ItemsRead+got.ItemsWritten)/n, "items/op")
	b.ReportMetric(got.ReadUnits/n, "RCU/op")
	b.ReportMetric(got.WriteUnits/n, "WCU/op")
}
