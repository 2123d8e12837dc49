package dynamo_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// Benchmarks run against DynamoDB Local, so they measure the adapter plus a
// loopback HTTP round trip, not AWS latency. They report AWS's billed units per
// operation (wcu/op, rcu/op) from store.Usage, which is what a deployment pays.

func benchStore(b *testing.B) *dynamo.Store {
	c, table := testenv.DynamoTable(b, "bench-"+b.Name())
	return dynamo.New(c, table)
}

func BenchmarkCommit(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 600)
	for _, bc := range []struct {
		name string
		tx   func(i int) store.Tx
	}{
		{"SinglePut", func(i int) store.Tx {
			return store.Tx{Puts: []store.Put{{Item: store.Item{Key: key("GAME#1", fmt.Sprintf("P%d", i)), Data: data}}}}
		}},
		{"Command3Items", func(i int) store.Tx { // state + log entry + idempotency record
			idem := key("GAME#1", fmt.Sprintf("IDEM#%d", i))
			return store.Tx{Puts: []store.Put{
				{Item: store.Item{Key: key("GAME#1", fmt.Sprintf("S%d", i)), Data: data}},
				{Item: store.Item{Key: key("GAME#1", fmt.Sprintf("LOG#%d", i)), Data: data, Order: fmt.Sprintf("%012d", i)}},
				{Item: store.Item{Key: idem, Data: data}},
			}, Idem: &idem}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st := benchStore(b)
			var u store.Usage
			ctx := store.WithUsage(context.Background(), &u)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if err := st.Commit(ctx, bc.tx(i)); err != nil {
					b.Fatal(err)
				}
			}
			s := u.Snapshot()
			b.ReportMetric(s.WriteUnits/float64(b.N), "wcu/op")
		})
	}
}

func BenchmarkGet(b *testing.B) {
	st := benchStore(b)
	ctx := context.Background()
	k := key("GAME#1", "META")
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: bytes.Repeat([]byte("x"), 2000)}}}}); err != nil {
		b.Fatal(err)
	}
	var u store.Usage
	ctx = store.WithUsage(ctx, &u)
	b.ResetTimer()
	for b.Loop() {
		if it, err := st.Get(ctx, k); err != nil || !it.Exists() {
			b.Fatal(it, err)
		}
	}
	b.ReportMetric(u.Snapshot().ReadUnits/float64(b.N), "rcu/op")
}
