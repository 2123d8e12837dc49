package httpapi_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

const cy = "discord:4000"

// suitCards is "lo of s" .. "hi of s".
func suitCards(s string, lo, hi int) []string {
	var out []string
	for v := lo; v <= hi; v++ {
		out = append(out, fmt.Sprintf("%d of %s", v, s))
	}
	return out
}

// enrolAPI joins id (unless it is ada, who withGame joined) and has the
// admin grant the cards and Chips, all over the API.
func (e *env) enrolAPI(id string, cards []string, chips int) {
	e.T.Helper()
	if id != ada {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: id, Idem: "join-" + id}), http.StatusOK)
	}
	g := gildedhall.Grant{Player: id, Chips: chips, Reason: "exoptosis test"}
	for _, c := range cards {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
	}
	e.mustStatus(e.Post("/v1/games/"+gameID+"/grants", "grant-"+id, g), http.StatusOK)
}

func (e *env) match(id, viewer string) gildedhall.MatchView {
	e.T.Helper()
	var v gildedhall.MatchView
	e.mustStatus(e.Do(apitest.Call{Method: "GET", Path: "/v1/games/" + gameID + "/matches/" + id, Actor: viewer}), http.StatusOK).Decode(e.T, &v)
	return v
}

var moveN int

// moveAPI posts a move and returns the response.
func (e *env) moveAPI(actor, id string, mv exoptosis.Move) *apitest.Response {
	e.T.Helper()
	moveN++
	body := struct {
		Kind    string   `json:"kind"`
		Card    string   `json:"card,omitempty"`
		Cards   []string `json:"cards,omitempty"`
		Target  string   `json:"target,omitempty"`
		Targets []string `json:"targets,omitempty"`
		Amount  int      `json:"amount,omitempty"`
	}{mv.Kind, mv.Card, mv.Cards, mv.Target, mv.Targets, mv.Amount}
	return e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/matches/" + id + "/moves", Actor: actor,
		Idem: fmt.Sprintf("move-%d", moveN), Body: body})
}

func (e *env) mustMove(actor, id string, mv exoptosis.Move) gildedhall.MoveResult {
	e.T.Helper()
	var res gildedhall.MoveResult
	e.mustStatus(e.moveAPI(actor, id, mv), http.StatusOK).Decode(e.T, &res)
	return res
}

func (e *env) wantCode(r *apitest.Response, status int, code string) {
	e.T.Helper()
	if p := r.Problem(e.T); r.Status != status || p.Code != code {
		e.T.Fatalf("got %d %s (%s), want %d %s", r.Status, p.Code, p.Detail, status, code)
	}
}

// playOut makes random legal moves (never forfeit or terminate; betting
// passes or matches) through the API until the match is over.
func (e *env) playOut(id string, rng *rand.Rand) gildedhall.MatchView {
	e.T.Helper()
	for range 3000 {
		v := e.match(id, "")
		if v.Status != gildedhall.MatchPlaying {
			return v
		}
		mover := v.Movers[0]
		lv := e.match(id, mover)
		var choices []exoptosis.Move
		for _, m := range lv.LegalMoves {
			if m.Kind != "forfeit" && m.Kind != "terminate" {
				choices = append(choices, m)
			}
		}
		mv := exoptosis.Move{Kind: "forfeit"}
		switch {
		case len(choices) == 0:
		case lv.Phase == "betting":
			mv = choices[0]
			for _, c := range choices {
				if c.Kind == "pass" || c.Kind == "match" {
					mv = c
				}
			}
		default:
			mv = choices[rng.IntN(len(choices))]
		}
		e.mustMove(mover, id, mv)
	}
	e.T.Fatalf("match %s did not end", id)
	return gildedhall.MatchView{}
}

