package main

import (
	"strings"
	"testing"
	"time"

	"croupier/internal/client"
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

// Issue 24 point 4: the clock's answer names a turns game's periods by the
// part of the game week, in the game's zone, and its timers by what
// happened, never by the calendar key or the scheduler's terms.
func TestClockNamesTurnsPeriodsAsPeopleDo(t *testing.T) {
	var v client.ClockResult
	v.Now = time.Date(2026, 3, 15, 3, 0, 1, 0, time.UTC)
	v.Ran.Transitions = []string{"nomic/2026-03-09T22:00-0500.1-first-half", "hall/2026-W11-I"}
	v.Ran.Done = map[string][]string{"turns": {"nomic/turn-end 1-1", "nomic/judge-deadline 5301"}}
	got := clockText(v, "")
	contains(t, "clock", got, "Ended: nomic: the first half of the turn beginning Mon 9 Mar 22:00 CDT, hall/2026-W11-I",
		"Turns: nomic: turn 1-1 ended, nomic: case 5301's Judge deadline passed.")
	for _, raw := range []string{"first-half", "turn-end", "judge-deadline", "T22:00-0500"} {
		if strings.Contains(got, raw) {
			t.Errorf("the clock's answer shows %q: %s", raw, got)
		}
	}
}

// Issue 24 acceptance 3: a boolean argument takes true or false only:
// "--paradox maybe" is refused with the allowed values, before anything
// is sent, where it used to become the request's arguments.
func TestABooleanArgumentTakesTrueOrFalseOnly(t *testing.T) {
	h := newHarness(t, "manual")
	h.must("play", "create-game", "nomic", "--ruleset", "turns", "--as", "discord:1")
	h.must("play", "join", "--game", "nomic", "--as", "discord:2", "--name", "Ada")
	before := h.must("play", "log", "--game", "nomic", "--as", "discord:2")
	r := h.cli("play", "judgment-request", "Is this so?", "--paradox", "maybe", "--game", "nomic", "--as", "discord:2")
	if r.code != exitUsage || !strings.Contains(r.stderr, `--paradox is true or false`) || !strings.Contains(r.stderr, `"maybe"`) {
		t.Errorf("--paradox maybe: %s", r)
	}
	if after := h.must("play", "log", "--game", "nomic", "--as", "discord:2"); after != before {
		t.Errorf("a refused argument changed the log:\n%s\n%s", before, after)
	}
	out := h.must("play", "judgment-request", "Is this so?", "--paradox", "false", "--game", "nomic", "--as", "discord:2")
	if strings.Contains(out, "paradox") {
		t.Errorf("--paradox false made a paradox: %s", out)
	}
}
