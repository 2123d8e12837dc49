package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// Issue 4, acceptance 4, end to end on the local server with a manual
// clock: every step is a `croupier play` command against the real HTTP
// server (croupier serve's wiring).

// exoGame creates game "hall" with discord:1 as its admin (not a player).
func exoGame(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "hall")
	h.vars["CROUPIER_GAME"] = "hall"
	return h
}

// enrol joins id and has the admin grant the named cards (or n random
// ones) and Chips.
func (h *harness) enrol(id string, cards []string, random, chips int) {
	h.t.Helper()
	h.must("play", "--as", id, "join")
	args := []string{"play", "grant", id, "--reason", "Exoptosis test", "--chips", strconv.Itoa(chips)}
	for _, c := range cards {
		args = append(args, "--card", c)
	}
	if random > 0 {
		args = append(args, "--random-cards", strconv.Itoa(random))
	}
	h.must(args...)
}

func suitOf(s string, lo, hi int) []string {
	var out []string
	for v := lo; v <= hi; v++ {
		out = append(out, fmt.Sprintf("%d of %s", v, s))
	}
	return out
}

// view reads a match with --json as viewer ("" for the public view).
func (h *harness) view(id, viewer string) gildedhall.MatchView {
	h.t.Helper()
	args := []string{"play", "match", id, "--json"}
	if viewer != "" {
		args = append(args, "--as", viewer)
	} else {
		args = append(args, "--as", "")
	}
	var v gildedhall.MatchView
	if err := json.Unmarshal([]byte(h.must(args...)), &v); err != nil {
		h.t.Fatalf("match %s --json: %v", id, err)
	}
	return v
}

// cliMove spells a legal move as the CLI command a player would type.
func cliMove(id string, m exoptosis.Move) []string {
	switch m.Kind {
	case "select":
		return append([]string{"select", id}, m.Cards...)
	case "raise", "bet":
		return []string{"bet", id, "raise", strconv.Itoa(m.Amount)}
	case "match", "decline", "pass":
		return []string{"bet", id, m.Kind}
	case "play", "add", "give":
		return []string{m.Kind, id, m.Card}
	case "giver":
		return []string{"giver", id, m.Target}
	case "target":
		out := append([]string{"target", id}, m.Targets...)
		if m.Card != "" {
			out = append(out, "--card", m.Card)
		}
		return out
	}
	return []string{m.Kind, id}
}

