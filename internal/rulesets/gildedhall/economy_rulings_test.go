package gildedhall_test

// Game-level tests of the economy rulings (RULINGS C4-C7, P1-P3) against the
// bolt store and a manual clock: what a player and an operator see through
// the service, including the log.

import (
	"encoding/json"
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

// Moments in the calendar of RULINGS T1, from the game's start (Monday
// 2026-11-30 12:00, Phase I of 2026-W49).
var (
	w49p2 = time.Date(2026, 12, 4, 1, 0, 0, 0, time.UTC)  // Friday: Phase II of W49
	w50p1 = time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC)  // Monday: Phase I of W50
	w50p2 = time.Date(2026, 12, 11, 1, 0, 0, 0, time.UTC) // Friday: Phase II of W50
)

// econ is the shared harness's Gilded Hall game under test, with
// shorthand for the calls these tests make over and over.
type econ = gametest.Econ

var (
	newEcon       = gametest.NewEcon
	sameInventory = gametest.SameInventory
)

func eventData[T any](t *testing.T, ev game.Event) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(ev.Data, &v); err != nil {
		t.Fatalf("decoding %s event %s: %v", ev.Type, ev.Data, err)
	}
	return v
}

const (
	giver    = "discord:2"
	receiver = "discord:3"
	third    = "discord:4"
)

// TestC4_GiftToInactiveReceiverWithThreeCards is acceptance 1's case: the
// receiver joined in an earlier phase, did not act in the previous phase, and
// holds 3 cards, so the gift is 1 + 2 (inactive) + 1 (fewer than 5) = 4
// cards. The receiver's first action in that phase, whichever it is, gives
// the giver exactly 1 card; their second action gives nothing more; and an
// action only in the next phase gives the giver nothing.
func TestC4_GiftToInactiveReceiverWithThreeCards(t *testing.T) {
	for _, tc := range []struct {
		name      string
		samePhase bool
		// first is the receiver's first action; it returns how many cards it
		// gave the giver directly (a gift back), apart from the return card.
		first func(e *econ) int
	}{
		{"first action a purchase", true, func(e *econ) int { e.Buy(receiver, "random-card"); return 0 }},
		{"first action opening a pack", true, func(e *econ) int {
			e.Must(gildedhall.On(e.Svc).Open(e.Ctx, e.Req(receiver), gildedhall.OpenPack{Pack: "handy-pack"}))
			return 0
		}},
		{"first action a gift back to the giver", true, func(e *econ) int { return len(e.Gift(receiver, giver).Cards) }},
		{"first action a trade offer (a command without draws of its own)", true, func(e *econ) int {
			e.Offer(receiver, trades.OfferTrade{To: giver, Give: economy.Items{Vertebrae: 1}})
			return 0
		}},
		{"acts only in the next phase", false, func(e *econ) int { e.Buy(receiver, "random-card"); return 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, giver, receiver)
			e.Grant(gildedhall.Grant{Player: receiver, Vertebrae: 10, Packs: []gildedhall.PackGrant{{Pack: "handy-pack"}},
				Cards: []gildedhall.CardGrant{{Name: "King of Hearts"}, {Name: "Red Joker", Holo: true}, {Name: "7 of Clubs"}}})
			e.At(w50p1) // W49 Phase II passed without an action by the receiver
			if v := e.Player(receiver); v.Active || v.DeckSize != 3 {
				t.Fatalf("before the gift: receiver active=%v with %d cards, want inactive with 3", v.Active, v.DeckSize)
			}

			g := e.Gift(giver, receiver)
			if len(g.Cards) != 4 || !g.Inactive || !g.SmallDeck {
				t.Fatalf("gift to an inactive receiver with 3 cards: %d cards (inactive=%v small=%v), want 1+2+1 = 4",
					len(g.Cards), g.Inactive, g.SmallDeck)
			}
			if v := e.Player(receiver); v.DeckSize != 7 {
				t.Fatalf("receiver holds %d cards after the gift, want 7", v.DeckSize)
			}
			before := e.Player(giver).DeckSize
			if before != 0 {
				t.Fatalf("giver holds %d cards before the receiver acts, want 0", before)
			}

			if !tc.samePhase {
				e.At(w50p2)
			}
			direct := tc.first(e)
			want := 0
			if tc.samePhase {
				want = 1
			}
			if got := e.Player(giver).DeckSize - before - direct; got != want {
				t.Fatalf("after the receiver's first action the giver got %d return cards, want %d", got, want)
			}
			e.Buy(receiver, "random-card") // the second action
			if got := e.Player(giver).DeckSize - before - direct; got != want {
				t.Fatalf("after the receiver's second action the giver has %d return cards, want still %d", got, want)
			}
			returned := e.Events("gift_returned")
			if len(returned) != want {
				t.Fatalf("%d gift_returned log events, want %d", len(returned), want)
			}
			if want == 1 {
				d := eventData[struct {
					Receiver string `json:"receiver"`
					Cards    []struct {
						ID string `json:"id"`
					} `json:"cards"`
				}](t, returned[0])
				if returned[0].Player != giver || d.Receiver != receiver || len(d.Cards) != 1 {
					t.Fatalf("gift_returned event: player %s, data %s; want the giver, the receiver and 1 card", returned[0].Player, returned[0].Data)
				}
			}
		})
	}
}

