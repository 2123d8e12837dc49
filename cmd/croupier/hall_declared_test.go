package main

import (
	"strings"
	"testing"
)

// Issue 24: the Gilded Hall's open and gift have no verb of their own; the
// CLI reads them from their declaration (gildedhall.Cards): help gives
// each argument's description and the command's help, a value is taken by
// position, and a missing one is a usage error naming it.
func TestHallCommandsFromTheirDeclaration(t *testing.T) {
	h := newHarness(t, "manual")
	h.must("play", "create-game", "hall", "--as", "discord:1")
	contains(t, "help gift", h.must("play", "help", "gift", "--game", "hall"),
		"Usage: croupier play gift TO", "Gift random cards to another player (once a period)", "Once a period, random cards for another player (RULINGS C4)",
		"Arguments:", "Who receives it; a player's name, mention or id; required")
	contains(t, "help open", h.must("play", "help", "open", "--game", "hall"),
		"croupier play open PACK", "The pack: its id, its kind or its name (your oldest of that kind); required")
	h.must("play", "join", "--game", "hall", "--as", "discord:1")
	if r := h.cli("play", "open", "--game", "hall", "--as", "discord:1"); r.code != exitUsage || !strings.Contains(r.stderr, "open needs pack") {
		t.Errorf("open without a pack: %s", r)
	}
	if r := h.cli("play", "open", "Handy Pack", "--game", "hall", "--as", "discord:1"); r.code != 1 || !strings.Contains(r.stderr, "You have no unopened packs") {
		t.Errorf("open with no packs: %s", r)
	}
}
