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

// The players pages of an Obelisk and a turns game show what the ruleset
// gives a player, never a Gilded Hall inventory (R3; people read names).
func TestPlayersPagesOfEachRuleset(t *testing.T) {
	p := newGame(t)
	ctx := context.Background()
	for _, g := range []struct{ id, ruleset string }{{"ob", "obelisk"}, {"tu", "turns"}} {
		if _, err := p.svc.Create(ctx, game.Request{Actor: admin, Key: "create-" + g.id}, game.CreateGame{ID: g.id, Ruleset: g.ruleset}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.svc.Join(ctx, game.Request{Game: g.id, Actor: "discord:77", Key: "join-" + g.id}, game.JoinGame{Name: "Zora"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path string
		has  []string
	}{
		{"/tracker/games/ob/players", []string{"Zora", "Ritual Components", "<th scope=\"col\">Holds</th>", "⚡"}},
		{"/tracker/games/ob/players/discord:77", []string{"Zora", `<dd id="holds">1⚡</dd>`, `<dd id="banished">no</dd>`, `<dd id="grebe">none</dd>`}},
		{"/tracker/games/tu/players", []string{"Zora", "their points", "<th scope=\"col\">Points</th>", "<td>0</td>"}},
		{"/tracker/games/tu/players/discord:77", []string{"Zora", `<dd id="points">0</dd>`, `<dd id="pool">not in the pool</dd>`, `<dd id="judging">no case</dd>`}},
	} {
		code, body, _ := p.get(tc.path)
		if code != http.StatusOK {
			t.Errorf("%s: %d %.300s", tc.path, code, body)
			continue
		}
		for _, want := range tc.has {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", tc.path, want)
			}
		}
		for _, foreign := range []string{"Vertebrae", "Chips", "Unopened packs", "Deck"} {
			if strings.Contains(body, foreign) {
				t.Errorf("%s shows %q, which its ruleset has not", tc.path, foreign)
			}
		}
	}
}
