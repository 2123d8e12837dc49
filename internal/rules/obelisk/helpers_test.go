package obelisk

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

// monday is Monday 2026-11-30 00:00 UTC, the start of week 2026-W49.
var monday = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// gameStart is well before monday, so players who joined at it are
// reputable by monday (P4).
var gameStart = monday.AddDate(0, 0, -14)

func load(t testing.TB) *ruleset.Ruleset {
	t.Helper()
	rs, err := ruleset.Load("obelisk")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func envAt(rs *ruleset.Ruleset, season string, now time.Time) Env {
	return Env{RS: rs, Now: now, Season: season, GameStart: gameStart}
}

// newPlayer is a reputable member holding c.
func newPlayer(id string, c Components) *Player {
	return &Player{Player: players.Player{ID: id, Name: "Player " + id, Member: true, JoinedAt: gameStart}, Components: c}
}

// draw is one draw a script was asked for.
type draw struct {
	purpose string
	n       int
}

// script is a fair.Source returning the given die faces (1-based: face f
// is Intn value f-1) and recording what was asked. It fails the test if a
// face is out of range or the script runs out.
type script struct {
	t     testing.TB
	faces []int
	asked []draw
}

func dice(t testing.TB, faces ...int) *script { return &script{t: t, faces: faces} }

func (s *script) Intn(purpose string, n int) int {
	if n < 1 || purpose == "" {
		panic(fmt.Sprintf("Intn(%q, %d): bad call", purpose, n))
	}
	s.asked = append(s.asked, draw{purpose, n})
	if len(s.faces) == 0 {
		s.t.Fatalf("unexpected draw %q of 1d%d: the script has no more faces", purpose, n)
	}
	f := s.faces[0]
	s.faces = s.faces[1:]
	if f < 1 || f > n {
		s.t.Fatalf("scripted face %d is impossible on 1d%d (%s)", f, n, purpose)
	}
	return f - 1
}

// refused asserts err is a *rules.Error with code and returns it.
func refused(t testing.TB, err error, code string) *rules.Error {
	t.Helper()
	var re *rules.Error
	if !errors.As(err, &re) {
		t.Fatalf("want refusal %q, got %v", code, err)
	}
	if re.Code != code {
		t.Fatalf("want refusal %q, got %q: %s", code, re.Code, re.Message)
	}
	if re.Message == "" {
		t.Fatalf("refusal %q has no message", code)
	}
	return re
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// withRitual returns rs with one more ritual type, added the way an
// amendment adds it (a path-level change, RULINGS R4, O8).
func withRitual(t testing.TB, rs *ruleset.Ruleset, rtJSON string) *ruleset.Ruleset {
	t.Helper()
	var rt struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(rtJSON), &rt); err != nil {
		t.Fatal(err)
	}
	out, err := ruleset.Amend(rs, []byte(`[{"op":"add","path":"/obelisk/ritualTypes/`+rt.ID+`","value":`+rtJSON+`}]`))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
