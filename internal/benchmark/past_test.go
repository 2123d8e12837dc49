package benchmark

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"croupier/internal/game"
	"croupier/internal/store/bolt"
)

// The past-read row (issue 25, acceptance 6) at a small size: a game of 20
// players and 600 entries with a checkpoint every 100 has checkpoints, and
// a read at a random moment costs a few requests, reading a checkpoint's
// pages and at most a checkpoint's worth of entries.
func TestMeasurePastOnBolt(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entries := 600
	if n, err := strconv.Atoi(os.Getenv("PAST_ENTRIES")); err == nil {
		entries = n
	}
	ctx := context.Background()
	g, err := BuildPast(ctx, st, 20, entries, game.WithCheckpointEntries(100))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := MeasurePast(ctx, "bolt", st, g, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %+v; %+v", g, rows)
	if len(rows) != 1 || rows[0].N != 20 || rows[0].Requests < 1 || rows[0].ReadUnits <= 0 || rows[0].P99 < rows[0].P50 {
		t.Fatalf("rows %+v", rows)
	}
	if g.Checkpoints < 4 || g.Entries < 600 {
		t.Errorf("the game has %d entries and %d checkpoints, one every 100", g.Entries, g.Checkpoints)
	}
}
