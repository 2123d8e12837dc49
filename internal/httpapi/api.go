// Package httpapi is Croupier's JSON API: the routes of every function, used
// by the Lambdas (through an API Gateway adapter) and by the local server
// alike. Callers are chat bridges authenticated with a bearer API key; the
// acting player is named by the bridge in the X-Croupier-Actor header as a
// platform identity (discord:1234), which must be one the key may act for
// (internal/credential), as must the game of the path. Errors are
// application/problem+json with a stable code. The contract is
// openapi.yaml, served at /openapi.yaml.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rulesets/gildedhall"
)

// MaxBodyBytes bounds a request body.
const MaxBodyBytes = 64 << 10

// Header names of the bridge protocol.
const (
	HeaderActor       = "X-Croupier-Actor"
	HeaderIdempotency = "Idempotency-Key"
	HeaderReplayed    = "Idempotent-Replayed"
	// HeaderSays is the sentence the command's declaration says of its
	// answer (game.Command.Says), percent-encoded UTF-8: an edge that does
	// not run the command's module (a CLI older or newer than the server,
	// a bridge) shows it as every other edge does.
	HeaderSays = "Croupier-Says"
)

// Config configures the API.
type Config struct {
	// Keys are the bearer keys bridges authenticate with, each with the
	// identities and games it may act for. Empty refuses every
	// authenticated route (a deployment must configure keys).
	Keys credential.Keys
	// ManualClock, when set, enables POST /v1/dev/clock (local only).
	ManualClock *clock.Manual
	// SaveClock, when set, records the manual clock's time after each move
	// (`croupier serve` keeps it in the store, so a restart resumes there).
	SaveClock func(context.Context, time.Time) error
	Logger    *slog.Logger
	// Version is reported by /healthz.
	Version string
}

// API serves the routes.
type API struct {
	svc     *game.Service
	keys    credential.Keys
	manual  *clock.Manual
	save    func(context.Context, time.Time) error
	log     *slog.Logger
	version string
	mux     *http.ServeMux
}

// New builds the API over a game service.
func New(svc *game.Service, cfg Config) *API {
	a := &API{svc: svc, keys: cfg.Keys, manual: cfg.ManualClock, save: cfg.SaveClock, log: cfg.Logger, version: cfg.Version, mux: http.NewServeMux()}
	if a.log == nil {
		a.log = slog.Default()
	}
	if a.version == "" {
		a.version = "dev"
	}
	a.routes()
	return a
}

func (a *API) routes() {
	m := a.mux
	m.HandleFunc("GET /healthz", a.healthz)
	m.HandleFunc("GET /openapi.yaml", a.openapi)
	m.Handle("POST /v1/games", a.authed(a.createGame))
	m.Handle("GET /v1/games/{game}", a.read(a.getGame))
	m.Handle("GET /v1/bindings/{platform}/{space}", a.authed(a.getBinding))
	m.Handle("POST /v1/games/{game}/join", a.authed(a.alias("join")))
	m.Handle("POST /v1/games/{game}/leave", a.authed(a.alias("leave")))
	m.Handle("POST /v1/games/{game}/rolls", a.authed(a.alias("roll")))
	m.Handle("POST /v1/games/{game}/grants", a.authed(a.alias("grant")))
	m.Handle("POST /v1/games/{game}/revocations", a.authed(a.alias("revoke")))
	m.Handle("POST /v1/games/{game}/imports", a.authed(a.alias("import")))
	m.Handle("POST /v1/games/{game}/import-revocations", a.authed(a.alias("import-revoke")))
	m.Handle("POST /v1/games/{game}/amendments", a.authed(a.alias("amend")))
	m.Handle("POST /v1/games/{game}/purchases", a.authed(a.alias("purchase")))
	m.Handle("POST /v1/games/{game}/packs/open", a.authed(a.alias("open")))
	m.Handle("POST /v1/games/{game}/gifts", a.authed(a.alias("gift")))
	m.Handle("POST /v1/games/{game}/trades", a.authed(a.alias("trade-offer")))
	m.Handle("GET /v1/games/{game}/trades", a.read(a.listTrades))
	m.Handle("GET /v1/games/{game}/trades/{trade}", a.read(a.getTrade))
	m.Handle("POST /v1/games/{game}/trades/{trade}/accept", a.authed(a.acceptTrade))
	m.Handle("POST /v1/games/{game}/trades/{trade}/withdraw", a.authed(a.withdrawTrade))
	m.Handle("GET /v1/games/{game}/shop", a.read(a.shop))
	m.Handle("GET /v1/games/{game}/ruleset", a.read(a.getRuleset))
	m.Handle("GET /v1/games/{game}/players", a.read(a.listPlayers))
	m.Handle("GET /v1/games/{game}/players/{player}", a.read(a.getPlayer))
	m.Handle("GET /v1/games/{game}/me", a.read(a.me))
	m.Handle("GET /v1/games/{game}/log", a.read(a.getLog))
	m.Handle("GET /v1/games/{game}/seeds", a.read(a.getSeeds))
	m.Handle("GET /v1/games/{game}/periods/{period}/activity", a.read(a.getActivity))
	m.Handle("GET /v1/games/{game}/audit", a.read(a.audit))
	a.exoptosisRoutes(m)
	a.obeliskRoutes(m)
	a.governanceRoutes(m)
	a.turnsRoutes(m)
	a.commandRoutes(m)
	if a.manual != nil {
		m.Handle("POST /v1/dev/clock", a.authed(a.devClock))
	}
}

