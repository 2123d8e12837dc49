package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"croupier/internal/game"
)

// Every read of a game takes ?at=<moment> (issue 25, RULINGS T6): an
// RFC 3339 time, or before:<entry> / after:<entry> for a log entry. The
// answer is the same handler's over the game's past (game.Service.Past), a
// read-only service whose every query answers as of the moment, so a read
// at a moment has the live read's shape and code path, plus a top-level
// as_of (game.AsOf). A command (POST) with at is refused, not run: the
// past is read-only, and a command that ignored at would run now while its
// caller believed otherwise.

// readFunc is the handler of a read of a game: it answers from s, the
// live service or, on ?at=, the past's.
type readFunc func(w http.ResponseWriter, r *http.Request, s *game.Service)

// read serves h behind the same key checks as every authenticated route
// (authed), live or at the moment the request names.
func (a *API) read(h readFunc) http.Handler { return authedHandler{a: a, read: h} }

// pastStatuses: the statuses of the codes of a read at a moment. A moment
// that is no moment, before the game was or not yet come, is a request to
// correct (400), as is at on a route with no past; a log entry the game
// has not is 404.
var pastStatuses = map[string]int{
	"bad_moment":      http.StatusBadRequest,
	"before_game":     http.StatusBadRequest,
	"entry_not_found": http.StatusNotFound,
	// A game older than its log's changes: its past is not to be had.
	"past_not_recorded": http.StatusNotFound,
	"moment_in_future":  http.StatusBadRequest,
	"past_read_only":    http.StatusBadRequest,
	"at_not_supported":  http.StatusBadRequest,
}

// serveRead runs h over the live service, or, when the request names a
// moment, over the game's past, and adds as_of to a successful answer.
func (a *API) serveRead(w http.ResponseWriter, r *http.Request, h readFunc) {
	at, asked := r.URL.Query()["at"]
	if !asked {
		h(w, r, a.svc)
		return
	}
	if len(at) != 1 {
		problem(w, "bad_moment", "Give at once: one moment, such as at=2026-12-01T18:00:00Z or at=after:<entry>.")
		return
	}
	m, err := game.ParseMoment(at[0])
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	past, asOf, err := a.svc.Past(r.Context(), r.PathValue("game"), m)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	c := &captured{header: w.Header()}
	h(c, r, past)
	body := c.body.Bytes()
	if c.status == http.StatusOK {
		body = withAsOf(body, asOf)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(c.status)
	_, _ = w.Write(body)
}

// withAsOf adds "as_of" as the last member of a JSON object body (with or
// without writeRaw's final newline): the rest of the body is byte for
// byte the handler's, so a read at a moment without its as_of is the
// live read's then.
func withAsOf(body []byte, asOf game.AsOf) []byte {
	b := bytes.TrimRight(body, "\n")
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return body // every read answers an object; nothing else is touched
	}
	member, err := json.Marshal(asOf)
	if err != nil {
		return body
	}
	out := make([]byte, 0, len(body)+len(member)+12)
	out = append(out, b[:len(b)-1]...)
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"as_of":`...)
	out = append(out, member...)
	out = append(out, '}', '\n')
	return out
}

// captured holds a handler's answer until as_of is added to it.
type captured struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *captured) Header() http.Header { return c.header }

func (c *captured) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

func (c *captured) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(b)
}

// refuseAt answers a route that has no past when the request names a
// moment: a command (the past is read-only) or a read of no game's state.
func refuseAt(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		problem(w, "at_not_supported", fmt.Sprintf("GET %s answers only as things are now: at= reads a game's views as of a moment, and this route has no past.", r.URL.Path))
		return
	}
	problem(w, "past_read_only", fmt.Sprintf("The past is read-only: at= reads a game's views as of a moment, and %s %s is a command, which runs now. Send it without at.", r.Method, r.URL.Path))
}
