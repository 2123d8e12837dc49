package main

import (
	"fmt"
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
	contains(t, "status by @name", h.must("play", "status", "@bob"), "Bob in hall")
	contains(t, "gift by name", h.must("play", "gift", "BOB"), "Ada gifted Bob ")
	// The server's resolver, the one every edge uses, refuses a name
	// several players share and one nobody has, with the candidates
	// (issue 23 point 4).
	for _, c := range []struct{ args, want []string }{
		{[]string{"play", "--as", "discord:2", "gift", "Cy"}, []string{`refused: 2 players of this game are named "Cy": Cy (discord:3) or cy (discord:4). Name one by mention or id. [ambiguous_player]`, "candidates: discord:3, discord:4"}},
		{[]string{"play", "--as", "discord:2", "gift", "B"}, []string{`refused: No player of this game is named "B". Did you mean Bob? [unknown_player]`, "candidates: discord:2"}},
		{[]string{"play", "--as", "discord:2", "gift", "Dee"}, []string{`refused: No player of this game is named "Dee" or has that id; name a player by mention, id or display name. [unknown_player]`}},
	} {
		r := h.cli(c.args...)
		if r.code != 1 {
			t.Errorf("croupier %s: %s; want exit 1 (refused)", strings.Join(c.args, " "), r)
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

// TestIssue23_CLIPlayerArgumentsTakeEveryForm: in a game of each ruleset,
// the CLI's player arguments (grant's player, a banishment's --banish, a
// Request for Judgment's --mentions) take a mention (<@2>, <@!2>), the
// platform id, the bare id and the display name in any case, through the
// server's one resolver; a name two players share is refused with the
// candidates and changes nothing.
func TestIssue23_CLIPlayerArgumentsTakeEveryForm(t *testing.T) {
	forms := []string{"<@2>", "<@!2>", "discord:2", "2", "Bob", "bob", "@BOB"}
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	join := func(g string) {
		h.must("play", "--game", g, "join", "--name", "Ada")
		h.must("play", "--game", g, "--as", "discord:2", "join", "--name", "Bob")
		h.must("play", "--game", g, "--as", "discord:3", "join", "--name", "Cy")
		h.must("play", "--game", g, "--as", "discord:4", "join", "--name", "cy")
	}
	entries := func(g string) int {
		var page struct{ Entries []any }
		h.jsonOut(&page, "play", "--game", g, "log", "--all")
		return len(page.Entries)
	}
	ambiguous := []string{`2 players of this game are named "CY": Cy (discord:3) or cy (discord:4). Name one by mention or id. [ambiguous_player]`}
	refused := func(g string, args ...string) {
		t.Helper()
		before := entries(g)
		r := h.cli(append([]string{"play", "--game", g}, args...)...)
		if r.code != 1 {
			t.Errorf("croupier %s: %s; want exit 1 (refused)", strings.Join(args, " "), r)
		}
		contains(t, strings.Join(args, " "), r.stderr, ambiguous...)
		if n := entries(g); n != before {
			t.Errorf("croupier %s: the log has %d entries, %d before", strings.Join(args, " "), n, before)
		}
	}

	h.must("play", "create-game", "hall")
	join("hall")
	for i, form := range forms {
		contains(t, "grant to "+form, h.must("play", "--game", "hall", "grant", form, "--vertebrae", "1", "--reason", "names"),
			"Granted Bob +1 Vertebra (names). Bob now holds "+vertebrae(i+1))
	}
	refused("hall", "gift", "CY")

	h.must("play", "create-game", "stone", "--ruleset", "obelisk")
	join("stone")
	for i, form := range forms {
		contains(t, "banish "+form, h.must("play", "--game", "stone", "propose", "--channel", "c", "--message", fmt.Sprint("ban-", i), "--banish", form, "--for", "24h"),
			`"Banish Bob for 24 hours"`)
	}
	var list struct {
		Proposals []struct{ Params map[string]string }
	}
	h.jsonOut(&list, "play", "--game", "stone", "proposals")
	props := list.Proposals
	if len(props) != len(forms) {
		t.Fatalf("%d proposals, want %d", len(props), len(forms))
	}
	for _, p := range props {
		if p.Params["player"] != "discord:2" {
			t.Errorf("a banishment of %q, want discord:2", p.Params["player"])
		}
	}
	refused("stone", "propose", "--channel", "c", "--message", "ban-x", "--banish", "CY", "--for", "24h")

	h.must("play", "create-game", "nomic", "--ruleset", "turns")
	join("nomic")
	for _, form := range forms {
		contains(t, "mentions "+form, h.must("play", "--game", "nomic", "judgment-request", "Bob may pass.", "--mentions", form), "mentioning Bob")
	}
	refused("nomic", "judgment-request", "Cy may pass.", "--mentions", "CY")
}
