package nomic

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// created is a Wednesday: round 1's turn 1 begins Monday 2026-03-02 22:00
// CST, turn 2 on 2026-03-09 22:00 CDT (daylight saving began on the 8th).
var created = chicago(2026, 2, 25, 15, 0)

func chicago(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, calendar.Chicago())
}

func turnsRuleset(t tb) *ruleset.Ruleset {
	t.Helper()
	rs, err := ruleset.Load("turns")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// game is a State with players a..e (names Ada, Bea, Cy, Dee, Eve) joined
// at creation, and the ruleset in force.
type game struct {
	t  tb
	s  *State
	rs *ruleset.Ruleset
}

var names = map[string]string{"a": "Ada", "b": "Bea", "c": "Cy", "d": "Dee", "e": "Eve", "f": "Fox"}

// tb is what both *testing.T and *rapid.T provide.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func newGame(t tb, ids ...string) *game {
	t.Helper()
	rs := turnsRuleset(t)
	s, err := New(rs, created)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, err := s.Join(id, names[id], created); err != nil {
			t.Fatal(err)
		}
	}
	return &game{t: t, s: s, rs: rs}
}

// turn returns the calendar turn with the given ordinal of the current round.
func (g *game) turn(ord int) (begin, middle, end time.Time) {
	tu := turnOf(g.s.Round.Start, ord)
	return tu.Begin, tu.Middle, tu.End
}

// inFirstHalf is an hour into turn ord.
func (g *game) inFirstHalf(ord int) time.Time { b, _, _ := g.turn(ord); return b.Add(time.Hour) }

func (g *game) propose(id, by string, at time.Time, changes ...RuleChange) Proposal {
	g.t.Helper()
	if len(changes) == 0 {
		changes = []RuleChange{{Op: RuleEnacted, Text: "Proposal " + id + " was here."}}
	}
	p, err := g.s.Submit(Submission{ID: id, Changes: changes}, by, at, g.rs)
	if err != nil {
		g.t.Fatalf("Submit %s by %s: %v", id, by, err)
	}
	return p
}

func (g *game) vote(prop string, at time.Time, support bool, voters ...string) {
	g.t.Helper()
	for _, v := range voters {
		if err := g.s.Vote(prop, v, support, at); err != nil {
			g.t.Fatalf("Vote %s by %s: %v", prop, v, err)
		}
	}
}

func (g *game) advance(now time.Time, src *script) []Event {
	g.t.Helper()
	if src == nil {
		src = &script{}
	}
	rs, evs, err := g.s.Advance(now, g.rs, src, nil)
	if err != nil {
		g.t.Fatal(err)
	}
	g.rs = rs
	return evs
}

func (g *game) points(id string) int { return g.s.Player(id).Points }

// script is a fair.Source returning fixed values (modulo n), then 0, and
// recording what was asked.
type script struct {
	vals  []int
	asked []int
}

func (s *script) Intn(purpose string, n int) int {
	if n < 1 || purpose == "" {
		panic("Intn: bad call")
	}
	s.asked = append(s.asked, n)
	if len(s.vals) == 0 {
		return 0
	}
	v := s.vals[0] % n
	s.vals = s.vals[1:]
	return v
}

type randSource struct{ r *rand.Rand }

func (s randSource) Intn(purpose string, n int) int {
	if n < 1 || purpose == "" {
		panic("Intn: bad call")
	}
	return s.r.IntN(n)
}

// code returns the rule error code of err, or "" if err is not one.
func code(err error) string {
	var e *rules.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func wantCode(t testing.TB, err error, want string) {
	t.Helper()
	if code(err) != want {
		t.Fatalf("err = %v, want code %s", err, want)
	}
}

func kinds(evs []Event, kind string) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}
