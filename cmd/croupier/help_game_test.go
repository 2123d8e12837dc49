package main

import (
	"strings"
	"testing"

	"croupier/internal/rulesets"
)

// Issue 24 acceptance 2: croupier play help with a game lists exactly the
// commands of its ruleset, each with what it does and its usage; help NAME
// gives one command's arguments; a misspelt command is answered with the
// closest names.
func TestPlayHelpListsTheGamesOwnCommands(t *testing.T) {
	h := newHarness(t, "manual")
	reg := rulesets.Registry()
	for _, g := range []struct{ id, ruleset string }{{"hall", "gilded-hall"}, {"stone", "obelisk"}, {"nomic", "turns"}} {
		h.must("play", "create-game", g.id, "--ruleset", g.ruleset, "--as", "discord:1")
		out := h.must("play", "help", "--game", g.id)
		if !strings.Contains(out, "The commands of game "+g.id+" ("+reg.Title(g.ruleset)+")") {
			t.Errorf("%s: help does not name the game and its ruleset:\n%s", g.id, out)
		}
		listed := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); strings.HasPrefix(line, "  ") && len(f) > 0 {
				listed[f[0]] = true
			}
		}
		for _, name := range reg.Rulesets() {
			for _, c := range reg.CallableIn(name) {
				cmd, _ := reg.CommandNamed(c)
				if cmd.Platform {
					continue
				}
				has := reg.HasCommand(g.ruleset, c)
				if listed[c] != has {
					t.Errorf("%s (%s): help lists %s: %v, the ruleset has it: %v", g.id, g.ruleset, c, listed[c], has)
				}
				if has && cmd.Summary != "" && !strings.Contains(out, cmd.Summary) {
					t.Errorf("%s: help lacks %s's description %q", g.id, c, cmd.Summary)
				}
			}
		}
	}
	contains(t, "help of one command", h.must("play", "help", "judgment-request", "--game", "nomic"), "Usage: croupier play judgment-request")
	r := h.cli("play", "help", "turns-propse", "--game", "nomic")
	if r.code != exitUsage || !strings.Contains(r.stderr, "did you mean turns-propose") {
		t.Errorf("a misspelt command's help: %s", r)
	}
	r = h.cli("play", "--game", "nomic", "--as", "discord:1", "pool-entr")
	if r.code != exitUsage || !strings.Contains(r.stderr, "did you mean pool-enter") {
		t.Errorf("a misspelt command: %s", r)
	}
}
