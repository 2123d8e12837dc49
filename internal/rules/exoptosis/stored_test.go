package exoptosis

import (
	"encoding/json"
	"testing"
)

// A match stored while it kept its steps in a "log" of its own reads with
// that many steps; one stored now round-trips its count.
func TestStoredMatchStepCount(t *testing.T) {
	var old Match
	if err := json.Unmarshal([]byte(`{"id":"m","phase":"play","pile":["7 of Hearts"],"log":[{"at":"2026-11-30T09:00:00Z","move":{"kind":"select","actor":"a"}},{"at":"2026-11-30T09:00:00Z","timeout":true}]}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Steps != 2 || old.ID != "m" || old.Phase != PhasePlay || len(old.Pile) != 1 {
		t.Fatalf("a match stored with its log reads as %+v, want 2 steps", old)
	}
	b, err := json.Marshal(Match{ID: "m", Phase: PhasePlay, Steps: 7})
	if err != nil {
		t.Fatal(err)
	}
	var now Match
	if err := json.Unmarshal(b, &now); err != nil || now.Steps != 7 {
		t.Fatalf("%s reads as %+v (%v), want 7 steps", b, now, err)
	}
}
