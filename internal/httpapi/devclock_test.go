package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
)

// The dev clock route saves each move (serve keeps it in the store); a
// move it cannot save is undone and ends no period.
func TestDevClockSavesEveryMove(t *testing.T) {
	svc, clk := newService(t)
	if _, err := svc.Create(context.Background(), game.Request{Actor: admin, Key: "c"}, game.CreateGame{ID: gameID}); err != nil {
		t.Fatal(err)
	}
	var saved []time.Time
	fail := false
	save := func(_ context.Context, now time.Time) error {
		if fail {
			return errors.New("disk full")
		}
		saved = append(saved, now)
		return nil
	}
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, ManualClock: clk, SaveClock: save, Logger: quiet()})
	move := func(body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/v1/dev/clock", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+testKey)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		return w
	}
	if w := move(`{"advance":"1h"}`); w.Code != http.StatusOK || len(saved) != 1 || !saved[0].Equal(t0.Add(time.Hour)) {
		t.Fatalf("advance 1h: %d %s; saved %v, want %s", w.Code, w.Body, saved, t0.Add(time.Hour))
	}
	before, err := svc.Game(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	fail = true
	w := move(`{"advance":"400h"}`)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "storage_unavailable") {
		t.Errorf("a move that cannot be saved: %d %s, want 503 storage_unavailable", w.Code, w.Body)
	}
	if now := clk.Now(); !now.Equal(t0.Add(time.Hour)) {
		t.Errorf("after a move that could not be saved the clock is at %s, want it back at %s", now, t0.Add(time.Hour))
	}
	after, err := svc.Game(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Period.ID != before.Period.ID {
		t.Errorf("a move that could not be saved ended period %s (now %s)", before.Period.ID, after.Period.ID)
	}
}

// A manual clock only moves forward (issue 24 point 9): a set before its
// time is refused invalid_clock, naming both moments, and moves nothing and
// saves nothing; a set to its own time is no move and is accepted.
func TestDevClockSetBackwardIsRefused(t *testing.T) {
	svc, clk := newService(t)
	if _, err := svc.Create(context.Background(), game.Request{Actor: admin, Key: "c"}, game.CreateGame{ID: gameID}); err != nil {
		t.Fatal(err)
	}
	var saved []time.Time
	save := func(_ context.Context, now time.Time) error { saved = append(saved, now); return nil }
	api := httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(testKey)}, ManualClock: clk, SaveClock: save, Logger: quiet()})
	move := func(body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/v1/dev/clock", strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+testKey)
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		api.ServeHTTP(w, r)
		return w
	}
	if w := move(`{"advance":"96h"}`); w.Code != http.StatusOK {
		t.Fatalf("advance 96h: %d %s", w.Code, w.Body)
	}
	at := t0.Add(96 * time.Hour)
	before, err := svc.Game(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	w := move(`{"set":"2026-12-01T12:00:00Z"}`)
	body := w.Body.String()
	if w.Code != http.StatusBadRequest || !strings.Contains(body, `"invalid_clock"`) ||
		!strings.Contains(body, "The clock is at 2026-12-05T12:00:00Z: it cannot be set back to 2026-12-01T12:00:00Z, as a manual clock only moves forward.") {
		t.Errorf("set into the past: %d %s, want 400 invalid_clock naming both moments", w.Code, body)
	}
	if now := clk.Now(); !now.Equal(at) || len(saved) != 1 {
		t.Errorf("after a refused set the clock is at %s with %d saves, want %s and 1", now, len(saved), at)
	}
	after, err := svc.Game(context.Background(), gameID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Period.ID != before.Period.ID {
		t.Errorf("a refused set changed the period from %s to %s", before.Period.ID, after.Period.ID)
	}
	if w := move(`{"set":"2026-12-05T12:00:00Z"}`); w.Code != http.StatusOK || !clk.Now().Equal(at) {
		t.Errorf("set to the clock's own time: %d %s, clock %s; want 200 and no move", w.Code, w.Body, clk.Now())
	}
}
