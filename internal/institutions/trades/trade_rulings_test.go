package trades_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets/gildedhall"
)

// The trades' rulings (seed 002 Trading, RULINGS P1) in a Gilded Hall game,
// whose records trade the richest goods: Vertebrae, Chips, card copies and
// packs. econ is that game with the calls these tests make (the shared
// harness's, internal/gametest).
type econ = gametest.Econ

var newEcon, sameInventory = gametest.NewEcon, gametest.SameInventory

const (
	giver    = "discord:2"
	receiver = "discord:3"
	third    = "discord:4"
)

// TestTrade_AcceptExecutesAtomically: both sides move in one commit, card
// copies and packs keep their ids.
func TestTrade_AcceptExecutesAtomically(t *testing.T) {
	e := newEcon(t, giver, receiver)
	a := e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 10, Cards: []gildedhall.CardGrant{{Name: "King of Hearts", Holo: true}, {Name: "2 of Clubs"}}})
	b := e.Grant(gildedhall.Grant{Player: receiver, Chips: 2, Packs: []gildedhall.PackGrant{{Pack: "deck-pack"}}})
	king, pack := a.Cards[0], b.Packs[0]
	tr := e.Offer(giver, trades.OfferTrade{To: receiver, Note: "a king for a pack",
		Give: economy.Items{Vertebrae: 4, Cards: []string{king.ID}}, Take: economy.Items{Chips: 1, Packs: []string{pack.ID}}})
	if tr.Status != trades.TradeOpen || !tr.ExpiresAt.Equal(gametest.Start.Add(7*24*time.Hour)) {
		t.Fatalf("offer: status %s expires %v, want open until 7 days after the offer", tr.Status, tr.ExpiresAt)
	}
	_, err := trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(giver), tr.ID)
	e.Refused("the offerer accepting their own offer", err, "not_your_trade")
	_, err = trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(third), tr.ID)
	e.Refused("a third person accepting", err, "not_your_trade")

	done := gametest.Decode[trades.Trade](t, e.Must(trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)))
	if done.Status != trades.TradeExecuted || done.ClosedBy != receiver {
		t.Fatalf("accepted trade: %+v", done)
	}
	ga, gb := e.Player(giver).Inventory, e.Player(receiver).Inventory
	if ga.Vertebrae != 6 || ga.Chips != 1 || len(ga.Packs) != 1 || ga.Packs[0] != pack || len(ga.Cards) != 1 || ga.Cards[0].Name != "2 of Clubs" {
		t.Fatalf("offerer after the trade: %+v", ga)
	}
	if gb.Vertebrae != 4 || gb.Chips != 1 || len(gb.Packs) != 0 || len(gb.Cards) != 1 || gb.Cards[0] != king {
		t.Fatalf("receiver after the trade: %+v", gb)
	}
	_, err = trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)
	e.Refused("accepting twice", err, "trade_closed")
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
			tr := e.Offer(giver, trades.OfferTrade{To: third, Give: economy.Items{Cards: []string{card}}})
			e.Must(trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(third), tr.ID))
		}},
		{"receiver spent the vertebrae", "Vertebrae", func(e *econ, _ string) { e.Buy(receiver, "random-card") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, giver, receiver, third)
			card := e.Grant(gildedhall.Grant{Player: giver, Cards: []gildedhall.CardGrant{{Name: "Queen of Spades"}}}).Cards[0].ID
			e.Grant(gildedhall.Grant{Player: receiver, Vertebrae: 8})
			tr := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Cards: []string{card}}, Take: economy.Items{Vertebrae: 8}})
			tc.move(e, card)
			before := map[string]gildedhall.PlayerView{giver: e.Player(giver), receiver: e.Player(receiver), third: e.Player(third)}
			_, err := trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)
			e.Refused("accept", err, "trade_items_missing")
			if !strings.Contains(err.Error(), tc.missing) {
				t.Errorf("the refusal should say what is missing (%s): %v", tc.missing, err)
			}
			for id, v := range before {
				if after := e.Player(id); !sameInventory(after, v) {
					t.Fatalf("%s changed by a refused trade: %+v -> %+v", id, v.Inventory, after.Inventory)
				}
			}
			if st := e.Trade(tr.ID).Status; st != trades.TradeOpen {
				t.Fatalf("a refused acceptance closed the trade: %s", st)
			}
		})
	}
}

// TestTrade_WithdrawByEitherParty: the maker withdraws or the receiver
// declines; nobody else can; a closed trade cannot be accepted.
func TestTrade_WithdrawByEitherParty(t *testing.T) {
	for _, who := range []string{giver, receiver} {
		t.Run(who, func(t *testing.T) {
			e := newEcon(t, giver, receiver, third)
			e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
			tr := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
			_, err := trades.On(e.Svc).WithdrawTrade(e.Ctx, e.Req(third), tr.ID)
			e.Refused("a third player withdrawing", err, "not_your_trade")
			w := gametest.Decode[trades.Trade](t, e.Must(trades.On(e.Svc).WithdrawTrade(e.Ctx, e.Req(who), tr.ID)))
			if w.Status != trades.TradeWithdrawn || w.ClosedBy != who {
				t.Fatalf("withdrawn trade: %+v", w)
			}
			_, err = trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)
			e.Refused("accepting a withdrawn trade", err, "trade_closed")
			_, err = trades.On(e.Svc).WithdrawTrade(e.Ctx, e.Req(who), tr.ID)
			e.Refused("withdrawing twice", err, "trade_closed")
			if v := e.Player(giver); v.Inventory.Vertebrae != 3 {
				t.Fatalf("a withdrawn trade moved items: %+v", v.Inventory)
			}
		})
	}
}

