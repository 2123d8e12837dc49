package turns_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"

	"pgregory.net/rapid"
)

// pureNoDraws is the source of a pure game that draws nothing.
type pureNoDraws struct{}

func (pureNoDraws) Intn(string, int) int { panic("a draw in a game without cases") }

// twin is one game played twice: through the module (bolt, the scheduler,
// turn ends in bounded steps) and through the pure rules
// (nomic.State.ApplyDue, the whole turn end at once), command by command
// with the same moments.
type twin struct {
	t    tb
	e    *env
	s    *nomic.State
	rs   *ruleset.Ruleset
	ids  []string
	rnd  *rand.Rand
	seen map[string]int
	// runEnd runs the scheduler at a turn's end (once, by default).
	runEnd func(end time.Time)
}

func newTwin(t *testing.T, seed uint64, n int) *twin { return newTwinOn(t, boltStore(t), seed, n) }

func newTwinOn(t tb, st store.Store, seed uint64, n int) *twin {
	e, ids := bigGameOn(t, st, n)
	rs, err := ruleset.Load("turns")
	if err != nil {
		t.Fatal(err)
	}
	s, err := nomic.New(rs, created)
	if err != nil {
		t.Fatal(err)
	}
	tw := &twin{t: t, e: e, s: s, rs: rs, ids: ids, rnd: rand.New(rand.NewPCG(seed, 22)), seen: map[string]int{}}
	tw.runEnd = func(end time.Time) { e.at(end) }
	// Rounds short enough to be won by dissent: several dissenters of one
	// proposal reach the winning points, and only the first in the order
	// the votes were cast wins (U6).
	tw.amend(`[{"op":"replace","path":"/turns/winPoints","value":10}]`)
	// Every player meets the rules in joining order, as they do in the
	// pure game (the order in which equal points are first reached).
	for i, id := range ids {
		if _, err := s.Join(id, fmt.Sprintf("Player %d", i), created); err != nil {
			t.Fatal(err)
		}
		tw.both(id, "pool-enter", nil)
		tw.both(id, "pool-leave", nil)
	}
	return tw
}

func (tw *twin) amend(patch string) {
	tw.t.Helper()
	if _, err := tw.e.svc.Amend(tw.e.ctx, tw.e.req(admin), game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		tw.t.Fatal(err)
	}
	c, err := ruleset.Prepare(tw.rs, []byte(patch))
	if err != nil {
		tw.t.Fatal(err)
	}
	if tw.rs, _, _, err = ruleset.Apply(tw.rs, c); err != nil {
		tw.t.Fatal(err)
	}
}

// tick moves the clock a second on: every command has its own moment, so
// the order in which votes were cast is the same on both sides.
func (tw *twin) tick() time.Time {
	now := tw.e.clk.Now().Add(time.Second)
	tw.e.clk.Set(now)
	return now
}

// both runs a command through the module and, if it was accepted, the
// same through the pure rules, which must accept it too. It returns the
// module's answer.
func (tw *twin) both(actor, name string, p any) []byte {
	tw.t.Helper()
	now := tw.tick()
	a := tw.e.try(actor, name, p)
	if a == nil {
		tw.seen["refused "+name]++
		return nil
	}
	tw.seen[name]++
	var err error
	switch name {
	case "pool-enter":
		_, err = tw.s.EnterPool(actor, now)
	case "pool-leave":
		_, err = tw.s.LeavePool(actor, now)
	case "turns-active":
		_, err = tw.s.SetActive(actor, p.(turns.Activity).Active, now, pureNoDraws{})
	case "turns-propose":
		var v struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(a.body, &v)
		pr := p.(turns.Propose)
		changes := []nomic.RuleChange{{Op: pr.Op, Rule: pr.Rule, Text: pr.Text}}
		if pr.Op == "" {
			changes = nil
		}
		_, err = tw.s.Submit(nomic.Submission{ID: v.ID, Text: pr.Note, Changes: changes, Data: pr.Data}, actor, now, tw.rs)
	case "turns-vote":
		b := p.(turns.Ballot)
		err = tw.s.Vote(b.Proposal, actor, b.Vote == "for", now)
	default:
		tw.t.Fatalf("no pure twin for %s", name)
	}
	if err != nil {
		tw.t.Fatalf("%s %s %+v: the module accepted it, the pure rules refused: %v", actor, name, p, err)
	}
	return a.body
}

