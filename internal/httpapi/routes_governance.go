package httpapi

import "net/http"

// governanceRoutes serves proposals, votes, the Judge and elections
// (RULINGS G1-G5).
func (a *API) governanceRoutes(m *http.ServeMux) {}