// TestC4_EachGiftToAnInactiveReceiverReturnsOneCard: two givers gift the
// same inactive receiver in one phase; the receiver's first action gives each
// giver their card, once.
func TestC4_EachGiftToAnInactiveReceiverReturnsOneCard(t *testing.T) {
	e := newEcon(t, giver, receiver, third)
	e.Grant(gildedhall.Grant{Player: receiver, Vertebrae: 10, Cards: []gildedhall.CardGrant{{Name: "Ace of Hearts"}}})
	e.At(w50p1)
	a, b := e.Gift(giver, receiver), e.Gift(third, receiver)
	if !a.Inactive || !b.Inactive || len(a.Cards) != 4 || len(b.Cards) != 3 {
		t.Fatalf("gifts: %d cards (inactive=%v), %d cards (inactive=%v); want 4 (1 card held) then 3 (5 held), both inactive",
			len(a.Cards), a.Inactive, len(b.Cards), b.Inactive)
	}
	e.Buy(receiver, "random-card")
	e.Buy(receiver, "random-card")
	if g, h := e.Player(giver).DeckSize, e.Player(third).DeckSize; g != 1 || h != 1 {
		t.Fatalf("each giver gets 1 card: got %d and %d", g, h)
	}
}

// TestC4_GiftSizeByReceiverState: +2 only for an inactive receiver, +1 only
// for a receiver holding fewer than 5 cards before the gift; only a gift to
// an inactive receiver owes the giver a card.
func TestC4_GiftSizeByReceiverState(t *testing.T) {
	for _, tc := range []struct {
		name     string
		inactive bool
		cards    int
		want     int
	}{
		{"active, 5 cards", false, 5, 1},
		{"active, 4 cards", false, 4, 2},
		{"inactive, 5 cards", true, 5, 3},
		{"inactive, 0 cards", true, 0, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, giver)
			if tc.inactive {
				e.Must(e.Svc.Join(e.Ctx, e.Req(receiver), game.JoinGame{}))
				e.At(w50p1)
			} else {
				e.At(w50p1)
				e.Must(e.Svc.Join(e.Ctx, e.Req(receiver), game.JoinGame{})) // active in the phase they join
			}
			e.Grant(gildedhall.Grant{Player: receiver, Vertebrae: 5})
			if tc.cards > 0 {
				e.Grant(gildedhall.Grant{Player: receiver, Cards: []gildedhall.CardGrant{{Name: "2 of Hearts", Count: tc.cards}}})
			}
			g := e.Gift(giver, receiver)
			if len(g.Cards) != tc.want || g.Inactive != tc.inactive {
				t.Fatalf("gift: %d cards (inactive=%v), want %d (inactive=%v)", len(g.Cards), g.Inactive, tc.want, tc.inactive)
			}
			e.Buy(receiver, "random-card")
			returned := 0
			if tc.inactive {
				returned = 1
			}
			if got := e.Player(giver).DeckSize; got != returned {
				t.Fatalf("after the receiver acts the giver holds %d cards, want %d", got, returned)
			}
		})
	}
}

