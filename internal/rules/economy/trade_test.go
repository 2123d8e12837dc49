package economy_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
)

func TestTrade_ItemsCheck(t *testing.T) {
	many := make([]string, economy.MaxTradeIDs+1)
	for i := range many {
		many[i] = "c" + strings.Repeat("x", i)
	}
	for _, tc := range []struct {
		name string
		it   economy.Items
		msg  string // "" = accepted
	}{
		{"currency and ids", economy.Items{Vertebrae: 3, Chips: 1, Cards: []string{"a.1"}, Packs: []string{"a.2"}}, ""},
		{"nothing", economy.Items{}, ""},
		{"negative vertebrae", economy.Items{Vertebrae: -1}, "negative amount"},
		{"negative chips", economy.Items{Chips: -2}, "negative amount"},
		{"card twice", economy.Items{Cards: []string{"a.1", "a.1"}}, "names a.1 twice"},
		{"same id as card and pack", economy.Items{Cards: []string{"a.1"}, Packs: []string{"a.1"}}, "twice"},
		{"empty id", economy.Items{Packs: []string{""}}, "empty card or pack id"},
		{"too many ids", economy.Items{Cards: many}, "at most 200"},
	} {
		err := tc.it.Check("give")
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		if code(err) != "invalid_trade" || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "give side") {
			t.Errorf("%s: got %v, want invalid_trade naming the give side and %q", tc.name, err, tc.msg)
		}
	}
}

func TestTrade_Missing(t *testing.T) {
	inv := &players.Inventory{Vertebrae: 4, Chips: 1,
		Cards: []players.Card{{ID: "c1", Name: "Red Joker"}}, Packs: []players.Pack{{ID: "p1", Kind: "handy-pack"}}}
	for _, tc := range []struct {
		name string
		it   economy.Items
		want []string
	}{
		{"holds everything", economy.Items{Vertebrae: 4, Chips: 1, Cards: []string{"c1"}, Packs: []string{"p1"}}, nil},
		{"too few vertebrae", economy.Items{Vertebrae: 5}, []string{"5 Vertebrae (holds 4)"}},
		{"too few chips", economy.Items{Chips: 2}, []string{"2 Chips (holds 1)"}},
		{"a card and a pack not held", economy.Items{Cards: []string{"c1", "c9"}, Packs: []string{"p9"}}, []string{"card c9", "pack p9"}},
		{"a card id that is a pack", economy.Items{Cards: []string{"p1"}}, []string{"card p1"}},
	} {
		if got := economy.Missing(inv, tc.it); !slices.Equal(got, tc.want) {
			t.Errorf("%s: missing %q, want %q", tc.name, got, tc.want)
		}
	}
}

func parties() (*economy.Player, *economy.Player) {
	a := &economy.Player{Player: players.Player{ID: "discord:2", Member: true}, Inventory: players.Inventory{Vertebrae: 10, Chips: 1,
		Cards: []players.Card{{ID: "a1", Name: "King of Hearts", Holo: true}, {ID: "a2", Name: "2 of Clubs"}},
		Packs: []players.Pack{{ID: "ap", Kind: "deck-pack"}}}}
	b := &economy.Player{Player: players.Player{ID: "discord:3", Member: true}, Inventory: players.Inventory{Vertebrae: 3,
		Cards: []players.Card{{ID: "b1", Name: "Red Joker"}}}}
	return a, b
}

// TestTrade_SwapAtomic: a swap moves both sides whole (ids and flags
// kept), or, if either side lacks anything, moves nothing at all.
func TestTrade_SwapAtomic(t *testing.T) {
	t.Run("both hold everything", func(t *testing.T) {
		a, b := parties()
		give := economy.Items{Vertebrae: 4, Cards: []string{"a1"}, Packs: []string{"ap"}}
		take := economy.Items{Vertebrae: 3, Cards: []string{"b1"}}
		if err := economy.Swap(a, b, give, take); err != nil {
			t.Fatal(err)
		}
		wantA := players.Inventory{Vertebrae: 10 - 4 + 3, Chips: 1,
			Cards: []players.Card{{ID: "a2", Name: "2 of Clubs"}, {ID: "b1", Name: "Red Joker"}}}
		wantB := players.Inventory{Vertebrae: 3 - 3 + 4,
			Cards: []players.Card{{ID: "a1", Name: "King of Hearts", Holo: true}},
			Packs: []players.Pack{{ID: "ap", Kind: "deck-pack"}}}
		if !reflect.DeepEqual(a.Inventory.Normalized(), wantA.Normalized()) || !reflect.DeepEqual(b.Inventory.Normalized(), wantB.Normalized()) {
			t.Fatalf("after the swap:\n a %+v\n want %+v\n b %+v\n want %+v", a.Inventory, wantA, b.Inventory, wantB)
		}
	})
	for _, tc := range []struct {
		name       string
		give, take economy.Items
		who, what  string
	}{
		{"giver lacks a card", economy.Items{Cards: []string{"a1", "zz"}}, economy.Items{Vertebrae: 1}, "discord:2", "card zz"},
		{"giver lacks vertebrae", economy.Items{Vertebrae: 11}, economy.Items{Cards: []string{"b1"}}, "discord:2", "11 Vertebrae (holds 10)"},
		{"receiver lacks a card", economy.Items{Vertebrae: 5, Packs: []string{"ap"}}, economy.Items{Cards: []string{"a2"}}, "discord:3", "card a2"},
		{"receiver lacks chips", economy.Items{Cards: []string{"a1"}}, economy.Items{Chips: 1}, "discord:3", "1 Chip (holds 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := parties()
			beforeA, beforeB := clone(a.Inventory), clone(b.Inventory)
			err := economy.Swap(a, b, tc.give, tc.take)
			if code(err) != "trade_items_missing" || !strings.Contains(err.Error(), tc.who) || !strings.Contains(err.Error(), tc.what) {
				t.Fatalf("got %v, want trade_items_missing naming %s and %q", err, tc.who, tc.what)
			}
			if !reflect.DeepEqual(a.Inventory, beforeA) || !reflect.DeepEqual(b.Inventory, beforeB) {
				t.Fatalf("a refused swap moved items:\n a %+v\n b %+v", a.Inventory, b.Inventory)
			}
		})
	}
}

// TestTrade_TakeAllOrNothing: an operator's revocation takes every named
// item or, if one is missing, none.
func TestTrade_TakeAllOrNothing(t *testing.T) {
	a, _ := parties()
	before := clone(a.Inventory)
	_, err := economy.Take(a.ID, &a.Inventory, economy.Items{Vertebrae: 2, Cards: []string{"a1", "gone"}})
	if code(err) != "insufficient_items" || !strings.Contains(err.Error(), "card gone") || !strings.Contains(err.Error(), "nothing was revoked") {
		t.Fatalf("got %v, want insufficient_items naming card gone", err)
	}
	if !reflect.DeepEqual(a.Inventory, before) {
		t.Fatalf("a refused revocation took items: %+v", a.Inventory)
	}
	taken, err := economy.Take(a.ID, &a.Inventory, economy.Items{Vertebrae: 2, Cards: []string{"a1"}, Packs: []string{"ap"}})
	if err != nil {
		t.Fatal(err)
	}
	if taken.Vertebrae != 2 || len(taken.Cards) != 1 || taken.Cards[0].ID != "a1" || len(taken.Packs) != 1 ||
		a.Inventory.Vertebrae != 8 || len(a.Inventory.Cards) != 1 || len(a.Inventory.Packs) != 0 {
		t.Fatalf("taken %+v, left %+v", taken, a.Inventory)
	}
}
