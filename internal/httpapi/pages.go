package httpapi

import (
	"fmt"
	"net/http"
	"strconv"

	"croupier/internal/game"
)

// maxCursor bounds a cursor in a query: the server's own are far shorter.
const maxCursor = 2048

// pageRequest reads a list route's paging parameters: limit (1 to
// game.MaxPageLimit; the default game.DefaultPageLimit) and cursor (the
// next_cursor of the previous page). A bad value is answered here.
func pageRequest(w http.ResponseWriter, r *http.Request) (game.PageRequest, bool) {
	q := r.URL.Query()
	var pr game.PageRequest
	if s := q.Get("limit"); s != "" || q.Has("limit") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > game.MaxPageLimit {
			problem(w, "invalid_limit", fmt.Sprintf("limit must be a whole number from 1 to %d, not %q.", game.MaxPageLimit, s))
			return pr, false
		}
		pr.Limit = n
	}
	pr.Cursor = q.Get("cursor")
	if len(pr.Cursor) > maxCursor || (pr.Cursor == "" && q.Has("cursor")) {
		problem(w, "invalid_cursor", "cursor must be the next_cursor of a previous page of this list.")
		return pr, false
	}
	return pr, true
}

// replyPage answers one page of a list: the items under name, and
// next_cursor unless it is the last page.
func (a *API) replyPage(w http.ResponseWriter, r *http.Request, name string, items any, next string, err error) {
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	body := map[string]any{name: items}
	if next != "" {
		body["next_cursor"] = next
	}
	writeJSON(w, http.StatusOK, body)
}

func (a *API) getActivity(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, err := s.Activity(r.Context(), r.PathValue("game"), r.PathValue("period"), pr)
	a.reply(w, r, v, err)
}
