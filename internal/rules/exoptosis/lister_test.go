package exoptosis

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"croupier/internal/ruleset"
)

// walk plays count random seeded matches of 2 to 8 players (forfeits and
// timeouts included) and calls visit before every move.
func walk(t *testing.T, count int, visit func(m *Match)) {
	rs := gilded(t)
	for seed := range uint64(count) {
		d := newBenchDriver(rs, seed)
		d.forfeits = true
		m, _, err := New(rs, "m", d.entrants(2+d.r.IntN(7)), d.now)
		if err != nil {
			continue
		}
		for step := 0; step < maxBenchSteps && m.Phase != PhaseEnded; step++ {
			if step%9 == 4 { // now and then a deadline passes
				dl, _ := m.Deadline(rs)
				d.now = dl
			}
			Timeout(m, rs, d.now, d.src)
			visit(m)
			mv, ok := d.next(m)
			if !ok {
				break
			}
			if _, err := Apply(m, rs, mv, d.now, d.src); err != nil {
				t.Fatalf("seed %d: listed move %+v refused: %v", seed, mv, err)
			}
		}
	}
}

// One Lister reused over thousands of states lists exactly what a fresh
// listing does: nothing of an earlier listing shows through its buffers.
func TestListerReusedListsWhatLegalMovesLists(t *testing.T) {
	rs := gilded(t)
	var l Lister
	states := 0
	walk(t, 300, func(m *Match) {
		for _, p := range m.Participants {
			got := l.LegalMoves(m, rs, p.ID)
			if want := LegalMoves(m, rs, p.ID); !reflect.DeepEqual(got, want) {
				t.Fatalf("phase %s, %s: reused Lister lists %+v; a fresh listing %+v", m.Phase, p.ID, got, want)
			}
		}
		states++
	})
	if states < 1000 {
		t.Fatalf("only %d states visited", states)
	}
}

// The moves of one listing do not share their Cards or Targets: a caller
// appending to one (say, to build a selection) leaves the others as listed.
func TestListedMovesDoNotShareCardsOrTargets(t *testing.T) {
	rs := gilded(t)
	var l Lister
	checked := 0
	walk(t, 200, func(m *Match) {
		for _, id := range Movers(m) {
			moves := l.LegalMoves(m, rs, id)
			want := LegalMoves(m, rs, id)
			for i := range moves {
				_ = append(moves[i].Cards, "scribble")
				_ = append(moves[i].Targets, "scribble")
				if len(moves[i].Targets) > 0 || len(moves[i].Cards) > 0 {
					checked++
				}
			}
			if !reflect.DeepEqual(moves, want) {
				t.Fatalf("appending to listed moves changed the listing: %+v, want %+v", moves, want)
			}
		}
	})
	if checked == 0 {
		t.Fatal("no listed move had Cards or Targets")
	}
}

// allocRuns is how many calls an allocation count averages over.
// testing.AllocsPerRun counts the whole process's allocations, not the
// calling goroutine's: a one-call count once read a stray allocation of
// another goroutine as "AppendMovers ... allocates 1 times" (a fresh
// clone's make test). So these tests never run in parallel (nor does any
// test of this package), settle lets the runtime's finalizer and cleanup
// goroutines run first, and AllocsPerRun (GOMAXPROCS 1, one warm-up call)
// divides the count by the runs in whole numbers: over allocRuns calls the
// few allocations another goroutine could make in the window read as 0,
// while an allocation on every call still reads as 1 or more.
const allocRuns = 100

// settle collects garbage and yields, so pending finalizers and cleanups
// (which allocate) run before a count rather than during it.
func settle() {
	runtime.GC()
	for range 10 {
		runtime.Gosched()
	}
}

// Once warm, a Lister lists without allocating, whatever the phase: select,
// bets, plays, adds, givers and every kind of pending choice.
func TestListerAllocatesNothingOnceWarm(t *testing.T) {
	rs := gilded(t)
	type state struct {
		m  *Match
		id string
	}
	var states []state
	kinds := map[string]bool{}
	walk(t, 100, func(m *Match) {
		if len(states) >= 3000 {
			return
		}
		c := clone(t, m)
		for _, id := range Movers(c) {
			states = append(states, state{c, id})
			for _, mv := range LegalMoves(c, rs, id) {
				kinds[mv.Kind] = true
			}
		}
	})
	for _, k := range []string{MoveSelect, MovePass, MoveRaise, MoveMatch, MoveDecline, MovePlay, MoveAdd, MoveGiver, MoveGive, MoveTarget} {
		if !kinds[k] {
			t.Fatalf("the states list no %s move", k)
		}
	}
	var l Lister
	for _, s := range states { // warm: the buffers grow to the largest listing
		l.LegalMoves(s.m, rs, s.id)
	}
	settle()
	for i, s := range states {
		if n := testing.AllocsPerRun(allocRuns, func() { l.LegalMoves(s.m, rs, s.id) }); n != 0 {
			t.Fatalf("state %d (%s, %s): a warm listing allocates %v times", i, s.m.Phase, s.id, n)
		}
	}
}

