package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets/turns"
)

// Issue 24: the API lists a turns game's won rounds, newest first, a page
// at a time: each round's winner by display name and how it was won.
func TestTurnsRoundsAreListed(t *testing.T) {
	e := newEnv(t)
	const g = "nomic"
	base := "/v1/games/" + g
	e.mustStatus(e.Post("/v1/games", "create-nomic", game.CreateGame{ID: g, Ruleset: turns.ID}), http.StatusCreated)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/join", Actor: ada, Idem: "join-ada", Body: game.JoinGame{Name: "Ada"}}), http.StatusOK)
	type page struct {
		Rounds []turns.PastRound `json:"rounds"`
		Next   string            `json:"next_cursor"`
	}
	get := func(q string) page {
		t.Helper()
		var p page
		e.mustStatus(e.Get(base+"/turns/rounds"+q), http.StatusOK).Decode(t, &p)
		return p
	}
	if p := get(""); len(p.Rounds) != 0 || p.Next != "" {
		t.Fatalf("before any round is won: %+v", p)
	}
	done := func(r *apitest.Response) *apitest.Response {
		t.Helper()
		if r.Status != http.StatusOK && r.Status != http.StatusCreated {
			t.Fatalf("status %d; body %s", r.Status, r.Body)
		}
		return r
	}
	// Ada's paradox is ruled TRUE by the administrator (nobody is in the
	// pool, U7): Ada wins the round (U11). Twice, a round apart.
	n := 0
	winByParadox := func() int {
		t.Helper()
		n++
		var c turns.CaseView
		done(e.Do(apitest.Call{Method: "POST", Path: base + "/commands/judgment-request", Actor: ada, Idem: fmt.Sprint("paradox-", n),
			Body: turns.Judgment{Statement: "This statement is false.", Paradox: true}})).Decode(t, &c)
		done(e.Do(apitest.Call{Method: "POST", Path: base + "/commands/judge-rule", Actor: admin, Idem: fmt.Sprint("rule-", n),
			Body: turns.Ruling{Case: c.Number, Ruling: "TRUE"}}))
		return c.Number
	}
	first := winByParadox()
	p := get("")
	if len(p.Rounds) != 1 || p.Next != "" {
		t.Fatalf("after round 1 was won: %+v", p)
	}
	if r := p.Rounds[0]; r.Number != 1 || !r.Over || !r.Recorded || r.Winner != ada || r.WinnerName != "Ada" || r.WonBy != "paradox" || r.WinCase != first || r.EndedAt.IsZero() {
		t.Errorf("round 1: %+v", r)
	}
	done(e.Do(apitest.Call{Method: "POST", Path: base + "/commands/round-start", Actor: admin, Idem: "round-2"}))
	second := winByParadox()
	p = get("?limit=1")
	if len(p.Rounds) != 1 || p.Rounds[0].Number != 2 || p.Rounds[0].WinCase != second || p.Next == "" {
		t.Fatalf("the first page of one round: %+v", p)
	}
	p = get("?limit=1&cursor=" + p.Next)
	if len(p.Rounds) != 1 || p.Rounds[0].Number != 1 || p.Rounds[0].WinCase != first || p.Next != "" {
		t.Fatalf("the second page of one round: %+v", p)
	}
	e.wantCode(e.Get(base+"/turns/rounds?cursor=9"), http.StatusBadRequest, "invalid_cursor")
	e.wantCode(e.Get(base+"/turns/rounds?cursor=x"), http.StatusBadRequest, "invalid_cursor")
}
