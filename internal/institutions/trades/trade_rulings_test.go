package trades_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets/gildedhall"
)

// The trades' rulings (seed 002 Trading, RULINGS P1) in a Gilded Hall game,
// whose records trade the richest goods: Vertebrae, Chips, card copies and
// packs. econ is the Gilded Hall's harness (internal/rulesets/gildedhall),
// with what these tests call.

// econ is one game under test with shorthand for the calls these tests make
// over and over; every call fails the test on an unexpected error.
type econ struct {
	t   *testing.T
	ctx context.Context
	svc *game.Service
	clk *clock.Manual
	n   int
}

func newEcon(t *testing.T, joiners ...string) *econ {
	t.Helper()
	svc, clk := newGame(t, newBolt(t))
	e := &econ{t: t, ctx: context.Background(), svc: svc, clk: clk}
	for _, p := range joiners {
		e.must(e.svc.Join(e.ctx, e.req(p), game.JoinGame{}))
	}
	return e
}

// req is a request with a fresh idempotency key.
func (e *econ) req(actor string) game.Request {
	e.n++
	return req(actor, fmt.Sprintf("k%d", e.n))
}

func (e *econ) must(res *game.Result, err error) *game.Result {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("unexpected refusal: %v", err)
	}
	return res
}

// refused checks that err is the rule refusal code.
func (e *econ) refused(what string, err error, code string) {
	e.t.Helper()
	if got := ruleCode(err); got != code {
		e.t.Fatalf("%s: got %s, want %s", what, got, code)
	}
}

func (e *econ) grant(g gildedhall.Grant) gildedhall.GrantResult {
	e.t.Helper()
	if g.Reason == "" {
		g.Reason = "test setup"
	}
	return decode[gildedhall.GrantResult](e.t, e.must(gildedhall.On(e.svc).Grant(e.ctx, e.req(admin), g)))
}

func (e *econ) buy(who, item string) gildedhall.PurchaseResult {
	e.t.Helper()
	return decode[gildedhall.PurchaseResult](e.t, e.must(gildedhall.On(e.svc).Purchase(e.ctx, e.req(who), gildedhall.Purchase{Item: item})))
}

func (e *econ) offer(from string, o trades.OfferTrade) trades.Trade {
	e.t.Helper()
	return decode[trades.Trade](e.t, e.must(trades.On(e.svc).OfferTrade(e.ctx, e.req(from), o)))
}

