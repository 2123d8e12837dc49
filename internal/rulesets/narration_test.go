package rulesets_test

import (
	"encoding/json"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/narratetest"
)

// Every event type the code emits is narrated by a component of the
// modules that run it, as a sentence with display names, whatever shape
// its data has.
func TestEveryEmittedEventIsNarrated(t *testing.T) {
	emitted, err := narratetest.Emitted("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(emitted) < 40 {
		t.Fatalf("found only %d emitted event types (%v): the source scan is broken", len(emitted), emitted)
	}
	reg := rulesets.Registry()
	for _, typ := range emitted {
		n, ok := reg.Narration(typ)
		if !ok || n.Sentence == nil {
			t.Errorf("%s is emitted but no component narrates it (game.Component.Events)", typ)
			continue
		}
		s := reg.Sentence(narratetest.Sample(typ), narratetest.Name)
		t.Logf("%-26s %s", typ, s)
		if err := narratetest.CheckSentence(s); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
		for _, data := range narratetest.OddShapes {
			ev := game.Event{Type: typ, Player: "discord:1", Data: json.RawMessage(data)}
			if err := narratetest.CheckSentence(n.Sentence(ev, narratetest.Name)); err != nil {
				t.Errorf("%s with data %s: %v", typ, data, err)
			}
		}
	}
}