// playOut plays the match to its end through the CLI: the one the match
// waits for makes a random legal move (selecting 4 cards, passing or
// matching bets), except that every skipEvery-th turn nobody moves and the
// clock is advanced 25 hours, so the scheduler skips the turn or chooses
// for the absent player (X7). It returns the final public view and the
// number of timeouts it caused.
func (h *harness) playOut(id string, rng *rand.Rand, skipEvery int) (gildedhall.MatchView, int) {
	h.t.Helper()
	timeouts := 0
	for step := 1; step <= 3000; step++ {
		v := h.view(id, "")
		if v.Status != gildedhall.MatchPlaying {
			return v, timeouts
		}
		if skipEvery > 0 && step%skipEvery == 0 {
			h.must("play", "clock", "--advance", "25h")
			timeouts++
			continue
		}
		mover := v.Movers[0]
		lv := h.view(id, mover)
		var choices []exoptosis.Move
		for _, m := range lv.LegalMoves {
			if m.Kind != "forfeit" && m.Kind != "terminate" {
				choices = append(choices, m)
			}
		}
		mv := exoptosis.Move{Kind: "forfeit"}
		switch {
		case len(choices) == 0:
		case choices[0].Kind == "select":
			if len(choices[0].Cards) >= 4 {
				mv = exoptosis.Move{Kind: "select", Cards: choices[0].Cards[:4]}
			}
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
		h.must(append([]string{"play", "--as", mover}, cliMove(id, mv)...)...)
	}
	h.t.Fatalf("match %s did not end", id)
	return gildedhall.MatchView{}, 0
}

var duelID = regexp.MustCompile(`duel (d[0-9a-f]{12})`)

// settlements returns the log entries holding the settlement of match id.
func (h *harness) settlements(id string) []game.Entry {
	h.t.Helper()
	var page game.LogPage
	if err := json.Unmarshal([]byte(h.must("play", "log", "--all", "--json")), &page); err != nil {
		h.t.Fatal(err)
	}
	var out []game.Entry
	for _, e := range page.Entries {
		for _, ev := range e.Events {
			var d struct{ Match string }
			_ = json.Unmarshal(ev.Data, &d)
			if ev.Type == "match_settled" && d.Match == id {
				out = append(out, e)
			}
		}
	}
	return out
}

func hasEventType(e game.Entry, typ string) bool {
	for _, ev := range e.Events {
		if ev.Type == typ {
			return true
		}
	}
	return false
}

// Acceptance 4: a three-player duel with bets runs to a winner, through
// the CLI: request, accept, select, bet, play; the winner is paid the pool;
// the replay lists the match move by move.
func TestAcceptance4_ThreePlayerDuelWithBets(t *testing.T) {
	h := exoGame(t)
	ada, bo, cy := "discord:2", "discord:3", "discord:4"
	h.enrol(ada, suitOf("Hearts", 2, 10), 0, 10)
	h.enrol(bo, suitOf("Clubs", 2, 10), 0, 10)
	h.enrol(cy, suitOf("Spades", 2, 10), 0, 10)

	out := h.must("play", "--as", ada, "duel", bo, cy)
	m := duelID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the request names the duel: %s", out)
	}
	id := m[1]
	contains(t, "duel request", out, "discord:2 asked discord:3 and discord:4 to duel "+id)
	// Bo answers without naming the duel: it is the only one waiting for him.
	contains(t, "accept", h.must("play", "--as", bo, "duel", "accept"), "accepted duel "+id+"; it waits for discord:4")
	contains(t, "last accept", h.must("play", "--as", cy, "duel", "accept", id), "duel "+id+" has started")

	out = h.must("play", "--as", ada, "match")
	contains(t, "match in selection", out, "Duel "+id+": playing, phase selection", "Your legal moves (discord:2):", "select 4 or more of: 2 of Hearts")
	h.must("play", "--as", ada, "select", id, "2 of hearts, 3 of hearts, 4 of hearts, 5 of hearts, 6 of hearts, 7 of hearts")
	contains(t, "hidden", h.must("play", "--as", bo, "match", id), "discord:2 (deck 9): selected, hidden until every hand is in")
	h.must("play", "--as", bo, "select", id, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs", "6 of Clubs")
	out = h.must("play", "--as", cy, "select", id, "2 of Spades", "3 of Spades", "4 of Spades", "5 of Spades")
	contains(t, "reveal", out, "every hand is in: hands revealed", "Now waiting for discord:2")

	// Betting (X8): out of turn is refused; raises are paid at once.
	r := h.cli("play", "--as", bo, "bet", id, "pass")
	if r.code != exitRefused || !strings.Contains(r.stderr, "[not_your_turn]") {
		t.Fatalf("Bo bets before Ada: %s", r)
	}
	contains(t, "raise", h.must("play", "--as", ada, "bet", id, "raise", "3"), "discord:2 raised to 3 (paid 3)")
	h.must("play", "--as", bo, "bet", id, "match")
	h.must("play", "--as", cy, "bet", id, "raise", "5")
	h.must("play", "--as", ada, "bet", id, "match")
	h.must("play", "--as", bo, "bet", id, "match")
	contains(t, "pool", h.must("play", "--as", cy, "match", id), "Pool: 15 Chips; level 5")
	contains(t, "chips after bets", h.must("play", "status", ada), "Chips 5")

	end, _ := h.playOut(id, rand.New(rand.NewPCG(7, 7)), 0)
	if end.Status != gildedhall.MatchEnded || end.Winner == "" || end.Pool != 15 {
		t.Fatalf("the duel ends with a winner of the pool: %+v", end)
	}
	contains(t, "winner paid", h.must("play", "status", end.Winner), "Chips 20")
	contains(t, "match over", h.must("play", "match", id), "Over: "+end.Winner+" won (")
	if s := h.settlements(id); len(s) != 1 || !hasEventType(s[0], "match_ended") {
		t.Fatalf("one commit ends and pays the duel: %+v", s)
	}

	out = h.must("play", "replay", id)
	contains(t, "replay", out, "Replay of duel "+id+" (ended; winner "+end.Winner,
		"  1. 2026-03-05 12:00:00  discord:2 select 2 of Hearts, 3 of Hearts", "discord:2 raise 3", "discord:3 match")
	if n := strings.Count(out, "\n"); n < end.Moves+4 {
		t.Fatalf("the replay lists all %d moves: %s", end.Moves, out)
	}
}

// Acceptance 4: a player who does not move for 24 hours is skipped; the
// clock's run acts as of the deadline, and the replay shows the timeout.
func TestAcceptance4_TurnSkippedAfter24Hours(t *testing.T) {
	h := exoGame(t)
	ada, bo := "discord:2", "discord:3"
	h.enrol(ada, suitOf("Hearts", 2, 10), 0, 0)
	h.enrol(bo, suitOf("Clubs", 2, 10), 0, 0)
	id := duelID.FindStringSubmatch(h.must("play", "--as", ada, "duel", bo))[1]
	h.must("play", "--as", bo, "duel", "accept")
	h.must("play", "--as", ada, "select", "2 of Hearts, 3 of Hearts, 4 of Hearts, 5 of Hearts, 6 of Hearts")
	h.must("play", "--as", bo, "select", "2 of Clubs, 3 of Clubs, 4 of Clubs, 5 of Clubs")
	h.must("play", "--as", ada, "bet", "pass")
	h.must("play", "--as", bo, "bet", "pass")
	v := h.view(id, "")
	if v.Phase != "play" || v.Turn != ada {
		t.Fatalf("play starts with Ada (the larger hand, X2): %+v", v)
	}
	contains(t, "deadline", h.must("play", "match", id), "Turn: discord:2 since 2026-03-05T12:00:00Z", "Deadline: 2026-03-06T12:00:00Z")

	h.must("play", "clock", "--advance", "23h")
	if v := h.view(id, ""); v.Turn != ada {
		t.Fatalf("23 hours later it is still Ada's turn: %+v", v)
	}
	h.must("play", "clock", "--advance", "2h")
	v = h.view(id, "")
	if v.Turn != bo || !v.TurnStart.Equal(walkStart.AddDate(0, 0, 1)) {
		t.Fatalf("Ada's turn was skipped at the deadline; Bo's runs from then: turn %s since %v", v.Turn, v.TurnStart)
	}
	contains(t, "replay", h.must("play", "replay", id), "2026-03-06 12:00:00  timeout")
	// The skip is not a move: Ada still holds her five cards.
	if p := v.Participants[0]; p.ID != ada || p.HandSize != 5 {
		t.Fatalf("a skipped turn changes no hand: %+v", p)
	}
}

// Acceptance 4: thirty players engage in battle; at the phase's end one
// collective match starts; it plays out by moves and timeouts to a winner
// and settles (pool and reward) in one commit.
func TestAcceptance4_ThirtyPlayerBattle(t *testing.T) {
	h := exoGame(t)
	var ps []string
	for i := range 30 {
		p := fmt.Sprintf("discord:%d", 100+i)
		ps = append(ps, p)
		h.enrol(p, nil, 6, 3)
	}
	for _, p := range ps {
		contains(t, "engage", h.must("play", "--as", p, "battle"), p+" engaged in battle b-2026-W10-I with a deck of 6 cards; it starts at 2026-03-06T00:00:00Z")
	}
	h.must("play", "clock", "--to-period-end")
	// The period end forms the battle, due at the phase's end; the next run
	// of due work (the timeouts function's next minute) sets it up.
	h.must("play", "clock", "--advance", "1m")
	list := h.must("play", "matches", "--kind", "battle")
	contains(t, "battle started", list, "b-2026-W10-I  battle  playing/selection")
	id := "b-2026-W10-I"
	v := h.view(id, "")
	if len(v.Participants) != 30 || v.StartedAt == nil || !v.StartedAt.Equal(walkStart.Add(12*60*60*1e9)) {
		t.Fatalf("all 30 in one match started at the phase's end: %d participants, started %v", len(v.Participants), v.StartedAt)
	}

	end, timeouts := h.playOut(id, rand.New(rand.NewPCG(30, 30)), 9)
	if end.Status != gildedhall.MatchEnded || end.Winner == "" || end.Reward == nil || timeouts == 0 {
		t.Fatalf("the battle ends with a rewarded winner after moves and timeouts: %+v (%d timeouts)", end, timeouts)
	}
	s := h.settlements(id)
	if len(s) != 1 || !hasEventType(s[0], "match_ended") || !hasEventType(s[0], "battle_rewarded") {
		t.Fatalf("the end, the payout and the reward are one log entry: %+v", s)
	}
	contains(t, "replay", h.must("play", "replay", id), "Replay of battle "+id+" (ended; winner "+end.Winner, "timeout")
	contains(t, "audit", h.must("play", "audit"), "all match")
	t.Logf("battle won by %s after %d moves (%d timeouts); reward %+v", end.Winner, end.Moves, timeouts, end.Reward)
}
