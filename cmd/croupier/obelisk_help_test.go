package main

import (
	"strings"
	"testing"

	"croupier/internal/ruleset"
)

// Issue 24: an Obelisk command's help is its declaration (game.Arg):
// croupier play help gathering-contribute --game G gives its usage, by
// position as a player types it, and each argument with what it is and
// the values it takes (the components, by id); task's help lists the
// tasks, and a correction's a bounded count of each component. A value
// the declaration does not allow is refused with those values, before
// anything is sent.
func TestObeliskHelpGivesEachCommandsArgumentsWithTheirChoices(t *testing.T) {
	h := newHarness(t, "manual")
	h.must("play", "create-game", "stone", "--ruleset", "obelisk", "--as", "discord:1")

	out := h.must("play", "help", "gathering-contribute", "--game", "stone")
	var ids []string
	for _, c := range ruleset.ComponentList {
		ids = append(ids, c.ID)
	}
	contains(t, "help gathering-contribute", out,
		"Usage: croupier play gathering-contribute GATHERING COMPONENT",
		"Contribute one component to a Gathering",
		"Arguments:",
		"GATHERING",
		"The Gathering (type to pick an open one by ritual or starter); required",
		"COMPONENT",
		"Which component; one of "+strings.Join(ids[:len(ids)-1], ", ")+" or "+ids[len(ids)-1]+"; required")

	contains(t, "help task", h.must("play", "help", "task", "--game", "stone"),
		"Usage: croupier play task TASK [GREBE]",
		"Which task; one of mining, herbalism, alchemy, heart, blood or befriend; required",
		"Befriend a Grebe: its number; a whole number at least 1")
	contains(t, "help components-grant", h.must("play", "help", "components-grant", "--game", "stone"),
		"Usage: croupier play components-grant PLAYER",
		"--reason REASON",
		"a player's name, mention or id; required",
		"💎 Crystals to grant; a whole number from 0 to 1000000")
	contains(t, "help gathering-start", h.must("play", "help", "gathering-start", "--game", "stone"),
		"Usage: croupier play gathering-start RITUAL_TYPE [--message MESSAGE] [--player PLAYER]",
		"The player the ritual names, if it names one; a player's name, mention or id")

	r := h.cli("play", "--game", "stone", "--as", "discord:1", "gathering-contribute", "g1", "gold")
	if r.code != exitUsage || !strings.Contains(r.stderr, `component must be resolve, crystals, herbs, reagents, blood or heart, not "gold"`) {
		t.Errorf("a component that is none: %s", r)
	}
}
