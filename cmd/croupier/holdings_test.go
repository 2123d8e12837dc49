package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// lacks fails when got says any of the words: another ruleset's holdings
// or a calendar key that people cannot read.
func lacks(t *testing.T, what, got string, words ...string) {
	t.Helper()
	for _, w := range words {
		if strings.Contains(got, w) {
			t.Errorf("%s says %q, which this game has not; got:\n%s", what, w, got)
		}
	}
}

// jsonMembers are the members of a player's status as --json prints it.
func (h *harness) jsonMembers(player string) map[string]json.RawMessage {
	h.t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(h.must("play", "status", player, "--json")), &m); err != nil {
		h.t.Fatalf("status %s --json: %v", player, err)
	}
	return m
}

// TestTurnsPlayerViewsCLI: a turns player reads their points, their activity
// and the Judicial Pool in join, status and players, the turn by its
// designation, and never Gilded Hall's Vertebrae, Chips or deck, nor the
// calendar's period key (RULINGS U1, U2, U6, U8; R3).
func TestTurnsPlayerViewsCLI(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	foreign := []string{"Vertebrae", "Chips", "deck", "reputable", "2026-03-02T22:00", "first-half"}

	out := h.must("play", "create-game", "nomic", "--ruleset", "turns", "--name", "Nomic")
	contains(t, "create-game", out, `Created game nomic ("Nomic"), ruleset turns; its admin is you. It is round 1, before turn 1-1, which begins Mon 9 Mar 22:00 CDT.`)
	lacks(t, "create-game", out, foreign...)
	h.vars["CROUPIER_GAME"] = "nomic"

	out = h.must("play", "join", "--name", "Ada")
	contains(t, "join", out, "Ada joined nomic. 0 points; active; not in the Judicial Pool.")
	lacks(t, "join", out, foreign...)
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	h.must("play", "--as", "discord:2", "pool-enter")

	out = h.must("play", "status", "discord:2")
	contains(t, "Bob's status", out, "Bob in nomic (round 1, before turn 1-1, which begins Mon 9 Mar 22:00 CDT): 0 points; active; in the Judicial Pool.")
	lacks(t, "Bob's status", out, foreign...)

	// Ada proposes in turn 1-1 and nobody votes: at the turn's end the
	// proposal is defeated and costs her 10 points (U5).
	h.must("play", "clock", "--advance", "112h") // Tue 10 Mar 04:00Z: turn 1-1's first half
	contains(t, "game in turn 1-1", h.must("play", "game"), "It is turn 1-1, first half, until Thu 12 Mar 10:00 CDT.")
	h.must("play", "turns-propose", "amend", "210", "Rule 210, as amended by Ada.")
	h.must("play", "clock", "--advance", "120h") // Sun 15 Mar 04:00Z: after its end

	out = h.must("play", "status")
	contains(t, "Ada's status after the turn", out, "Ada in nomic (the interim after turn 1-1, until Mon 16 Mar 22:00 CDT): -10 points; active; not in the Judicial Pool.")
	lacks(t, "Ada's status after the turn", out, foreign...)

	// Bob voted on none of the turn's proposals: he left the pool (U8).
	contains(t, "Bob's status after the turn", h.must("play", "status", "discord:2"), "0 points; active; not in the Judicial Pool.")

	out = h.must("play", "players")
	contains(t, "players", out, "POINTS", "-10")
	lacks(t, "players", out, "VERTEBRAE", "CHIPS", "DECK", "reputable")

	m := h.jsonMembers("discord:1")
	if string(m["points"]) != "-10" || string(m["in_pool"]) != "false" || string(m["ruleset"]) != `"turns"` {
		t.Errorf("Ada's status as JSON: points %s, in_pool %s, ruleset %s; want -10, false, \"turns\"", m["points"], m["in_pool"], m["ruleset"])
	}
	for _, k := range []string{"inventory", "deck", "deck_size", "packs", "can_gift", "state"} {
		if _, ok := m[k]; ok {
			t.Errorf("a turns player's status as JSON has %q: %s", k, m[k])
		}
	}
	// Leaving costs no points (U2) and destroys nothing.
	out = h.must("play", "--as", "discord:2", "leave")
	contains(t, "leave", out, "Bob left the game; they may join again at once.")
	lacks(t, "leave", out, foreign...)
}