// TestC4_OneGiftPerPhaseToAnotherPlayer: a second gift in the phase is
// refused already_gifted, the allowance resets with the phase, and gifts to
// oneself or to a non-player are refused; refusals change nothing.
func TestC4_OneGiftPerPhaseToAnotherPlayer(t *testing.T) {
	e := newEcon(t, giver, receiver, third, "discord:5")
	e.Gift(giver, receiver)
	if e.Player(giver).CanGift || !e.Player(receiver).CanGift {
		t.Fatal("can_gift: false for the giver after their gift, true for the others")
	}
	e.Must(e.Svc.Leave(e.Ctx, e.Req("discord:5")))
	logged := len(e.Entries())
	for _, tc := range []struct {
		name, from, to, code string
	}{
		{"second gift in the phase", giver, third, "already_gifted"},
		{"second gift to the same receiver", giver, receiver, "already_gifted"},
		{"gift to oneself", receiver, receiver, "self_gift"},
		{"gift to someone who never joined", receiver, "discord:99", "not_a_player"},
		{"gift to a player who left", receiver, "discord:5", "not_a_player"},
		{"gift by a non-player", "discord:99", receiver, "not_a_player"},
	} {
		_, err := gildedhall.On(e.Svc).Gift(e.Ctx, e.Req(tc.from), gildedhall.Gift{To: tc.to})
		e.Refused(tc.name, err, tc.code)
		if tc.code == "already_gifted" && !strings.Contains(err.Error(), receiver) {
			t.Errorf("%s: the refusal should name the earlier receiver: %v", tc.name, err)
		}
	}
	if n := len(e.Entries()); n != logged {
		t.Fatalf("refused gifts wrote %d log entries", n-logged)
	}
	e.At(w49p2)
	if !e.Player(giver).CanGift {
		t.Fatal("the gift allowance resets when the phase ends")
	}
	if g := e.Gift(giver, third); len(g.Cards) == 0 {
		t.Fatal("the next phase's gift gave nothing")
	}
}

// TestP2_WhichCommandsCountAsActions: each command is made by a player in
// Phase II of W49 (who was active there, having joined in Phase I, and did
// nothing else in it); whether they are active in Phase I of W50 says
// whether the command was an action.
func TestP2_WhichCommandsCountAsActions(t *testing.T) {
	const subject, other = "discord:2", "discord:3"
	for _, tc := range []struct {
		name   string
		action bool
		run    func(e *econ)
	}{
		{"purchase", true, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: subject, Vertebrae: 5})
			e.Buy(subject, "random-card")
		}},
		{"open a pack", true, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: subject, Packs: []gildedhall.PackGrant{{Pack: "deck-pack"}}})
			e.Must(gildedhall.On(e.Svc).Open(e.Ctx, e.Req(subject), gildedhall.OpenPack{Pack: "deck-pack"}))
		}},
		{"gift", true, func(e *econ) { e.Gift(subject, other) }},
		{"trade offer", true, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: subject, Vertebrae: 1})
			e.Offer(subject, trades.OfferTrade{To: other, Give: economy.Items{Vertebrae: 1}})
		}},
		{"trade accept", true, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: other, Vertebrae: 1})
			tr := e.Offer(other, trades.OfferTrade{To: subject, Give: economy.Items{Vertebrae: 1}})
			e.Must(trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(subject), tr.ID))
		}},
		{"trade withdraw (declining an offer)", true, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: other, Vertebrae: 1})
			tr := e.Offer(other, trades.OfferTrade{To: subject, Give: economy.Items{Vertebrae: 1}})
			e.Must(trades.On(e.Svc).WithdrawTrade(e.Ctx, e.Req(subject), tr.ID))
		}},
		{"dice roll", false, func(e *econ) { e.Must(e.Svc.Roll(e.Ctx, e.Req(subject), game.RollDice{Dice: "2d6"})) }},
		{"reads", false, func(e *econ) {
			e.Player(subject)
			e.Entries()
			if _, err := gildedhall.On(e.Svc).Shop(e.Ctx, "hall"); err != nil {
				t.Fatal(err)
			}
			if _, err := trades.On(e.Svc).Trades(e.Ctx, "hall", trades.TradeFilter{Player: subject}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Svc.Game(e.Ctx, "hall"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a refused purchase", false, func(e *econ) {
			_, err := gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(subject), gildedhall.Purchase{Item: "chip"})
			e.Refused("purchase without funds", err, "insufficient_funds")
		}},
		{"an admin grant to them", false, func(e *econ) { e.Grant(gildedhall.Grant{Player: subject, Chips: 1}) }},
		{"a gift to them", false, func(e *econ) { e.Gift(other, subject) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, subject, other)
			e.At(w49p2)
			tc.run(e)
			e.At(w50p1)
			if got := e.Player(subject).Active; got != tc.action {
				t.Fatalf("active in the next phase = %v, want %v (is %s an action: %v)", got, tc.action, tc.name, tc.action)
			}
			ends := e.Events("period_ended")
			d := eventData[struct {
				Ended    string   `json:"ended"`
				Active   []string `json:"active"`
				Inactive []string `json:"inactive"`
			}](t, ends[len(ends)-1])
			if slices.Contains(d.Active, subject) != tc.action || slices.Contains(d.Inactive, subject) == tc.action {
				t.Fatalf("period end of %s lists active %v inactive %v; %s acted: %v", d.Ended, d.Active, d.Inactive, subject, tc.action)
			}
		})
	}
}

