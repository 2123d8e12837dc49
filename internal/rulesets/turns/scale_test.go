package turns_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store/dynamo"
	"croupier/internal/store/storetest"
	"croupier/internal/testenv"
)

// EnvScaleTurnEnd sizes TestScale_TurnEndOfManyProposalsAndVotes: "P/V",
// P proposals by P players and V votes (make scale: 500/10000).
const EnvScaleTurnEnd = "CROUPIER_SCALE_TURN_END"

// parallel runs fn(i) for i < n on 8 workers, failing on any error.
func parallel(t *testing.T, n int, fn func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestScale_TurnEndOfManyProposalsAndVotes is issue 22's acceptance of the
// turn end on DynamoDB Local: P players each submit a proposal in turn 3
// (simple majority, so dissenters gain points) and cast V votes between
// them, all through the engine; then one scheduler applies the turn end,
// in steps. The result is the pure rules' (nomic.State.ApplyDue over the
// same proposals, votes and players, read from the game before the end):
// every proposal's status and counts, every player's points and pool
// membership, the winner. The time of the turn end and the largest item
// of each kind are logged, never asserted, and no item written is over
// 100 KB. `make test` runs 120/600 in a game of 400 players; `make scale`
// 500/10000 in one of 10,000 (EnvScalePlayers), most of them written
// straight into the store, a third of those in the Judicial Pool (whoever
// of them voted on nothing leaves it at the end, U8).
func TestScale_TurnEndOfManyProposalsAndVotes(t *testing.T) {
	np, nv := 120, 600
	if s := os.Getenv(EnvScaleTurnEnd); s != "" {
		a, b, _ := strings.Cut(s, "/")
		var err1, err2 error
		np, err1 = strconv.Atoi(a)
		nv, err2 = strconv.Atoi(b)
		if err1 != nil || err2 != nil || np < 2 || nv < 1 {
			t.Fatalf("%s=%q: want proposals/votes, such as 500/10000", EnvScaleTurnEnd, s)
		}
	}
	// The game's size: make scale's 10,000 (EnvScalePlayers), of whom the
	// proposers join through the engine and the others are written
	// straight into the store (a third of them in the Judicial Pool).
	players := max(np, 400)
	if s := os.Getenv(EnvScalePlayers); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < np {
			t.Fatalf("%s=%q: want a number of players of at least %d", EnvScalePlayers, s, np)
		}
		players = n
	}
	client, table := testenv.DynamoTable(t, "turnsscale")
	st := storetest.NewSizes(dynamo.New(client, table))
	e := &env{t: t, ctx: context.Background(), st: st, clk: clock.NewManual(created), g: "nomic"}
	e.svc = rulesets.New(st, e.clk, game.WithLogger(quiet()))
	if _, err := e.svc.Create(e.ctx, e.req(admin), game.CreateGame{ID: e.g, Name: "Nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, players)
	for i := range ids {
		ids[i] = fmt.Sprintf("discord:%d", 100000+i)
	}
	key := func(what string, i int) game.Request {
		return game.Request{Game: e.g, Actor: ids[i%np], Key: fmt.Sprint(what, "-", i)}
	}
	start := time.Now()
	parallel(t, np, func(i int) error {
		_, err := e.svc.Join(e.ctx, key("join", i), game.JoinGame{Name: longName(i)})
		return err
	})
	// Turn 3 is the first adopting by simple majority (U5).
	b3, _, end3 := turnTimes(3)
	e.at(b3.Add(time.Hour))
	parallel(t, np, func(i int) error {
		_, err := e.callReq(key("propose", i), "turns-propose", turns.Propose{Op: "enact", Text: fmt.Sprint("Rule of player ", i)})
		if err == nil && i%3 == 0 {
			_, err = e.callReq(key("pool", i), "pool-enter", nil)
		}
		return err
	})
	var seeded []nomic.Player
	for i := np; i < players; i++ {
		seeded = append(seeded, nomic.Player{ID: ids[i], Name: longName(i), Active: true, InPool: i%3 == 0, JoinedAt: created})
	}
	if err := turns.SeedPlayers(e.ctx, st, e.g, seeded); err != nil {
		t.Fatal(err)
	}
	// Each vote a distinct (voter, proposal), cast a second apart, by
	// anyone of the game.
	rnd := rand.New(rand.NewPCG(22, 3))
	type ballot struct {
		voter, prop int
		vote        string
	}
	seen := map[[2]int]bool{}
	var ballots []ballot
	for len(ballots) < nv && len(seen) < players*np {
		b := ballot{voter: rnd.IntN(players), prop: 1 + rnd.IntN(np), vote: []string{"for", "for", "against"}[rnd.IntN(3)]}
		if !seen[[2]int{b.voter, b.prop}] {
			seen[[2]int{b.voter, b.prop}] = true
			ballots = append(ballots, b)
		}
	}
	parallel(t, len(ballots), func(i int) error {
		b := ballots[i]
		_, err := e.callReq(game.Request{Game: e.g, Actor: ids[b.voter], Key: fmt.Sprint("vote-", i)}, "turns-vote", turns.Ballot{Proposal: fmt.Sprint("P", b.prop), Vote: b.vote})
		return err
	})
	setup := time.Since(start)

	// The pure rules over the same game, read before the end.
	s := pureOf(t, e)
	rs := e.rules()
	_, _, err := s.ApplyDue(nomic.Due{Kind: nomic.DueTurnEnd, At: end3, Turn: nomic.TurnID(1, 3)}, rs, pureNoDraws{}, nil)
	if err != nil {
		t.Fatal(err)
	}

	e.clk.Set(end3)
	began := time.Now()
	rep, err := e.svc.RunDue(e.ctx)
	took := time.Since(began)
	if err != nil || len(rep.Failed) > 0 {
		t.Fatalf("the turn end failed: %v %v", err, rep.Failed)
	}
	steps := len(e.entriesOf("turn-end"))

	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]int{}
	for _, p := range ps {
		w := s.Proposal(p.ID)
		if w == nil || w.Status != p.Status || w.Result != nil && (p.Result == nil || p.Result.For != w.Result.For || p.Result.Against != w.Result.Against) {
			t.Fatalf("proposal %s: %s %+v through the module, %+v by the pure rules", p.ID, p.Status, p.Result, w)
		}
		status[p.Status]++
	}
	stt := e.status()
	for _, p := range stt.Players {
		w := s.Player(p.Player)
		if w == nil || w.Points != p.Points || w.InPool != p.InPool {
			t.Fatalf("%s: %d points, in pool %v through the module; the pure rules say %+v", p.Name, p.Points, p.InPool, w)
		}
	}
	if stt.Round.Over != s.Round.Over || stt.Round.Winner != s.Round.Winner {
		t.Fatalf("round over %v won by %q through the module; %v, %q by the pure rules", stt.Round.Over, stt.Round.Winner, s.Round.Over, s.Round.Winner)
	}
	inPool := 0
	for _, p := range stt.Players {
		if p.InPool {
			inPool++
		}
	}
	if len(stt.Players) != players || len(stt.Pool) != inPool {
		t.Fatalf("%d players listed of %d; the pool lists %d members, %d players are in it", len(stt.Players), players, len(stt.Pool), inPool)
	}
	t.Logf("%d players, %d proposals, %d votes (set up in %s): the turn end took %s in %d steps on DynamoDB Local; %v; %d left in the pool; winner %q",
		players, len(ps), len(ballots), setup.Round(time.Millisecond), took.Round(time.Millisecond), steps, status, inPool, stt.Round.Winner)
	// No item over 100 KB, whatever the players (issue 22, acceptance 3).
	kind, size := st.Largest()
	if size > storetest.MaxGameItemBytes {
		t.Fatalf("a %s item of %d bytes was written, over %d", kind, size, storetest.MaxGameItemBytes)
	}
	t.Logf("largest item written: %s, %d bytes (at most %d); by kind: %s", kind, size, storetest.MaxGameItemBytes, st)
}

// pureOf is the game as the pure rules hold it, read through the module's
// views: the round, the players, the rules, the proposals with their votes.
func pureOf(t *testing.T, e *env) *nomic.State {
	t.Helper()
	st := e.status()
	rl, err := turns.Rules(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil {
		t.Fatal(err)
	}
	s := &nomic.State{Round: st.Round, Rules: rl, Cases: []nomic.Case{}}
	for _, p := range st.Players {
		s.Players = append(s.Players, nomic.Player{ID: p.Player, Name: p.Name, Member: true, Active: p.Active, InPool: p.InPool, Points: p.Points})
	}
	slices.SortFunc(s.Players, func(a, b nomic.Player) int { return strings.Compare(a.ID, b.ID) })
	for _, p := range ps {
		s.Proposals = append(s.Proposals, p.Proposal)
	}
	return s
}

// rules is the game's ruleset: the shipped one (the test amends nothing).
func (e *env) rules() *ruleset.Ruleset {
	e.t.Helper()
	rs, err := ruleset.Load("turns")
	if err != nil {
		e.t.Fatal(err)
	}
	return rs
}

// entriesOf returns the game's log entries of command.
func (e *env) entriesOf(command string) []game.Entry {
	e.t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := e.svc.Log(e.ctx, e.g, cursor, 100)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, en := range page.Entries {
			if en.Command == command {
				out = append(out, en)
			}
		}
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
