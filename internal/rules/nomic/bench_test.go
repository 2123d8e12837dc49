package nomic

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// The rules-level cost of a 100-player game's commands (issue 14,
// acceptance 6 measures them end to end; these isolate the rules): a game
// with 100 active players in the pool and, in turn 3, one proposal from
// each, every one voted on by everyone.
func bigGame(b *testing.B) (*game, time.Time) {
	g := newGame(b)
	g.rs.Turns.WinPoints = 1 << 30 // nobody wins mid-benchmark
	for i := range 100 {
		id := fmt.Sprintf("p%03d", i)
		g.s.Join(id, "Player "+id, created)
		g.s.EnterPool(id, created)
	}
	at := g.inFirstHalf(3)
	for i, p := range g.s.Players {
		if _, err := g.s.Submit(Submission{ID: fmt.Sprintf("prop%03d", i), Changes: []RuleChange{{Op: RuleEnacted, Text: "x"}}}, p.ID, at, g.rs); err != nil {
			b.Fatal(err)
		}
	}
	for _, pr := range g.s.Proposals {
		for j, p := range g.s.Players {
			if err := g.s.Vote(pr.ID, p.ID, j%3 != 0, at); err != nil {
				b.Fatal(err)
			}
		}
	}
	return g, at
}

// The benchmarks below change the game, so each iteration needs the game
// as it was. testing.B.Loop runs until the *timed* part has run its target
// time, so a reset done with the timer stopped that costs far more than the
// command (a JSON clone of this game costs some 15-190 ms; a Submit a few
// microseconds) made `make bench` spend more than 12 minutes here (52,194
// clones for Submit alone). So each resets cheaply instead: a Submit or a
// Request for Judgment is undone in place (what it appends is cut off, what
// it moved is put back), timed, as it costs next to nothing; a turn end,
// which changes every player and proposal, runs on a deep copy (copyState,
// a reflection walk: no encoding) taken with the timer stopped, a fraction
// of the turn end itself. Each benchmark checks at the end that the game
// it started from is unchanged, so no reset leaks into the next iteration.

// snapshot is s as JSON, to check a benchmark left its base unchanged.
func snapshot(b *testing.B, s *State) string {
	raw, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	return string(raw)
}

func unchanged(b *testing.B, s *State, want string) {
	if got := snapshot(b, s); got != want {
		b.Fatal("the benchmark's reset left the game changed")
	}
}

// copyState is a deep copy of s: every slice, map and pointer reachable
// through exported fields is copied, as a JSON round trip would, without
// the encoding. The unexported player index is left to be rebuilt.
func copyState(s *State) *State {
	out := deepCopy(reflect.ValueOf(*s)).Interface().(State)
	out.byID = nil
	return &out
}

func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(deepCopy(v.Elem()))
		return out
	case reflect.Struct:
		// A copy by value carries every field (time.Time's unexported
		// ones too); the exported ones are then copied deep.
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return out
	}
	return v
}

func BenchmarkVote100Players(b *testing.B) {
	g, at := bigGame(b)
	for i := 0; b.Loop(); i++ {
		if err := g.s.Vote("prop050", "p050", i%2 == 0, at); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSubmit100Players(b *testing.B) {
	g, _ := bigGame(b)
	at4 := g.inFirstHalf(4)
	s := g.s
	want := snapshot(b, s)
	props, seq := len(s.Proposals), s.NextSeq
	for b.Loop() {
		if _, err := s.Submit(Submission{ID: "new", Changes: []RuleChange{{Op: RuleAmended, Rule: 210, Text: "x"}}}, "p050", at4, g.rs); err != nil {
			b.Fatal(err)
		}
		// Undo it: a Submit appends the proposal and counts its sequence.
		s.Proposals, s.NextSeq = s.Proposals[:props], seq
	}
	unchanged(b, s, want)
}

func BenchmarkRequestJudgment100Players(b *testing.B) {
	g, at := bigGame(b)
	s := g.s
	want := snapshot(b, s)
	cases, next := len(s.Cases), s.NextCase
	players, size := slices.Clone(s.Players), s.PoolSize
	src := &script{vals: []int{17}}
	for b.Loop() {
		src.vals = []int{17}
		if _, _, err := s.RequestJudgment(Request{Statement: "s", Mentioned: []string{"p001", "p002"}}, "p000", at, g.rs, src); err != nil {
			b.Fatal(err)
		}
		// Undo it: the case is appended and numbered, its Judge drawn
		// out of the pool (the last slot's member moved into theirs).
		s.Cases, s.NextCase = s.Cases[:cases], next
		copy(s.Players, players)
		s.PoolSize = size
	}
	unchanged(b, s, want)
}

func BenchmarkTurnEnd100Players(b *testing.B) {
	g, _ := bigGame(b)
	_, _, end := g.turn(3)
	g.advance(end.Add(-7*24*time.Hour), nil) // turns 1 and 2 end; turn 3's is the one measured
	base, rs := g.s, g.rs
	want := snapshot(b, base)
	for b.Loop() {
		b.StopTimer()
		s := copyState(base)
		b.StartTimer()
		_, evs, err := s.Advance(end, rs, &script{}, nil)
		if err != nil || len(kinds(evs, EvProposalAdopted)) != 100 {
			b.Fatalf("turn end: %v, %d adopted", err, len(kinds(evs, EvProposalAdopted)))
		}
	}
	unchanged(b, base, want)
}
