// Package tracker is the public game tracker: server-rendered HTML pages of
// a game's whole state (the seeds' "generally-agreed-upon applicable
// location" for tracking changes), read-only and public.
//
// It is always true because every page is rendered from the engine's own
// state through *game.Service queries at request time; it keeps no copy.
// It is public because it shows only what the service's public views hold:
// hands stay hidden during selection (the match view for viewer ""), and a
// period's seed appears only once the service's Seeds view has revealed it
// (after the period ended).
//
// Pages work without JavaScript; two small embedded scripts add a countdown
// to the next phase, next/previous buttons on match replays, and the
// randomness audit's in-browser recomputation (WebCrypto), which is the one
// feature that needs JavaScript. docs/tracker.md lists the routes and the
// stable ids and data attributes browser tests rely on.
package tracker

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// Base is the path every tracker page lives under; CardsBase is where the
// card images are served (internal/cardart).
const (
	Base      = "/tracker"
	CardsBase = "/cards"
)

//go:embed static
var staticFS embed.FS

// Options configures a Handler.
type Options struct {
	// Cards serves /cards/{slug}.svg|.png (internal/cardart); nil leaves
	// /cards/ to whoever mounts the tracker.
	Cards http.Handler
	// Logger receives failures to read the service (never shown to visitors
	// beyond "temporarily unavailable").
	Logger *slog.Logger
}

// Handler serves the tracker's pages, its static files and, when
// configured, the card images.
type Handler struct {
	svc *game.Service
	log *slog.Logger
	mux *http.ServeMux
}

// New builds the tracker over svc.
func New(svc *game.Service, opt Options) *Handler {
	h := &Handler{svc: svc, log: opt.Logger, mux: http.NewServeMux()}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	static, _ := fs.Sub(staticFS, "static") // the directory is embedded: cannot fail
	m := h.mux
	m.HandleFunc("GET "+Base, h.index)
	m.HandleFunc("GET "+Base+"/{$}", h.index)
	m.Handle("GET "+Base+"/static/", cacheFor("public, max-age=3600", http.StripPrefix(Base+"/static/", http.FileServerFS(static))))
	m.HandleFunc("GET "+Base+"/games/{game}", h.gamePage((*Handler).overview))
	m.HandleFunc("GET "+Base+"/games/{game}/{$}", redirectTrim)
	m.HandleFunc("GET "+Base+"/games/{game}/players", h.gamePage((*Handler).players))
	m.HandleFunc("GET "+Base+"/games/{game}/players/{player}", h.gamePage((*Handler).player))
	m.HandleFunc("GET "+Base+"/games/{game}/matches", h.gamePage((*Handler).matches))
	m.HandleFunc("GET "+Base+"/games/{game}/matches/{match}", h.gamePage((*Handler).match))
	m.HandleFunc("GET "+Base+"/games/{game}/trades", h.gamePage((*Handler).trades))
	m.HandleFunc("GET "+Base+"/games/{game}/proposals", h.gamePage((*Handler).proposals))
	m.HandleFunc("GET "+Base+"/games/{game}/judge", h.gamePage((*Handler).judge))
	m.HandleFunc("GET "+Base+"/games/{game}/obelisk", h.gamePage((*Handler).obelisk))
	m.HandleFunc("GET "+Base+"/games/{game}/turns", h.gamePage((*Handler).turnsPage))
	m.HandleFunc("GET "+Base+"/games/{game}/cases", h.gamePage((*Handler).casesPage))
	m.HandleFunc("GET "+Base+"/games/{game}/log", h.gamePage((*Handler).logPage))
	m.HandleFunc("GET "+Base+"/games/{game}/audit", h.gamePage((*Handler).audit))
	m.HandleFunc(Base+"/", h.notFoundPage)
	if opt.Cards != nil {
		m.Handle(CardsBase+"/", opt.Cards)
	}
	return h
}

// ServeHTTP serves a tracker request. Any method but GET and HEAD on a
// page is refused with 405 by the mux.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	h.mux.ServeHTTP(w, r)
}

