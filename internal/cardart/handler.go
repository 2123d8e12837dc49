package cardart

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"croupier/internal/ruleset"
)

// Prefix is the URL path Handler serves under.
const Prefix = "/cards/"

// cacheControl: the bytes behind a URL never change for a given card table
// and art, so browsers and Discord's media proxy may keep them for a year.
// URL adds the content hash as ?v= so a change to the art changes the URL.
const cacheControl = "public, max-age=31536000, immutable"

// Handler serves the card images of one card table:
//
//	/cards/{slug}.svg  /cards/{slug}.png  /cards/{slug}-holo.svg  /cards/{slug}-holo.png
//
// Images are rendered on first request and kept in memory: rendering is
// deterministic, so one copy per card, variant and format serves every
// request. A Handler is safe for concurrent use.
type Handler struct {
	cards map[string]ruleset.Card // by slug
	cache sync.Map                // "slug|holo|format" -> *rendered
}

type rendered struct {
	once  sync.Once
	body  []byte
	etag  string
	ctype string
	err   error
}

// NewHandler builds a Handler for cards (normally a ruleset's Cards). It
// refuses a table whose names are empty or collide as slugs, because those
// cards would have no URL of their own.
func NewHandler(cards []ruleset.Card) (*Handler, error) {
	h := &Handler{cards: make(map[string]ruleset.Card, len(cards))}
	for i, c := range cards {
		s := ruleset.CardSlug(c.Name)
		if s == "" {
			return nil, fmt.Errorf("cardart: card %d (%q) has no letters or digits to name its URL", i, c.Name)
		}
		if strings.HasSuffix(s, "-holo") {
			return nil, fmt.Errorf("cardart: card %q: slug %q ends in -holo, which names the holographic variant", c.Name, s)
		}
		if prev, dup := h.cards[s]; dup {
			return nil, fmt.Errorf("cardart: cards %q and %q share the URL slug %q", prev.Name, c.Name, s)
		}
		h.cards[s] = c
	}
	return h, nil
}

// URL is the versioned path of a card image: Prefix + slug [+ "-holo"] +
// "." + format, with ?v= set to the image's content hash so the immutable
// cache lifetime is safe across art changes. format is "svg" or "png".
func (h *Handler) URL(name string, holo bool, format string) (string, error) {
	slug := ruleset.CardSlug(name)
	if _, ok := h.cards[slug]; !ok {
		return "", fmt.Errorf("cardart: no card named %q", name)
	}
	if format != "svg" && format != "png" {
		return "", fmt.Errorf("cardart: image format %q: want svg or png", format)
	}
	file := slug
	if holo {
		file += "-holo"
	}
	file += "." + format
	r := h.render(slug, holo, format)
	if r.err != nil {
		return "", r.err
	}
	return Prefix + file + "?v=" + strings.Trim(r.etag, `"`), nil
}

// ServeHTTP serves GET and HEAD for the image paths; anything else under
// Prefix is 404 (unknown card or format) or 405 (other methods).
func (h *Handler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	file, ok := strings.CutPrefix(req.URL.Path, Prefix)
	if !ok {
		http.NotFound(w, req)
		return
	}
	base, format, ok := strings.Cut(file, ".")
	slug, holo := strings.CutSuffix(base, "-holo")
	if _, known := h.cards[slug]; !ok || !known || (format != "svg" && format != "png") {
		http.Error(w, fmt.Sprintf("no card image %q: want %s{card}.svg, .png, -holo.svg or -holo.png", req.URL.Path, Prefix), http.StatusNotFound)
		return
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "card images are read-only: use GET or HEAD", http.StatusMethodNotAllowed)
		return
	}
	r := h.render(slug, holo, format)
	if r.err != nil {
		http.Error(w, "could not render card image", http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", r.ctype)
	hd.Set("Cache-Control", cacheControl)
	hd.Set("ETag", r.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	if format == "svg" {
		// An SVG opened directly is a document; it needs no scripts or fetches.
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	}
	if etagMatch(req.Header.Get("If-None-Match"), r.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", fmt.Sprint(len(r.body)))
	if req.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(r.body) // the client went away; nothing to do
}

// render returns the cached image, rendering it once.
func (h *Handler) render(slug string, holo bool, format string) *rendered {
	key := fmt.Sprintf("%s|%t|%s", slug, holo, format)
	v, _ := h.cache.LoadOrStore(key, &rendered{})
	r := v.(*rendered)
	r.once.Do(func() {
		d := Describe(h.cards[slug], holo)
		if format == "svg" {
			r.body, r.ctype = SVG(d), "image/svg+xml"
		} else {
			r.body, r.err = PNG(d, DefaultWidth)
			r.ctype = "image/png"
		}
		sum := sha256.Sum256(r.body)
		r.etag = `"` + hex.EncodeToString(sum[:8]) + `"`
	})
	return r
}

// etagMatch reports whether an If-None-Match header names etag (or is *).
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		t = strings.TrimPrefix(t, "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
