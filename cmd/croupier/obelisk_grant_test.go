package main

import (
	"strings"
	"testing"
)

// TestObeliskGrantAndRevokeComponentsCLI: an admin corrects an Obelisk
// player's components with croupier play (RULINGS G3): a flag per
// component, the reason required; the answer is a sentence with the
// player's name; a player's attempt, a revocation of more than held and a
// correction of nothing are refused, and the player's holding is as the
// corrections left it.
func TestObeliskGrantAndRevokeComponentsCLI(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "stone", "--ruleset", "obelisk")
	h.vars["CROUPIER_GAME"] = "stone"
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")

	out := h.must("play", "components-grant", "discord:2", "--crystals", "2", "--herbs", "3", "--reason", "ruling 4")
	contains(t, "grant", out, "granted Bob 2💎 3🌿 (ruling 4); Bob now holds 1⚡ 2💎 3🌿.")
	out = h.must("play", "components-revoke", "Bob", "--herbs", "1", "--reason", "a duplicate")
	contains(t, "revoke", out, "revoked 1🌿 from Bob (a duplicate); Bob now holds 1⚡ 2💎 2🌿.")

	h.refused("forbidden", "play", "--as", "discord:2", "components-grant", "discord:2", "--heart", "1", "--reason", "mine")
	h.refused("insufficient_components", "play", "components-revoke", "discord:2", "--crystals", "5", "--reason", "too much")
	// Its details read as amounts, not as Go prints a map.
	if r := h.cli("play", "components-revoke", "discord:2", "--crystals", "5", "--reason", "too much"); strings.Contains(r.stderr, "map[") || !strings.Contains(r.stderr, "missing: crystals 3") {
		t.Errorf("the refusal's details: %s", r.stderr)
	}
	// A grant of nothing is the server's refusal; a negative count is
	// refused as its declaration bounds it, before anything is sent.
	h.refused("invalid_request", "play", "components-grant", "discord:2", "--reason", "nothing")
	if r := h.cli("play", "components-grant", "discord:2", "--herbs", "-1", "--reason", "negative"); r.code != exitUsage || !strings.Contains(r.stderr, "herbs must be from 0 to 1000000, not -1") {
		t.Errorf("a negative grant: %s", r)
	}
	contains(t, "status", h.must("play", "--as", "discord:2", "status"), "Holds 1⚡ 2💎 2🌿")
}