// X11, X8 over the API: a three-player duel with bets runs to a winner who
// is paid the pool; every exchange is checked against openapi.yaml.
func TestX11_ThreePlayerDuelOverTheAPI(t *testing.T) {
	e := withGame(t)
	e.enrolAPI(ada, suitCards("Hearts", 2, 10), 10)
	e.enrolAPI(bob, suitCards("Clubs", 2, 10), 10)
	e.enrolAPI(cy, suitCards("Spades", 2, 10), 10)
	base := "/v1/games/" + gameID

	var d gildedhall.MatchView
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/duels", Actor: ada, Idem: "duel",
		Body: gildedhall.RequestDuel{Invitees: []string{bob, cy}}}), http.StatusCreated).Decode(t, &d)
	if d.Status != gildedhall.MatchRequested || !slices.Equal(d.WaitingFor, []string{bob, cy}) {
		t.Fatalf("the request waits for both invitees: %+v", d)
	}
	e.wantCode(e.moveAPI(ada, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Hearts", 2, 5)}), http.StatusConflict, "match_not_started")
	e.wantCode(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/" + d.ID + "/answer", Actor: bob, Idem: "no-answer", Body: map[string]any{}, Bad: true}),
		http.StatusBadRequest, "invalid_request")
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/join", Actor: "discord:5000", Idem: "join-dee"}), http.StatusOK)
	e.wantCode(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/" + d.ID + "/answer", Actor: "discord:5000", Idem: "intruder", Body: map[string]bool{"accept": true}}),
		http.StatusForbidden, "not_invited")
	e.wantCode(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/dnothing/answer", Actor: bob, Idem: "nothing", Body: map[string]bool{"accept": true}}),
		http.StatusNotFound, "match_not_found")
	for _, p := range []string{bob, cy} {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/" + d.ID + "/answer", Actor: p, Idem: "accept-" + p,
			Body: map[string]bool{"accept": true}}), http.StatusOK)
	}
	e.wantCode(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/" + d.ID + "/answer", Actor: bob, Idem: "again", Body: map[string]bool{"accept": true}}),
		http.StatusConflict, "duel_closed")

	// Selection: the viewer sees their own hand and legal moves; others' are hidden.
	e.mustMove(ada, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Hearts", 2, 7)})
	if v := e.match(d.ID, bob); v.Participants[0].Hand != nil || !v.Participants[0].Hidden || v.LegalMoves[0].Kind != "select" {
		t.Fatalf("before the reveal Bo sees Ada's hand hidden and can select: %+v", v)
	}
	e.mustMove(bob, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Clubs", 2, 6)})
	e.mustMove(cy, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Spades", 2, 5)})

	// Betting (X8): Ada raises to 3, Bo matches, Cy raises to 5, both match.
	e.wantCode(e.moveAPI(bob, d.ID, exoptosis.Move{Kind: "pass"}), http.StatusConflict, "not_your_turn")
	e.mustMove(ada, d.ID, exoptosis.Move{Kind: "raise", Amount: 3})
	e.mustMove(bob, d.ID, exoptosis.Move{Kind: "match"})
	e.mustMove(cy, d.ID, exoptosis.Move{Kind: "raise", Amount: 5})
	e.mustMove(ada, d.ID, exoptosis.Move{Kind: "match"})
	e.mustMove(bob, d.ID, exoptosis.Move{Kind: "match"})
	if got := e.player(gameID, ada).Inventory.Chips; got != 5 {
		t.Fatalf("bets leave the inventory at once: Ada holds %d Chips, want 5", got)
	}
	end := e.playOut(d.ID, rand.New(rand.NewPCG(1, 2)))
	if end.Status != gildedhall.MatchEnded || end.Winner == "" || end.Pool != 15 {
		t.Fatalf("the duel ends with a winner of the pool of 15: %+v", end)
	}
	if got := e.player(gameID, end.Winner).Inventory.Chips; got != 20 {
		t.Fatalf("the winner %s holds %d Chips, want 5 + 15", end.Winner, got)
	}
	e.wantCode(e.moveAPI(end.Winner, d.ID, exoptosis.Move{Kind: "forfeit"}), http.StatusConflict, "match_over")

	var rp gildedhall.MatchReplay
	e.mustStatus(e.Get(base+"/matches/"+d.ID+"/replay"), http.StatusOK).Decode(t, &rp)
	if len(rp.Log) != end.Moves || len(rp.Decks) != 3 || rp.Winner != end.Winner || rp.Log[0].Move.Kind != "select" {
		t.Fatalf("the replay lists every move: %d entries for %d moves, %+v", len(rp.Log), end.Moves, rp)
	}
	var list struct{ Matches []gildedhall.MatchSummary }
	e.mustStatus(e.Get(base+"/matches?player="+cy+"&status=ended&kind=duel"), http.StatusOK).Decode(t, &list)
	if len(list.Matches) != 1 || list.Matches[0].ID != d.ID || list.Matches[0].Winner != end.Winner {
		t.Fatalf("the list shows the ended duel: %+v", list)
	}
	e.wantCode(e.Do(apitest.Call{Method: "GET", Path: base + "/matches?status=over", Bad: true}), http.StatusBadRequest, "invalid_request")
	e.wantCode(e.Get(base+"/matches/nope"), http.StatusNotFound, "match_not_found")
}

// X7 over the API: a player who does not move for 24 hours is skipped when
// the clock passes the deadline; the dev clock's answer says what ran.
func TestX7_TurnSkippedAfter24HoursOverTheAPI(t *testing.T) {
	e := withGame(t)
	e.enrolAPI(ada, suitCards("Hearts", 2, 10), 4)
	e.enrolAPI(bob, suitCards("Clubs", 2, 10), 4)
	base := "/v1/games/" + gameID
	var d gildedhall.MatchView
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/duels", Actor: ada, Idem: "duel",
		Body: gildedhall.RequestDuel{Invitees: []string{bob}}}), http.StatusCreated).Decode(t, &d)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: base + "/duels/" + d.ID + "/answer", Actor: bob, Idem: "yes",
		Body: map[string]bool{"accept": true}}), http.StatusOK)
	e.mustMove(ada, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Hearts", 2, 6)})
	e.mustMove(bob, d.ID, exoptosis.Move{Kind: "select", Cards: suitCards("Clubs", 2, 6)})
	v := e.match(d.ID, "")
	for v.Phase == "betting" {
		e.mustMove(v.Turn, d.ID, exoptosis.Move{Kind: "pass"})
		v = e.match(d.ID, "")
	}
	if v.Phase != "play" || v.Deadline == nil || !v.Deadline.Equal(v.TurnStart.Add(24*time.Hour)) {
		t.Fatalf("play with a 24-hour turn deadline: %+v", v)
	}
	absent := v.Turn

	var ran struct {
		Now time.Time      `json:"now"`
		Ran game.DueReport `json:"ran"`
	}
	e.mustStatus(e.Post("/v1/dev/clock", "", map[string]string{"advance": "23h"}), http.StatusOK).Decode(t, &ran)
	if len(ran.Ran.Done["match"]) != 0 || e.match(d.ID, "").Turn != absent {
		t.Fatalf("nothing happens before 24 hours: %+v", ran.Ran)
	}
	e.mustStatus(e.Post("/v1/dev/clock", "", map[string]string{"advance": "2h"}), http.StatusOK).Decode(t, &ran)
	if !slices.Equal(ran.Ran.Done["match"], []string{gameID + "/" + d.ID}) {
		t.Fatalf("the clock's run skipped the turn: %+v", ran.Ran)
	}
	after := e.match(d.ID, "")
	if after.Turn == absent || after.Moves != v.Moves+1 {
		t.Fatalf("%s's turn was skipped (X7): turn %s, moves %d -> %d", absent, after.Turn, v.Moves, after.Moves)
	}
	var rp gildedhall.MatchReplay
	e.mustStatus(e.Get(base+"/matches/"+d.ID+"/replay"), http.StatusOK).Decode(t, &rp)
	last := rp.Log[len(rp.Log)-1]
	if !last.Timeout || !last.At.Equal(*v.Deadline) {
		t.Fatalf("the replay's last step is the timeout as of the deadline %v: %+v", v.Deadline, last)
	}
}

