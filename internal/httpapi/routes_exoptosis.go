package httpapi

import "net/http"

// exoptosisRoutes serves duels, battles and matches (RULINGS X1-X11).
func (a *API) exoptosisRoutes(m *http.ServeMux) {}
