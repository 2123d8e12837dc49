package httpapi

import (
	"net/http"

	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
)

// obeliskRoutes serves the Obelisk's views (seed 002; RULINGS O6-O10): the
// Obelisk itself and the Gatherings. Its commands are catalogue commands
// (POST .../commands/{name}): task, observe, gathering-start,
// gathering-contribute, gathering-withdraw, gathering-complete,
// banishment-end.
func (a *API) obeliskRoutes(m *http.ServeMux) {
	m.Handle("GET /v1/games/{game}/obelisk", a.read(a.getObelisk))
	m.Handle("GET /v1/games/{game}/gatherings", a.read(a.listGatherings))
	m.Handle("GET /v1/games/{game}/gatherings/{gathering}", a.read(a.getGathering))
}

func (a *API) getObelisk(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := obelisk.On(s).Obelisk(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

func (a *API) listGatherings(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := obelisk.On(s).Gatherings(r.Context(), r.PathValue("game"))
	a.reply(w, r, map[string]any{"gatherings": v}, err)
}

func (a *API) getGathering(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := obelisk.On(s).Gathering(r.Context(), r.PathValue("game"), r.PathValue("gathering"))
	a.reply(w, r, v, err)
}
