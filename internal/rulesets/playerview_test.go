package rulesets_test

import (
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// A player view's JSON is one flat object: the membership's members and the
// module's beside them. Read back, each module finds its own holdings and
// no other module finds any.
func TestPlayerViewJSONCarriesTheModulesHoldingsFlat(t *testing.T) {
	gh := game.PlayerView{Game: "hall", Ruleset: gildedhall.ID, ID: "discord:1", Name: "Ada", Member: true, Period: "2026-W10-I",
		Holdings: gildedhall.PlayerHoldings{DeckSize: 1, Inventory: players.Inventory{Vertebrae: 7, Chips: 2, Cards: []players.Card{{ID: "c.1", Name: "7 of Hearts"}}, Packs: []players.Pack{}},
			Deck: []players.DeckEntry{}, Packs: []gildedhall.PackEntry{}, CanGift: true}}
	tu := game.PlayerView{Game: "nomic", Ruleset: turns.ID, ID: "discord:2", Name: "Bob", Member: true, Period: "2026-03-02T22:00-0600.1-first-half",
		PeriodName: "turn 1-1, first half", Holdings: turns.Standing{Points: -10, InPool: true, Judging: []int{5301}}}

	raw, err := json.Marshal(gh)
	if err != nil {
		t.Fatal(err)
	}
	var flat map[string]json.RawMessage
	if err := json.Unmarshal(raw, &flat); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"game", "ruleset", "id", "member", "period", "inventory", "deck_size", "can_gift", "deck", "packs"} {
		if _, ok := flat[k]; !ok {
			t.Errorf("a Gilded Hall view's JSON lacks %q: %s", k, raw)
		}
	}
	var back game.PlayerView
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Name != "Ada" || back.Ruleset != gildedhall.ID {
		t.Errorf("the membership read back: %+v", back)
	}
	h, ok := gildedhall.HoldingsOf(back)
	if !ok || h.Inventory.Vertebrae != 7 || h.Inventory.Chips != 2 || h.DeckSize != 1 || !h.CanGift {
		t.Errorf("Gilded Hall's holdings read back: %+v (%v)", h, ok)
	}
	if _, ok := turns.StandingOf(back); ok {
		t.Error("a Gilded Hall view read back has a turns standing")
	}
	if _, ok := obelisk.StateOf(back); ok {
		t.Error("a Gilded Hall view read back has an Obelisk state")
	}
	// Read back and written again, it is the same object (the holdings
	// are not doubled, the membership not repeated).
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	var flat2 map[string]json.RawMessage
	if err := json.Unmarshal(again, &flat2); err != nil || len(flat2) != len(flat) {
		t.Errorf("written again: %s (%v), was %s", again, err, raw)
	}

	raw, err = json.Marshal(tu)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(raw); !strings.Contains(s, `"points":-10`) || !strings.Contains(s, `"judging":[5301]`) || strings.Contains(s, "inventory") {
		t.Errorf("a turns view's JSON: %s", s)
	}
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	st, ok := turns.StandingOf(back)
	if !ok || st.Points != -10 || !st.InPool || len(st.Judging) != 1 || st.Judging[0] != 5301 || back.PeriodName != "turn 1-1, first half" {
		t.Errorf("the turns standing read back: %+v (%v), period %q", st, ok, back.PeriodName)
	}
	if _, ok := gildedhall.HoldingsOf(back); ok {
		t.Error("a turns view read back has Gilded Hall holdings")
	}
}
