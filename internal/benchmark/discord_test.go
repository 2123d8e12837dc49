package benchmark

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/store/bolt"
)

// The Discord scenario runs clean on bolt: every interaction answered in
// time (a deferral or refusal fails MeasureDiscord), one row per command
// with the samples the scenario promises, and a table of its own.
func TestMeasureDiscordOnBolt(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := MeasureDiscord(context.Background(), "bolt", st, 4)
	if err != nil {
		t.Fatal(err)
	}
	byCmd := map[string]Row{}
	for _, r := range rows {
		if r.Surface != SurfaceDiscord {
			t.Errorf("row %q has surface %q", r.Command, r.Surface)
		}
		if r.P99 >= 3*time.Second {
			t.Errorf("%s: p99 %s is over Discord's 3 s", r.Command, r.P99)
		}
		byCmd[r.Command] = r
	}
	for cmd, want := range map[string]int{dcJoin: 4, dcBuy: 4, dcBuyConfirm: 4, dcDuelRequest: 2, dcDuelAccept: 2, dcSelect: 4, dcBet: 8} {
		if r := byCmd[cmd]; r.N != want {
			t.Errorf("%s: %d samples, want %d", cmd, r.N, want)
		}
	}
	if r := byCmd[dcPlay]; r.N < 2 || r.N > 2*duelPlayMoves {
		t.Errorf("%d play-phase moves in two duels, want 2 to %d", r.N, 2*duelPlayMoves)
	}
	// The confirmation is the purchase: it commits the buyer, the log entry
	// and the reply-cache record.
	if r := byCmd[dcBuyConfirm]; r.ItemsWritten < 3 {
		t.Errorf("a confirmed purchase wrote %.2f items, want at least 3", r.ItemsWritten)
	}
	var buf bytes.Buffer
	Print(&buf, rows, nil)
	out := buf.String()
	if !strings.Contains(out, "Discord interactions handler") || !strings.Contains(out, dcBuyConfirm) || !strings.Contains(out, "bolt: slowest p99") {
		t.Fatalf("table misses the Discord section:\n%s", out)
	}
}
