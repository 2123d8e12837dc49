package reactions_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"croupier/internal/reactions"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

var t0 = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

func TestRecord_AsOfReplaysChangesUpToTheMoment(t *testing.T) {
	var r reactions.Record
	steps := []reactions.Change{
		{At: t0, Op: reactions.OpSet, Up: []string{"d:1", "d:2", "d:2"}, Down: []string{"d:3"}},
		{At: t0.Add(time.Hour), Op: reactions.OpAdd, Down: []string{"d:1"}},
		{At: t0.Add(2 * time.Hour), Op: reactions.OpRemove, Up: []string{"d:2"}},
		{At: t0.Add(3 * time.Hour), Op: reactions.OpEdited},
		{At: t0.Add(4 * time.Hour), Op: reactions.OpDeleted},
	}
	for _, c := range steps {
		if err := r.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		at              time.Time
		up, down        []string
		edited, deleted bool
	}{
		{t0.Add(-time.Second), []string{}, []string{}, false, false},
		{t0, []string{"d:1", "d:2"}, []string{"d:3"}, false, false},
		{t0.Add(90 * time.Minute), []string{"d:1", "d:2"}, []string{"d:1", "d:3"}, false, false},
		{t0.Add(2 * time.Hour), []string{"d:1"}, []string{"d:1", "d:3"}, false, false},
		{t0.Add(3 * time.Hour), []string{"d:1"}, []string{"d:1", "d:3"}, true, false},
		{t0.Add(5 * time.Hour), []string{}, []string{}, true, true},
		{time.Time{}, []string{}, []string{}, true, true},
	}
	for _, c := range cases {
		s := r.AsOf(c.at)
		if !slices.Equal(s.Up, c.up) || !slices.Equal(s.Down, c.down) || s.Edited != c.edited || s.Deleted != c.deleted {
			t.Errorf("as of %v: %+v, want up %v down %v edited %v deleted %v", c.at, s, c.up, c.down, c.edited, c.deleted)
		}
	}
	for _, bad := range []reactions.Change{{Op: "vote"}, {Op: reactions.OpAdd}} {
		if err := r.Apply(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestRecord_FoldsALongHistory(t *testing.T) {
	var r reactions.Record
	for i := range reactions.MaxChanges + 1 {
		op := reactions.OpAdd
		if i%2 == 1 {
			op = reactions.OpRemove
		}
		if err := r.Apply(reactions.Change{At: t0.Add(time.Duration(i) * time.Second), Op: op, Up: []string{"d:1"}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.Changes) > reactions.MaxChanges {
		t.Fatalf("%d changes kept", len(r.Changes))
	}
	// The last change (index MaxChanges, even) was an add.
	if s := r.AsOf(time.Time{}); !slices.Equal(s.Up, []string{"d:1"}) {
		t.Fatalf("after folding: %+v", s)
	}
}

func TestPushed_ReadsTheStoredRecordAsOfItsMoment(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	m := ref("77")
	k, err := reactions.Key("GAME#hall", m)
	if err != nil {
		t.Fatal(err)
	}
	var r reactions.Record
	r.Message = m
	r.Apply(reactions.Change{At: t0, Op: reactions.OpSet, Up: []string{"discord:1"}})
	r.Apply(reactions.Change{At: t0.Add(time.Hour), Op: reactions.OpAdd, Up: []string{"discord:2"}})
	data, _ := json.Marshal(r)
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: data}}}}); err != nil {
		t.Fatal(err)
	}
	s, err := reactions.Pushed{Store: st, PK: "GAME#hall", At: t0.Add(time.Minute)}.Reactions(ctx, m)
	if err != nil || !slices.Equal(s.Up, []string{"discord:1"}) {
		t.Fatalf("as of t0+1m: %+v, %v", s, err)
	}
	s, _ = reactions.Pushed{Store: st, PK: "GAME#hall"}.Reactions(ctx, m)
	if !slices.Equal(s.Up, []string{"discord:1", "discord:2"}) {
		t.Fatalf("latest: %+v", s)
	}
	if s, err := (reactions.Pushed{Store: st, PK: "GAME#other"}).Reactions(ctx, m); err != nil || len(s.Up) != 0 {
		t.Fatalf("another game's partition sees nothing: %+v, %v", s, err)
	}
	if _, err := (reactions.Pushed{Store: st, PK: "GAME#hall"}).Reactions(ctx, reactions.MessageRef{Platform: "discord", Channel: "a#b", Message: "1"}); err == nil {
		t.Fatal("a '#' in an id is refused")
	}
}