// TestP3_ActiveInJoinPhaseInactiveAfterIdlePhase follows two players over
// four phases: active in the phase they join (and the next, since joining
// is an action), inactive after a phase without action, active again after
// a phase with one.
func TestP3_ActiveInJoinPhaseInactiveAfterIdlePhase(t *testing.T) {
	const early, late = "discord:2", "discord:3"
	e := newEcon(t, early)
	type want struct{ early, late bool }
	check := func(phase string, w want) {
		t.Helper()
		if got := (want{e.Player(early).Active, e.Player(late).Active}); got != w {
			t.Fatalf("%s: active early=%v late=%v, want %+v", phase, got.early, got.late, w)
		}
	}
	e.At(w49p2)
	e.Must(e.Svc.Join(e.Ctx, e.Req(late), game.JoinGame{}))
	check("W49 Phase II", want{early: true, late: true}) // early joined in Phase I; late joins now
	e.At(w50p1)
	check("W50 Phase I", want{early: false, late: true}) // early idle in Phase II; late joined in it
	e.Grant(gildedhall.Grant{Player: early, Vertebrae: 5})
	e.Buy(early, "random-card")
	check("W50 Phase I after acting", want{early: false, late: true}) // acting now does not undo inactivity now
	e.At(w50p2)
	check("W50 Phase II", want{early: true, late: false})
}

