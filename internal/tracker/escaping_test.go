package tracker_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets/gildedhall"
)

// Everything a player writes reaches the pages as text: a name, a
// proposal's title and text, a request for justice, a trade's note and
// the log's filters in the query string show escaped, never as markup that
// a browser would run or that would break out of an attribute.
func TestPlayerTextIsEscaped(t *testing.T) {
	p := newGame(t)
	const evil = `"'><script>alert(1)</script><img src=x onerror=alert(2)>&`
	const mallory = "discord:66"
	p.must(p.svc.Join(p.ctx, p.req(mallory), game.JoinGame{Name: "M" + evil}))
	p.must(p.svc.SubmitProposal(p.ctx, p.req(mallory), game.SubmitProposal{Message: msg("prop-evil"), Title: "T" + evil, Text: "X" + evil}))
	p.must(p.svc.RequestJustice(p.ctx, p.req(mallory), game.RequestJustice{Kind: governance.KindQuestion, Text: "Q" + evil, Message: msg("rq-evil")}))
	p.must(gildedhall.On(p.svc).Grant(p.ctx, p.req(admin), gildedhall.Grant{Player: mallory, Vertebrae: 5, Reason: "R" + evil}))
	p.must(gildedhall.On(p.svc).Grant(p.ctx, p.req(admin), gildedhall.Grant{Player: ada, Vertebrae: 5, Reason: "test"}))
	p.must(trades.On(p.svc).OfferTrade(p.ctx, p.req(mallory), trades.OfferTrade{To: ada,
		Give: economy.Items{Vertebrae: 1}, Take: economy.Items{Vertebrae: 1}, Note: "N" + evil}))

	q := url.QueryEscape(evil)
	for _, tc := range []struct {
		path string
		want []string // texts the page shows, escaped
	}{
		{gamePath("players"), []string{"M" + evil}},
		{gamePath("players", mallory), []string{"M" + evil}},
		{gamePath("proposals"), []string{"T" + evil, "X" + evil}},
		{gamePath("judge"), []string{"Q" + evil}},
		{gamePath("trades"), []string{"N" + evil}},
		{gamePath("log"), []string{"M" + evil}},
		{gamePath("log") + "?kind=" + q + "&player=" + q, []string{evil}},
		{"/tracker/games/hall/nope" + url.PathEscape(evil), nil},
	} {
		code, body, _ := p.get(tc.path)
		if code != 200 && code != 404 {
			t.Errorf("GET %s: %d", tc.path, code)
			continue
		}
		for _, bad := range []string{"<script>alert", "<img src=x", `"'>`} {
			if strings.Contains(body, bad) {
				t.Errorf("GET %s: the page holds the player's %q as markup", tc.path, bad)
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(body, html.EscapeString(w)) {
				t.Errorf("GET %s: the page does not show %q (escaped)", tc.path, w)
			}
		}
	}
}
