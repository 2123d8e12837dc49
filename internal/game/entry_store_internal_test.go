package game

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"croupier/internal/fair"
)

// An entry's draws are stored without the period and command id they
// share with it, and read back whole; an entry stored whole (before) reads
// the same.
func TestEntryDrawsStoredCompactly(t *testing.T) {
	e := &Entry{ID: "01M8", Command: "purchase", CommandID: "cd92", Actor: "discord:1", At: time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), Period: "2026-W49-I",
		Draws: []fair.Record{
			{Input: fair.Input{Game: "hall", Period: "2026-W49-I", Command: "cd92", Index: 0, Purpose: "card", N: 54}, Value: 47},
			{Input: fair.Input{Game: "hall", Period: "2026-W48-IV", Command: "other", Index: 1, Purpose: "holo", N: 100}, Value: 49},
		},
		Response: json.RawMessage(`{"ok":true}`)}
	stored, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := json.Marshal(e)
	if len(stored) >= len(whole)-len(`"period":"2026-W49-I","command":"cd92",`)+1 {
		t.Errorf("stored %d bytes, whole %d: the shared period and command are still there:\n%s", len(stored), len(whole), stored)
	}
	for _, b := range [][]byte{stored, whole} {
		var back Entry
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&back, e) {
			t.Errorf("decoded %s as\n%+v\nwant\n%+v", b, back, *e)
		}
	}
}