// TestC7_PurchaseReachingWinChipsEndsGame is acceptance 5: a player with 24
// Chips and 25 Vertebrae buys a Chip and wins; the game ends; the next
// command of any player is refused game_over; reads still work.
func TestC7_PurchaseReachingWinChipsEndsGame(t *testing.T) {
	e := newEcon(t, giver, receiver)
	if r := e.Grant(gildedhall.Grant{Player: giver, Chips: 24, Vertebrae: 25}); r.Won {
		t.Fatal("24 Chips do not win")
	}
	e.Clk.Advance(time.Hour)
	won := e.Clk.Now()
	res := e.Buy(giver, "chip")
	if !res.Won || res.Chips != 25 || res.Vertebrae != 0 {
		t.Fatalf("purchase of the 25th Chip: %+v, want won with 25 Chips and 0 Vertebrae", res)
	}
	g, err := e.Svc.Game(e.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Ended || g.Winner != giver || g.EndedAt == nil || !g.EndedAt.Equal(won) {
		t.Fatalf("game after the win: ended=%v winner=%q ended_at=%v, want ended, %s, %v", g.Ended, g.Winner, g.EndedAt, giver, won)
	}
	if ev := e.Events("game_won"); len(ev) != 1 || ev[0].Player != giver {
		t.Fatalf("game_won events: %+v", ev)
	}
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"the winner buys again", func() error {
			_, err := gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(giver), gildedhall.Purchase{Item: "random-card"})
			return err
		}},
		{"another player gifts", func() error {
			_, err := gildedhall.On(e.Svc).Gift(e.Ctx, e.Req(receiver), gildedhall.Gift{To: giver})
			return err
		}},
		{"a newcomer joins", func() error { _, err := e.Svc.Join(e.Ctx, e.Req("discord:9"), game.JoinGame{}); return err }},
		{"an admin grants", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: receiver, Chips: 30, Reason: "late"})
			return err
		}},
	} {
		err := tc.run()
		e.Refused(tc.name, err, "game_over")
		if !strings.Contains(err.Error(), giver) {
			t.Errorf("%s: the game_over message should name the winner: %v", tc.name, err)
		}
	}
	if v := e.Player(giver); v.Inventory.Chips != 25 {
		t.Fatalf("reading the winner after the end: %d Chips", v.Inventory.Chips)
	}
	if shop, err := gildedhall.On(e.Svc).Shop(e.Ctx, "hall"); err != nil || len(shop) != 5 {
		t.Fatalf("the shop is still readable: %d items, %v", len(shop), err)
	}
	if es := e.Entries(); es[len(es)-1].Command != "purchase" {
		t.Fatalf("the last log entry is %s, want the winning purchase", es[len(es)-1].Command)
	}
	// Reading (docs/rules-economy.md): a person may still stop being a player.
	e.Must(e.Svc.Leave(e.Ctx, e.Req(receiver)))
}

// TestC7_AnyRouteToWinChipsEndsGame: Chips that reach 25 by an operator's
// grant or by a trade win as well.
func TestC7_AnyRouteToWinChipsEndsGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		winner string
		run    func(e *econ)
	}{
		{"admin grant", receiver, func(e *econ) {
			if r := e.Grant(gildedhall.Grant{Player: receiver, Chips: 25}); !r.Won {
				t.Fatal("grant result does not say won")
			}
		}},
		{"trade", receiver, func(e *econ) {
			e.Grant(gildedhall.Grant{Player: giver, Chips: 10})
			e.Grant(gildedhall.Grant{Player: receiver, Chips: 20})
			tr := e.Offer(giver, trades.OfferTrade{To: receiver, Give: economy.Items{Chips: 5}})
			e.Must(trades.On(e.Svc).AcceptTrade(e.Ctx, e.Req(receiver), tr.ID))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEcon(t, giver, receiver)
			tc.run(e)
			g, _ := e.Svc.Game(e.Ctx, "hall")
			if !g.Ended || g.Winner != tc.winner {
				t.Fatalf("ended=%v winner=%q, want %s", g.Ended, g.Winner, tc.winner)
			}
			_, err := gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(giver), gildedhall.Purchase{Item: "random-card"})
			e.Refused("command after the win", err, "game_over")
		})
	}
}

// TestC6_PurchaseRefusedLeavesInventoryUntouched: the service refuses an
// unaffordable purchase with what is missing and writes nothing.
func TestC6_PurchaseRefusedLeavesInventoryUntouched(t *testing.T) {
	e := newEcon(t, giver)
	e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 11})
	before, logged := e.Player(giver), len(e.Entries())
	_, err := gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(giver), gildedhall.Purchase{Item: "random-card", Quantity: 3})
	e.Refused("3 random cards with 11 Vertebrae", err, "insufficient_funds")
	if !strings.Contains(err.Error(), "4 Vertebrae are missing") {
		t.Errorf("the refusal should say what is missing: %v", err)
	}
	if after := e.Player(giver); after.Inventory.Vertebrae != 11 || after.DeckSize != before.DeckSize || len(e.Entries()) != logged {
		t.Fatalf("a refused purchase changed state: %+v", after.Inventory)
	}
	r := gametest.Decode[gildedhall.PurchaseResult](t, e.Must(gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(giver), gildedhall.Purchase{Item: "random-card", Quantity: 2})))
	if r.Paid != 10 || r.Vertebrae != 1 || len(r.Cards) != 2 {
		t.Fatalf("2 random cards with 11 Vertebrae: %+v, want 2 cards paid 10, balance 1", r)
	}
}

