package chat

import (
	"context"
	"errors"
	"sync"

	"croupier/internal/game"
)

// spaces is a Router's cache of the bindings it has read: chat space
// ("discord:900") -> game. A command run from a cached binding carries a
// game.BoundCall, and the game's META, read by the command anyway, confirms
// the space is still bound there (or the command is refused, nothing
// written, and runs again from a fresh read): the binding then costs no
// read of its own. The cache forgets everything past maxSpaces entries;
// one process serves few spaces.
type spaces struct {
	mu sync.Mutex
	m  map[string]spaceEntry
}

type spaceEntry struct {
	game string
	// legacy: the game's META lists no spaces (bound before Meta.Spaces),
	// so the binding is read on every command, as it was.
	legacy bool
}

const maxSpaces = 4096

func (c *spaces) get(space string) (spaceEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[space]
	return e, ok
}

func (c *spaces) put(space string, e spaceEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxSpaces {
		c.m = map[string]spaceEntry{}
	}
	c.m[space] = e
}

func (c *spaces) forget(space string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, space)
}

// binding reads the binding of inv's space (a read of its BIND item) and
// caches it.
func (r *Router) binding(ctx context.Context, inv *Invocation) (string, error) {
	b, ok, err := r.Game.BindingFor(ctx, inv.Platform, inv.Guild)
	if err != nil {
		return "", err
	}
	space := inv.Platform + ":" + inv.Guild
	if !ok {
		r.spaces.forget(space)
		return "", refusef("not_bound", "This server is not bound to a game yet: an admin of a game can bind it with /bind.")
	}
	if e, had := r.spaces.get(space); !had || e.game != b.Game {
		r.spaces.put(space, spaceEntry{game: b.Game})
	}
	return b.Game, nil
}

// runBound runs cmd's handler for inv in the game of its space's binding:
// from the cache when it has the space, confirmed by the META the handler
// reads (game.BoundCall); from a fresh read of the binding otherwise, or
// when the cached one turns out stale. It reports whether a game command's
// log entry now holds the outcome (game.BoundCall.Logged).
func (r *Router) runBound(ctx context.Context, cmd Command, inv *Invocation) (*Reply, bool, error) {
	space := inv.Platform + ":" + inv.Guild
	if e, ok := r.spaces.get(space); ok && !e.legacy {
		inv.Game = e.game
		bc := &game.BoundCall{Space: space}
		rep, err := handle(game.WithBoundCall(ctx, bc), cmd, r.Game, inv)
		if !errors.Is(err, game.ErrSpaceMoved) {
			if bc.Verified() {
				return rep, bc.Logged(), err
			}
			// Nothing the handler read confirmed the binding (a view that
			// reads no META, a refusal of its options): read it.
			g, berr := r.binding(ctx, inv)
			if berr == nil && g == e.game {
				return rep, bc.Logged(), err
			}
		} else if g, berr := r.binding(ctx, inv); berr == nil && g == e.game {
			// Still bound here, but META does not say so: a game bound
			// before META listed its spaces.
			r.spaces.put(space, spaceEntry{game: g, legacy: true})
		}
	}
	g, err := r.binding(ctx, inv)
	if err != nil {
		return nil, false, err
	}
	inv.Game = g
	// The fresh read is the binding: the handler runs unchecked and only
	// records whether it logged.
	bc := &game.BoundCall{}
	rep, err := handle(game.WithBoundCall(ctx, bc), cmd, r.Game, inv)
	return rep, bc.Logged(), err
}

// guesses is a Router's memory of each player's only running match (game
// and player -> match id), so a move with no match named skips looking it
// up: the move itself checks the guess (gildedhall.MatchMove.Guessed) and
// the handler looks up and moves again when it is stale.
type guesses struct {
	mu sync.Mutex
	m  map[[2]string]string
}

type guessesKey struct{}

func (g *guesses) get(game, player string) (string, bool) {
	if g == nil {
		return "", false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	id, ok := g.m[[2]string{game, player}]
	return id, ok
}

func (g *guesses) put(game, player, id string) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil || len(g.m) >= maxSpaces {
		g.m = map[[2]string]string{}
	}
	if id == "" {
		delete(g.m, [2]string{game, player})
		return
	}
	g.m[[2]string{game, player}] = id
}

// guessesOf returns the Router's guesses attached to ctx (nil: none).
func guessesOf(ctx context.Context) *guesses {
	g, _ := ctx.Value(guessesKey{}).(*guesses)
	return g
}
