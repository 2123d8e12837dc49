package exoptosis

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"croupier/internal/ruleset"
)

// Engine throughput for `make bench` (issue 4, acceptance 6): how fast the
// engine lists a participant's legal moves, how many whole random matches
// one core plays per second, and what one move allocates. The matches are
// the self-play test's (random decks, random legal moves) without its
// invariant checks, so the numbers are the engine's own cost.

// benchDriver plays random legal moves. Its choices come from r; the
// engine's draws come from src, so a match replays exactly from the same
// two seeds and the same moves.
type benchDriver struct {
	rs  *ruleset.Ruleset
	r   *rand.Rand
	src *randSource
	now time.Time
	// forfeits lets a mover forfeit now and then (1 in 100 steps), as
	// players do; the throughput and state benchmarks leave it off so every
	// match keeps its players.
	forfeits bool
	// lister and movers are the listing buffers, reused move after move
	// (and match after match when the benchmark shares them), as a player
	// or simulation that lists often does.
	lister *Lister
	movers []string
}

func newBenchDriver(rs *ruleset.Ruleset, seed uint64) *benchDriver {
	return &benchDriver{rs: rs, r: newRand(seed).r, src: newRand(seed ^ 0xabcdef), now: t0}
}

// playerIDs names the bench players without formatting a string per entrant.
var playerIDs = func() []string {
	ids := make([]string, 64)
	for i := range ids {
		ids[i] = fmt.Sprintf("p%d", i)
	}
	return ids
}()

// entrants deals n players a random deck each: 6 to 15 card names drawn
// from the ruleset's cards (repeats allowed, as owned copies are) and 0 to 5
// Chips to bet with.
func (d *benchDriver) entrants(n int) []Entrant {
	es := make([]Entrant, n)
	for i := range es {
		id := fmt.Sprintf("p%d", i)
		if i < len(playerIDs) {
			id = playerIDs[i]
		}
		es[i] = Entrant{ID: id, Chips: d.r.IntN(6)}
		es[i].Deck = make([]string, 6+d.r.IntN(10))
		for k := range es[i].Deck {
			es[i].Deck[k] = d.rs.Cards[d.r.IntN(len(d.rs.Cards))].Name
		}
	}
	return es
}

// next picks the next move of m at random among the legal moves of a
// random mover (forfeit and terminate aside) and advances the clock by up to
// three hours; a select picks 4 to 7 of the listed cards. ok is false when
// the match has ended. The move's Cards are in d.lister's buffer: valid
// until the next call.
func (d *benchDriver) next(m *Match) (mv Move, ok bool) {
	if m.Phase == PhaseEnded {
		return Move{}, false
	}
	d.now = d.now.Add(time.Duration(d.r.IntN(180)) * time.Minute)
	if d.lister == nil {
		d.lister = new(Lister)
	}
	d.movers = AppendMovers(d.movers[:0], m)
	mover := d.movers[d.r.IntN(len(d.movers))]
	if d.forfeits && d.r.IntN(100) == 0 {
		return Move{Kind: MoveForfeit, Actor: mover}, true
	}
	legal := d.lister.LegalMoves(m, d.rs, mover)
	// The list ends with forfeit (and terminate until consented).
	n := len(legal) - 1
	if n > 0 && legal[n-1].Kind == MoveForfeit {
		n--
	}
	if n == 0 { // too few cards left to select a hand
		return Move{Kind: MoveForfeit, Actor: mover}, true
	}
	mv = legal[d.r.IntN(n)]
	if mv.Kind == MoveSelect {
		k := min(handMin(d.rs)+d.r.IntN(4), len(mv.Cards))
		d.r.Shuffle(len(mv.Cards), func(i, j int) { mv.Cards[i], mv.Cards[j] = mv.Cards[j], mv.Cards[i] })
		mv.Cards = mv.Cards[:k]
	}
	return mv, true
}

// maxBenchSteps ends a match the random players drag on: past it everyone
// consents to terminate, as the self-play test does.
const maxBenchSteps = 400

