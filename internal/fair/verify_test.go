package fair

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// gameLog plays a few commands over two periods and returns the seeds,
// commitments and draw log, as the game service would store them.
func gameLog(t *testing.T) (map[string]Seed, map[string]string, []Record) {
	t.Helper()
	seeds := map[string]Seed{"phase-1": testSeed(t, 10), "phase-2": testSeed(t, 11)}
	commits := map[string]string{}
	var recs []Record
	for _, period := range []string{"phase-1", "phase-2"} {
		commits[period] = seeds[period].Commitment()
		for c := 0; c < 3; c++ {
			d, err := NewDrawer(seeds[period], "gilded-hall", period, "cmd-"+string(rune('a'+c)))
			if err != nil {
				t.Fatal(err)
			}
			for k := 0; k < 4; k++ {
				d.Intn("pack-card", 54)
			}
			Chance(d, "holographic", 5)
			recs = append(recs, d.Records()...)
		}
	}
	return seeds, commits, recs // 2 periods x 3 commands x 5 draws = 30 records
}

func TestN2_RecordsReplayThroughVerify(t *testing.T) {
	seeds, commits, recs := gameLog(t)
	rep := Verify(seeds, commits, recs)
	if rep.Checked != 30 || rep.Pending != 0 || len(rep.Mismatches) != 0 || !rep.OK() {
		t.Errorf("Verify = %+v, want 30 checked, no mismatch", rep)
	}
	// Upper-case commitments (as some tools print them) are accepted.
	for p, c := range commits {
		commits[p] = string(upper(c))
	}
	if rep := Verify(seeds, commits, recs); !rep.OK() || rep.Checked != 30 {
		t.Errorf("upper-case commitments: %+v", rep)
	}
}

func upper(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return b
}

func TestN2_AlteredRecordIsReportedExactly(t *testing.T) {
	seeds, commits, recs := gameLog(t)
	for _, i := range []int{0, 13, 29} {
		tampered := append([]Record(nil), recs...)
		orig := tampered[i].Value
		tampered[i].Value = (orig + 1) % tampered[i].N
		rep := Verify(seeds, commits, tampered)
		want := []Mismatch{{Record: tampered[i], Want: orig, Reason: ReasonValueDiffers}}
		if rep.Checked != 30 || !reflect.DeepEqual(rep.Mismatches, want) {
			t.Errorf("tampered record %d: got %+v, want exactly %+v", i, rep.Mismatches, want)
		} else if s, w := rep.Mismatches[0].String(), fmt.Sprintf("index %d purpose %q (n=%d): value differs: logged %d, recomputed %d", tampered[i].Index, tampered[i].Purpose, tampered[i].N, tampered[i].Value, orig); !strings.Contains(s, w) {
			t.Errorf("description %q lacks %q", s, w)
		}
	}
}

func TestN2_VerifyPendingAndBadSeeds(t *testing.T) {
	seeds, commits, recs := gameLog(t)

	t.Run("seed not yet revealed is pending, not a mismatch", func(t *testing.T) {
		rep := Verify(map[string]Seed{"phase-1": seeds["phase-1"]}, commits, recs)
		if rep.Checked != 15 || rep.Pending != 15 || !rep.OK() || !reflect.DeepEqual(rep.PendingPeriods, []string{"phase-2"}) {
			t.Errorf("got %+v", rep)
		}
	})

	t.Run("revealed seed does not match commitment", func(t *testing.T) {
		wrong := map[string]Seed{"phase-1": seeds["phase-1"], "phase-2": testSeed(t, 99)}
		rep := Verify(wrong, commits, recs)
		if rep.OK() || !reflect.DeepEqual(rep.BadSeeds, []string{"phase-2"}) || len(rep.Mismatches) != 15 {
			t.Fatalf("got %+v", rep)
		}
		for _, m := range rep.Mismatches {
			if m.Record.Period != "phase-2" || m.Reason != ReasonSeedCommitment || m.Want != -1 {
				t.Errorf("mismatch %+v", m)
			}
		}
	})

	t.Run("bad seed is reported even with no records", func(t *testing.T) {
		rep := Verify(map[string]Seed{"phase-3": testSeed(t, 1)}, map[string]string{"phase-3": "00"}, nil)
		if rep.OK() || !reflect.DeepEqual(rep.BadSeeds, []string{"phase-3"}) {
			t.Errorf("got %+v", rep)
		}
	})

	t.Run("draws in a period with no commitment", func(t *testing.T) {
		rep := Verify(seeds, map[string]string{"phase-1": commits["phase-1"]}, recs)
		if len(rep.Mismatches) != 15 || rep.Mismatches[0].Reason != ReasonNoCommitment || rep.Checked != 30 {
			t.Errorf("got %+v", rep)
		}
		rep = Verify(map[string]Seed{}, map[string]string{"phase-1": commits["phase-1"]}, recs)
		if rep.Pending != 15 || len(rep.Mismatches) != 15 || rep.Mismatches[0].Reason != ReasonNoCommitment {
			t.Errorf("unrevealed and uncommitted: got %+v", rep)
		}
	})
}

// N1: nobody can reroll. A second record for the same draw slot (same
// command and index) is flagged even though each value is correct for its
// inputs (here the purpose differs, so both values recompute fine).
func TestN1_DuplicateDrawIndexIsFlagged(t *testing.T) {
	seeds, commits, recs := gameLog(t)
	redo := recs[2]
	redo.Purpose = "pack-card-again"
	redo.Value, _ = Draw(seeds[redo.Period], redo.Input)
	rep := Verify(seeds, commits, append(recs, redo))
	want := []Mismatch{{Record: redo, Want: -1, Reason: ReasonDuplicateIndex}}
	if !reflect.DeepEqual(rep.Mismatches, want) || rep.Checked != 31 {
		t.Errorf("got %+v, want %+v", rep, want)
	}
}

func TestVerifyInvalidRecord(t *testing.T) {
	seeds, commits, recs := gameLog(t)
	recs[4].N = 0
	rep := Verify(seeds, commits, recs)
	if len(rep.Mismatches) != 1 || rep.Mismatches[0].Reason != "invalid record: n must be >= 1 (number of outcomes), got 0" {
		t.Errorf("got %+v", rep.Mismatches)
	}
	if s := rep.Mismatches[0].String(); s == "" {
		t.Error("empty description")
	}
}
