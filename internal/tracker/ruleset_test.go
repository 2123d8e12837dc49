package tracker_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"croupier/internal/game"
)

// RULINGS R3 on the tracker: a game's pages show what its ruleset has; a
// section of an institution it lacks is the friendly 404 with the refusal's
// sentence, never an error page, and the overview works for every ruleset.
func TestR3_PagesOfEachRuleset(t *testing.T) {
	p := newGame(t)
	for _, g := range []struct{ id, ruleset string }{{"ob", "obelisk"}, {"tu", "turns"}} {
		if _, err := p.svc.Create(context.Background(), game.Request{Actor: admin, Key: "create-" + g.id}, game.CreateGame{ID: g.id, Ruleset: g.ruleset}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		game      string
		has, lack []string
	}{
		{"ob", []string{"", "/players", "/log", "/audit", "/trades", "/proposals", "/judge"}, []string{"/matches", "/turns", "/cases"}},
		{"tu", []string{"", "/players", "/log", "/audit", "/turns", "/cases"}, []string{"/matches", "/trades", "/proposals", "/judge"}},
	} {
		for _, s := range tc.has {
			if code, body, _ := p.get("/tracker/games/" + tc.game + s); code != http.StatusOK {
				t.Errorf("%s%s: %d %.300s", tc.game, s, code, body)
			}
		}
		for _, s := range tc.lack {
			code, body, _ := p.get("/tracker/games/" + tc.game + s)
			if code != http.StatusNotFound || !strings.Contains(body, "has no ") || !strings.Contains(body, "<h1>Not found</h1>") {
				t.Errorf("%s%s: %d %.300s, want the friendly 404 saying the ruleset has none", tc.game, s, code, body)
			}
		}
	}
}