// ServeHTTP routes a request; unknown routes and methods get problems, and a
// panic anywhere is answered (and logged) instead of dropping the connection.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			a.log.Error("panic serving request", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
			problem(w, "internal", "The server hit an unexpected error; nothing was changed.")
		}
	}()
	if _, pattern := a.mux.Handler(r); pattern == "" {
		if allowed := a.allowedMethods(r); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			problem(w, "method_not_allowed", fmt.Sprintf("%s is not allowed on %s; use %s.", r.Method, r.URL.Path, strings.Join(allowed, " or ")))
			return
		}
		problem(w, "not_found", fmt.Sprintf("There is no route %s %s. The API is described at /openapi.yaml.", r.Method, r.URL.Path))
		return
	}
	a.mux.ServeHTTP(w, r)
}

func (a *API) allowedMethods(r *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := a.mux.Handler(probe); p != "" {
			out = append(out, m)
		}
	}
	return out
}

// authed checks the bridge's bearer key before h runs, and that the key may
// act for the request's actor (the X-Croupier-Actor header, commands' and
// views' alike) and touch the path's game: a refusal is answered before
// anything is read or written.
//
// It is a type, not a closure: authed is small enough to inline into each
// of the sixty route registrations, and each inlined copy would carry its
// own copy of this check (70 KB of every API bootstrap, issue 16).
func (a *API) authed(h http.HandlerFunc) http.Handler { return authedHandler{a: a, h: h} }

type authedHandler struct {
	a *API
	h http.HandlerFunc
	// read, when set, is the handler of a read of a game, which may be
	// asked as of a moment (?at=, past.go); h is then unused.
	read readFunc
}

