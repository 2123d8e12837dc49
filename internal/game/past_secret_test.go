package game_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/jsondelta"
)

// A reader of the public log sees a hidden item's changes without their
// operations (an Exoptosis match while its hands are selected): the
// replay lists it in Secret, without a defect for the partial changes it
// cannot apply, until the change that reveals it, which holds the whole
// item; from then on the item is known and no longer secret. An item
// still hidden at the end stays listed, once.
func TestReplaySecretIsWhatThePublicLogStillHides(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	set := func(doc string) []jsondelta.Op { return []jsondelta.Op{{Value: json.RawMessage(doc)}} }
	entries := []game.Entry{
		{ID: "01JE5Z8X7Q3W0000000000000A", At: at, Changes: []game.Change{{SK: "MATCH#m1", V: 1, Secret: true}, {SK: "MATCH#m2", V: 1, Secret: true}}},
		{ID: "01JE5Z8X7Q3W0000000000000B", At: at.Add(time.Minute), Changes: []game.Change{{SK: "MATCH#m1", V: 2, Secret: true}, {SK: "MATCH#m2", V: 2, Secret: true}}},
		{ID: "01JE5Z8X7Q3W0000000000000C", At: at.Add(2 * time.Minute), Changes: []game.Change{{SK: "MATCH#m1", V: 3, Ops: set(`{"phase":"play","hands":2}`)}}},
	}
	// In any order: each item's changes apply in its version order.
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}} {
		r := game.NewReplay("hall")
		for _, i := range order {
			r.Add(&entries[i])
		}
		r.Finish()
		if !slices.Equal(r.Secret, []string{"MATCH#m2"}) || len(r.Defects) > 0 {
			t.Errorf("entries in order %v: secret %v, defects %v; want only MATCH#m2 secret and no defect", order, r.Secret, r.Defects)
		}
		if it, ok := r.Items["MATCH#m1"]; !ok || !jsondelta.Equal(it.Data, []byte(`{"phase":"play","hands":2}`)) || r.Last["MATCH#m1"] != entries[2].ID {
			t.Errorf("entries in order %v: the revealed match is %s (last change %s); want the reveal's whole item", order, it.Data, r.Last["MATCH#m1"])
		}
		if _, ok := r.Items["MATCH#m2"]; ok {
			t.Errorf("entries in order %v: the replay claims to know the hidden match", order)
		}
	}
}
