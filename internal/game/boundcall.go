package game

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// A chat command names its game through the binding of the chat space it
// came from, and a chat process keeps the bindings it has read (the space's
// BIND item is then not read on every command). The binding can change, so
// the game's META lists the spaces bound to it (Meta.Spaces, kept by bind):
// a command or view run for a BoundCall checks, in the META it reads anyway,
// that the space is still bound to this game, and is refused with
// ErrSpaceMoved, nothing written, when it is not. A cached binding thus
// costs no read and never runs a command in a game the space left.

// BoundCall is what the chat layer attaches to the context of one chat
// invocation (WithBoundCall): the space it believes is bound to the game it
// names, and, filled in by the service, what the invocation did.
type BoundCall struct {
	// Space is the chat space, "<platform>:<space id>" ("discord:900"),
	// checked against META; empty when the caller has just read the
	// binding (only Logged is recorded then).
	Space string

	mu sync.Mutex
	// verified: a META read confirmed the space is bound to the game.
	verified bool
	// logged: a command committed or replayed its log entry.
	logged bool
}

// ErrSpaceMoved refuses a command or view whose game's META does not list
// the invocation's chat space: the space is bound elsewhere now (or the
// game's META predates Meta.Spaces). Nothing was written; the caller reads
// the binding again and retries.
var ErrSpaceMoved = errors.New("game: the chat space is not bound to this game (any more)")

type boundCallKey struct{}

// WithBoundCall attaches bc to ctx.
func WithBoundCall(ctx context.Context, bc *BoundCall) context.Context {
	return context.WithValue(ctx, boundCallKey{}, bc)
}

func boundCallOf(ctx context.Context) *BoundCall {
	bc, _ := ctx.Value(boundCallKey{}).(*BoundCall)
	return bc
}

// Verified reports whether a read of the game's META confirmed the binding.
func (bc *BoundCall) Verified() bool {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return bc.verified
}

// Logged reports whether a game command of the invocation committed, or
// replayed, its log entry: its response is then in the game's log, the
// command's idempotency record, and a replay of the invocation answers
// from it.
func (bc *BoundCall) Logged() bool {
	bc.mu.Lock()
	defer bc.mu.Unlock()
	return bc.logged
}

// checkSpace verifies the context's BoundCall, if any, against m.
func checkSpace(ctx context.Context, m *Meta) error {
	bc := boundCallOf(ctx)
	if bc == nil || bc.Space == "" || m == nil {
		return nil
	}
	if !slices.Contains(m.Spaces, bc.Space) {
		return ErrSpaceMoved
	}
	bc.mu.Lock()
	bc.verified = true
	bc.mu.Unlock()
	return nil
}

// markLogged records on the context's BoundCall that a command's entry is
// in the log.
func markLogged(ctx context.Context) {
	if bc := boundCallOf(ctx); bc != nil {
		bc.mu.Lock()
		bc.logged = true
		bc.mu.Unlock()
	}
}
