package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"croupier/internal/game"
)

func TestNewRejectsUnusableURLs(t *testing.T) {
	for _, u := range []string{"", "localhost:8080", "ftp://x", "http://"} {
		if _, err := New(u, "k", ""); err == nil {
			t.Errorf("New(%q) accepted an unusable URL", u)
		}
	}
	c, err := New("http://localhost:8080/", "k", "")
	if err != nil || c.BaseURL != "http://localhost:8080" {
		t.Errorf("New trims the trailing slash: %+v, %v", c, err)
	}
}

// The client sends the bridge headers and turns a problem+json answer,
// extensions included, into a *Problem.
func TestProblemAndHeaders(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"type":"t","title":"Conflict","status":409,"detail":"Too soon.","code":"rejoin_too_soon","possible_at":"2026-03-12T00:00:00Z"}`))
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "secret", "discord:7")
	_, _, err := c.Join(context.Background(), "idem-1", "hall", game.JoinGame{})
	var p *Problem
	if !errors.As(err, &p) {
		t.Fatalf("err = %v, want a *Problem", err)
	}
	if p.Code != "rejoin_too_soon" || p.Status != 409 || p.Detail != "Too soon." || p.Extra["possible_at"] != "2026-03-12T00:00:00Z" {
		t.Errorf("problem = %+v", p)
	}
	if got.Get("Authorization") != "Bearer secret" || got.Get(HeaderActor) != "discord:7" || got.Get(HeaderIdempotency) != "idem-1" {
		t.Errorf("headers sent: %v", got)
	}
}

// Something that is not Croupier (here: a plain-text 404, as another
// program on the port would answer) is named as such.
func TestNotACroupierServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, _ := New(srv.URL, "k", "")
	_, _, err := c.Game(context.Background(), "hall")
	var p *Problem
	if err == nil || errors.As(err, &p) || !strings.Contains(err.Error(), "is not a Croupier problem") {
		t.Errorf("err = %v, want a plain error saying the answer is not Croupier's", err)
	}
}

func TestUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, _ := New(url, "k", "")
	_, _, err := c.Game(context.Background(), "hall")
	if err == nil || !strings.Contains(err.Error(), "cannot reach the Croupier server") {
		t.Errorf("err = %v", err)
	}
}

func TestIdempotencyKeysDiffer(t *testing.T) {
	a, b := NewIdempotencyKey(), NewIdempotencyKey()
	if a == b || !strings.HasPrefix(a, "cli-") || len(a) != 36 {
		t.Errorf("keys %q and %q", a, b)
	}
}
