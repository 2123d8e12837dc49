package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// croupier serve serves the public tracker and the card images on its one
// port, without an API key.
func TestServeTracker(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "hall", "--name", "The Gilded Hall")
	for _, c := range []struct {
		path, contentType, contains string
		status                      int
	}{
		{"/tracker/games/hall", "text/html", "The Gilded Hall", 200},
		{"/tracker/games/nope", "text/html", "nope", 404},
		{"/cards/7-of-hearts.png", "image/png", "PNG", 200},
		{"/cards/red-joker-holo.svg", "image/svg+xml", "Red Joker", 200},
	} {
		res, err := http.Get(h.ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || !strings.HasPrefix(res.Header.Get("Content-Type"), c.contentType) || !strings.Contains(string(body), c.contains) {
			t.Errorf("GET %s: %d %s, want %d %s containing %q", c.path, res.StatusCode, res.Header.Get("Content-Type"), c.status, c.contentType, c.contains)
		}
	}
}
