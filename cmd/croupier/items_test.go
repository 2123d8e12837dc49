package main

import (
	"reflect"
	"strings"
	"testing"

	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

func TestParseItems(t *testing.T) {
	cases := []struct {
		in   string
		want []itemTerm
		err  string
	}{
		{in: "3 vertebrae, 1 chip", want: []itemTerm{{n: 3, currency: "vertebrae"}, {n: 1, currency: "chips"}}},
		{in: "3 V and 2 Chips; 1 vert", want: []itemTerm{{n: 3, currency: "vertebrae"}, {n: 2, currency: "chips"}, {n: 1, currency: "vertebrae"}}},
		{in: "card e08f49f383.1, pack e08f49f383.2", want: []itemTerm{{kind: "card", ref: "e08f49f383.1"}, {kind: "pack", ref: "e08f49f383.2"}}},
		{in: "7 of Hearts", want: []itemTerm{{ref: "7 of Hearts"}}},
		{in: "2 7 of Hearts", want: []itemTerm{{n: 2, ref: "7 of Hearts"}}},
		{in: "2 x holo card 10 of Spades", want: []itemTerm{{n: 2, holo: true, kind: "card", ref: "10 of Spades"}}},
		{in: "2 × Red Joker", want: []itemTerm{{n: 2, ref: "Red Joker"}}},
		{in: "2 handy-pack", want: []itemTerm{{n: 2, ref: "handy-pack"}}},
		{in: "vertebrae", err: "say how many"},
		{in: "0 chips", err: "count must be positive"},
		{in: "holo pack handy-pack", err: "packs are not holographic"},
		{in: "3 card", err: "which one?"},
		{in: " , ", err: "is empty"},
	}
	for _, c := range cases {
		got, err := parseItems("--give", c.in, "")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseItems(%q) error = %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseItems(%q): %v", c.in, err)
			continue
		}
		for i := range got {
			got[i].text = ""
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseItems(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// Names resolve to copies the holder holds: plain copies unless "holo" is
// said, never one copy twice, and a shortfall says what is held.
func TestResolveItems(t *testing.T) {
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	deck := []players.Card{
		{ID: "a.1", Name: "7 of Hearts"}, {ID: "a.2", Name: "7 of Hearts", Holo: true},
		{ID: "a.3", Name: "7 of Hearts"}, {ID: "a.4", Name: "Red Joker"},
	}
	view := gildedhall.PlayerView{PlayerHoldings: gildedhall.PlayerHoldings{
		Inventory: players.Inventory{Vertebrae: 9, Cards: deck, Packs: []players.Pack{{ID: "b.1", Kind: "handy-pack"}, {ID: "b.2", Kind: "handy-pack"}}},
		Deck:      cards.Group(rs, deck),
		Packs:     []gildedhall.PackEntry{{Pack: "handy-pack", Name: "Handy Pack", Count: 2, IDs: []string{"b.1", "b.2"}}},
	}}
	cases := []struct {
		in   string
		want economy.Items
		err  string
	}{
		{in: "3 vertebrae, 2 7 of hearts", want: economy.Items{Vertebrae: 3, Cards: []string{"a.1", "a.3"}}},
		{in: "holo 7 of Hearts", want: economy.Items{Cards: []string{"a.2"}}},
		{in: "a.1, 7 of Hearts", want: economy.Items{Cards: []string{"a.1", "a.3"}}},
		{in: "Handy Pack, pack b.2", want: economy.Items{Packs: []string{"b.1", "b.2"}}},
		{in: "2 handy-pack, red joker", want: economy.Items{Cards: []string{"a.4"}, Packs: []string{"b.1", "b.2"}}},
		{in: "3 7 of Hearts", err: "discord:2 holds 2 plain copies of 7 of Hearts (1 holographic)"},
		{in: "a.1, a.1", err: "already on this side"},
		{in: "3 handy-pack", err: "holds 2 Handy Packs"},
		{in: "card b.1", err: `holds no card "b.1"`},
		{in: "King of Spades", err: `holds no card or pack "King of Spades"`},
		{in: "2 a.1", err: "an id names one copy"},
	}
	for _, c := range cases {
		terms, err := parseItems("--take", c.in, "")
		if err != nil {
			t.Fatalf("parseItems(%q): %v", c.in, err)
		}
		got, err := resolveItems(terms, &holderInventory{id: "discord:2", view: view})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("resolve %q: error = %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("resolve %q = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}
