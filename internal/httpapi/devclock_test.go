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