// TestT5_ASealedRecordIsFinalAsOfItsMoment: once sealed at a moment, the
// record refuses any change stamped at or before it (a *LateError naming
// the moment) and takes later ones; sealing again at that moment or an
// earlier one changes nothing.
func TestT5_ASealedRecordIsFinalAsOfItsMoment(t *testing.T) {
	var r reactions.Record
	if err := r.Apply(reactions.Change{At: t0, Op: reactions.OpSet, Up: []string{"d:1"}}); err != nil {
		t.Fatal(err)
	}
	end := t0.Add(time.Hour)
	if !r.Seal(end) || !r.CountedAt.Equal(end) || !r.Final(end) || !r.Final(t0) || r.Final(end.Add(time.Nanosecond)) {
		t.Fatalf("sealed: %+v", r)
	}
	if r.Seal(end) || r.Seal(t0) {
		t.Fatal("sealing again at or before the sealed moment changed the record")
	}
	for _, at := range []time.Time{end, end.Add(-time.Millisecond)} {
		err := r.Apply(reactions.Change{At: at, Op: reactions.OpAdd, Down: []string{"d:2"}})
		var late *reactions.LateError
		if !errors.As(err, &late) || !late.CountedAt.Equal(end) {
			t.Fatalf("a change at %v after the seal at %v: %v", at, end, err)
		}
	}
	if len(r.Changes) != 1 {
		t.Fatalf("a refused change was kept: %+v", r.Changes)
	}
	if err := r.Apply(reactions.Change{At: end.Add(time.Millisecond), Op: reactions.OpAdd, Down: []string{"d:2"}}); err != nil {
		t.Fatalf("a change after the sealed moment: %v", err)
	}
	if s := r.AsOf(end); !slices.Equal(s.Up, []string{"d:1"}) || len(s.Down) != 0 {
		t.Fatalf("as of the seal: %+v", s)
	}
}

// TestT5_FoldingASealedRecordKeepsWhatWasCounted: a sealed record whose
// history grows past MaxChanges with changes after the seal still reads,
// as of the sealed moment, exactly what was counted.
func TestT5_FoldingASealedRecordKeepsWhatWasCounted(t *testing.T) {
	var r reactions.Record
	// Before the seal: d:1 and d:2 for, d:3 against, then d:2 takes back
	// its 👍; one change was stamped by a clock ahead of the others (after
	// the end) and is not counted.
	end := t0.Add(time.Hour)
	for _, c := range []reactions.Change{
		{At: t0, Op: reactions.OpAdd, Up: []string{"d:1", "d:2"}},
		{At: end.Add(time.Second), Op: reactions.OpAdd, Up: []string{"d:9"}},
		{At: t0.Add(time.Minute), Op: reactions.OpAdd, Down: []string{"d:3"}},
		{At: t0.Add(2 * time.Minute), Op: reactions.OpRemove, Up: []string{"d:2"}},
	} {
		if err := r.Apply(c); err != nil {
			t.Fatal(err)
		}
	}
	counted := r.AsOf(end)
	r.Seal(end)
	for i := range 2 * reactions.MaxChanges {
		op := reactions.OpAdd
		if i%2 == 1 {
			op = reactions.OpRemove
		}
		if err := r.Apply(reactions.Change{At: end.Add(time.Duration(i+2) * time.Second), Op: op, Up: []string{"d:5"}}); err != nil {
			t.Fatal(err)
		}
		if len(r.Changes) > reactions.MaxChanges {
			t.Fatalf("%d changes kept", len(r.Changes))
		}
	}
	if s := r.AsOf(end); !slices.Equal(s.Up, counted.Up) || !slices.Equal(s.Down, counted.Down) {
		t.Fatalf("as of the seal after folding: %+v, counted %+v", s, counted)
	}
	if s := r.AsOf(time.Time{}); !slices.Equal(s.Up, []string{"d:1", "d:9"}) {
		t.Fatalf("latest after folding: %+v", s)
	}
}
