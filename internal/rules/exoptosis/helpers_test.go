package exoptosis

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

var t0 = time.Date(2025, 3, 3, 12, 0, 0, 0, time.UTC)

func gilded(t testing.TB) *ruleset.Ruleset {
	t.Helper()
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// randSource is a seeded fair.Source for tests.
type randSource struct{ r *rand.Rand }

func newRand(seed uint64) *randSource {
	return &randSource{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (s *randSource) Intn(purpose string, n int) int {
	if n < 1 || purpose == "" {
		panic("Intn: bad call")
	}
	return s.r.IntN(n)
}

// script is a fair.Source returning fixed values (modulo n) and recording
// what was asked; 0 when the script runs out.
type script struct {
	vals  []int
	asked []string
}

func (s *script) Intn(purpose string, n int) int {
	if n < 1 || purpose == "" {
		panic("Intn: bad call")
	}
	s.asked = append(s.asked, purpose)
	if len(s.vals) == 0 {
		return 0
	}
	v := s.vals[0] % n
	s.vals = s.vals[1:]
	return v
}

// part is a participant for playing: its hand and deck (the deck defaults
// to the hand, i.e. nothing left to add or draw).
type part struct {
	id    string
	hand  []string
	deck  []string
	chips int
}

// playing builds a match in the play phase, turn order as given, first
// participant to move, with pile as the played cards.
func playing(pile []string, ps ...part) *Match {
	m := &Match{ID: "m", Phase: PhasePlay, Started: t0, TurnStart: t0, Pile: append([]string{}, pile...)}
	for _, p := range ps {
		deck := p.deck
		if deck == nil {
			deck = p.hand
		}
		m.Participants = append(m.Participants, Participant{
			ID: p.id, Deck: append([]string{}, deck...), Hand: append([]string{}, p.hand...),
			Chips: p.chips, Selected: true, Status: StatusActive,
		})
		m.Order = append(m.Order, p.id)
	}
	return m
}

func apply(t *testing.T, m *Match, rs *ruleset.Ruleset, mv Move, src ...*script) []Event {
	t.Helper()
	var s = &script{}
	if len(src) > 0 {
		s = src[0]
	}
	evs, err := Apply(m, rs, mv, t0.Add(time.Minute), s)
	if err != nil {
		t.Fatalf("Apply(%+v): %v", mv, err)
	}
	return evs
}

func refuse(t *testing.T, m *Match, rs *ruleset.Ruleset, mv Move, code string) *rules.Error {
	t.Helper()
	evs, err := Apply(m, rs, mv, t0.Add(time.Minute), &script{})
	var re *rules.Error
	if !errors.As(err, &re) {
		t.Fatalf("Apply(%+v) = %v, %v; want a *rules.Error %s", mv, evs, err, code)
	}
	if re.Code != code {
		t.Fatalf("Apply(%+v) refused %v; want code %s", mv, re, code)
	}
	return re
}

func hand(t *testing.T, m *Match, id string) []string {
	t.Helper()
	p, ok := m.Participant(id)
	if !ok {
		t.Fatalf("no participant %s", id)
	}
	return p.Hand
}

func whoseTurn(m *Match) string {
	if c := m.current(); c != nil {
		return c.ID
	}
	return ""
}

func cards(s string) []string { return strings.Split(s, ",") }
