package rulesets_test

import (
	"testing"

	"croupier/internal/rulesets"
)

// Issue 24: every command an edge may call, in every ruleset, declares how
// its answer reads (Command.Says), so no edge falls back to its data; a
// body of another shape (a log outlives its code) still reads as a
// sentence, never as a panic. TestIssue24_EveryAnswerIsSentences (cmd/croupier)
// runs them on the CLI, Discord and Slack.
func TestEveryCommandSaysItsAnswer(t *testing.T) {
	reg := rulesets.Registry()
	for _, id := range reg.Rulesets() {
		for _, name := range reg.CallableIn(id) {
			c, _ := reg.CommandNamed(name)
			if c.Says == nil {
				t.Errorf("%s's command %s has no Says", id, name)
				continue
			}
			for _, body := range []string{`{}`, `[]`, `"x"`, `{"status":"open","players":[1]}`} {
				if s := reg.Says(name, []byte(body), nil); s == "" {
					t.Errorf("%s says nothing of %s", name, body)
				}
			}
		}
	}
}
