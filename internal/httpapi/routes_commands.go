package httpapi

import (
	"fmt"
	"net/http"

	"croupier/internal/game"
)

// commandRoutes serves the one route shape of every command an edge may
// call (game.Command.Call): POST /v1/games/{game}/commands/{name} runs the
// catalogue's command name with the body as its payload. The other command
// routes are aliases of it; a command whose alias names a record in its path
// (a trade, a match, a proposal, a ruling) takes the id in the body here.
func (a *API) commandRoutes(m *http.ServeMux) {
	m.Handle("GET /v1/games/{game}/commands", a.read(a.listCommands))
	m.Handle("POST /v1/games/{game}/commands/{name}", a.authed(a.runCommand))
}

// listCommands answers which commands the game's ruleset has that an edge
// may call, with their payload fields: what a client with no hand-written
// code for a command (croupier play, chat) needs to run it.
func (a *API) listCommands(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := s.Commands(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

// runCommand runs the path's command.
func (a *API) runCommand(w http.ResponseWriter, r *http.Request) {
	cmd, err := a.svc.Callable(r.Context(), r.PathValue("game"), r.PathValue("name"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	a.call(w, r, cmd.Name, cmd.Call)
}

// alias is the handler of an older route whose body is the whole payload
// of the catalogue's command name: it runs as POST .../commands/{name}.
// (A route that names a record in its path builds the payload itself.)
func (a *API) alias(name string) http.HandlerFunc {
	cmd, ok := a.svc.CommandNamed(name)
	if !ok || cmd.Call == nil {
		// A wiring mistake in routes(), met by any test that builds the API.
		panic(fmt.Sprintf("httpapi: %q is no catalogue command an edge may call", name))
	}
	return func(w http.ResponseWriter, r *http.Request) { a.call(w, r, cmd.Name, cmd.Call) }
}

// call decodes the body as the command's payload (strict JSON, the size
// bound), applies the key's scope to what the payload speaks for, and runs
// the command: 201 for one that creates a record, 200 otherwise.
func (a *API) call(w http.ResponseWriter, r *http.Request, name string, c *game.Call) {
	p := c.Payload()
	if err := decode(w, r, p, c.Optional); err != nil {
		a.writeError(w, r, err)
		return
	}
	if !a.payloadInScope(w, r, p) {
		return
	}
	status := http.StatusOK
	if c.Creates {
		status = http.StatusCreated
	}
	a.commandNamed(w, r, status, name, func(req game.Request) (*game.Result, error) { return c.Run(r.Context(), a.svc, req, p) })
}

// payloadInScope refuses a payload that speaks for what the key may not:
// a reaction push's platform and voters, a message event's platform.
func (a *API) payloadInScope(w http.ResponseWriter, r *http.Request, payload any) bool {
	switch p := payload.(type) {
	case *game.PushReactions:
		return a.platformInScope(w, r, p.Message.Platform) && a.identitiesInScope(w, r, p.Up, p.Down)
	case *game.MessageEvent:
		return a.platformInScope(w, r, p.Message.Platform)
	}
	return true
}
