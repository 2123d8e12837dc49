package economy_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

func hall(t testing.TB) *ruleset.Ruleset {
	t.Helper()
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// zeros is a fair.Source that always answers 0: the first card of the
// table, always holographic. The economy rules' arithmetic does not depend
// on what is drawn; cards_test checks the draws themselves.
type zeros struct{ calls int }

func (z *zeros) Intn(string, int) int { z.calls++; return 0 }

func code(err error) string {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Code
	}
	if err == nil {
		return ""
	}
	return "not a rule error: " + err.Error()
}

// clone deep-copies an inventory so a test can tell whether a refused
// command touched it.
func clone(inv players.Inventory) players.Inventory {
	inv.Cards = slices.Clone(inv.Cards)
	inv.Packs = slices.Clone(inv.Packs)
	return inv
}

// TestC6_CroupierPrices buys each item at its price (RULINGS C6), singly and
// in quantity, from a balance that is exactly enough: the balance goes to 0,
// never below, and the items arrive.
func TestC6_CroupierPrices(t *testing.T) {
	rs := hall(t)
	for _, tc := range []struct {
		item                string
		price, quantity     int
		cards, packs, chips int
		packKind            string
	}{
		{item: "random-card", price: 5, quantity: 1, cards: 1},
		{item: "random-card", price: 5, quantity: 4, cards: 4},
		{item: "handy-pack", price: 12, quantity: 1, packs: 1, packKind: "handy-pack"},
		{item: "deck-pack", price: 18, quantity: 2, packs: 2, packKind: "deck-pack"},
		{item: "legendary-pack", price: 50, quantity: 1, packs: 1, packKind: "legendary-pack"},
		{item: "chip", price: 25, quantity: 1, chips: 1},
		{item: "chip", price: 25, quantity: 3, chips: 3},
	} {
		cost := tc.price * tc.quantity
		inv := players.Inventory{Vertebrae: cost, Chips: 2}
		src := &zeros{}
		b, err := economy.Buy(&inv, rs, tc.item, tc.quantity, src, cards.Sequence("c"))
		if err != nil {
			t.Errorf("%d × %s with %d Vertebrae: %v", tc.quantity, tc.item, cost, err)
			continue
		}
		if b.Paid != cost || b.Currency != ruleset.CurrencyVertebrae || inv.Vertebrae != 0 {
			t.Errorf("%d × %s: paid %d %s, balance %d; want paid %d vertebrae, balance 0", tc.quantity, tc.item, b.Paid, b.Currency, inv.Vertebrae, cost)
		}
		if len(inv.Cards) != tc.cards || len(inv.Packs) != tc.packs || inv.Chips != 2+tc.chips {
			t.Errorf("%d × %s: got %d cards, %d packs, %d chips; want %d, %d, %d",
				tc.quantity, tc.item, len(inv.Cards), len(inv.Packs), inv.Chips, tc.cards, tc.packs, 2+tc.chips)
		}
		for _, p := range inv.Packs {
			if p.Kind != tc.packKind || p.ID == "" {
				t.Errorf("%s: pack %+v, want an unopened %s with an id", tc.item, p, tc.packKind)
			}
		}
		if src.calls != 2*tc.cards {
			t.Errorf("%s: %d draws, want %d (card + holo per random card; none for packs and chips)", tc.item, src.calls, 2*tc.cards)
		}
	}
	if it, _ := rs.ShopItem("random-card"); rs.Chances.HoloCroupierCard != 10 || it.Count != 1 {
		t.Errorf("the Croupier's Random Card is 1 card at 10%% holographic; ruleset says %d card(s) at %d%%", it.Count, rs.Chances.HoloCroupierCard)
	}
}

