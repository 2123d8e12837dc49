package benchmark

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"croupier/internal/store/bolt"
)

// The benchmark's scenario must run clean and produce a row per command,
// with the cost floor the design promises for a single-player command.
func TestMeasureAPIOnBolt(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := MeasureAPI(context.Background(), "bolt", st, 5)
	if err != nil {
		t.Fatal(err)
	}
	byCmd := map[string]Row{}
	for _, r := range rows {
		byCmd[r.Command] = r
	}
	join, ok := byCmd["join"]
	if !ok || join.N != 5 {
		t.Fatalf("no join row: %+v", rows)
	}
	if join.Requests != 2 || join.ItemsWritten != 2 {
		t.Fatalf("join should cost one read request and one commit of two items, got %+v", join)
	}
	if rep := byCmd["join (repeat)"]; rep.ItemsWritten != 0 || rep.Requests != 1 {
		t.Fatalf("a repeated join should be answered from one read, writing nothing: %+v", rep)
	}
	var buf bytes.Buffer
	Print(&buf, rows, nil)
	if !strings.Contains(buf.String(), "roll 2d6") {
		t.Fatalf("table misses a command:\n%s", buf.String())
	}
}