// TestObeliskPlayerViewsCLI: an Obelisk player reads their Ritual
// Components, not Vertebrae, Chips or a deck (RULINGS O1, R3).
func TestObeliskPlayerViewsCLI(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "stone", "--ruleset", "obelisk")
	h.vars["CROUPIER_GAME"] = "stone"

	out := h.must("play", "join", "--name", "Ada")
	matches(t, "join", out, `^Ada joined stone\. Holds \d+⚡; active; reputable\.`)
	lacks(t, "join", out, "Vertebrae", "Chips", "deck")
	out = h.must("play", "status")
	matches(t, "status", out, `^Ada in stone \(period 2026-W10-I\): Holds \d+⚡; active; reputable\.`)
	lacks(t, "status", out, "Vertebrae", "Chips", "deck")
	out = h.must("play", "players")
	contains(t, "players", out, "HOLDS", "⚡")
	lacks(t, "players", out, "VERTEBRAE", "CHIPS", "DECK")

	m := h.jsonMembers("discord:1")
	if _, ok := m["state"]; !ok {
		t.Errorf("an Obelisk player's status as JSON has no state: %v", m)
	}
	for _, k := range []string{"inventory", "deck", "deck_size", "packs", "can_gift", "points"} {
		if _, ok := m[k]; ok {
			t.Errorf("an Obelisk player's status as JSON has %q: %s", k, m[k])
		}
	}
	// Leaving destroys the components held, and says so in them.
	out = h.must("play", "leave")
	matches(t, "leave", out, `^Ada left the game, losing \d+⚡; they may join again in 7 days\.`)
	lacks(t, "leave", out, "Vertebrae", "Chips", "cards", "packs")
}

// TestGildedHallPlayerViewsCLI: a Gilded Hall player's status reads as it
// always has, and its JSON keeps every holdings member (openapi.yaml's
// Player).
func TestGildedHallPlayerViewsCLI(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "hall")
	h.vars["CROUPIER_GAME"] = "hall"
	contains(t, "join", h.must("play", "join", "--name", "Ada"), "Ada joined hall. Vertebrae 0, Chips 0, deck 0 cards; active; reputable.")
	h.must("play", "grant", "discord:1", "--vertebrae", "7", "--chips", "1", "--reason", "stake")
	contains(t, "status", h.must("play", "status"), "Ada in hall (period 2026-W10-I): Vertebrae 7, Chips 1, deck 0 cards; active; reputable.")
	contains(t, "players", h.must("play", "players"), "PLAYER", "VERTEBRAE", "CHIPS", "DECK", "STANDING")

	v := h.statusJSON("discord:1")
	if v.Inventory.Vertebrae != 7 || v.Inventory.Chips != 1 || !v.CanGift || v.Ruleset != "gilded-hall" {
		t.Errorf("Ada's status as JSON: %+v; want 7 Vertebrae, 1 Chip, may gift, ruleset gilded-hall", v)
	}
	m := h.jsonMembers("discord:1")
	for _, k := range []string{"inventory", "deck", "deck_size", "packs", "can_gift"} {
		if _, ok := m[k]; !ok {
			t.Errorf("a Gilded Hall player's status as JSON lacks %q: %v", k, m)
		}
	}
	for _, k := range []string{"state", "points"} {
		if _, ok := m[k]; ok {
			t.Errorf("a Gilded Hall player's status as JSON has %q: %s", k, m[k])
		}
	}
	contains(t, "leave", h.must("play", "leave"), "Ada left the game, losing 7 Vertebrae, 1 Chip, 0 cards and 0 packs; they may join again in 7 days.")
}