// TestC6_AllOrNothing: a purchase the buyer cannot afford, in full, is
// refused with a message saying what is missing, and the inventory is
// untouched (no partial quantity, no negative balance).
func TestC6_AllOrNothing(t *testing.T) {
	rs := hall(t)
	start := players.Inventory{Vertebrae: 11, Chips: 1,
		Cards: []players.Card{{ID: "k", Name: "King of Hearts"}}, Packs: []players.Pack{{ID: "p", Kind: "handy-pack"}}}
	for _, tc := range []struct {
		item     string
		quantity int
		code     string
		message  []string // substrings the player must see
		missing  int
	}{
		{"handy-pack", 1, "insufficient_funds", []string{"Handy Pack costs 12 Vertebrae", "you have 11", "1 Vertebrae are missing"}, 1},
		{"random-card", 3, "insufficient_funds", []string{"3 × Random Card costs 15 Vertebrae", "4 Vertebrae are missing"}, 4},
		{"chip", 1, "insufficient_funds", []string{"1 Chip costs 25", "14 Vertebrae are missing"}, 14},
		{"legendary-pack", 1, "insufficient_funds", []string{"39 Vertebrae are missing"}, 39},
		{"random-card", -1, "invalid_quantity", []string{"between 1 and 100"}, 0},
		{"random-card", economy.MaxQuantity + 1, "invalid_quantity", []string{"got 101"}, 0},
		{"golden-pack", 1, "unknown_item", []string{"golden-pack", "random-card, handy-pack, deck-pack, legendary-pack, chip"}, 0},
	} {
		inv := clone(start)
		src := &zeros{}
		_, err := economy.Buy(&inv, rs, tc.item, tc.quantity, src, cards.Sequence("c"))
		if code(err) != tc.code {
			t.Errorf("%d × %s: got %v, want %s", tc.quantity, tc.item, err, tc.code)
			continue
		}
		for _, m := range tc.message {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%d × %s: message %q does not say %q", tc.quantity, tc.item, err, m)
			}
		}
		if tc.missing > 0 {
			if re := err.(*rules.Error); re.Fields["missing"] != tc.missing {
				t.Errorf("%s: missing field %v, want %d", tc.item, re.Fields["missing"], tc.missing)
			}
		}
		if !reflect.DeepEqual(inv, start) || src.calls != 0 {
			t.Errorf("%d × %s refused but the inventory changed or draws were made: %+v (%d draws)", tc.quantity, tc.item, inv, src.calls)
		}
	}
	// Quantity 0 means 1.
	inv := clone(start)
	if b, err := economy.Buy(&inv, rs, "random-card", 0, &zeros{}, cards.Sequence("c")); err != nil || b.Quantity != 1 || inv.Vertebrae != 6 {
		t.Errorf("quantity 0 buys one: %+v %v, balance %d", b, err, inv.Vertebrae)
	}
}

// TestC5_OpenPack: opening removes the pack and adds its cards; a pack is
// named by id, or by kind or name (in any case) for the oldest of that kind.
func TestC5_OpenPack(t *testing.T) {
	rs := hall(t)
	packs := []players.Pack{{ID: "h1", Kind: "handy-pack"}, {ID: "d1", Kind: "deck-pack"}, {ID: "h2", Kind: "handy-pack"}, {ID: "l1", Kind: "legendary-pack"}}
	for _, tc := range []struct {
		ref    string
		opened string
		cards  int
		left   []string
	}{
		{"h2", "h2", 3, []string{"h1", "d1", "l1"}},
		{"handy-pack", "h1", 3, []string{"d1", "h2", "l1"}},
		{"deck-pack", "d1", 5, []string{"h1", "h2", "l1"}},
		{"l1", "l1", 7, []string{"h1", "d1", "h2"}},
		{"Handy Pack", "h1", 3, []string{"d1", "h2", "l1"}},
		{"legendary pack", "l1", 7, []string{"h1", "d1", "h2"}},
		{"Deck-Pack", "d1", 5, []string{"h1", "h2", "l1"}},
	} {
		inv := players.Inventory{Cards: []players.Card{{ID: "old", Name: "2 of Clubs"}}, Packs: slices.Clone(packs)}
		o, err := economy.Open(&inv, rs, tc.ref, &zeros{}, cards.Sequence("c"))
		if err != nil {
			t.Errorf("open %s: %v", tc.ref, err)
			continue
		}
		var left []string
		for _, p := range inv.Packs {
			left = append(left, p.ID)
		}
		if o.Pack.ID != tc.opened || len(o.Cards) != tc.cards || len(inv.Cards) != 1+tc.cards || !slices.Equal(left, tc.left) {
			t.Errorf("open %s: opened %s with %d cards, deck %d, packs left %v; want %s, %d, %d, %v",
				tc.ref, o.Pack.ID, len(o.Cards), len(inv.Cards), left, tc.opened, tc.cards, 1+tc.cards, tc.left)
		}
	}

	for _, tc := range []struct {
		name  string
		packs []players.Pack
		ref   string
		code  string
	}{
		{"no packs", nil, "handy-pack", "no_such_pack"},
		{"no such id", packs, "zz", "no_such_pack"},
		{"kind not held", packs[:1], "deck-pack", "no_such_pack"},
		{"kind no longer in the ruleset", []players.Pack{{ID: "x", Kind: "golden-pack"}}, "x", "unknown_pack"},
	} {
		inv := players.Inventory{Packs: tc.packs}
		before := clone(inv)
		if _, err := economy.Open(&inv, rs, tc.ref, &zeros{}, cards.Sequence("c")); code(err) != tc.code {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.code)
		}
		if !reflect.DeepEqual(inv, before) {
			t.Errorf("%s: refused open changed the inventory: %+v", tc.name, inv)
		}
	}
}

// TestC4_GiftSize: 1 card, +2 if the receiver is inactive, +1 if they hold
// fewer than 5 cards before the gift.
func TestC4_GiftSize(t *testing.T) {
	g := hall(t).Thresholds.Gift
	for _, tc := range []struct {
		deck     int
		inactive bool
		want     int
	}{
		{5, false, 1},
		{9, false, 1},
		{4, false, 2},
		{0, false, 2},
		{5, true, 3},
		{3, true, 4}, // the acceptance case: 1 + 2 + 1
		{0, true, 4},
	} {
		if got := economy.GiftSize(g, tc.deck, tc.inactive); got != tc.want {
			t.Errorf("receiver with %d cards, inactive=%v: %d cards, want %d", tc.deck, tc.inactive, got, tc.want)
		}
	}
	if g.ReturnToGiver != 1 {
		t.Errorf("the giver gets 1 card back from an inactive receiver who acts; ruleset says %d", g.ReturnToGiver)
	}
}

