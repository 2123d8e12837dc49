package rulesets_test

import (
	"testing"

	"croupier/internal/rulesets"
)

// One declaration per command (issue 24): every command of every shipped
// ruleset that an edge may call, and whose payload has members, declares
// them as arguments (what each is, in a person's words; game.Arg), so no
// edge (the CLI's usage, chat's options, the API's list) falls back to the
// payload's JSON names. NewRegistry has already checked each declaration
// against its payload (checkArgs).
func TestEveryCallableCommandDeclaresItsArguments(t *testing.T) {
	n := 0
	for _, c := range rulesets.Registry().Catalogue() {
		if c.Call == nil || c.Scheduled {
			continue
		}
		n++
		if c.Args == nil && len(c.Call.Fields()) > 0 {
			t.Errorf("%s declares no arguments; its payload has %v", c.Name, c.Call.Fields())
		}
		if c.Summary == "" {
			t.Errorf("%s has no summary", c.Name)
		}
		for _, a := range c.Args {
			if a.Description == a.Name {
				t.Errorf("%s: argument %s is described by its name only", c.Name, a.Name)
			}
		}
	}
	if n < 60 {
		t.Fatalf("only %d callable commands", n)
	}
}
