package tracker_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
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

// Issue 24 point 8: each game's overview is its ruleset's. An Obelisk
// game's shows the Obelisk, its Grebes and its open Gatherings, a turns
// game's has no Judge and no season, and neither shows another ruleset's
// numbers (holographic chances); the start page names each game's ruleset.
func TestOverviewOfEachRulesetShowsItsOwnState(t *testing.T) {
	p := newGame(t)
	p.obelisk()
	if _, err := p.svc.Create(context.Background(), game.Request{Actor: admin, Key: "create-tu"}, game.CreateGame{ID: "tu", Ruleset: "turns"}); err != nil {
		t.Fatal(err)
	}
	o, err := obelisk.On(p.svc).Obelisk(context.Background(), obeliskID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path      string
		has, lack []string
	}{
		{"/tracker/games/" + obeliskID, []string{
			fmt.Sprintf(`<dd id="obelisk-distance" data-km="%d">`, o.Distance), "km from the Gates</a>, 1 Cut</dd>",
			`<dd id="obelisk-observation">made this week; the next from`,
			`<dd id="open-gatherings" data-count="1">`, "1 Gathering open", `id="season"`, `id="judge"`,
			"<th scope=\"row\">taskCost</th>"},
			[]string{"holo", "Chances", "Winner: "}},
		{"/tracker/games/tu", []string{"<th scope=\"row\">winPoints</th>", "<td>200</td>", "<th scope=\"row\">judgeDeadline</th><td>7 days</td>", "round 1"},
			// The period by its turn, never its calendar key (…-interim).
			[]string{`id="judge"`, `id="season"`, "No Judge", "holo", "Chances", "obelisk-distance", "-interim (", "h0m0s"}},
		{"/tracker/games/" + gameID, []string{`id="season"`, `id="judge"`, "Chances (%)", "<td>48 hours</td>"}, []string{"obelisk-distance", "h0m0s", "<td>Turns</td>"}},
		{"/tracker", []string{`<td data-ruleset="obelisk">Obelisk</td>`, `<td data-ruleset="gilded-hall">`, "an Obelisk game's Obelisk"}, nil},
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
		for _, foreign := range tc.lack {
			if strings.Contains(body, foreign) {
				t.Errorf("%s shows %q, which is not its ruleset's", tc.path, foreign)
			}
		}
	}
}
