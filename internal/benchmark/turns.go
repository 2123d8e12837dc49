package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
)

// TurnsPlayers is the size of the benchmark's turns game (issue 14,
// acceptance 6: a 100-player game).
const TurnsPlayers = 100

// TurnsStart is the turns game's (manual) clock start: a Thursday, before
// round 1's first turn (Monday 7 December 2026, 22:00 CST).
var TurnsStart = time.Date(2026, 12, 3, 18, 0, 0, 0, calendar.Chicago())

// MeasureTurns plays a turns game of TurnsPlayers players, all in the
// Judicial Pool, over HTTP on st, and returns a row per command: n
// rule-change proposals (one each by n players), ten votes on each, n
// Requests for Judgment (each drawing its Judge from the pool), and the end
// of the turn they are decided in (the scheduler's run through the dev
// clock, which also ends the engine's period at that moment). n is capped
// at TurnsPlayers/2 so that every Request still finds a Judge.
func MeasureTurns(ctx context.Context, backend string, st store.Store, n int) ([]Row, error) {
	return MeasureTurnsWith(ctx, backend, st, n, TurnsPlayers)
}

// TurnsNameLength is the length of the benchmark's players' display names:
// long ones, as issue 22 measured (80 characters).
const TurnsNameLength = 80

// turnsName is player i's display name, TurnsNameLength characters long.
func turnsName(i int) string {
	s := fmt.Sprintf("Player %d ", i)
	for len(s) < TurnsNameLength {
		s += "abcdefghij"
	}
	return s[:TurnsNameLength]
}

// MeasureTurnsWith is MeasureTurns in a game of the given number of
// players (issue 22: what a command costs must not grow with them), with
// a row for entering the Judicial Pool too. Each size plays its own game
// ("nomic" at TurnsPlayers, "nomic-<players>" otherwise), so several sizes
// can share a store.
func MeasureTurnsWith(ctx context.Context, backend string, st store.Store, n, players int) ([]Row, error) {
	n = min(n, players/2)
	clk := clock.NewManual(TurnsStart)
	svc := rulesets.New(st, clk)
	m := &meter{cost: map[string]chan store.Cost{}, next: httpapi.New(svc, httpapi.Config{Keys: credential.Keys{credential.AnyKey(benchKey)}, ManualClock: clk})}
	srv := httptest.NewServer(m)
	defer srv.Close()
	rec := newRecorder()
	seq := 0
	call := func(o op, key string) ([]byte, error) {
		seq++
		var body io.Reader
		if o.body != nil {
			b, _ := json.Marshal(o.body)
			body = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(ctx, o.method, srv.URL+o.path, body)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+benchKey)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(httpapi.HeaderActor, o.actor)
		req.Header.Set(httpapi.HeaderIdempotency, key)
		req.Header.Set(seqHeader, strconv.Itoa(seq))
		t0 := time.Now()
		resp, err := srv.Client().Do(req)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.command, err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		elapsed := time.Since(t0)
		cost := m.take(strconv.Itoa(seq))
		if resp.StatusCode != o.want {
			return nil, fmt.Errorf("%s %s: status %d, want %d: %s", o.method, o.path, resp.StatusCode, o.want, got)
		}
		if o.command != "" {
			rec.add(o.command, elapsed, cost)
		}
		return got, nil
	}
	id := "nomic"
	if players != TurnsPlayers {
		id = fmt.Sprint("nomic-", players)
	}
	g := "/v1/games/" + id
	cmd := func(name string) string { return g + "/commands/" + name }
	if _, err := call(op{"", "POST", "/v1/games", admin, game.CreateGame{ID: id, Ruleset: turns.ID}, 201}, "create"); err != nil {
		return nil, err
	}
	label := func(what string) string { return fmt.Sprintf("turns: %s (%d players)", what, players) }
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("discord:%d", 2000+i)
		for _, o := range []op{
			{"", "POST", g + "/join", ids[i], game.JoinGame{Name: turnsName(i)}, 200},
			{label("pool-enter"), "POST", cmd("pool-enter"), ids[i], nil, 200},
		} {
			if _, err := call(o, o.path+ids[i]); err != nil {
				return nil, err
			}
		}
	}
	// Into the first turn: proposals for it until its middle, Judges'
	// deadlines after its end.
	tu := calendar.TurnAt(TurnsStart).Next()
	if _, err := call(op{"", "POST", "/v1/dev/clock", admin, httpapi.ClockRequest{Set: &tu.Begin}, 200}, "clk-begin"); err != nil {
		return nil, err
	}
	for i := range n {
		o := op{label("proposal"), "POST", cmd("turns-propose"), ids[i], turns.Propose{Op: "enact", Text: fmt.Sprintf("Rule text %d.", i)}, 201}
		got, err := call(o, fmt.Sprint("prop-", i))
		if err != nil {
			return nil, err
		}
		var p turns.ProposalView
		if err := json.Unmarshal(got, &p); err != nil {
			return nil, err
		}
		for v := range 10 {
			voter := ids[(i+v)%players]
			o := op{label("vote"), "POST", cmd("turns-vote"), voter, turns.Ballot{Proposal: p.ID, Vote: []string{"for", "against"}[v%2]}, 200}
			if _, err := call(o, fmt.Sprintf("vote-%d-%d", i, v)); err != nil {
				return nil, err
			}
		}
	}
	for i := range n {
		o := op{label("request for judgment"), "POST", cmd("judgment-request"), ids[players-1-i],
			turns.Judgment{Statement: "Is this so?", Mentions: []string{ids[i]}}, 201}
		if _, err := call(o, fmt.Sprint("rfj-", i)); err != nil {
			return nil, err
		}
	}
	// To the turn's end: its middle first, unmeasured.
	if _, err := call(op{"", "POST", "/v1/dev/clock", admin, httpapi.ClockRequest{Set: &tu.Middle}, 200}, "clk-middle"); err != nil {
		return nil, err
	}
	end := tu.End
	what := label(fmt.Sprintf("turn end, %d proposals, %d votes; with the period end", n, 10*n))
	if _, err := call(op{what, "POST", "/v1/dev/clock", admin, httpapi.ClockRequest{Set: &end}, 200}, "clk-end"); err != nil {
		return nil, err
	}
	return rec.rows(backend, ""), nil
}