func (e *econ) player(id string) gildedhall.PlayerView {
	e.t.Helper()
	v, err := gildedhall.On(e.svc).Player(e.ctx, "hall", id)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func (e *econ) trade(id string) trades.Trade {
	e.t.Helper()
	tr, err := trades.On(e.svc).Trade(e.ctx, "hall", id)
	if err != nil {
		e.t.Fatal(err)
	}
	return tr
}

// at moves the clock to when and runs the scheduler, as the phase-end
// function would.
func (e *econ) at(when time.Time) game.DueReport {
	e.t.Helper()
	e.clk.Set(when)
	rep, err := e.svc.RunDue(e.ctx)
	if err != nil || len(rep.Failed) > 0 {
		e.t.Fatalf("RunDue at %v: %+v %v", when, rep, err)
	}
	return rep
}

// entries reads the whole log.
func (e *econ) entries() []game.Entry {
	e.t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := e.svc.Log(e.ctx, "hall", cursor, 500)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

const (
	giver    = "discord:2"
	receiver = "discord:3"
	third    = "discord:4"
)

// TestTrade_AcceptExecutesAtomically: both sides move in one commit, card
// copies and packs keep their ids.
func TestTrade_AcceptExecutesAtomically(t *testing.T) {
	e := newEcon(t, giver, receiver)
	a := e.grant(gildedhall.Grant{Player: giver, Vertebrae: 10, Cards: []gildedhall.CardGrant{{Name: "King of Hearts", Holo: true}, {Name: "2 of Clubs"}}})
	b := e.grant(gildedhall.Grant{Player: receiver, Chips: 2, Packs: []gildedhall.PackGrant{{Pack: "deck-pack"}}})
	king, pack := a.Cards[0], b.Packs[0]
	tr := e.offer(giver, trades.OfferTrade{To: receiver, Note: "a king for a pack",
		Give: economy.Items{Vertebrae: 4, Cards: []string{king.ID}}, Take: economy.Items{Chips: 1, Packs: []string{pack.ID}}})
	if tr.Status != trades.TradeOpen || !tr.ExpiresAt.Equal(start.Add(7*24*time.Hour)) {
		t.Fatalf("offer: status %s expires %v, want open until 7 days after the offer", tr.Status, tr.ExpiresAt)
	}
	_, err := trades.On(e.svc).AcceptTrade(e.ctx, e.req(giver), tr.ID)
	e.refused("the offerer accepting their own offer", err, "not_your_trade")
	_, err = trades.On(e.svc).AcceptTrade(e.ctx, e.req(third), tr.ID)
	e.refused("a third person accepting", err, "not_your_trade")

	done := decode[trades.Trade](t, e.must(trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)))
	if done.Status != trades.TradeExecuted || done.ClosedBy != receiver {
		t.Fatalf("accepted trade: %+v", done)
	}
	ga, gb := e.player(giver).Inventory, e.player(receiver).Inventory
	if ga.Vertebrae != 6 || ga.Chips != 1 || len(ga.Packs) != 1 || ga.Packs[0] != pack || len(ga.Cards) != 1 || ga.Cards[0].Name != "2 of Clubs" {
		t.Fatalf("offerer after the trade: %+v", ga)
	}
	if gb.Vertebrae != 4 || gb.Chips != 1 || len(gb.Packs) != 0 || len(gb.Cards) != 1 || gb.Cards[0] != king {
		t.Fatalf("receiver after the trade: %+v", gb)
	}
	_, err = trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)
	e.refused("accepting twice", err, "trade_closed")
}

// TestTrade_AcceptAfterItemsMovedAway: if either side no longer holds
// everything at acceptance, the trade is refused trade_items_missing and
// nothing moves.
func TestTrade_AcceptAfterItemsMovedAway(t *testing.T) {
	for _, tc := range []struct {
		name    string
		missing string
		move    func(e *econ, card string)
	}{
		{"offerer traded the card away", "card", func(e *econ, card string) {
			tr := e.offer(giver, trades.OfferTrade{To: third, Give: economy.Items{Cards: []string{card}}})
			e.must(trades.On(e.svc).AcceptTrade(e.ctx, e.req(third), tr.ID))
		}},
		{"receiver spent the vertebrae", "Vertebrae", func(e *econ, _ string) { e.buy(receiver, "random-card") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, giver, receiver, third)
			card := e.grant(gildedhall.Grant{Player: giver, Cards: []gildedhall.CardGrant{{Name: "Queen of Spades"}}}).Cards[0].ID
			e.grant(gildedhall.Grant{Player: receiver, Vertebrae: 8})
			tr := e.offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Cards: []string{card}}, Take: economy.Items{Vertebrae: 8}})
			tc.move(e, card)
			before := map[string]gildedhall.PlayerView{giver: e.player(giver), receiver: e.player(receiver), third: e.player(third)}
			_, err := trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)
			e.refused("accept", err, "trade_items_missing")
			if !strings.Contains(err.Error(), tc.missing) {
				t.Errorf("the refusal should say what is missing (%s): %v", tc.missing, err)
			}
			for id, v := range before {
				if after := e.player(id); !sameInventory(after, v) {
					t.Fatalf("%s changed by a refused trade: %+v -> %+v", id, v.Inventory, after.Inventory)
				}
			}
			if st := e.trade(tr.ID).Status; st != trades.TradeOpen {
				t.Fatalf("a refused acceptance closed the trade: %s", st)
			}
		})
	}
}

