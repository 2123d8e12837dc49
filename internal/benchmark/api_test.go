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
	// The player, the log entry and the member's name index item (NAME#,
	// so a display name is one query: game/names.go).
	if join.Requests != 2 || join.ItemsWritten != 3 {
		t.Fatalf("join should cost one read request and one commit of three items, got %+v", join)
	}
	if rep := byCmd["join (repeat)"]; rep.ItemsWritten != 0 || rep.Requests != 1 {
		t.Fatalf("a repeated join should be answered from one read, writing nothing: %+v", rep)
	}
	// The economy commands all ran, once per player, at one read and one
	// commit each; accepting a trade reads the offerer in a second read
	// (the trade's parties are known only once the trade is read).
	for cmd, requests := range map[string]float64{"purchase (random-card)": 2, "open pack": 2, "gift": 2, "trade offer": 2, "trade accept": 3} {
		r, ok := byCmd[cmd]
		if !ok || r.N != 5 {
			t.Errorf("%s: row %+v, want 5 samples", cmd, r)
			continue
		}
		if r.Requests != requests {
			t.Errorf("%s: %.2f requests per command, want %v", cmd, r.Requests, requests)
		}
	}
	// The Obelisk (issue 13): a task is one read request and one commit of
	// two items (the player and the log entry); a contribution writes the
	// player, the Gathering and the entry; a completion reads the
	// contributors it does not have yet in one more request.
	if r := byCmd["task (herbalism)"]; r.N != 5 || r.Requests != 2 || r.ItemsWritten != 2 {
		t.Errorf("task: %+v, want 5 samples of 2 requests writing 2 items", r)
	}
	if r := byCmd["gathering contribute"]; r.N != 4 || r.Requests != 2 || r.ItemsWritten != 3 {
		t.Errorf("contribution: %+v, want 4 samples of 2 requests writing 3 items", r)
	}
	if r := byCmd["gathering complete"]; r.N != 2 || r.ItemsWritten < 3 {
		t.Errorf("completion: %+v, want 2 samples", r)
	}
	// An observation's ⚡ to every player is a game-level grant on the
	// Obelisk: it writes the Obelisk, the observer and the entry, however
	// many players there are.
	if r := byCmd["observe (5 players)"]; r.N != 1 || r.ItemsWritten != 3 {
		t.Errorf("observation: %+v, want 1 sample writing the Obelisk, the observer and the entry", r)
	}
	// A gift writes giver, receiver and the log entry; an executed trade
	// writes both players, the trade and the log entry.
	if g := byCmd["gift"]; g.ItemsWritten != 3 {
		t.Errorf("gift wrote %.2f items, want 3", g.ItemsWritten)
	}
	if a := byCmd["trade accept"]; a.ItemsWritten != 4 {
		t.Errorf("trade accept wrote %.2f items, want 4", a.ItemsWritten)
	}
	// Five players make two duels (the fifth has no partner): each is
	// requested, accepted, selected by both, bet on in four moves (raise,
	// match, two passes) and played duelPlayMoves moves before a forfeit
	// ends it, unless a hand emptied first.
	for cmd, want := range map[string]int{cmdDuelRequest: 2, cmdDuelAccept: 2, cmdSelect: 4, cmdBet: 8} {
		if r := byCmd[cmd]; r.N != want {
			t.Errorf("%s: %d samples, want %d", cmd, r.N, want)
		}
	}
	if plays := byCmd[cmdPlay].N + byCmd[cmdChoice].N; plays < 2 || plays > 2*duelPlayMoves {
		t.Errorf("%d play-phase moves in two duels, want 2 to %d", plays, 2*duelPlayMoves)
	}
	// A move reads the match and the mover in one request and commits the
	// match and its log entry in another.
	if r := byCmd[cmdPlay]; r.Requests < 2 || r.ItemsWritten < 2 {
		t.Errorf("a play wrote %.2f items in %.2f requests; want at least the match and the log entry in 2", r.ItemsWritten, r.Requests)
	}
	// Issue 16, acceptance 1: a move writes the match item and its log
	// entry, one write unit each in a transaction, whatever the match's
	// length: the 5th, 6th and 500th moves cost the same, at most 4.1 WCU.
	m5, m6, m500 := byCmd[cmdMove5], byCmd[cmdMove6], byCmd[cmdMove500]
	if m5.N != 1 || m500.N != 1 || m5.WriteUnits > 4.1 || m6.WriteUnits != m500.WriteUnits || m500.WriteUnits > 4.1 || m500.ReadUnits > m6.ReadUnits {
		t.Errorf("moves 5, 6 and 500 cost %.2f, %.2f and %.2f WCU (%.2f, %.2f, %.2f RCU); want the same, at most 4.1",
			m5.WriteUnits, m6.WriteUnits, m500.WriteUnits, m5.ReadUnits, m6.ReadUnits, m500.ReadUnits)
	}
	// A forfeit in a duel ends it: the winner is paid the pool in the same
	// commit (match, log entry, winner).
	if r := byCmd[cmdForfeit]; r.N > 0 && r.ItemsWritten < 3 {
		t.Errorf("a settling forfeit wrote %.2f items, want the match, the log entry and the winner", r.ItemsWritten)
	}
	var buf bytes.Buffer
	Print(&buf, rows, nil)
	if !strings.Contains(buf.String(), "roll 2d6") {
		t.Fatalf("table misses a command:\n%s", buf.String())
	}
}