// IsMover and AppendMovers agree with Movers for every participant of every
// state (and an outsider), and AppendMovers into a buffer with room
// allocates nothing.
func TestIsMoverAndAppendMoversAgreeWithMovers(t *testing.T) {
	buf := make([]string, 0, 16)
	settle()
	walk(t, 300, func(m *Match) {
		movers := Movers(m)
		for _, p := range append(slices.Clone(m.Participants), Participant{ID: "stranger"}, Participant{}) {
			if got, want := IsMover(m, p.ID), slices.Contains(movers, p.ID); got != want {
				t.Fatalf("phase %s: IsMover(%q) = %v; Movers %v", m.Phase, p.ID, got, movers)
			}
		}
		if got := AppendMovers(buf[:0], m); !slices.Equal(got, movers) {
			t.Fatalf("AppendMovers %v, Movers %v", got, movers)
		}
		if n := testing.AllocsPerRun(allocRuns, func() { AppendMovers(buf[:0], m) }); n != 0 {
			t.Fatalf("AppendMovers into a buffer with room allocates %v times", n)
		}
	})
}

// In a battle (more participants than appendAvailable scans hand by hand)
// the available cards are what they are in a small match with the same
// cards in play: the deck's distinct names in deck order, less those in the
// match and the excluded one.
func TestAvailableInBattle(t *testing.T) {
	rs := gilded(t)
	name := func(i int) string { return rs.Cards[i].Name }
	held := []part{
		{id: "a", hand: []string{name(0), name(1)}},
		{id: "b", hand: []string{name(2)}},
	}
	small := playing([]string{name(3)}, held...)
	battle := playing([]string{name(3)}, held...)
	for i := range 3 * linearUpTo { // entrants who hold nothing yet
		battle.Participants = append(battle.Participants, Participant{ID: fmt.Sprintf("e%d", i), Hand: []string{}, Status: StatusActive})
	}
	var in inMatch
	if in.fill(battle); !in.inBig {
		t.Fatal("the battle's names are not in a map")
	}
	if in.fill(small); in.inBig {
		t.Fatal("the small match's names are in a map")
	}
	p := &Participant{ID: "x", Deck: []string{name(5), name(1), name(4), name(3), name(5), name(2), name(4), name(6)}}
	for _, tc := range []struct {
		exclude string
		want    []string
	}{
		{"", []string{name(5), name(4), name(6)}},
		{name(4), []string{name(5), name(6)}},
	} {
		for _, m := range []*Match{small, battle} {
			if got := m.available(p, tc.exclude); !slices.Equal(got, tc.want) {
				t.Errorf("%d participants, excluding %q: available %v, want %v", len(m.Participants), tc.exclude, got, tc.want)
			}
		}
	}
}

// Cards are looked up in the ruleset asked about, whichever was asked last,
// and a card table changed in place after a lookup is still read right.
func TestCardLookupFollowsTheRuleset(t *testing.T) {
	rs := gilded(t)
	other := *rs
	other.Cards = slices.Clone(rs.Cards)
	slices.Reverse(other.Cards)
	check := func(r *ruleset.Ruleset) {
		t.Helper()
		for i := range r.Cards {
			if c := cardOf(r, r.Cards[i].Name); c != &r.Cards[i] {
				t.Fatalf("%s: found %v, want the table's card %d", r.Cards[i].Name, c, i)
			}
		}
		if c := cardOf(r, "14 of Hearts"); c != nil {
			t.Fatalf("an unknown name finds %v", c)
		}
	}
	for range 3 {
		check(rs)
		check(&other)
	}
	other.Cards[0], other.Cards[1] = other.Cards[1], other.Cards[0] // after other was indexed
	other.Cards[2].Name = "Gilded Joker"
	check(&other)
}