func cacheFor(v string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", v)
		next.ServeHTTP(w, r)
	})
}

func redirectTrim(w http.ResponseWriter, r *http.Request) {
	to := strings.TrimSuffix(r.URL.Path, "/")
	if r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery // the moment (?at=) and the rest stay
	}
	http.Redirect(w, r, to, http.StatusMovedPermanently)
}

// layout is what every page's frame shows: the title, the game's header
// and nav.
type layout struct {
	Title string
	// Game is the game the page is about (nil on the index and 404s).
	Game *game.GameView
	// Section names the game nav entry that is the current page.
	Section string
	// Scripts are static script files the page loads (deferred).
	Scripts []string
	// Names maps the game's current players to their display names.
	Names map[string]string
	// members is the game's current players, read once per page.
	members []game.PlayerView
	// Shows names the game's views its ruleset has (RULINGS R3): the nav
	// links only to pages that exist for it.
	Shows map[string]bool
	// Past is the moment a page of the past reads (nil: now), and At its
	// canonical ?at=, which every link keeps.
	Past *pastPage
	At   string
	// Picker is the time picker of a game page.
	Picker *picker
}

// notFound is an error a page handler returns for a missing thing; the
// visitor gets the friendly 404 page with Message.
type notFound struct{ Message string }

func (e notFound) Error() string { return e.Message }

// gamePage loads the game (every game page shows its header and nav) and
// renders the content fill returns, through a handler whose service reads
// the game as it is now or, with ?at=, as it was at that moment.
func (h *Handler) gamePage(fill func(h *Handler, ctx context.Context, r *http.Request, l *layout) (content, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id := r.PathValue("game")
		g, err := h.svc.Game(ctx, id)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		view, past := h, (*pastPage)(nil)
		if at := r.URL.Query().Get("at"); strings.TrimSpace(at) != "" {
			m, err := parseAt(at, h.svc.Zone(g.Ruleset))
			var re *rules.Error
			if err == nil {
				var svc *game.Service
				var asOf game.AsOf
				if svc, asOf, err = h.svc.Past(ctx, id, m); err == nil {
					view, past = &Handler{svc: svc, log: h.log, mux: h.mux}, &pastPage{AsOf: asOf, Moment: m}
					g, err = svc.Game(ctx, id)
				}
			}
			if errors.As(err, &re) && slices.Contains(momentCodes, re.Code) {
				h.momentError(w, r, &g, m, re)
				return
			}
			if err != nil {
				h.fail(w, r, err)
				return
			}
		}
		members, err := view.svc.Players(ctx, g.ID)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		l := &layout{Game: &g, members: members, Names: map[string]string{}, Shows: h.shows(g.Ruleset), Past: past}
		shown := h.svc.Clock().Now()
		if past != nil {
			shown = past.AsOf.At
			l.At = past.Moment.String()
		}
		l.Picker = h.newPicker(r, &g, shown)
		for _, p := range members {
			l.Names[p.ID] = p.Name
		}
		body, err := fill(view, ctx, r, l)
		if msg, ok := notFoundMessage(err); ok && past != nil {
			// Not there at that moment (a player who joined later, a
			// match not yet requested): the 404 keeps the game's frame,
			// with the banner and the picker, to choose another moment.
			l.Title, l.Section = "Not found", ""
			h.render(w, r, http.StatusNotFound, message("Not found", "not-found", msg, false), l)
			return
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		h.render(w, r, http.StatusOK, body, l)
	}
}

// momentCodes are the refusals of a moment (game.Service.Past), which
// have a page of their own.
var momentCodes = []string{"bad_moment", "moment_in_future", "before_game", "entry_not_found", "past_not_recorded"}

// shows names the views the ruleset has (RULINGS R3).
func (h *Handler) shows(ruleset string) map[string]bool {
	out := map[string]bool{}
	for _, v := range h.svc.Views() {
		out[v.Name] = h.svc.Has(ruleset, v.Name)
	}
	return out
}

// fail turns an error into the page a visitor should see: a missing or
// malformed game, player, match... is a friendly 404; anything else (the
// store unreachable) is a 503 that asks to try again. Never a 500.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if msg, ok := notFoundMessage(err); ok {
		h.notFound(w, r, msg)
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	h.log.Error("tracker: reading the game failed", "path", r.URL.Path, "err", err)
	w.Header().Set("Retry-After", "5")
	h.render(w, r, http.StatusServiceUnavailable, unavailable("The game's records could not be read just now. Please try again in a moment."),
		&layout{Title: "Temporarily unavailable"})
}