// turn plays turn k: proposals by a share of the players, pool entries,
// votes, some voters going inactive before the end; then the turn end on
// both sides, compared.
func (tw *twin) turn(k int, proposers float64, votesEach int) {
	t, r := tw.t, tw.rnd
	begin, _, end := turnTimes(k)
	tw.e.clk.Set(begin.Add(time.Hour))
	tw.e.at(begin.Add(time.Hour))
	var props []string
	for _, id := range tw.ids {
		if r.Float64() >= proposers {
			continue
		}
		p := turns.Propose{Op: "enact", Text: fmt.Sprintf("Rule of %s in turn %d.", id, k)}
		switch x := r.IntN(20); {
		case x == 0 && (k > 2 || r.IntN(10) == 0):
			p = turns.Propose{Op: "amend", Rule: 206, Text: "Unanimity stays."}
		case x == 1:
			p = turns.Propose{Data: json.RawMessage(fmt.Sprintf(`[{"op":"replace","path":"/turns/dissentBonus","value":%d}]`, []int{5, 15, 20}[r.IntN(3)])), Note: "bonus"}
		case x == 2:
			p = turns.Propose{Op: "repeal", Rule: 201 + r.IntN(24)}
		}
		if body := tw.both(id, "turns-propose", p); body != nil {
			var v struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(body, &v)
			props = append(props, v.ID)
		}
	}
	for _, id := range tw.ids {
		if r.IntN(3) == 0 {
			tw.both(id, "pool-enter", nil)
		}
	}
	if len(props) > 0 {
		for range votesEach * len(tw.ids) {
			id := tw.ids[r.IntN(len(tw.ids))]
			vote := "for"
			if r.IntN(4) == 0 {
				vote = "against"
			}
			tw.both(id, "turns-vote", turns.Ballot{Proposal: props[r.IntN(len(props))], Vote: vote})
		}
	}
	for _, id := range tw.ids {
		switch r.IntN(40) {
		case 0:
			tw.both(id, "turns-active", turns.Activity{Active: false})
		case 1:
			tw.both(id, "turns-active", turns.Activity{Active: true})
		}
	}
	tw.runEnd(end)
	var err error
	tw.rs, _, err = tw.s.ApplyDue(nomic.Due{Kind: nomic.DueTurnEnd, At: end, Turn: nomic.TurnID(1, k)}, tw.rs, pureNoDraws{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tw.compare(k, len(props))
}

// compare checks the module's game against the pure one: each proposal's
// status and counts, every player's points, activity and pool
// membership, the round's winner.
func (tw *twin) compare(k, props int) {
	t := tw.t
	ps, err := turns.Proposals(tw.e.ctx, tw.e.svc, tw.e.g)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != len(tw.s.Proposals) {
		t.Fatalf("turn %d: %d proposals through the module, %d in the pure game", k, len(ps), len(tw.s.Proposals))
	}
	status := map[string]int{}
	for _, p := range ps {
		want := tw.s.Proposal(p.ID)
		if want == nil || p.Status != want.Status {
			t.Fatalf("turn %d: proposal %s is %s through the module, %+v in the pure game", k, p.ID, p.Status, want)
		}
		if want.Result != nil && (p.Result == nil || p.Result.For != want.Result.For || p.Result.Against != want.Result.Against || p.Result.Passed != want.Result.Passed) {
			t.Fatalf("turn %d: proposal %s counted %+v through the module, %+v in the pure game", k, p.ID, p.Result, want.Result)
		}
		if want.Result != nil && len(p.Votes) != len(want.Votes) {
			t.Fatalf("turn %d: proposal %s shows %d votes, the pure game counted %d", k, p.ID, len(p.Votes), len(want.Votes))
		}
		status[p.Status]++
	}
	st := tw.e.status()
	got := map[string]turns.PlayerStatus{}
	for _, p := range st.Players {
		got[p.Player] = p
	}
	removed := 0
	for _, want := range tw.s.Players {
		g := got[want.ID]
		if g.Points != want.Points || g.InPool != want.InPool || g.Active != want.Active {
			t.Fatalf("turn %d: %s has %+v through the module; the pure game says %d points, in pool %v, active %v", k, want.Name, g, want.Points, want.InPool, want.Active)
		}
	}
	for _, l := range tw.e.eventsOf("turns_pool_left") {
		var ev nomic.Event
		_ = json.Unmarshal(l.Event.Data, &ev)
		if ev.Reason == nomic.PoolNoVote {
			removed++
		}
	}
	if st.Round.Over != tw.s.Round.Over || st.Round.Winner != tw.s.Round.Winner {
		t.Fatalf("turn %d: round over %v won by %q through the module; %v, %q in the pure game", k, st.Round.Over, st.Round.Winner, tw.s.Round.Over, tw.s.Round.Winner)
	}
	t.Logf("turn %d: %d proposals %v; %d pool removals so far; winner %q", k, props, status, removed, tw.s.Round.Winner)
}

// TestIssue22_TheTurnEndInStepsIsThePureRules builds the same turns both
// ways, with more than 100 proposals in a turn and votes cut into pages of
// 7: through the module, whose turn end runs in bounded steps, and
// through the pure turn end (nomic.State.ApplyDue). After every turn end
// the proposals' results, every player's points, activity and pool
// membership, and the round's winner (U6: the first to reach the winning
// points in U5's order) are the same.
func TestIssue22_TheTurnEndInStepsIsThePureRules(t *testing.T) {
	defer turns.SetVotePage(7)()
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			tw := newTwin(t, seed, 110)
			tw.turn(1, 0.95, 3)
			for k := 2; k <= 5 && !tw.s.Round.Over; k++ {
				tw.turn(k, 0.3, 4)
			}
			if !tw.s.Round.Over {
				t.Fatalf("nobody won in five turns: the test does not reach U6")
			}
			t.Logf("commands: %v", tw.seen)
		})
	}
}

