package benchmark

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"croupier/internal/store/bolt"
)

// The turns rows (issue 14, acceptance 6) are measured on a real store and
// report what each command costs: a vote reads a few items and writes the
// vote and its log entry; the turn end writes every decided proposal.
func TestMeasureTurnsOnBolt(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := MeasureTurns(context.Background(), "bolt", st, 4)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Row{}
	for _, r := range rows {
		byName[strings.SplitN(r.Command, " (", 2)[0]] = r
	}
	for name, n := range map[string]int{"turns: proposal": 4, "turns: vote": 40, "turns: request for judgment": 4, "turns: turn end, 4 proposals, 40 votes; with the period end": 1} {
		r, ok := byName[name]
		if !ok || r.N != n || r.Requests < 1 || r.ItemsWritten < 1 || r.P50 <= 0 {
			t.Errorf("%s: %+v (rows %v)", name, r, rows)
		}
	}
	if v := byName["turns: vote"]; v.ItemsWritten > 2 {
		t.Errorf("a vote writes %.1f items; it writes the vote and the log entry", v.ItemsWritten)
	}
	if e := byName["turns: turn end, 4 proposals, 40 votes; with the period end"]; e.ItemsWritten < 4 {
		t.Errorf("the turn end writes %.1f items; it decides 4 proposals", e.ItemsWritten)
	}
}
