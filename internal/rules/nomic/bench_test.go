package nomic

import (
	"encoding/json"
	"fmt"
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

func clone(b *testing.B, s *State) *State {
	raw, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	var out State
	if err := json.Unmarshal(raw, &out); err != nil {
		b.Fatal(err)
	}
	return &out
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
	base := g.s
	for b.Loop() {
		b.StopTimer()
		g.s = clone(b, base)
		b.StartTimer()
		if _, err := g.s.Submit(Submission{ID: "new", Changes: []RuleChange{{Op: RuleAmended, Rule: 210, Text: "x"}}}, "p050", at4, g.rs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRequestJudgment100Players(b *testing.B) {
	g, at := bigGame(b)
	base := g.s
	src := &script{vals: []int{17}}
	for b.Loop() {
		b.StopTimer()
		g.s = clone(b, base)
		src.vals = []int{17}
		b.StartTimer()
		if _, _, err := g.s.RequestJudgment(Request{Statement: "s", Mentioned: []string{"p001", "p002"}}, "p000", at, g.rs, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTurnEnd100Players(b *testing.B) {
	g, _ := bigGame(b)
	_, _, end := g.turn(3)
	g.advance(end.Add(-7*24*time.Hour), nil) // turns 1 and 2 end; turn 3's is the one measured
	base, rs := g.s, g.rs
	for b.Loop() {
		b.StopTimer()
		s := clone(b, base)
		b.StartTimer()
		_, evs, err := s.Advance(end, rs, &script{}, nil)
		if err != nil || len(kinds(evs, EvProposalAdopted)) != 100 {
			b.Fatalf("turn end: %v, %d adopted", err, len(kinds(evs, EvProposalAdopted)))
		}
	}
}
