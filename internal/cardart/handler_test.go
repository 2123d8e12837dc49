package cardart

import (
	"bytes"
	"image"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"croupier/internal/ruleset"
)

func newTestHandler(t *testing.T) *Handler {
	t.Helper()
	h, err := NewHandler(gildedCards(t))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(h http.Handler, method, path string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestHandlerServesEveryVariant(t *testing.T) {
	h := newTestHandler(t)
	tests := []struct {
		path, ctype, title string
	}{
		{"/cards/7-of-hearts.svg", "image/svg+xml", "7 of Hearts"},
		{"/cards/7-of-hearts-holo.svg", "image/svg+xml", "7 of Hearts (holographic)"},
		{"/cards/red-joker.png", "image/png", ""},
		{"/cards/red-joker-holo.png", "image/png", ""},
		{"/cards/ace-of-spades.png", "image/png", ""},
	}
	etags := map[string]string{}
	for _, tt := range tests {
		rec := get(h, http.MethodGet, tt.path, nil)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", tt.path, rec.Code, rec.Body)
		}
		hd := rec.Header()
		if got := hd.Get("Content-Type"); got != tt.ctype {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, got, tt.ctype)
		}
		if got := hd.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", tt.path, got)
		}
		etag := hd.Get("ETag")
		if len(etag) < 10 || etag[0] != '"' || etag[len(etag)-1] != '"' {
			t.Errorf("%s: ETag %q is not a quoted strong tag", tt.path, etag)
		}
		if prev, dup := etags[etag]; dup {
			t.Errorf("%s and %s share ETag %s", prev, tt.path, etag)
		}
		etags[etag] = tt.path
		if tt.ctype == "image/png" {
			img := decodePNG(t, rec.Body.Bytes())
			if img.Bounds().Size() != (image.Point{DefaultWidth, 336}) {
				t.Errorf("%s: size %v", tt.path, img.Bounds().Size())
			}
		} else if doc := parseSVG(t, rec.Body.Bytes()); doc.title != tt.title {
			t.Errorf("%s: title %q, want %q", tt.path, doc.title, tt.title)
		}

		// A revalidation with the ETag is answered without a body.
		rec2 := get(h, http.MethodGet, tt.path, map[string]string{"If-None-Match": `"other", ` + etag})
		if rec2.Code != http.StatusNotModified || rec2.Body.Len() != 0 {
			t.Errorf("%s with If-None-Match: %d and %d bytes, want 304 and none", tt.path, rec2.Code, rec2.Body.Len())
		}
		// HEAD: same headers, no body.
		rec3 := get(h, http.MethodHead, tt.path, nil)
		if rec3.Code != http.StatusOK || rec3.Body.Len() != 0 || rec3.Header().Get("ETag") != etag {
			t.Errorf("HEAD %s: %d, %d bytes, ETag %q", tt.path, rec3.Code, rec3.Body.Len(), rec3.Header().Get("ETag"))
		}
	}
}

func TestHandlerCachesRenders(t *testing.T) {
	h := newTestHandler(t)
	a := get(h, http.MethodGet, "/cards/queen-of-hearts-holo.png", nil).Body.Bytes()
	b := get(h, http.MethodGet, "/cards/queen-of-hearts-holo.png", nil).Body.Bytes()
	if !bytes.Equal(a, b) {
		t.Fatal("two requests for one image returned different bytes")
	}
	n := 0
	h.cache.Range(func(any, any) bool { n++; return true })
	if n != 1 {
		t.Errorf("%d cached renders after two requests for one image, want 1", n)
	}
}

func TestHandlerRefusesUnknown(t *testing.T) {
	h := newTestHandler(t)
	for _, path := range []string{
		"/cards/8-of-moons.png",
		"/cards/7-of-hearts.gif",
		"/cards/7-of-hearts",
		"/cards/7-of-hearts.svg.png",
		"/cards/7-of-hearts-holo-holo.png",
		"/cards/",
		"/cards/.png",
		"/elsewhere/7-of-hearts.png",
	} {
		rec := get(h, http.MethodGet, path, nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, rec.Code)
		}
		if rec.Header().Get("Cache-Control") != "" {
			t.Errorf("GET %s: a 404 must not be cached for a year", path)
		}
	}
	rec := get(h, http.MethodPost, "/cards/7-of-hearts.png", nil)
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d Allow %q, want 405 and GET, HEAD", rec.Code, rec.Header().Get("Allow"))
	}
}

func TestHandlerURL(t *testing.T) {
	h := newTestHandler(t)
	u, err := h.URL("10 of Diamonds", true, "png")
	if err != nil {
		t.Fatal(err)
	}
	path, v, ok := strings.Cut(u, "?v=")
	if !ok || path != "/cards/10-of-diamonds-holo.png" {
		t.Fatalf("URL %q, want /cards/10-of-diamonds-holo.png?v=...", u)
	}
	rec := get(h, http.MethodGet, u, nil)
	if rec.Code != http.StatusOK || rec.Header().Get("ETag") != `"`+v+`"` {
		t.Errorf("GET %s: %d ETag %q, want 200 and the version %q", u, rec.Code, rec.Header().Get("ETag"), v)
	}
	if _, err := h.URL("Knight of Cups", false, "svg"); err == nil {
		t.Error("URL of an unknown card: no error")
	}
	if _, err := h.URL("7 of Hearts", false, "gif"); err == nil || !strings.Contains(err.Error(), "gif") {
		t.Errorf("URL with format gif: err %v, want one naming the format", err)
	}
}

func TestNewHandlerRefusesUnaddressableCards(t *testing.T) {
	for _, tt := range []struct {
		cards []ruleset.Card
		want  string
	}{
		{[]ruleset.Card{{Name: "7 of Hearts"}, {Name: "7 of hearts!"}}, "share the URL slug"},
		{[]ruleset.Card{{Name: "♥♥"}}, "no letters or digits"},
		{[]ruleset.Card{{Name: "Red Holo"}}, "-holo"},
	} {
		if _, err := NewHandler(tt.cards); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewHandler(%v): err %v, want one containing %q", tt.cards, err, tt.want)
		}
	}
}
