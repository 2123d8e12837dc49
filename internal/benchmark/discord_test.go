package benchmark

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/lambdarun"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// The Discord scenario runs clean on bolt: every interaction answered (a
// refusal fails MeasureDiscord; the handler's budget is set out of reach,
// so a loaded machine's slowness cannot defer one), one row per command
// with the samples the scenario promises, and a table of its own. The
// latencies are the bench's to print, not the test's to hold.
func TestMeasureDiscordOnBolt(t *testing.T) {
	patientDiscord(t)
	st, err := bolt.Open(filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rows, err := MeasureDiscord(context.Background(), "bolt", st, 4)
	if err != nil {
		t.Fatal(err)
	}
	checkDiscordRows(t, rows)
	var buf bytes.Buffer
	Print(&buf, rows, nil)
	out := buf.String()
	if !strings.Contains(out, "Discord interactions handler") || !strings.Contains(out, dcBuyConfirm) || !strings.Contains(out, "bolt: slowest p99") {
		t.Fatalf("table misses the Discord section:\n%s", out)
	}
}

// Issue 16, acceptance 1, on DynamoDB Local: a Discord purchase and a
// play are at the cost floor there too.
func TestMeasureDiscordOnDynamoDB(t *testing.T) {
	patientDiscord(t)
	client, table := testenv.DynamoTable(t, "bench-discord")
	rows, err := MeasureDiscord(context.Background(), "dynamodb", dynamo.New(client, table), 4)
	if err != nil {
		t.Fatal(err)
	}
	checkDiscordRows(t, rows)
}

func checkDiscordRows(t *testing.T, rows []Row) {
	t.Helper()
	byCmd := map[string]Row{}
	for _, r := range rows {
		if r.Surface != SurfaceDiscord {
			t.Errorf("row %q has surface %q", r.Command, r.Surface)
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
	// Issue 16, acceptance 1: the confirmation is the purchase at the cost
	// floor, one read request and one commit of the buyer and the log
	// entry (which is the interaction's reply and idempotency record); a
	// play with no match named is at most one request more (the mover's
	// next controls, when they move again).
	if r := byCmd[dcBuyConfirm]; r.Requests != 2 || r.ItemsWritten != 2 || r.ReadUnits > 4 || r.WriteUnits > 4.1 {
		t.Errorf("a confirmed purchase cost %.2f requests, %.2f items written, %.2f RCU, %.2f WCU; want 2, 2, <= 4, <= 4.1",
			r.Requests, r.ItemsWritten, r.ReadUnits, r.WriteUnits)
	}
	if r := byCmd[dcPlay]; r.Requests > 3 || r.WriteUnits > 4.1 {
		t.Errorf("a play cost %.2f requests and %.2f WCU, want at most 3 and 4.1", r.Requests, r.WriteUnits)
	}
	// Acceptance 5: a purchase and a play cost at most $4 per million
	// all-in behind a Function URL, at the template's memory, even billed
	// for 100 ms (the table bills the p50, some 10 ms here): what is held
	// is the units and the prices, not the machine's speed.
	root, err := lambdarun.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	m, err := TemplateCostModel(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{dcBuyConfirm, dcPlay} {
		r := byCmd[cmd]
		r.P50 = 100 * time.Millisecond
		if c := Price(r, FunctionURLPerMillion, m.DiscordMemoryMB, m.AnnounceMemoryMB); c.Total() > 4 {
			t.Errorf("%s costs $%.2f per million behind a Function URL (%+v), want at most $4", cmd, c.Total(), c)
		}
	}
}

// patientDiscord sets the handler's budget out of reach for one test.
func patientDiscord(t *testing.T) {
	old := discordBudget
	discordBudget = time.Hour
	t.Cleanup(func() { discordBudget = old })
}
