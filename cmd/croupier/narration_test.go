package main

import (
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/narratetest"
)

// `play log` reads as sentences: every event type any component narrates
// (and every type the code emits) prints as its component's sentence with
// display names, never JSON or key=value.
func TestLogReadsAsSentences(t *testing.T) {
	reg := rulesets.Registry()
	emitted, err := narratetest.Emitted("../..")
	if err != nil {
		t.Fatal(err)
	}
	types := append(reg.EventTypes(), emitted...)
	var entries []game.Entry
	for _, typ := range types {
		entries = append(entries, game.Entry{ID: typ, Command: "c", Actor: "discord:1", At: time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC),
			Events: []game.Event{narratetest.Sample(typ)}})
	}
	name := func(id string) string { return game.Or(narratetest.Name(id), id) }
	out := logText("hall", entries, "", func(ev game.Event) string { return reg.Sentence(ev, name) }, name, stamp)
	lines := strings.Split(out, "\n")
	if len(lines) != 2*len(types) {
		t.Fatalf("%d lines for %d entries of one event each:\n%s", len(lines), len(types), out)
	}
	for i, typ := range types {
		head, ev := lines[2*i], strings.TrimPrefix(lines[2*i+1], "    ")
		if !strings.HasSuffix(head, " Ada") {
			t.Errorf("%s: the entry's actor is not named: %q", typ, head)
		}
		if err := narratetest.CheckSentence(ev); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
		if want := reg.Sentence(narratetest.Sample(typ), narratetest.Name); ev != want {
			t.Errorf("%s: the CLI says %q, the component's sentence is %q", typ, ev, want)
		}
	}
}
