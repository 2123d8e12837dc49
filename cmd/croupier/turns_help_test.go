package main

import (
	"strings"
	"testing"
)

// Issue 24: a turns game's commands are read from their declarations.
// help --game lists each with the usage line its declaration makes (its
// positional arguments in the order a player types them, its choices);
// help turns-propose gives its arguments with their choices and its
// longer help; and the commands take their arguments in that order, a
// value outside the choices refused before anything is sent.
func TestTurnsHelpFromDeclarations(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_GAME"] = "nomic"
	h.must("play", "create-game", "nomic", "--ruleset", "turns", "--as", "discord:1")
	h.must("play", "join", "--as", "discord:1", "--name", "Ada")
	h.must("play", "join", "--as", "discord:2", "--name", "Bob")

	out := h.must("play", "help")
	lines := strings.Split(out, "\n")
	for _, want := range []string{
		"turns-propose [enact|amend|repeal] [RULE] [TEXT] [--note NOTE]",
		"turns-vote PROPOSAL for|against",
		"turns-active ACTIVE",
		"round-start",
		"pool-enter",
		"pool-leave",
		"judgment-request STATEMENT [ARGUMENTS] [--mentions MENTIONS...] [--paradox PARADOX]",
		"judge-recuse CASE",
		"judge-rule CASE TRUE|FALSE [REASONS]",
		"ruling-appeal CASE TRUE|FALSE REASONS",
		"appeal-vote CASE for|against",
	} {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(strings.TrimSpace(l), want)
		}
		if !found {
			t.Errorf("help --game lists no usage line %q:\n%s", want, out)
		}
	}

	out = h.must("play", "help", "turns-propose")
	contains(t, "help turns-propose", out,
		"Usage: croupier play turns-propose [enact|amend|repeal] [RULE] [TEXT] [--note NOTE] [--changes CHANGES] [--data DATA]",
		"Submit a rule-change proposal",
		`as in turns-propose amend 205 "new text"`,
		"Arguments:",
		"Enact a new rule, amend or repeal one; one of enact, amend or repeal",
		"RULE", "The rule amended or repealed; a whole number at least 1",
		"TEXT", "The rule's new text (enact, amend)",
		"--note NOTE", "What the proposal does, in your words",
		"--changes CHANGES", `Several rule changes: [{"op":"amend","rule":205,"text":"..."}]; as JSON`)
	contains(t, "help turns-vote", h.must("play", "help", "turns-vote"),
		"Usage: croupier play turns-vote PROPOSAL for|against", "PROPOSAL", "The proposal (P1...); required", "For or against it; one of for or against; required")

	// By position, as the usage lines say.
	contains(t, "turns-propose", h.must("play", "--as", "discord:1", "turns-propose", "amend", "210", "Rule 210, amended."), `Ada proposed P1: amend rule 210 to "Rule 210, amended."`)
	before := h.must("play", "log")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"turns-vote", "P1", "maybe"}, `vote must be for or against, not "maybe"`},
		{[]string{"turns-propose", "change", "210", "x"}, `op must be enact, amend or repeal, not "change"`},
		{[]string{"turns-vote", "P1"}, "turns-vote needs vote"},
		{[]string{"judge-rule", "5301", "maybe"}, `ruling must be TRUE or FALSE, not "maybe"`},
	} {
		if r := h.cli(append([]string{"play", "--as", "discord:2"}, c.args...)...); r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("play %s: %s, want the usage error %q", strings.Join(c.args, " "), r, c.want)
		}
	}
	if after := h.must("play", "log"); after != before {
		t.Errorf("a refused argument changed the log:\n%s\n%s", before, after)
	}
	// A choice is read in any case, as the declared one.
	contains(t, "turns-vote", h.must("play", "--as", "discord:2", "turns-vote", "P1", "For"), "Bob voted for proposal P1")
	h.must("play", "--as", "discord:2", "pool-enter")
	contains(t, "judgment-request", h.must("play", "--as", "discord:1", "judgment-request", "Is rule 210 fair?"), "case 5301", "its Judge is Bob")
	contains(t, "judge-rule", h.must("play", "--as", "discord:2", "judge-rule", "5301", "true", "--reasons", "It is."), `Bob ruled case 5301 TRUE: "It is". The ruling may be appealed.`)
}
