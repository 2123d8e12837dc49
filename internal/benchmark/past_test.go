package benchmark

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
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
	t.Logf("built %d entries, %d checkpoints in %s; %+v", g.Entries, g.Checkpoints, g.Built, rows)
	if len(rows) != 1 || rows[0].N != 20 || rows[0].Requests < 1 || rows[0].ReadUnits <= 0 || rows[0].P99 < rows[0].P50 {
		t.Fatalf("rows %+v", rows)
	}
	if g.Checkpoints < 4 || g.Entries < 600 {
		t.Errorf("the game has %d entries and %d checkpoints, one every 100", g.Entries, g.Checkpoints)
	}
}

// The same game copied to DynamoDB Local (CopyPast) reads the same there.
func TestMeasurePastOnDynamoDB(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entries := 600
	if n, err := strconv.Atoi(os.Getenv("PAST_ENTRIES")); err == nil {
		entries = n
	}
	players := 20
	if n, err := strconv.Atoi(os.Getenv("PAST_PLAYERS")); err == nil {
		players = n
	}
	ctx := context.Background()
	every := game.WithCheckpointEntries(100)
	if os.Getenv("PAST_ENTRIES") != "" {
		every = game.WithCheckpointEntries(game.CheckpointEntries)
	}
	t0 := time.Now()
	g, err := BuildPast(ctx, st, players, entries, every)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built %d entries, %d checkpoints (the latest %d pages, %d bytes) in %s", g.Entries, g.Checkpoints, g.Pages, g.PageBytes, time.Since(t0))
	client, table := testenv.DynamoTable(t, "game")
	dst := dynamo.NewLoader(client, table)
	t0 = time.Now()
	if err := CopyPast(ctx, st, dst, g); err != nil {
		t.Fatal(err)
	}
	t.Logf("copied in %s", time.Since(t0))
	for name, s := range map[string]store.Store{"bolt": st, "dynamodb": dst} {
		rows, err := MeasurePast(ctx, name, s, g, 20)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", rows)
		if len(rows) != 1 || rows[0].N != 20 || rows[0].Requests < 1 || rows[0].ReadUnits <= 0 {
			t.Fatalf("rows %+v", rows)
		}
	}
}