// TestC5_OpenPackThroughTheService: a bought pack is an inventory item until
// opened; opening removes it, adds its cards, and logs the draws.
func TestC5_OpenPackThroughTheService(t *testing.T) {
	e := newEcon(t, giver)
	e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 50})
	bought := e.Buy(giver, "legendary-pack")
	if len(bought.Packs) != 1 || bought.Vertebrae != 0 {
		t.Fatalf("legendary pack purchase: %+v", bought)
	}
	v := e.Player(giver)
	if len(v.Packs) != 1 || v.Packs[0].Pack != "legendary-pack" || v.Packs[0].Count != 1 || v.DeckSize != 0 {
		t.Fatalf("before opening: packs %+v, deck %d", v.Packs, v.DeckSize)
	}
	res := e.Must(gildedhall.On(e.Svc).Open(e.Ctx, e.Req(giver), gildedhall.OpenPack{Pack: bought.Packs[0].ID}))
	opened := gametest.Decode[economy.Opened](t, res)
	holo := 0
	for _, c := range opened.Cards {
		if c.Holo {
			holo++
		}
	}
	if len(opened.Cards) != 7 || holo < 2 {
		t.Fatalf("legendary pack: %d cards, %d holographic; want 7 with at least 2 holographic", len(opened.Cards), holo)
	}
	if v := e.Player(giver); len(v.Packs) != 0 || v.DeckSize != 7 {
		t.Fatalf("after opening: packs %+v, deck %d", v.Packs, v.DeckSize)
	}
	if n := len(res.Entry.Draws); n != 12 {
		t.Fatalf("the open logged %d draws, want 12 (5 × card+holo, 2 × card)", n)
	}
	_, err := gildedhall.On(e.Svc).Open(e.Ctx, e.Req(giver), gildedhall.OpenPack{Pack: bought.Packs[0].ID})
	e.Refused("opening the same pack again", err, "no_such_pack")
}

// TestPhaseEnd_RecordsActivityResetsGiftsOnce: the period-end log entry lists
// who was active and inactive in the ended phase; the gift allowance resets;
// a late run counts nobody who joined after the phase ended; a duplicate run
// changes nothing more.
func TestPhaseEnd_RecordsActivityResetsGiftsOnce(t *testing.T) {
	e := newEcon(t, giver, receiver)
	e.At(w49p2)
	e.Gift(giver, receiver) // the giver acts in W49 Phase II; the receiver does not
	if e.Player(giver).CanGift {
		t.Fatal("can_gift after gifting")
	}
	e.Clk.Set(w50p1) // the phase has ended, the scheduler has not run yet
	e.Must(e.Svc.Join(e.Ctx, e.Req(third), game.JoinGame{}))
	rep := e.At(w50p1.Add(2 * time.Hour)) // a late run
	if len(rep.Transitions) != 1 {
		t.Fatalf("transitions %v, want the one phase end", rep.Transitions)
	}
	var end *game.Entry
	for _, en := range e.Entries() {
		if en.Command == "period-end" {
			end = &en
		}
	}
	if want := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC); end == nil || !end.At.Equal(want) {
		t.Fatalf("last period end %+v, want one at %v", end, want)
	}
	res := gametest.Decode[game.PeriodEnded](t, &game.Result{Body: end.Response})
	if !slices.Equal(res.Active, []string{giver}) || !slices.Equal(res.Inactive, []string{receiver}) {
		t.Fatalf("period end of %s: active %v inactive %v, want [%s] [%s] (the late joiner %s in neither)",
			res.Ended.ID, res.Active, res.Inactive, giver, receiver, third)
	}
	if !e.Player(giver).CanGift {
		t.Fatal("the gift allowance resets with the phase")
	}
	if e.Player(receiver).Active || !e.Player(giver).Active || !e.Player(third).Active {
		t.Fatal("activity in W50 Phase I: want giver active, receiver inactive, newcomer active")
	}
	logged := len(e.Entries())
	for range 2 {
		if rep := e.At(w50p1.Add(3 * time.Hour)); len(rep.Transitions) != 0 {
			t.Fatalf("a duplicate run ended periods: %v", rep.Transitions)
		}
	}
	if n := len(e.Entries()); n != logged {
		t.Fatalf("duplicate runs wrote %d entries", n-logged)
	}
}