// play runs one whole match from es to its end, running Timeout before each
// move as the game layer does, and returns the moves made.
func (d *benchDriver) play(tb testing.TB, es []Entrant) (moves int) {
	m, _, err := New(d.rs, "m", es, d.now)
	if err != nil {
		return 0 // too few playable decks: no match
	}
	for step := 0; step < maxBenchSteps; step++ {
		Timeout(m, d.rs, d.now, d.src)
		mv, ok := d.next(m)
		if !ok {
			return moves
		}
		if _, err := Apply(m, d.rs, mv, d.now, d.src); err != nil {
			tb.Fatalf("listed move %+v refused: %v", mv, err)
		}
		moves++
	}
	for _, id := range m.activeIDs() {
		if m.Phase == PhaseEnded {
			break
		}
		if _, err := Apply(m, d.rs, Move{Kind: MoveTerminate, Actor: id}, d.now, d.src); err != nil {
			tb.Fatalf("terminate by %s refused: %v", id, err)
		}
		moves++
	}
	return moves
}

// midGame returns count matches of n players, each in the play phase with
// every player still in it, between 2 and 12 cards on the pile: the states
// a player asks "what can I do?" in.
func midGame(tb testing.TB, rs *ruleset.Ruleset, n, count int) []*Match {
	var out []*Match
	for seed := uint64(0); len(out) < count; seed++ {
		if seed > 100000 {
			tb.Fatalf("found only %d mid-game states of %d players", len(out), n)
		}
		d := newBenchDriver(rs, seed)
		m, _, err := New(rs, "m", d.entrants(n), d.now)
		if err != nil {
			continue
		}
		pile := 2 + d.r.IntN(11)
		for step := 0; step < maxBenchSteps && m.Phase != PhaseEnded; step++ {
			if m.Phase == PhasePlay && len(m.Pile) >= pile {
				break
			}
			mv, _ := d.next(m)
			if _, err := Apply(m, rs, mv, d.now, d.src); err != nil {
				tb.Fatalf("listed move %+v refused: %v", mv, err)
			}
		}
		if m.Phase == PhasePlay && len(m.Pile) >= pile && len(m.activeIDs()) == n {
			out = append(out, m)
		}
	}
	return out
}

// BenchmarkLegalMoves lists the legal moves of whoever must move, over 64
// mid-game states per size (what GET .../matches/{id} does for a viewer),
// with one Lister reused from listing to listing: once its buffers have
// grown, a listing allocates nothing (allocs/op 0). Every mover of these
// states can play, add or ask for a card, so a listing with nothing but
// forfeit and terminate fails the benchmark.
func BenchmarkLegalMoves(b *testing.B) {
	rs := gilded(b)
	for _, n := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			states := midGame(b, rs, n, 64)
			movers := make([]string, len(states))
			listed := 0
			var l Lister
			for i, m := range states {
				movers[i] = Movers(m)[0]
				listed += len(l.LegalMoves(m, rs, movers[i]))
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if !slices.ContainsFunc(l.LegalMoves(states[i], rs, movers[i]), isPlayMove) {
					b.Fatalf("mover %s has no legal move but forfeit and terminate", movers[i])
				}
				i = (i + 1) % len(states)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "listings/s")
			b.ReportMetric(float64(listed)/float64(len(states)), "moves/listing")
		})
	}
}

// isPlayMove: mv is a move of the game itself, not forfeit or terminate.
func isPlayMove(mv Move) bool { return mv.Kind != MoveForfeit && mv.Kind != MoveTerminate }

// BenchmarkSelfPlay plays whole random seeded matches (2 to 8 players,
// random decks, random legal moves, occasional forfeits, Timeout before each
// move) on one core: GOMAXPROCS is 1 for its duration, so the collector
// does not borrow a second core either.
func BenchmarkSelfPlay(b *testing.B) {
	rs := gilded(b)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b.ReportAllocs()
	moves, matches := 0, 0
	seed := uint64(0)
	var lister Lister
	var movers []string
	for b.Loop() {
		d := newBenchDriver(rs, seed)
		d.forfeits = true
		d.lister, d.movers = &lister, movers
		seed++
		n := d.play(b, d.entrants(2+d.r.IntN(7)))
		movers = d.movers
		if n > 0 {
			moves += n
			matches++
		}
	}
	if matches == 0 {
		b.Fatal("no match was played")
	}
	b.ReportMetric(float64(matches)/b.Elapsed().Seconds(), "matches/s")
	b.ReportMetric(float64(moves)/float64(matches), "moves/match")
}