// TestC4_CheckGift: once per phase per giver, to another player.
func TestC4_CheckGift(t *testing.T) {
	const period = "2026-W50-I"
	giver := func(mod func(*economy.Player)) *economy.Player {
		p := &economy.Player{Player: players.Player{ID: "discord:2", Member: true}}
		if mod != nil {
			mod(p)
		}
		return p
	}
	recv := &economy.Player{Player: players.Player{ID: "discord:3", Member: true}}
	for _, tc := range []struct {
		name        string
		giver, recv *economy.Player
		code        string
	}{
		{"first gift of the phase", giver(nil), recv, ""},
		{"gifted in the previous phase", giver(func(p *economy.Player) { p.GiftPeriod, p.GiftedTo = "2026-W49-II", "discord:3" }), recv, ""},
		{"second gift in the phase", giver(func(p *economy.Player) { p.GiftPeriod, p.GiftedTo = period, "discord:4" }), recv, "already_gifted"},
		{"self gift", giver(nil), giver(nil), "self_gift"},
		{"receiver never joined", giver(nil), nil, "not_a_player"},
		{"receiver left", giver(nil), &economy.Player{Player: players.Player{ID: "discord:3"}}, "not_a_player"},
		{"giver not a player", nil, recv, "not_a_player"},
		{"giver left", giver(func(p *economy.Player) { p.Member = false }), recv, "not_a_player"},
	} {
		err := economy.CheckGift(tc.giver, tc.recv, period, nil)
		if code(err) != tc.code {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.code)
		}
		if tc.code == "already_gifted" && !strings.Contains(err.Error(), "discord:4") {
			t.Errorf("already_gifted should name the earlier receiver: %v", err)
		}
	}
	// People read names: with the receiver's display name known, the
	// refusal names them, not their id (issue 24).
	second := giver(func(p *economy.Player) { p.GiftPeriod, p.GiftedTo = period, "discord:4" })
	err := economy.CheckGift(second, recv, period, func(id string) string { return map[string]string{"discord:4": "Dot"}[id] })
	if code(err) != "already_gifted" || !strings.Contains(err.Error(), "(to Dot)") || strings.Contains(err.Error(), "discord:4") {
		t.Errorf("already_gifted names the earlier receiver by name: %v", err)
	}
}

// TestC7_Won: holding 25 Chips wins; 24 does not; a non-player cannot win.
func TestC7_Won(t *testing.T) {
	rs := hall(t)
	for _, tc := range []struct {
		name string
		p    *economy.Player
		want bool
	}{
		{"24 chips", &economy.Player{Player: players.Player{Member: true}, Inventory: players.Inventory{Chips: 24}}, false},
		{"25 chips", &economy.Player{Player: players.Player{Member: true}, Inventory: players.Inventory{Chips: 25}}, true},
		{"30 chips", &economy.Player{Player: players.Player{Member: true}, Inventory: players.Inventory{Chips: 30}}, true},
		{"non-player with 25", &economy.Player{Inventory: players.Inventory{Chips: 25}}, false},
		{"nobody", nil, false},
	} {
		if got := economy.Won(rs, tc.p); got != tc.want {
			t.Errorf("%s: won=%v, want %v", tc.name, got, tc.want)
		}
	}
	noWin := hall(t)
	noWin.Thresholds.WinChips = 0
	if economy.Won(noWin, &economy.Player{Player: players.Player{Member: true}, Inventory: players.Inventory{Chips: 99}}) {
		t.Error("a ruleset without a Chip threshold has no Chip victory")
	}
}

// TestP1_LeavingDestroysAndReportsTheItems: a departure ends the
// membership, and every item the leaver held is destroyed (seed 002 Items:
// an item owned by a non-player is destroyed) and reported for the log.
func TestP1_LeavingDestroysAndReportsTheItems(t *testing.T) {
	p := &economy.Player{Player: players.Player{ID: "discord:1", Member: true}}
	p.Inventory.Vertebrae = 30
	p.Inventory.Cards = []players.Card{{ID: "c1", Name: "7 of Hearts"}}
	left := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if err := players.Leave(&p.Player, left); err != nil {
		t.Fatal(err)
	}
	destroyed := economy.DestroyHoldings(p)
	if destroyed.Vertebrae != 30 || len(destroyed.Cards) != 1 || !p.Inventory.Empty() {
		t.Fatalf("leaving must destroy and report the items: destroyed=%+v left=%+v", destroyed, p.Inventory)
	}
	if p.Member || !p.LeftAt.Equal(left) {
		t.Fatalf("leaving must end the membership: %+v", p.Player)
	}
}