// TestOperatorCorrections: an admin grants cards by name, packs and random
// cards; revokes specific items all-or-nothing; amends a price with a
// reason. Each is logged with its reason; non-admins and reasonless
// corrections are refused.
func TestOperatorCorrections(t *testing.T) {
	e := newEcon(t, giver)

	g := e.Grant(gildedhall.Grant{Player: giver, Vertebrae: 20, Reason: "moved from the wiki",
		Cards:       []gildedhall.CardGrant{{Name: "King of Clubs", Holo: true}, {Name: "Red Joker", Count: 2}},
		RandomCards: 3, Packs: []gildedhall.PackGrant{{Pack: "handy-pack", Count: 2}}})
	if len(g.Cards) != 6 || len(g.Packs) != 2 || g.Vertebrae != 20 {
		t.Fatalf("grant result: %d cards, %d packs, %d Vertebrae; want 6, 2, 20", len(g.Cards), len(g.Packs), g.Vertebrae)
	}
	if g.Cards[0].Name != "King of Clubs" || !g.Cards[0].Holo || g.Cards[1].Name != "Red Joker" || g.Cards[2].Name != "Red Joker" {
		t.Fatalf("cards granted by name: %+v", g.Cards[:3])
	}
	v := e.Player(giver)
	if v.DeckSize != 6 || len(v.Packs) != 1 || v.Packs[0].Count != 2 {
		t.Fatalf("after the grant: deck %d, packs %+v", v.DeckSize, v.Packs)
	}
	if ev := e.Events("granted"); len(ev) != 1 || !strings.Contains(string(ev[0].Data), "moved from the wiki") {
		t.Fatalf("granted events: %+v", ev)
	}

	// Revocations: all or nothing.
	logged := len(e.Entries())
	_, err := gildedhall.On(e.Svc).Revoke(e.Ctx, e.Req(admin), gildedhall.Revoke{Player: giver, Reason: "duplicate",
		Items: economy.Items{Cards: []string{g.Cards[0].ID, "nope.1"}, Vertebrae: 5}})
	e.Refused("revoking a card the player lacks", err, "insufficient_items")
	if !strings.Contains(err.Error(), "nope.1") {
		t.Errorf("the refusal should name the missing card: %v", err)
	}
	if after := e.Player(giver); !sameInventory(after, v) || len(e.Entries()) != logged {
		t.Fatal("a refused revocation changed state")
	}
	rv := gametest.Decode[gildedhall.RevokeResult](t, e.Must(gildedhall.On(e.Svc).Revoke(e.Ctx, e.Req(admin), gildedhall.Revoke{Player: giver, Reason: "Judge's ruling 3",
		Items: economy.Items{Cards: []string{g.Cards[0].ID, g.Cards[1].ID}, Packs: []string{g.Packs[0].ID}, Vertebrae: 5}})))
	if len(rv.Revoked.Cards) != 2 || len(rv.Revoked.Packs) != 1 || rv.Revoked.Vertebrae != 5 {
		t.Fatalf("revoked %+v", rv.Revoked)
	}
	if v := e.Player(giver); v.DeckSize != 4 || v.Inventory.Vertebrae != 15 || len(v.Inventory.Packs) != 1 {
		t.Fatalf("after the revocation: %+v", v.Inventory)
	}

	// Amend the random-card price.
	rs, err := e.Svc.Ruleset(e.Ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	shop := slices.Clone(rs.Shop)
	for i := range shop {
		if shop[i].ID == "random-card" {
			shop[i].Price = 7
		}
	}
	patch, _ := json.Marshal(map[string]any{"shop": shop})
	before, _ := e.Svc.Game(e.Ctx, "hall")
	am := gametest.Decode[game.AmendResult](t, e.Must(e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Patch: patch, Reason: "urgent proposal 12"})))
	after, _ := e.Svc.Game(e.Ctx, "hall")
	if after.RulesetVersion != before.RulesetVersion+1 || am.Version != after.RulesetVersion {
		t.Fatalf("ruleset_version %d -> %d (amend says %d), want +1", before.RulesetVersion, after.RulesetVersion, am.Version)
	}
	ev := e.Events("ruleset_amended")
	if len(ev) != 1 || eventData[game.Amendment](t, ev[0]).Reason != "urgent proposal 12" || eventData[game.Amendment](t, ev[0]).By != admin {
		t.Fatalf("ruleset_amended events: %+v", ev)
	}
	if r := e.Buy(giver, "random-card"); r.Paid != 7 || r.Vertebrae != 8 {
		t.Fatalf("purchase after the amendment paid %d (balance %d), want 7 (balance 8)", r.Paid, r.Vertebrae)
	}
	items, _ := gildedhall.On(e.Svc).Shop(e.Ctx, "hall")
	if items[0].ID != "random-card" || items[0].Price != 7 {
		t.Fatalf("the shop shows %+v, want the amended price", items[0])
	}

	// Refusals.
	logged = len(e.Entries())
	for _, tc := range []struct {
		name string
		run  func() error
		code string
	}{
		{"a negative price", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Reason: "x", Patch: json.RawMessage(
				`{"shop":[{"id":"random-card","name":"Random Card","price":-1,"currency":"vertebrae","kind":"random-card","count":1}]}`)})
			return err
		}, "invalid_amendment"},
		{"a chance over 100%", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Reason: "x", Patch: json.RawMessage(`{"chances":{"holoPack":150}}`)})
			return err
		}, "invalid_amendment"},
		{"setting the version", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Reason: "x", Patch: json.RawMessage(`{"version":9}`)})
			return err
		}, "invalid_amendment"},
		{"a patch that is not JSON", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Reason: "x", Patch: json.RawMessage(`{"shop":`)})
			return err
		}, "invalid_amendment"},
		{"grant by a player", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(giver), gildedhall.Grant{Player: giver, Chips: 1, Reason: "x"})
			return err
		}, "forbidden"},
		{"revoke by a player", func() error {
			_, err := gildedhall.On(e.Svc).Revoke(e.Ctx, e.Req(giver), gildedhall.Revoke{Player: giver, Items: economy.Items{Vertebrae: 1}, Reason: "x"})
			return err
		}, "forbidden"},
		{"amend by a player", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(giver), game.Amend{Reason: "x", Patch: json.RawMessage(`{"chances":{"holoPack":50}}`)})
			return err
		}, "forbidden"},
		{"grant without a reason", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: giver, Chips: 1})
			return err
		}, "reason_required"},
		{"revoke without a reason", func() error {
			_, err := gildedhall.On(e.Svc).Revoke(e.Ctx, e.Req(admin), gildedhall.Revoke{Player: giver, Items: economy.Items{Vertebrae: 1}})
			return err
		}, "reason_required"},
		{"amend without a reason", func() error {
			_, err := e.Svc.Amend(e.Ctx, e.Req(admin), game.Amend{Patch: json.RawMessage(`{"chances":{"holoPack":50}}`)})
			return err
		}, "reason_required"},
		{"grant of an unknown card", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: giver, Cards: []gildedhall.CardGrant{{Name: "King of Cups"}}, Reason: "x"})
			return err
		}, "unknown_card"},
		{"grant of an unknown pack", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: giver, Packs: []gildedhall.PackGrant{{Pack: "golden-pack"}}, Reason: "x"})
			return err
		}, "unknown_pack"},
		{"grant that would make a balance negative", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: giver, Vertebrae: -9, Reason: "x"})
			return err
		}, "insufficient_funds"},
		{"grant to a non-player", func() error {
			_, err := gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(admin), gildedhall.Grant{Player: "discord:99", Chips: 1, Reason: "x"})
			return err
		}, "not_a_player"},
	} {
		e.Refused(tc.name, tc.run(), tc.code)
	}
	if n := len(e.Entries()); n != logged {
		t.Fatalf("refused corrections wrote %d entries", n-logged)
	}
	if g, _ := e.Svc.Game(e.Ctx, "hall"); g.RulesetVersion != after.RulesetVersion {
		t.Fatalf("refused amendments changed the ruleset version to %d", g.RulesetVersion)
	}
}