// TestTrade_OfferRefusals: no trade with oneself or a non-player, with
// a malformed side, or for items a side does not hold.
func TestTrade_OfferRefusals(t *testing.T) {
	e := newEcon(t, giver, receiver)
	e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
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
		_, err := trades.On(e.Svc).OfferTrade(e.Ctx, e.Req(giver), tc.o)
		e.Refused(tc.name, err, tc.code)
	}
	if trs, _ := trades.On(e.Svc).Trades(e.Ctx, "hall", trades.TradeFilter{}); len(trs) != 0 {
		t.Fatalf("refused offers made trades: %+v", trs)
	}
}

// TestTrade_ExpiresAfterSevenDays: both consents within 7 days of each
// other; the timer closes the offer as of its expiry moment even when the
// scheduler runs late, and a second run does nothing.
func TestTrade_ExpiresAfterSevenDays(t *testing.T) {
	t.Run("accepted just before expiry", func(t *testing.T) {
		e := newEcon(t, giver, receiver)
		e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
		tr := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
		e.Clk.Set(tr.ExpiresAt.Add(-time.Second))
		if done := gametest.Decode[trades.Trade](t, e.Must(trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID))); done.Status != trades.TradeExecuted {
			t.Fatalf("status %s", done.Status)
		}
	})
	t.Run("expired, late and duplicate runs", func(t *testing.T) {
		e := newEcon(t, giver, receiver)
		e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 3})
		tr := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 3}})
		if want := gametest.Start.Add(7 * 24 * time.Hour); !tr.ExpiresAt.Equal(want) {
			t.Fatalf("expires %v, want %v", tr.ExpiresAt, want)
		}
		if rep := e.At(tr.ExpiresAt.Add(-time.Second)); len(rep.Expired) != 0 {
			t.Fatalf("expired early: %+v", rep.Expired)
		}
		e.Clk.Set(tr.ExpiresAt)
		_, err := trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)
		e.Refused("accepting at the expiry moment, before the scheduler ran", err, "trade_expired")
		if v := e.Trade(tr.ID); v.Status != trades.TradeExpired {
			t.Fatalf("reads show a trade past its expiry as expired: %s", v.Status)
		}

		rep := e.At(tr.ExpiresAt.Add(5 * time.Hour)) // the scheduler runs late
		if want := []string{"hall/" + tr.ID}; !slices.Equal(rep.Expired, want) {
			t.Fatalf("DueReport.Expired %v, want %v", rep.Expired, want)
		}
		got := e.Trade(tr.ID)
		if got.Status != trades.TradeExpired || !got.ClosedAt.Equal(tr.ExpiresAt) || got.ClosedBy != game.SchedulerActor {
			t.Fatalf("expired trade: %+v, want closed at %v by the scheduler", got, tr.ExpiresAt)
		}
		var at []time.Time
		for _, en := range e.Entries() {
			if en.Command == "trade-expire" {
				at = append(at, en.At)
			}
		}
		if len(at) != 1 || !at[0].Equal(tr.ExpiresAt) {
			t.Fatalf("trade-expire log entries at %v, want one at %v", at, tr.ExpiresAt)
		}
		logged := len(e.Entries())
		if rep := e.At(tr.ExpiresAt.Add(6 * time.Hour)); len(rep.Expired) != 0 || len(rep.Transitions) != 0 {
			t.Fatalf("a duplicate run did something: %+v", rep)
		}
		if n := len(e.Entries()); n != logged {
			t.Fatalf("a duplicate run wrote %d entries", n-logged)
		}
		_, err = trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID)
		e.Refused("accepting an expired trade", err, "trade_closed")
		if v := e.Player(giver); v.Inventory.Vertebrae != 3 {
			t.Fatalf("an expired trade moved items: %+v", v.Inventory)
		}
	})
}

// TestP1_LeavingWithdrawsOpenTrades: a departure withdraws the trades the
// leaver made or was offered; other trades stay open.
func TestP1_LeavingWithdrawsOpenTrades(t *testing.T) {
	e := newEcon(t, giver, receiver, third)
	for _, p := range []string{giver, receiver, third} {
		e.Grant(gildedhall.Grant{Player: p, Vertebrae: 5})
	}
	made := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Vertebrae: 1}})
	offered := e.Offer(third, trades.OfferTrade{To: giver, Give: economy.Items{Vertebrae: 1}})
	other := e.Offer(receiver, trades.OfferTrade{To: third, Give: economy.Items{Vertebrae: 1}})
	left := gametest.Decode[game.LeaveResult](t, e.Must(e.Svc.Leave(e.Ctx, e.Req(giver))))
	slices.Sort(left.WithdrawnTrades)
	want := []string{made.ID, offered.ID}
	slices.Sort(want)
	if !slices.Equal(left.WithdrawnTrades, want) {
		t.Fatalf("withdrawn %v, want %v", left.WithdrawnTrades, want)
	}
	for _, c := range []struct {
		id, status string
	}{{made.ID, trades.TradeWithdrawn}, {offered.ID, trades.TradeWithdrawn}, {other.ID, trades.TradeOpen}} {
		if tr := e.Trade(c.id); tr.Status != c.status || (c.status == trades.TradeWithdrawn && tr.ClosedBy != giver) {
			t.Errorf("trade %s: %s closed by %q, want %s", c.id, tr.Status, tr.ClosedBy, c.status)
		}
	}
	_, err := trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), made.ID)
	e.Refused("accepting a trade withdrawn by a departure", err, "trade_closed")
}
