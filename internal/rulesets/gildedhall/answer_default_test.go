package gildedhall_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// A trade-accept or trade-withdraw that names no trade means the actor's
// only open trade that fits (offered to them, for an accept), as every
// edge runs it by name (its declaration's default); with none or several
// it is refused, the candidates named, and nothing changes.
func TestTradeAcceptWithoutAnIDTakesTheOnlyOpenTrade(t *testing.T) {
	h := newHall(t)
	ctx := context.Background()
	ada, bob, cy := "discord:2", "discord:3", "discord:4"
	for _, p := range []string{ada, bob, cy} {
		if _, err := h.svc.Join(ctx, h.req(p), game.JoinGame{Name: "Player " + p[len("discord:"):]}); err != nil {
			t.Fatal(err)
		}
		if _, err := gildedhall.On(h.svc).Grant(ctx, h.req("discord:1"), gildedhall.Grant{Player: p, Vertebrae: 10, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name, actor string, payload string) (trades.Trade, error) {
		t.Helper()
		c, ok := rulesets.Registry().CommandNamed(name)
		if !ok {
			t.Fatalf("no command %s", name)
		}
		p, err := c.Call.PayloadOf([]byte(payload))
		if err != nil {
			t.Fatalf("%s %s: %v", name, payload, err)
		}
		res, err := c.Call.Run(ctx, h.svc, h.req(actor), p)
		var tr trades.Trade
		if err == nil {
			err = json.Unmarshal(res.Body, &tr)
		}
		return tr, err
	}
	code := func(err error) string {
		if re, ok := err.(*rules.Error); ok {
			return re.Code
		}
		return ""
	}
	offer := func(from, to string) trades.Trade {
		t.Helper()
		res, err := trades.On(h.svc).OfferTrade(ctx, h.req(from), trades.OfferTrade{To: to, Give: economy.Items{Vertebrae: 1}})
		if err != nil {
			t.Fatal(err)
		}
		var tr trades.Trade
		if err := json.Unmarshal(res.Body, &tr); err != nil {
			t.Fatal(err)
		}
		return tr
	}

	if _, err := run("trade-accept", bob, `{}`); code(err) != "trade_not_found" || !strings.Contains(err.Error(), "No open trade is offered to you") {
		t.Fatalf("an accept with nothing offered: %v", err)
	}
	first := offer(ada, bob)
	// Ada made it: it is not hers to accept, but hers to withdraw.
	if _, err := run("trade-accept", ada, `{}`); code(err) != "trade_not_found" {
		t.Errorf("Ada accepting with only her own offer open: %v, want trade_not_found", err)
	}
	second := offer(cy, bob)
	_, err := run("trade-accept", bob, `{}`)
	if code(err) != "ambiguous_trade" || !strings.Contains(err.Error(), first.ID) || !strings.Contains(err.Error(), second.ID) {
		t.Fatalf("an accept with two offers open: %v, want ambiguous_trade naming %s and %s", err, first.ID, second.ID)
	}
	if open, _ := trades.On(h.svc).Trades(ctx, "hall", trades.TradeFilter{Status: trades.TradeOpen}); len(open) != 2 {
		t.Fatalf("a refused accept changed the trades: %d open", len(open))
	}
	if tr, err := run("trade-withdraw", cy, `{}`); err != nil || tr.ID != second.ID || tr.Status != trades.TradeWithdrawn {
		t.Fatalf("Cy withdrawing her only open trade: %+v %v", tr, err)
	}
	tr, err := run("trade-accept", bob, `{}`)
	if err != nil || tr.ID != first.ID || tr.Status != trades.TradeExecuted {
		t.Fatalf("Bob accepting his only offer: %+v %v", tr, err)
	}
	// Named, it is as before.
	third := offer(bob, ada)
	if tr, err := run("trade-withdraw", ada, `{"trade":"`+third.ID+`"}`); err != nil || tr.Status != trades.TradeWithdrawn || !slices.Contains([]string{tr.From, tr.To}, ada) {
		t.Fatalf("Ada declining trade %s by id: %+v %v", third.ID, tr, err)
	}
}

// A duel's answer that names no match means the only duel waiting for the
// actor's answer (one another player requested, for an accept); with none
// it is refused.
func TestDuelAnswerWithoutAMatchTakesTheOnlyDuelWaiting(t *testing.T) {
	h := newHall(t)
	ctx := context.Background()
	ada, bob := "discord:2", "discord:3"
	for _, p := range []string{ada, bob} {
		if _, err := h.svc.Join(ctx, h.req(p), game.JoinGame{Name: "Player " + p[len("discord:"):]}); err != nil {
			t.Fatal(err)
		}
		g := gildedhall.Grant{Player: p, Reason: "test"}
		for _, c := range []string{"2 of Hearts", "3 of Hearts", "4 of Hearts", "5 of Hearts", "6 of Hearts"} {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
		}
		if _, err := gildedhall.On(h.svc).Grant(ctx, h.req("discord:1"), g); err != nil {
			t.Fatal(err)
		}
	}
	answer := func(name, actor string) (gildedhall.MatchView, error) {
		c, _ := rulesets.Registry().CommandNamed(name)
		p, err := c.Call.PayloadOf([]byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		var v gildedhall.MatchView
		res, err := c.Call.Run(ctx, h.svc, h.req(actor), p)
		if err == nil {
			err = json.Unmarshal(res.Body, &v)
		}
		return v, err
	}
	if _, err := answer("duel-accept", bob); err == nil || !strings.Contains(err.Error(), "No duel is waiting for your answer") {
		t.Fatalf("an accept with no duel: %v", err)
	}
	res, err := gildedhall.On(h.svc).RequestDuel(ctx, h.req(ada), gildedhall.RequestDuel{Invitees: []string{bob}})
	if err != nil {
		t.Fatal(err)
	}
	var d gildedhall.MatchView
	if err := json.Unmarshal(res.Body, &d); err != nil {
		t.Fatal(err)
	}
	if _, err := answer("duel-accept", ada); err == nil {
		t.Error("Ada accepted her own request without naming it")
	}
	if v, err := answer("duel-accept", bob); err != nil || v.ID != d.ID || v.Status != gildedhall.MatchPlaying {
		t.Fatalf("Bob accepting the only duel asked of him: %+v %v", v, err)
	}
}