// recorded is one match's moves, replayable from its seed.
type recorded struct {
	seed    uint64
	es      []Entrant
	moves   []Move
	times   []time.Time
	started time.Time
}

// record plays a random match of n players without forfeits or timeouts
// (so replaying the moves with the same draws reproduces it exactly).
func record(tb testing.TB, rs *ruleset.Ruleset, n int, seed uint64) (recorded, bool) {
	d := newBenchDriver(rs, seed)
	rec := recorded{seed: seed, es: d.entrants(n), started: d.now}
	m, _, err := New(rs, "m", rec.es, d.now)
	if err != nil {
		return rec, false
	}
	for step := 0; step < maxBenchSteps; step++ {
		// A step of at most a minute never reaches a deadline.
		d.now = d.now.Add(time.Duration(d.r.IntN(60)) * time.Second)
		mv, ok := d.next(m)
		if !ok {
			break
		}
		// Kept past the next listing, so copied out of the Lister's buffer.
		mv.Cards, mv.Targets = slices.Clone(mv.Cards), slices.Clone(mv.Targets)
		if _, err := Apply(m, rs, mv, d.now, d.src); err != nil {
			tb.Fatalf("listed move %+v refused: %v", mv, err)
		}
		rec.moves = append(rec.moves, mv)
		rec.times = append(rec.times, d.now)
	}
	return rec, m.Phase == PhaseEnded
}

// BenchmarkApplyMove replays recorded random matches one move per
// iteration, so ns/op and allocs/op are per move (selection, betting and
// play moves in the proportions real matches have them). The matches are
// built with the timer stopped, replayBatch at a time: stopping the timer
// reads the memory statistics (a stop of the world), and doing that, and
// building, for every match of some 40 moves once took longer than the
// moves themselves (the benchmark runs until the timed part has run its
// time). allocs/move counts only Apply's own.
func BenchmarkApplyMove(b *testing.B) {
	rs := gilded(b)
	const replayBatch = 64
	for _, n := range []int{2, 4, 8} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			b.StopTimer() // recording is setup
			var recs []recorded
			for seed := uint64(0); len(recs) < 32; seed++ {
				if rec, ok := record(b, rs, n, seed); ok {
					recs = append(recs, rec)
				}
			}
			type replay struct {
				m   *Match
				src *randSource
				rec recorded
			}
			var (
				ready []replay // built, not yet replayed
				cur   replay
				next  int
				which int
				ms    runtime.MemStats
			)
			var mallocs, bytes uint64
			moves := 0
			refill := func() {
				ready = ready[:0]
				for range replayBatch {
					rec := recs[which%len(recs)]
					which++
					m, _, _ := New(rs, "m", rec.es, rec.started)
					ready = append(ready, replay{m: m, src: newRand(rec.seed ^ 0xabcdef), rec: rec})
				}
			}
			restart := func() {
				cur, ready, next = ready[0], ready[1:], 0
			}
			b.ReportAllocs()
			refill()
			restart()
			runtime.ReadMemStats(&ms)
			m0, b0 := ms.Mallocs, ms.TotalAlloc
			b.StartTimer()
			for i := 0; i < b.N; i++ {
				if next == len(cur.rec.moves) {
					if len(ready) == 0 {
						b.StopTimer()
						runtime.ReadMemStats(&ms)
						mallocs, bytes = mallocs+ms.Mallocs-m0, bytes+ms.TotalAlloc-b0
						refill()
						runtime.ReadMemStats(&ms)
						m0, b0 = ms.Mallocs, ms.TotalAlloc
						b.StartTimer()
					}
					restart()
				}
				if _, err := Apply(cur.m, rs, cur.rec.moves[next], cur.rec.times[next], cur.src); err != nil {
					b.Fatalf("replayed move %+v refused: %v", cur.rec.moves[next], err)
				}
				next++
				moves++
			}
			b.StopTimer()
			runtime.ReadMemStats(&ms)
			mallocs, bytes = mallocs+ms.Mallocs-m0, bytes+ms.TotalAlloc-b0
			b.ReportMetric(float64(mallocs)/float64(moves), "allocs/move")
			b.ReportMetric(float64(bytes)/float64(moves), "B/move")
		})
	}
}
