package main

import (
	"strings"
	"testing"
)

// Commands take a player by display name or mention where it names one
// player, and say clearly when it names none or several; ids of
// proposals are taken by an unambiguous prefix, or left out when only one
// is open.
func TestPlayersAndIDsByName(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.vars["CROUPIER_GAME"] = "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join", "--name", "Ada")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	h.must("play", "--as", "discord:3", "join", "--name", "Cy")
	h.must("play", "--as", "discord:4", "join", "--name", "cy")

	contains(t, "grant by mention", h.must("play", "grant", "<@2>", "--vertebrae", "5", "--reason", "r"), "Granted Bob +5 Vertebrae (r). Bob now holds 5 Vertebrae")
	contains(t, "status by @name", h.must("play", "status", "@bob"), "Bob (discord:2) in hall")
	contains(t, "gift by name", h.must("play", "gift", "BOB"), "Ada gifted Bob ")
	for _, c := range []struct{ args, want []string }{
		{[]string{"play", "--as", "discord:2", "gift", "Cy"}, []string{`2 players of hall are named "Cy"`, "Cy (discord:3), cy (discord:4)", "give the identity instead"}},
		{[]string{"play", "--as", "discord:2", "gift", "Dee"}, []string{`no player of hall is named "Dee"`, "Ada (discord:1), Bob (discord:2)"}},
	} {
		r := h.cli(c.args...)
		if r.code != 2 {
			t.Errorf("croupier %s: %s; want exit 2 (usage)", strings.Join(c.args, " "), r)
		}
		contains(t, strings.Join(c.args, " "), r.stderr, c.want...)
	}
	if got := h.must("play", "log", "--all"); strings.Contains(got, "discord:2") {
		t.Errorf("the log names Bob by id:\n%s", got)
	}

	// Proposals: the only open one without an id, then prefixes.
	if r := h.cli("play", "proposal"); r.code != 2 || !strings.Contains(r.stderr, "there is no proposal to act on") {
		t.Errorf("proposal with none: %s", r)
	}
	var first struct{ ID string }
	h.jsonOut(&first, "play", "propose", "--title", "One", "--text", "first", "--channel", "c1", "--message", "m1")
	contains(t, "the only open proposal", h.must("play", "proposal"), first.ID)
	contains(t, "a prefix", h.must("play", "proposal", strings.ToLower(first.ID[:len(first.ID)-2])), first.ID)
	var second struct{ ID string }
	h.jsonOut(&second, "play", "propose", "--title", "Two", "--text", "second", "--channel", "c1", "--message", "m2")
	if r := h.cli("play", "proposal"); r.code != 2 || !strings.Contains(r.stderr, "2 proposals are open") {
		t.Errorf("proposal with two open: %s", r)
	}
	if r := h.cli("play", "proposal", first.ID[:4]); first.ID[:4] == second.ID[:4] && (r.code != 2 || !strings.Contains(r.stderr, "is the start of 2 proposal ids")) {
		t.Errorf("an ambiguous prefix: %s", r)
	}
	if r := h.cli("play", "proposal", "ZZZZZZ"); r.code != 2 || !strings.Contains(r.stderr, `no proposal has the id "ZZZZZZ"`) {
		t.Errorf("an unknown id: %s", r)
	}
	contains(t, "withdraw by prefix", h.must("play", "withdraw-proposal", second.ID[:len(second.ID)-1]), "Withdrew", second.ID)
}