func sameInventory(a, b gildedhall.PlayerView) bool {
	ja, _ := json.Marshal(a.Inventory)
	jb, _ := json.Marshal(b.Inventory)
	return string(ja) == string(jb)
}

// TestTrade_WithdrawByEitherParty: the maker withdraws or the receiver
// declines; nobody else can; a closed trade cannot be accepted.
func TestTrade_WithdrawByEitherParty(t *testing.T) {
	for _, who := range []string{giver, receiver} {
		t.Run(who, func(t *testing.T) {
			e := newEcon(t, giver, receiver, third)
			e.grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
			tr := e.offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
			_, err := trades.On(e.svc).WithdrawTrade(e.ctx, e.req(third), tr.ID)
			e.refused("a third player withdrawing", err, "not_your_trade")
			w := decode[trades.Trade](t, e.must(trades.On(e.svc).WithdrawTrade(e.ctx, e.req(who), tr.ID)))
			if w.Status != trades.TradeWithdrawn || w.ClosedBy != who {
				t.Fatalf("withdrawn trade: %+v", w)
			}
			_, err = trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)
			e.refused("accepting a withdrawn trade", err, "trade_closed")
			_, err = trades.On(e.svc).WithdrawTrade(e.ctx, e.req(who), tr.ID)
			e.refused("withdrawing twice", err, "trade_closed")
			if v := e.player(giver); v.Inventory.Vertebrae != 3 {
				t.Fatalf("a withdrawn trade moved items: %+v", v.Inventory)
			}
		})
	}
}

// TestTrade_OfferRefusals: no trade with oneself or a non-player, with
// a malformed side, or for items a side does not hold.
func TestTrade_OfferRefusals(t *testing.T) {
	e := newEcon(t, giver, receiver)
	e.grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
	for _, tc := range []struct {
		name string
		o    trades.OfferTrade
		code string
	}{
		{"with oneself", trades.OfferTrade{To: giver, Give: economy.Items{Vertebrae: 1}}, "self_trade"},
		{"with a non-player", trades.OfferTrade{To: "discord:99", Give: economy.Items{Vertebrae: 1}}, "not_a_player"},
		{"nothing on either side", trades.OfferTrade{To: receiver}, "invalid_trade"},
		{"a negative amount", trades.OfferTrade{To: receiver, Take: economy.Items{Vertebrae: -5}}, "invalid_trade"},
		{"a card named twice", trades.OfferTrade{To: receiver, Give: economy.Items{Cards: []string{"x.1", "x.1"}}}, "invalid_trade"},
		{"more than the offerer holds", trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 4}}, "trade_items_missing"},
		{"a card the receiver lacks", trades.OfferTrade{To: receiver, Take: economy.Items{Cards: []string{"x.1"}}}, "trade_items_missing"},
	} {
		_, err := trades.On(e.svc).OfferTrade(e.ctx, e.req(giver), tc.o)
		e.refused(tc.name, err, tc.code)
	}
	if trs, _ := trades.On(e.svc).Trades(e.ctx, "hall", trades.TradeFilter{}); len(trs) != 0 {
		t.Fatalf("refused offers made trades: %+v", trs)
	}
}

