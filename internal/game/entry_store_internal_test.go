package game

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"reflect"
	"strings"
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

// Issue 16: an entry over deflateAbove bytes (a move whose effect drew
// cards, a grant of many cards) is stored deflated within one write unit
// (issue 25: as the raw stream after a zero byte), and DecodeEntry reads
// it whole, as it reads issue 16's {"z": ...} form; a small entry stays
// plain. A deflated entry that inflates to another, or a corrupt one, is
// an error, not a panic.
func TestLargeEntryStoredDeflated(t *testing.T) {
	e := largeEntry()
	at := e.At
	plain, _ := json.Marshal(e)
	stored, err := encodeEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) <= deflateAbove || len(stored) > 700 || stored[0] != deflatedMark {
		t.Fatalf("an entry of %d bytes is stored as %d bytes: %.80q", len(plain), len(stored), stored)
	}
	back, err := DecodeEntry(stored)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(plain) {
		t.Errorf("the deflated entry reads back as\n%s\nwant\n%s", again, plain)
	}
	old, _ := json.Marshal(deflated{Z: stored[1:]})
	if e16, err := DecodeEntry(old); err != nil {
		t.Errorf("issue 16's form does not decode: %v", err)
	} else if again, _ := json.Marshal(e16); string(again) != string(plain) {
		t.Errorf("issue 16's form reads back as\n%s\nwant\n%s", again, plain)
	}
	if nested, err := DecodeEntry(append([]byte{deflatedMark}, rawDeflate(t, stored)...)); err == nil {
		t.Errorf("a deflated entry inside a deflated entry decodes: %+v", nested)
	}

	small := &Entry{ID: "01M8", Command: "join", CommandID: "cd92", Actor: "discord:1", At: at, Response: json.RawMessage(`{}`)}
	if b, _ := encodeEntry(small); string(b[:6]) == `{"z":"` {
		t.Errorf("a small entry is deflated: %s", b)
	}

	inner, _ := json.Marshal(deflated{Z: rawDeflate(t, old)})
	for name, b := range map[string][]byte{"nested": inner, "corrupt": []byte(`{"z":"AAAA"}`)} {
		if err := json.Unmarshal(b, &back); err == nil {
			t.Errorf("a %s deflated entry decodes without an error", name)
		}
	}
	if err := json.Unmarshal(inner, &back); err == nil || !strings.Contains(err.Error(), "another deflated") {
		t.Errorf("a deflated entry inside a deflated entry: %v", err)
	}
}

func rawDeflate(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestSpeed)
	if _, err := w.Write(b); err != nil || w.Close() != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// largeEntry is a move whose effect drew cards: five match events.
func largeEntry() *Entry {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	e := &Entry{ID: "01M8NTXDM0CERN97TEH19PNQ9P", Command: "match-target", CommandID: "4850d7199754fb767c9d1e1f7168f2aa", Actor: "discord:123456789012345678",
		Key: "1000293", At: at, Period: "2026-W49-I", RequestHash: "abfe07617aef61fd", Response: json.RawMessage(`{"match":"d02177327dc75","steps":[{"n":10}]}`)}
	for _, kind := range []string{"effect", "drew", "drew", "card_left", "turn_started"} {
		e.Events = append(e.Events, MakeEvent("match_"+kind, "discord:876543210987654321", map[string]any{
			"match": "d02177327dc75", "kind": kind, "participant": "discord:876543210987654321", "card": "Queen of Clubs", "at": at}))
	}
	return e
}

// BenchmarkEntryCodec is the commit's encoding and a reader's decoding of
// a large entry: deflated (as stored now) against plain (before).
func BenchmarkEntryCodec(b *testing.B) {
	e := largeEntry()
	for _, deflate := range []bool{true, false} {
		name := "plain"
		if deflate {
			name = "deflated"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				data, err := encodeEntry(e)
				if !deflate {
					data, err = json.Marshal(storedEntry{plainEntry: (*plainEntry)(e)})
				}
				if err != nil {
					b.Fatal(err)
				}
				var back Entry
				if err := json.Unmarshal(data, &back); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