// dying is a store whose process dies: once armed, every commit after the
// next `left` fails, as if the runner were killed mid-way, until revived.
type dying struct {
	store.Store
	mu   sync.Mutex
	left int // commits still allowed; < 0: not armed
}

func (d *dying) Commit(ctx context.Context, tx store.Tx) error {
	d.mu.Lock()
	dead := d.left == 0
	if d.left > 0 {
		d.left--
	}
	d.mu.Unlock()
	if dead {
		return errors.New("the runner died")
	}
	return d.Store.Commit(ctx, tx)
}

func (d *dying) arm(n int) { d.mu.Lock(); d.left = n; d.mu.Unlock() }

// TestIssue22_ATurnEndResumesAfterARunnerDiesAndRunsOnceUnderFiveRunners
// plays the turns of TestIssue22_TheTurnEndInStepsIsThePureRules with a
// scheduler that dies at a random step of each turn end (the next run
// resumes it), and then five schedulers at once, on bolt and on DynamoDB
// Local: the result is still the pure rules', every effect applied once.
func TestIssue22_ATurnEndResumesAfterARunnerDiesAndRunsOnceUnderFiveRunners(t *testing.T) {
	for _, tc := range []struct {
		name          string
		st            func(t *testing.T) store.Store
		players, page int
	}{
		{"bolt", func(t *testing.T) store.Store { return boltStore(t) }, 104, 7},
		{"dynamodb", func(t *testing.T) store.Store {
			client, table := testenv.DynamoTable(t, "turnsresume")
			return dynamo.New(client, table)
		}, 24, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer turns.SetVotePage(tc.page)()
			resumeAndRace(t, &dying{Store: tc.st(t), left: -1}, tc.players)
		})
	}
}

func resumeAndRace(t *testing.T, d *dying, players int) {
	tw := newTwinOn(t, d, 4, players)
	deaths := 0
	tw.runEnd = func(end time.Time) {
		tw.e.clk.Set(end)
		d.arm(1 + tw.rnd.IntN(40))
		if rep, err := tw.e.svc.RunDue(tw.e.ctx); err == nil && len(rep.Failed) > 0 {
			deaths++
		}
		d.arm(-1)
		var wg sync.WaitGroup
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if rep, err := tw.e.svc.RunDue(tw.e.ctx); err != nil || len(rep.Failed) > 0 {
					t.Errorf("RunDue: %v %v", err, rep.Failed)
				}
			}()
		}
		wg.Wait()
	}
	tw.turn(1, 0.99, 3)
	for k := 2; k <= 5 && !tw.s.Round.Over; k++ {
		tw.turn(k, 0.3, 4)
	}
	if deaths == 0 {
		t.Fatal("no runner died mid-way: the test does not reach a resumed turn end")
	}
	ended := map[string]int{}
	for _, l := range tw.e.eventsOf("turns_turn_ended") {
		ended[string(l.Event.Data)]++
	}
	for ev, n := range ended {
		if n != 1 {
			t.Fatalf("turn end logged %d times: %s", n, ev)
		}
	}
	t.Logf("%d turn ends, %d runners died mid-way", len(ended), deaths)
}

// The same as a property: games of 3 to 8 players, votes in pages of 1 to
// 5 (so that pages, cutoffs and resumed passes fall everywhere), random
// shares of proposers and votes over up to three turns (the third
// adopting by majority, where dissenters win).
func TestIssue22_PropertyTheTurnEndInStepsIsThePureRules(t *testing.T) {
	dir := t.TempDir()
	runs := 0
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		defer turns.SetVotePage(rapid.IntRange(1, 5).Draw(rt, "page"))()
		st, err := bolt.Open(filepath.Join(dir, fmt.Sprint(runs, ".db")))
		if err != nil {
			rt.Fatal(err)
		}
		defer st.Close()
		tw := newTwinOn(rt, st, rapid.Uint64().Draw(rt, "seed"), rapid.IntRange(3, 8).Draw(rt, "players"))
		for k := 1; k <= 3 && !tw.s.Round.Over; k++ {
			tw.turn(k, rapid.Float64Range(0.2, 1).Draw(rt, "proposers"), rapid.IntRange(1, 4).Draw(rt, "votes each"))
		}
	})
}