// TestTrade_ExpiresAfterSevenDays: both consents within 7 days of each
// other; the timer closes the offer as of its expiry moment even when the
// scheduler runs late, and a second run does nothing.
func TestTrade_ExpiresAfterSevenDays(t *testing.T) {
	t.Run("accepted just before expiry", func(t *testing.T) {
		e := newEcon(t, giver, receiver)
		e.grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
		tr := e.offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
		e.clk.Set(tr.ExpiresAt.Add(-time.Second))
		if done := decode[trades.Trade](t, e.must(trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID))); done.Status != trades.TradeExecuted {
			t.Fatalf("status %s", done.Status)
		}
	})
	t.Run("expired, late and duplicate runs", func(t *testing.T) {
		e := newEcon(t, giver, receiver)
		e.grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
		tr := e.offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
		if want := start.Add(7 * 24 * time.Hour); !tr.ExpiresAt.Equal(want) {
			t.Fatalf("expires %v, want %v", tr.ExpiresAt, want)
		}
		if rep := e.at(tr.ExpiresAt.Add(-time.Second)); len(rep.Expired) != 0 {
			t.Fatalf("expired early: %+v", rep.Expired)
		}
		e.clk.Set(tr.ExpiresAt)
		_, err := trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)
		e.refused("accepting at the expiry moment, before the scheduler ran", err, "trade_expired")
		if v := e.trade(tr.ID); v.Status != trades.TradeExpired {
			t.Fatalf("reads show a trade past its expiry as expired: %s", v.Status)
		}

		rep := e.at(tr.ExpiresAt.Add(5 * time.Hour)) // the scheduler runs late
		if want := []string{"hall/" + tr.ID}; !slices.Equal(rep.Expired, want) {
			t.Fatalf("DueReport.Expired %v, want %v", rep.Expired, want)
		}
		got := e.trade(tr.ID)
		if got.Status != trades.TradeExpired || !got.ClosedAt.Equal(tr.ExpiresAt) || got.ClosedBy != game.SchedulerActor {
			t.Fatalf("expired trade: %+v, want closed at %v by the scheduler", got, tr.ExpiresAt)
		}
		var at []time.Time
		for _, en := range e.entries() {
			if en.Command == "trade-expire" {
				at = append(at, en.At)
			}
		}
		if len(at) != 1 || !at[0].Equal(tr.ExpiresAt) {
			t.Fatalf("trade-expire log entries at %v, want one at %v", at, tr.ExpiresAt)
		}
		logged := len(e.entries())
		if rep := e.at(tr.ExpiresAt.Add(6 * time.Hour)); len(rep.Expired) != 0 || len(rep.Transitions) != 0 {
			t.Fatalf("a duplicate run did something: %+v", rep)
		}
		if n := len(e.entries()); n != logged {
			t.Fatalf("a duplicate run wrote %d entries", n-logged)
		}
		_, err = trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), tr.ID)
		e.refused("accepting an expired trade", err, "trade_closed")
		if v := e.player(giver); v.Inventory.Vertebrae != 3 {
			t.Fatalf("an expired trade moved items: %+v", v.Inventory)
		}
	})
}

// TestP1_LeavingWithdrawsOpenTrades: a departure withdraws the trades the
// leaver made or was offered; other trades stay open.
func TestP1_LeavingWithdrawsOpenTrades(t *testing.T) {
	e := newEcon(t, giver, receiver, third)
	for _, p := range []string{giver, receiver, third} {
		e.grant(gildedhall.Grant{Player: p, Vertebrae: 5})
	}
	made := e.offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 1}})
	offered := e.offer(third, trades.OfferTrade{To: giver, Give: economy.Items{Vertebrae: 1}})
	other := e.offer(receiver, trades.OfferTrade{To: third, Give: economy.Items{Vertebrae: 1}})
	left := decode[game.LeaveResult](t, e.must(e.svc.Leave(e.ctx, e.req(giver))))
	slices.Sort(left.WithdrawnTrades)
	want := []string{made.ID, offered.ID}
	slices.Sort(want)
	if !slices.Equal(left.WithdrawnTrades, want) {
		t.Fatalf("withdrawn %v, want %v", left.WithdrawnTrades, want)
	}
	for _, c := range []struct {
		id, status string
	}{{made.ID, trades.TradeWithdrawn}, {offered.ID, trades.TradeWithdrawn}, {other.ID, trades.TradeOpen}} {
		if tr := e.trade(c.id); tr.Status != c.status || (c.status == trades.TradeWithdrawn && tr.ClosedBy != giver) {
			t.Errorf("trade %s: %s closed by %q, want %s", c.id, tr.Status, tr.ClosedBy, c.status)
		}
	}
	_, err := trades.On(e.svc).AcceptTrade(e.ctx, e.req(receiver), made.ID)
	e.refused("accepting a trade withdrawn by a departure", err, "trade_closed")
}
