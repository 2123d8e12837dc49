package exoptosis

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// TestSelfPlayProperties plays 10,000 random seeded matches (2-8 players,
// random decks and Chips, random legal moves, bets, forfeits, consents and
// timeouts) and checks the match invariants after every step. -short plays
// fewer matches; it never skips.
func TestSelfPlayProperties(t *testing.T) {
	rs := gilded(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	stats := map[string]int{}
	for seed := range n {
		selfPlay(t, rs, uint64(seed), stats)
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
	t.Logf("%d matches: %v", n, stats)
	// The generator must reach every ending and the interesting paths, or
	// the properties above were checked on too little.
	for _, k := range []string{EndWon, EndLastStanding, EndTerminated, EvGiven, EvTurnSkipped, EvChosenAtRandom, EvRefunded, ChoiceQueen, ChoiceKing, ChoiceAce} {
		if stats[k] == 0 {
			t.Errorf("self-play never reached %s", k)
		}
	}
}

var moveKinds = []string{MoveSelect, MoveRaise, MoveMatch, MoveDecline, MovePass, MovePlay, MoveAdd, MoveGiver, MoveGive, MoveTarget}

func selfPlay(t *testing.T, rs *ruleset.Ruleset, seed uint64, stats map[string]int) {
	r := newRand(seed).r
	var m *Match
	defer func() {
		if t.Failed() && m != nil {
			b, _ := json.Marshal(m)
			t.Logf("seed %d; match %s", seed, b)
		}
	}()
	src := newRand(seed ^ 0xabcdef)
	var es []Entrant
	total := 0
	for i := range 2 + r.IntN(7) {
		e := Entrant{ID: fmt.Sprintf("p%d", i), Chips: r.IntN(6)}
		for range 4 + r.IntN(12) {
			e.Deck = append(e.Deck, rs.Cards[r.IntN(len(rs.Cards))].Name)
		}
		total += e.Chips
		es = append(es, e)
	}
	now := t0
	var evs []Event
	var err error
	m, evs, err = New(rs, "m", es, now)
	if err != nil {
		var re *rules.Error
		if !errors.As(err, &re) || re.Code != "too_few_players" {
			t.Fatalf("New: %v", err)
		}
		return
	}
	check(t, rs, m, map[string][]string{}, evs, total)
	patient := r.IntN(4) == 0 // some matches never time out
	for step := 0; step < 400 && m.Phase != PhaseEnded; step++ {
		prev := hands(m)
		evs = nil
		now = now.Add(time.Duration(r.IntN(180)) * time.Minute)
		x := r.IntN(100)
		switch {
		case x < 4 && !patient:
			dl, _ := m.Deadline(rs)
			now = dl.Add(time.Duration(r.IntN(90)) * time.Minute)
			evs = Timeout(m, rs, now, src)
		case x < 5:
			evs = mustApply(t, m, rs, Move{Kind: MoveForfeit, Actor: randActive(r.IntN, m)}, now, src)
		case x < 6 && step > 100:
			if p := randActive(r.IntN, m); !m.part(p).Consented {
				evs = mustApply(t, m, rs, Move{Kind: MoveTerminate, Actor: p}, now, src)
			}
		default:
			evs = nil
			if !patient {
				evs = Timeout(m, rs, now, src)
				check(t, rs, m, prev, evs, total)
				prev = hands(m)
				if m.Phase == PhaseEnded {
					break
				}
			}
			movers := Movers(m)
			if len(movers) == 0 {
				t.Fatalf("phase %s: nobody to move; match %+v", m.Phase, m)
			}
			// Someone else's move is refused not_your_turn, and changes nothing.
			if other := randActive(r.IntN, m); !slices.Contains(movers, other) {
				mv := Move{Kind: moveKinds[r.IntN(len(moveKinds))], Actor: other, Amount: 1}
				if h := m.part(other).Hand; len(h) > 0 {
					mv.Card = h[r.IntN(len(h))]
				}
				var before []byte
				if step%64 == 0 { // sampled: the fuzz target checks every refusal
					before, _ = json.Marshal(m)
				}
				_, err := Apply(m, rs, mv, now, src)
				var re *rules.Error
				if !errors.As(err, &re) || re.Code != "not_your_turn" {
					t.Fatalf("%+v by a non-mover (movers %v): %v; want not_your_turn", mv, movers, err)
				}
				if before != nil {
					if after, _ := json.Marshal(m); string(after) != string(before) {
						t.Fatalf("a refused move changed the match")
					}
				}
			}
			mover := movers[r.IntN(len(movers))]
			var legal []Move
			for _, mv := range LegalMoves(m, rs, mover) {
				if mv.Kind != MoveForfeit && mv.Kind != MoveTerminate {
					legal = append(legal, mv)
				}
			}
			if len(legal) == 0 {
				// Only possible in selection when too few cards remain.
				if m.Phase != PhaseSelection {
					t.Fatalf("%s must move in %s but has no legal move", mover, m.Phase)
				}
				evs = mustApply(t, m, rs, Move{Kind: MoveForfeit, Actor: mover}, now, src)
				break
			}
			if step%64 == 1 { // every listed move is accepted (sampled: it clones the match)
				for range min(4, len(legal)) {
					lm := legal[r.IntN(len(legal))]
					c := clone(t, m)
					if _, err := Apply(c, rs, lm, now, newRand(seed)); err != nil {
						t.Fatalf("listed move %+v refused: %v", lm, err)
					}
				}
			}
			mv := legal[r.IntN(len(legal))]
			if mv.Kind == MoveSelect {
				k := handMin(rs) + r.IntN(len(mv.Cards)-handMin(rs)+1)
				k = min(k, handMin(rs)+3)
				r.Shuffle(len(mv.Cards), func(i, j int) { mv.Cards[i], mv.Cards[j] = mv.Cards[j], mv.Cards[i] })
				mv.Cards = mv.Cards[:k]
			}
			evs = mustApply(t, m, rs, mv, now, src)
		}
		check(t, rs, m, prev, evs, total)
		for _, e := range evs {
			stats[e.Kind]++
			if e.Kind == EvChoicePending {
				stats[e.Reason]++
			}
		}
	}
	if m.Phase != PhaseEnded { // a long match: everyone agrees to stop
		for _, id := range m.activeIDs() {
			if !m.part(id).Consented {
				prev := hands(m)
				evs = mustApply(t, m, rs, Move{Kind: MoveTerminate, Actor: id}, now, src)
				check(t, rs, m, prev, evs, total)
			}
		}
	}
	if m.Phase != PhaseEnded {
		t.Fatalf("match did not end")
	}
	stats[m.EndReason]++
	tr, err := Settle(m)
	if err != nil {
		t.Fatal(err)
	}
	paid := 0
	for _, x := range tr {
		paid += x.Chips
		if x.Reason == "won" && x.To != m.Winner {
			t.Fatalf("pool paid to %s, winner %s", x.To, m.Winner)
		}
	}
	left := 0
	for _, p := range m.Participants {
		left += p.Chips
	}
	if paid != m.Betting.Pool || left+paid != total {
		t.Fatalf("settlement pays %d of pool %d; %d Chips outside + paid, want %d", paid, m.Betting.Pool, left+paid, total)
	}
	// The match is plain data: it survives a JSON round trip unchanged
	// (sampled, as encoding dominates the run time).
	if seed%8 != 0 {
		return
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Match
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if b2, _ := json.Marshal(&back); string(b2) != string(b) {
		t.Fatal("JSON round trip changed the match")
	}
}

func mustApply(t *testing.T, m *Match, rs *ruleset.Ruleset, mv Move, now time.Time, src *randSource) []Event {
	t.Helper()
	evs, err := Apply(m, rs, mv, now, src)
	if err != nil {
		t.Fatalf("legal move %+v refused: %v", mv, err)
	}
	return evs
}

func randActive(intn func(int) int, m *Match) string {
	ids := m.activeIDs()
	return ids[intn(len(ids))]
}

func hands(m *Match) map[string][]string {
	out := map[string][]string{}
	for _, p := range m.Participants {
		out[p.ID] = slices.Clone(p.Hand)
	}
	return out
}

// check asserts the invariants of a match after a step that produced evs
// from hands prev.
func check(t *testing.T, rs *ruleset.Ruleset, m *Match, prev map[string][]string, evs []Event, total int) {
	t.Helper()
	// Hands change only through the events that say so (X1, X4-X6, X9).
	want := prev
	del := func(id, c string) {
		i := slices.Index(want[id], c)
		if i < 0 {
			t.Fatalf("event removes %s from %s, who does not hold it (%v); events %+v", c, id, want[id], evs)
		}
		want[id] = slices.Delete(want[id], i, i+1)
	}
	for _, e := range evs {
		switch e.Kind {
		case EvSelected:
			if len(want[e.Participant]) != 0 || len(e.Cards) < handMin(rs) {
				t.Fatalf("selection %v over hand %v", e.Cards, want[e.Participant])
			}
			want[e.Participant] = slices.Clone(e.Cards)
		case EvPlayed, EvCardLeft:
			del(e.Participant, e.Card)
		case EvAdded, EvDrew:
			want[e.Participant] = append(want[e.Participant], e.Card)
		case EvGiven:
			del(e.Participant, e.Card)
			want[e.Other] = append(want[e.Other], e.Card)
		case EvForfeited:
			if !slices.Equal(want[e.Participant], e.Cards) && !(len(want[e.Participant]) == 0 && len(e.Cards) == 0) {
				t.Fatalf("forfeit event lists %v, hand was %v", e.Cards, want[e.Participant])
			}
			want[e.Participant] = nil
		}
	}
	seen := map[string]bool{}
	for _, c := range m.Pile {
		seen[c] = true
	}
	if len(seen) != len(m.Pile) {
		t.Fatalf("a card is twice on the pile %v", m.Pile)
	}
	pool, chips := 0, 0
	winners := 0
	for _, p := range m.Participants {
		if !slices.Equal(p.Hand, want[p.ID]) && !(len(p.Hand) == 0 && len(want[p.ID]) == 0) {
			t.Fatalf("%s's hand is %v; the events say %v; events %+v", p.ID, p.Hand, want[p.ID], evs)
		}
		for _, c := range p.Hand {
			if seen[c] {
				t.Fatalf("%s is twice in the match (%s's hand)", c, p.ID)
			}
			seen[c] = true
		}
		if p.Status == StatusForfeited && len(p.Hand) > 0 {
			t.Fatalf("forfeited %s holds %v", p.ID, p.Hand)
		}
		if p.Chips < 0 || p.Bet < 0 {
			t.Fatalf("%s has %d Chips, bet %d", p.ID, p.Chips, p.Bet)
		}
		if m.Phase == PhasePlay && p.Status == StatusActive && p.Bet != m.Betting.Level {
			t.Fatalf("in play %s bet %d, level %d", p.ID, p.Bet, m.Betting.Level)
		}
		if m.Phase == PhasePlay && p.Status == StatusActive && len(p.Hand) == 0 &&
			(m.Pending == nil || (m.Pending.Owner != p.ID && m.Pending.Receiver != p.ID)) {
			t.Fatalf("%s is active with an empty hand and nothing on its way", p.ID)
		}
		if p.ID == m.Winner {
			winners++
		}
		pool += p.Bet
		chips += p.Chips
	}
	if pool != m.Betting.Pool || chips+pool != total {
		t.Fatalf("Chips: pool %d, bets %d, outside %d, total %d; want %d", m.Betting.Pool, pool, chips, chips+pool, total)
	}
	switch {
	case m.Phase != PhaseEnded && m.Winner != "":
		t.Fatalf("winner %s before the end", m.Winner)
	case m.Phase == PhaseEnded && (m.EndReason == EndTerminated) != (m.Winner == ""):
		t.Fatalf("ended %s with winner %q", m.EndReason, m.Winner)
	case m.Winner != "" && (winners != 1 || !m.active(m.Winner)):
		t.Fatalf("winner %q is not one active participant", m.Winner)
	}
	if m.Phase == PhasePlay {
		// While a forfeited player's play resolves, the turn still points at
		// them; it passes on once the resolution is done.
		if c := m.current(); c == nil || (c.Status != StatusActive && !m.Resolving) {
			t.Fatalf("turn %d of %v is not an active participant", m.Turn, m.Order)
		}
		if m.Pending != nil && !m.active(m.Pending.Owner) {
			t.Fatalf("pending choice of inactive %s", m.Pending.Owner)
		}
		if m.Pending == nil && (m.Resolving || len(m.Draws) > 0) {
			t.Fatalf("nothing pending but resolving %v, draws %v", m.Resolving, m.Draws)
		}
	}
	if m.Phase == PhaseBetting {
		for _, p := range m.Participants {
			if p.Status == StatusActive && p.Bet > m.Betting.Level {
				t.Fatalf("%s bet %d above level %d", p.ID, p.Bet, m.Betting.Level)
			}
		}
	}
}

func clone(t *testing.T, m *Match) *Match {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var c Match
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}