func (ah authedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	if auth == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="croupier"`)
		problem(w, "missing_api_key", "This route needs an API key: send Authorization: Bearer <key>.")
		return
	}
	// The scheme is case-insensitive (RFC 9110 11.1).
	scheme, token, _ := strings.Cut(auth, " ")
	key, ok := ah.a.keys.Find(strings.TrimSpace(token))
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		w.Header().Set("WWW-Authenticate", `Bearer realm="croupier", error="invalid_token"`)
		problem(w, "invalid_api_key", "The API key is not valid for this server.")
		return
	}
	if actor := strings.TrimSpace(r.Header.Get(HeaderActor)); actor != "" && !key.Scope.Actor(actor) {
		ah.a.outOfScope(w, r, key, "actor_out_of_scope", fmt.Sprintf("This API key may not act for %s: it acts for %s.", actor, key.Scope))
		return
	}
	if g := r.PathValue("game"); g != "" && !key.Scope.Game(g) {
		ah.a.outOfScope(w, r, key, "game_out_of_scope", fmt.Sprintf("This API key may not touch game %s: it is limited to %s.", g, key.Scope))
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), keyCtx{}, key))
	switch {
	case ah.read != nil:
		ah.a.serveRead(w, r, ah.read)
	case r.URL.Query().Has("at"):
		refuseAt(w, r)
	default:
		ah.h(w, r)
	}
}

// keyCtx is the context key of the request's API key.
type keyCtx struct{}

// keyOf is the key authed accepted for r.
func keyOf(r *http.Request) credential.Key {
	k, _ := r.Context().Value(keyCtx{}).(credential.Key)
	return k
}

// outOfScope refuses a request its key may not make, and logs which key
// (by its hash's prefix) tried: a key that keeps trying is worth a look.
func (a *API) outOfScope(w http.ResponseWriter, r *http.Request, key credential.Key, code, detail string) {
	a.log.WarnContext(r.Context(), "request outside its key's scope", "code", code, "key", key.ID(), "method", r.Method, "path", r.URL.Path)
	problem(w, code, detail)
}

// identitiesInScope refuses, with actor_out_of_scope, a body naming
// identities the key may not act for (the voters of a reaction push).
func (a *API) identitiesInScope(w http.ResponseWriter, r *http.Request, ids ...[]string) bool {
	k := keyOf(r)
	for _, l := range ids {
		for _, id := range l {
			if !k.Scope.Actor(id) {
				a.outOfScope(w, r, k, "actor_out_of_scope", fmt.Sprintf("This API key may not speak for %s: it acts for %s.", id, k.Scope))
				return false
			}
		}
	}
	return true
}

// platformInScope refuses, with platform_out_of_scope, a message of a
// platform the key acts for no identity of.
func (a *API) platformInScope(w http.ResponseWriter, r *http.Request, platform string) bool {
	if k := keyOf(r); platform != "" && !k.Scope.Platform(platform) {
		a.outOfScope(w, r, k, "platform_out_of_scope", fmt.Sprintf("This API key may not report on %s messages: it acts for %s.", platform, k.Scope))
		return false
	}
	return true
}

// request builds the command identity from the headers.
func request(r *http.Request, needActor bool) (game.Request, error) {
	actor := strings.TrimSpace(r.Header.Get(HeaderActor))
	if actor == "" && needActor {
		return game.Request{}, refuse("missing_actor", "Say who is acting: send the player's platform identity in the %s header, e.g. discord:1234.", HeaderActor)
	}
	return game.Request{Game: r.PathValue("game"), Actor: actor, Key: r.Header.Get(HeaderIdempotency)}, nil
}

// decode reads a JSON body into v. An empty body leaves v as it is when
// optional; otherwise it must be one JSON object of known fields.
func decode(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return refuse("body_too_large", "The request body is larger than %d KiB.", MaxBodyBytes>>10)
		}
		return refuse("invalid_request", "The request body could not be read: %v.", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if optional {
			return nil
		}
		return refuse("invalid_json", "This route needs a JSON body.")
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return refuse("unsupported_media_type", "The body must be application/json, not %q.", ct)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return refuse("invalid_json", "The body is not valid JSON for this route: %s.", describeJSONError(err))
	}
	if _, err := dec.Token(); err != io.EOF { // More() misses a stray } or ]
		return refuse("invalid_json", "The body has data after its JSON object.")
	}
	return nil
}

func describeJSONError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("syntax error at byte %d (%v)", syn.Offset, syn)
	case errors.As(err, &typ):
		return fmt.Sprintf("field %q must be %s, not %s", typ.Field, typ.Type, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends too early"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func (a *API) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "version": a.version, "time": a.svc.Clock().Now()})
}

func (a *API) openapi(w http.ResponseWriter, r *http.Request) {
	doc, err := openAPIDocument()
	if err != nil {
		a.log.Error("the embedded openapi.yaml.gz does not decompress", "err", err)
		writeProblem(w, http.StatusInternalServerError, "internal", "The API document is unavailable.", nil)
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(doc)
}

// command runs a state-changing handler and writes its (possibly replayed) result.
func (a *API) command(w http.ResponseWriter, r *http.Request, status int, run func(game.Request) (*game.Result, error)) {
	a.commandNamed(w, r, status, "", run)
}

// commandNamed is command for the catalogue's command name, whose answer's
// sentence it sends along (HeaderSays).
func (a *API) commandNamed(w http.ResponseWriter, r *http.Request, status int, name string, run func(game.Request) (*game.Result, error)) {
	req, err := request(r, true)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	res, err := run(req)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if res.Replayed {
		w.Header().Set(HeaderReplayed, "true")
	}
	if name != "" {
		w.Header().Set(HeaderSays, url.PathEscape(a.svc.Says(name, res.Body, a.svc.Names(r.Context(), req.Game, res.Names))))
	}
	writeRaw(w, status, res.Body)
}

// A command route whose body is the command's whole payload is an alias of
// POST .../commands/{name} (alias, routes_commands.go). The handlers of
// commands on the record their path names are built from the service
// method, so each route says only what it runs and the plumbing (decode,
// identify, run, write) is written once.

// pathCommand is the handler of a command on the record the path value
// name identifies, without a body.
func pathCommand(a *API, status int, name string, run func(context.Context, game.Request, string) (*game.Result, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a.bare(w, r, status, func(req game.Request) (*game.Result, error) { return run(r.Context(), req, r.PathValue(name)) })
	}
}

// bare runs a command that takes no body: one, if sent, must be an empty
// JSON object.
func (a *API) bare(w http.ResponseWriter, r *http.Request, status int, run func(game.Request) (*game.Result, error)) {
	var none struct{}
	if err := decode(w, r, &none, true); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.command(w, r, status, run)
}

// oneOf checks that the query parameter name, when given, is one of
// allowed; otherwise it answers invalid_request and returns false.
func oneOf(w http.ResponseWriter, name, value string, allowed []string) bool {
	if value != "" && !slices.Contains(allowed, value) {
		problem(w, "invalid_request", fmt.Sprintf("%s must be one of %s, not %q.", name, strings.Join(allowed, ", "), value))
		return false
	}
	return true
}

func (a *API) createGame(w http.ResponseWriter, r *http.Request) {
	var c game.CreateGame
	if err := decode(w, r, &c, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	if k := keyOf(r); !k.Scope.Game(c.ID) {
		a.outOfScope(w, r, k, "game_out_of_scope", fmt.Sprintf("This API key may not create game %s: it is limited to %s.", c.ID, k.Scope))
		return
	}
	a.command(w, r, http.StatusCreated, func(req game.Request) (*game.Result, error) { return a.svc.Create(r.Context(), req, c) })
}

func (a *API) acceptTrade(w http.ResponseWriter, r *http.Request) {
	var none struct{}
	if err := decode(w, r, &none, true); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.command(w, r, http.StatusOK, func(req game.Request) (*game.Result, error) {
		return trades.On(a.svc).AcceptTrade(r.Context(), req, r.PathValue("trade"))
	})
}

func (a *API) withdrawTrade(w http.ResponseWriter, r *http.Request) {
	var none struct{}
	if err := decode(w, r, &none, true); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.command(w, r, http.StatusOK, func(req game.Request) (*game.Result, error) {
		return trades.On(a.svc).WithdrawTrade(r.Context(), req, r.PathValue("trade"))
	})
}

// tradeStatuses are the values the status filter of GET trades accepts.
var tradeStatuses = []string{trades.TradeOpen, trades.TradeExecuted, trades.TradeWithdrawn, trades.TradeExpired}

func (a *API) listTrades(w http.ResponseWriter, r *http.Request, s *game.Service) {
	q := r.URL.Query()
	f := trades.TradeFilter{Player: q.Get("player"), Status: q.Get("status")}
	if f.Player != "" && !game.ValidIdentity(f.Player) {
		// A name or a mention, as a person gives a player.
		req, _ := request(r, false)
		id, err := s.ResolvePlayer(r.Context(), req, f.Player)
		if err != nil {
			a.writeError(w, r, err)
			return
		}
		f.Player = id
	}
	if f.Status != "" && !slices.Contains(tradeStatuses, f.Status) {
		problem(w, "invalid_request", fmt.Sprintf("status must be one of %s, not %q.", strings.Join(tradeStatuses, ", "), f.Status))
		return
	}
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := trades.On(s).TradesPage(r.Context(), r.PathValue("game"), f, pr)
	a.replyPage(w, r, "trades", v, next, err)
}

// maxTradeID bounds a trade id in a path, as the service does for commands:
// anything longer is no id the server made.
const maxTradeID = 64

func (a *API) getTrade(w http.ResponseWriter, r *http.Request, s *game.Service) {
	id := r.PathValue("trade")
	if len(id) > maxTradeID {
		problem(w, "invalid_request", fmt.Sprintf("%q is not a trade id.", id))
		return
	}
	v, err := trades.On(s).Trade(r.Context(), r.PathValue("game"), id)
	a.reply(w, r, v, err)
}

func (a *API) shop(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := gildedhall.On(s).Shop(r.Context(), r.PathValue("game"))
	a.reply(w, r, map[string]any{"items": v}, err)
}

func (a *API) getRuleset(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := s.Ruleset(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

// getBinding answers what a chat space is bound to; a key limited to other
// games may not learn which game a space plays.
func (a *API) getBinding(w http.ResponseWriter, r *http.Request) {
	v, err := a.svc.Space(r.Context(), r.PathValue("platform"), r.PathValue("space"))
	if err == nil {
		if k := keyOf(r); !k.Scope.Game(v.Game) {
			a.outOfScope(w, r, k, "game_out_of_scope", fmt.Sprintf("This API key may not touch the game this space is bound to: it is limited to %s.", k.Scope))
			return
		}
	}
	a.reply(w, r, v, err)
}

func (a *API) getGame(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := s.Game(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

func (a *API) listPlayers(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := s.PlayersPage(r.Context(), r.PathValue("game"), pr)
	a.replyPage(w, r, "players", v, next, err)
}

// getPlayer answers the player the path names as a person names them
// (game.ResolvePlayer: an identity, a mention, a bare id of the actor's
// platform, a display name), so the CLI resolves a name where every edge does.
func (a *API) getPlayer(w http.ResponseWriter, r *http.Request, s *game.Service) {
	req, _ := request(r, false)
	id, err := s.ResolvePlayer(r.Context(), req, r.PathValue("player"))
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	v, err := s.Player(r.Context(), req.Game, id)
	a.reply(w, r, v, err)
}

func (a *API) me(w http.ResponseWriter, r *http.Request, s *game.Service) {
	req, err := request(r, true)
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	if !game.ValidIdentity(req.Actor) {
		problem(w, "invalid_actor", fmt.Sprintf("%q is not a platform identity such as discord:1234.", req.Actor))
		return
	}
	v, err := s.Player(r.Context(), req.Game, req.Actor)
	a.reply(w, r, v, err)
}

func (a *API) getLog(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, err := s.Log(r.Context(), r.PathValue("game"), pr.Cursor, pr.Limit)
	a.reply(w, r, v, err)
}

func (a *API) getSeeds(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := s.SeedsPage(r.Context(), r.PathValue("game"), pr)
	a.replyPage(w, r, "seeds", v, next, err)
}

func (a *API) audit(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := s.Audit(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

// maxClockStep bounds one move of the dev clock: every period end in
// between runs inside the request.
const maxClockStep = 400 * 24 * time.Hour

// ClockRequest moves the manual clock: set it to a moment, or advance it.
type ClockRequest struct {
	Set     *time.Time `json:"set,omitempty"`
	Advance string     `json:"advance,omitempty"`
}

func (a *API) devClock(w http.ResponseWriter, r *http.Request) {
	if k := keyOf(r); !k.Scope.EveryGame() {
		a.outOfScope(w, r, k, "game_out_of_scope", fmt.Sprintf("Moving the clock moves every game: this API key is limited to %s.", k.Scope))
		return
	}
	var c ClockRequest
	if err := decode(w, r, &c, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	now := a.manual.Now()
	switch {
	case c.Set != nil && c.Advance != "":
		problem(w, "invalid_clock", "Give either set or advance, not both.")
		return
	case c.Set != nil:
		if c.Set.Sub(now) > maxClockStep {
			problem(w, "invalid_clock", fmt.Sprintf("The clock moves at most %d days ahead in one step.", maxClockStep/(24*time.Hour)))
			return
		}
		// Backwards would undo nothing already applied (period ends, seeds
		// revealed) and would date new commands before them: refused.
		if was, ok := a.manual.SetForward(*c.Set); !ok {
			problem(w, "invalid_clock", fmt.Sprintf("The clock is at %s: it cannot be set back to %s, as a manual clock only moves forward.",
				was.Format(time.RFC3339Nano), c.Set.UTC().Format(time.RFC3339Nano)))
			return
		}
	case c.Advance != "":
		d, err := time.ParseDuration(c.Advance)
		if err != nil || d < 0 || d > maxClockStep {
			problem(w, "invalid_clock", fmt.Sprintf("advance must be a positive Go duration such as 36h or 90m, at most %d days, not %q.", maxClockStep/(24*time.Hour), c.Advance))
			return
		}
		a.manual.Advance(d)
	default:
		problem(w, "invalid_clock", "Give set (an RFC 3339 time) or advance (a duration such as 36h).")
		return
	}
	// Saved before the due work runs: a restart after a crash in between
	// resumes at the new time and the scheduler finishes that work; saved
	// after, it would resume before period ends already applied.
	if a.save != nil {
		if err := a.save(r.Context(), a.manual.Now()); err != nil {
			a.manual.Set(now)
			a.writeError(w, r, err)
			return
		}
	}
	// Due scheduled work runs before the answer, so a client sees its effect.
	rep, err := a.svc.RunDue(r.Context())
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"now": a.manual.Now(), "ran": rep})
}

func (a *API) reply(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		a.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func refuse(code, format string, args ...any) error { return rules.Refuse(code, format, args...) }
