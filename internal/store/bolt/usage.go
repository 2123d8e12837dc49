package bolt

import (
	"context"

	"croupier/internal/store"
)

// cost is a lock-free tally of one call, handed to store.Usage.Add as a
// composite literal: store.Usage holds a mutex, so passing a Usage variable
// by value would copy a lock (go vet's copylocks).
type cost struct {
	requests, read, written int
	readUnits, writeUnits   float64
}

// charge adds c to the Usage attached to ctx, if any.
func (c cost) charge(ctx context.Context) {
	store.UsageFrom(ctx).Add(store.Cost{
		Requests:     c.requests,
		ItemsRead:    c.read,
		ItemsWritten: c.written,
		ReadUnits:    c.readUnits,
		WriteUnits:   c.writeUnits,
	})
}
