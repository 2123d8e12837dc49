package gildedhall

import (
	"context"
	"fmt"

	engine "croupier/internal/game"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// Service runs Gilded Hall's commands and views over the engine: it is the
// engine's service with this module's methods (the edges and tests that
// speak Gilded Hall by type call these; the rest go through the catalogue).
type Service struct{ *engine.Service }

// On returns svc with Gilded Hall's methods.
func On(svc *engine.Service) *Service { return &Service{svc} }

// tx is the engine's transaction with what this module keeps for one
// attempt of one command: the battle roster pages read and the entrants
// seated (battle_roster.go).
type tx struct {
	*engine.Tx
	roster map[int]*RosterPage
	seated []string
	// ids names new card copies and packs after the command id.
	ids func() string
}

// wrap returns the module's view of the engine's transaction, the same one
// for every call within an attempt.
func wrap(t *engine.Tx) *tx {
	return engine.ViewOf(t, func(t *engine.Tx) *tx { return &tx{Tx: t} })
}

// spec is engine.Spec with an apply that takes the module's transaction.
type spec = engine.ModuleSpec[*tx]

// run runs sp through the engine's one command path.
func (s *Service) run(ctx context.Context, sp spec) (*engine.Result, error) {
	return engine.RunModule(s.Service, ctx, sp, wrap)
}

// newID names a new card copy or pack: the command id's prefix and a
// counter, the same on every retry of the command.
func (t *tx) newID() string {
	if t.ids == nil {
		t.ids = cards.Sequence(t.Entry.CommandID[:10])
	}
	return t.ids()
}

// viewIn runs a read-only query of one of this module's views.
func (s *Service) viewIn(ctx context.Context, v engine.View, game string, extra ...store.Key) (*tx, error) {
	t, err := s.ViewIn(ctx, v, game, extra...)
	if err != nil {
		return nil, err
	}
	return wrap(t), nil
}

// Player is a Gilded Hall player record: the membership and the holdings
// (economy.Player), one item per player.
type Player = economy.Player

// asPlayer is the Gilded Hall record of r (every record of a game of this
// module is one: the engine decodes player items with newPlayer).
func asPlayer(r engine.PlayerRecord) (*Player, error) {
	if r == nil {
		return nil, nil
	}
	p, ok := r.(*Player)
	if !ok {
		return nil, fmt.Errorf("internal: player %s is a %T, not a Gilded Hall record", r.Core().ID, r)
	}
	return p, nil
}

// player returns the record of id, or nil if they never joined.
func (t *tx) player(id string) (*Player, error) {
	r, err := t.Record(id)
	if err != nil {
		return nil, err
	}
	return asPlayer(r)
}

// member returns id's record if they are a current player, else nil.
func (t *tx) member(id string) (*Player, error) {
	p, err := t.player(id)
	if err != nil || p == nil || !p.Member {
		return nil, err
	}
	return p, nil
}

// actor returns the acting player, refusing a non-player.
func (t *tx) actor() (*Player, error) {
	p, err := t.member(t.Entry.Actor)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, players.NotAPlayer()
	}
	return p, nil
}
