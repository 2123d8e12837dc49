package obelisk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/narratetest"
)

// Every event the Obelisk's components emit reads as a plain sentence
// with display names, from a real event and from data of any shape; the
// announced ones are what the issue announces (observations, Grebes,
// completed and failed Gatherings, banishments).
func TestObeliskEventsReadAsSentences(t *testing.T) {
	reg := rulesets.Registry()
	announced := map[string]bool{"obelisk_observed": true, "grebe_summoned": true, "grebe_befriended": true,
		"gathering_completed": true, "gathering_failed": true, "player_banished": true, "banishment_ended": true}
	for _, typ := range []string{"task_performed", "obelisk_observed", "grebe_summoned", "grebe_befriended", "components_destroyed", "components_granted",
		"gathering_started", "gathering_contributed", "gathering_withdrawn", "gathering_completed", "gathering_failed",
		"player_banished", "banishment_ended", "proposal_effect_failed"} {
		n, ok := reg.Narration(typ)
		if !ok {
			t.Errorf("%s is not narrated", typ)
			continue
		}
		if typ != "proposal_effect_failed" && n.Announce != announced[typ] {
			t.Errorf("%s: announced %v, want %v", typ, n.Announce, announced[typ])
		}
		ev := narratetest.Sample(typ)
		if string(ev.Data) == "{}" {
			t.Errorf("%s has no sample event in narratetest", typ)
		}
		s := n.Sentence(ev, narratetest.Name)
		if err := narratetest.CheckSentence(s); err != nil {
			t.Errorf("%s reads %q: %v", typ, s, err)
		}
		if typ != "grebe_summoned" && typ != "proposal_effect_failed" && !strings.Contains(s, narratetest.Name(ev.Player)) {
			t.Errorf("%s reads %q, without %s's name", typ, s, ev.Player)
		}
		for _, data := range narratetest.OddShapes {
			odd := game.Event{Type: typ, Player: ev.Player, Data: json.RawMessage(data)}
			if err := narratetest.CheckSentence(n.Sentence(odd, narratetest.Name)); err != nil {
				t.Errorf("%s with data %s: %v", typ, data, err)
			}
		}
	}
}
