package reactions_test

import (
	"context"
	"encoding/json"
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