// X10 over the API: engaging needs 4 cards, and once per phase.
func TestX10_EngageOverTheAPI(t *testing.T) {
	e := withGame(t)
	e.enrolAPI(ada, suitCards("Hearts", 2, 4), 0)
	path := "/v1/games/" + gameID + "/battles/engage"
	r := e.Do(apitest.Call{Method: "POST", Path: path, Actor: ada, Idem: "e1"})
	if p := r.Problem(t); r.Status != http.StatusUnprocessableEntity || p.Code != "too_few_cards" || p.Extra["needed"] != float64(4) {
		t.Fatalf("3 cards cannot engage: %d %+v", r.Status, p)
	}
	e.mustStatus(e.Post("/v1/games/"+gameID+"/grants", "more", gildedhall.Grant{Player: ada, Cards: []gildedhall.CardGrant{{Name: "5 of Hearts"}}, Reason: "t"}), http.StatusOK)
	var be gildedhall.BattleEngagement
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: path, Actor: ada, Idem: "e2"}), http.StatusOK).Decode(t, &be)
	if be.Battle != "b-"+be.Period || !be.StartsAt.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) || be.DeckSize != 4 {
		t.Fatalf("engaged in the battle at the phase's end: %+v", be)
	}
	e.wantCode(e.Do(apitest.Call{Method: "POST", Path: path, Actor: ada, Idem: "e3", Body: map[string]any{}}), http.StatusConflict, "already_engaged")
}
