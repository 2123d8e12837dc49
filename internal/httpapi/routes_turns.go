package httpapi

import (
	"context"
	"net/http"

	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
)

// turnsRoutes serves the turns ruleset's read models (seed 003): the game's
// turn, countdown, points and pool; the numbered rules with their history;
// the proposals with their votes; the cases; the won rounds. Its commands are the
// catalogue's (POST .../commands/{name}).
func (a *API) turnsRoutes(m *http.ServeMux) {
	m.Handle("GET /v1/games/{game}/turns", a.read(gameRead(a, turns.TurnsStatus)))
	m.Handle("GET /v1/games/{game}/turns/rules", a.read(gameRead(a, func(ctx context.Context, s *game.Service, g string) (any, error) {
		rs, err := turns.Rules(ctx, s, g)
		return map[string]any{"rules": rs}, err
	})))
	m.Handle("GET /v1/games/{game}/turns/proposals", a.read(gameRead(a, func(ctx context.Context, s *game.Service, g string) (any, error) {
		ps, err := turns.Proposals(ctx, s, g)
		return map[string]any{"proposals": ps}, err
	})))
	m.Handle("GET /v1/games/{game}/turns/cases", a.read(gameRead(a, func(ctx context.Context, s *game.Service, g string) (any, error) {
		cs, err := turns.Cases(ctx, s, g)
		return map[string]any{"cases": cs}, err
	})))
	m.Handle("GET /v1/games/{game}/turns/rounds", a.read(func(w http.ResponseWriter, r *http.Request, s *game.Service) {
		pr, ok := pageRequest(w, r)
		if !ok {
			return
		}
		rs, next, err := turns.RoundsPage(r.Context(), s, r.PathValue("game"), pr)
		a.replyPage(w, r, "rounds", rs, next, err)
	}))
}

// gameRead serves a read model of the game in the path.
func gameRead[T any](a *API, get func(ctx context.Context, s *game.Service, game string) (T, error)) readFunc {
	return func(w http.ResponseWriter, r *http.Request, s *game.Service) {
		v, err := get(r.Context(), s, r.PathValue("game"))
		a.reply(w, r, v, err)
	}
}