// notFoundMessage is the sentence of an error that is the friendly 404:
// a page's notFound, or a refusal of the service (no such player, a
// ruleset without the page's institution).
func notFoundMessage(err error) (string, bool) {
	var nf notFound
	var re *rules.Error
	switch {
	case errors.As(err, &nf):
		return nf.Message, true
	case errors.As(err, &re):
		return re.Message, true
	}
	return "", false
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	h.render(w, r, http.StatusNotFound, message("Not found", "not-found", msg, true),
		&layout{Title: "Not found"})
}

func (h *Handler) notFoundPage(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "The tracker is read-only: use GET.", http.StatusMethodNotAllowed)
		return
	}
	h.notFound(w, r, "There is no tracker page at "+r.URL.Path+".")
}

// unavailable is the body of the 503 page.
func unavailable(msg string) content { return message("Temporarily unavailable", "", msg, false) }

// render writes the page into a buffer, then sends it whole (a failure
// half-way is a 503, not half a page).
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, body content, l *layout) {
	ctx := r.Context()
	if l != nil && l.Game != nil {
		ctx = withAt(withZone(ctx, h.zone(l.Game.Ruleset)), l.At)
	}
	var b bytes.Buffer
	if err := document(l, body).Render(ctx, &b); err != nil {
		if errors.Is(err, context.Canceled) {
			return
		}
		h.log.Error("tracker: writing the page failed", "path", r.URL.Path, "err", err)
		status, b = http.StatusServiceUnavailable, bytes.Buffer{}
		w.Header().Set("Retry-After", "5")
		_ = document(&layout{Title: "Temporarily unavailable"}, unavailable("The page could not be written just now. Please try again in a moment.")).Render(context.Background(), &b)
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	// Pages are the live state: always revalidate.
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b.Bytes())
	}
}

// zone is the time zone ruleset id's games keep (a turns game's
// America/Chicago, RULINGS T3: game.Registry.Zone), nil for UTC.
func (h *Handler) zone(id string) *time.Location {
	if z := h.svc.Zone(id); z != time.UTC {
		return z
	}
	return nil
}

// indexData is the start page: a page of the deployment's games.
type indexData struct {
	Games       []game.GameListing
	After, Next string
	// Title names a ruleset id for a person ("Obelisk").
	Title func(id string) string
}

// index is the entry page: the deployment's games, a page at a time, and a
// form asking for a game id (?game=<id> redirects to the game's overview).
func (h *Handler) index(w http.ResponseWriter, r *http.Request) {
	if id := strings.TrimSpace(r.URL.Query().Get("game")); id != "" {
		if !game.ValidGameID(id) {
			h.notFound(w, r, "\""+id+"\" is not a game id: ids are lower-case letters, digits and dashes.")
			return
		}
		http.Redirect(w, r, gameURL(id), http.StatusSeeOther)
		return
	}
	d := indexData{After: r.URL.Query().Get("after"), Title: h.svc.Title}
	var err error
	if d.Games, d.Next, err = h.svc.Games(r.Context(), d.After, ListPageSize); err != nil {
		var re *rules.Error
		if errors.As(err, &re) || errors.Is(err, store.ErrBadCursor) {
			h.notFound(w, r, "That page of the list of games does not exist.")
			return
		}
		h.fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, indexContent(d), &layout{Title: "Croupier tracker"})
}

// gameURL is the path of a game page: gameURL("hall", "players", "discord:2").
func gameURL(id string, parts ...string) string {
	p := Base + "/games/" + url.PathEscape(id)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}
