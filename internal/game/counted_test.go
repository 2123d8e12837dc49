package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/reactions"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets"
	"croupier/internal/store"
)

// RULINGS T5 for reactions read at a scheduled end: a pushed reaction is
// counted if and only if it commits before the end begins to be applied
// (the tally seals the message's record); one that would commit after is
// refused voting_closed, whatever the pushing process's clock said.

// onRead is a store that runs hook once, right after the first Get or
// GetMany reading a key whose sort key starts with prefix returns: a way
// to land a command at an exact point of another's work. It also keeps
// the largest commit it saw and every put of a REACTIONS# record.
type onRead struct {
	store.Store
	mu     sync.Mutex
	prefix string
	hook   func()
	fired  atomic.Bool
	maxOps atomic.Int64
	// reactionPuts counts the REACTIONS# records that commits put, and
	// maxReactionPuts the most one commit put.
	reactionPuts, maxReactionPuts atomic.Int64
	// dieAt, when set, fails the dieAt-th commit putting REACTIONS#
	// records and every later one, as if its process had died before it.
	dieAt, sealCommits atomic.Int64
}

func (s *onRead) arm(prefix string, hook func()) {
	s.mu.Lock()
	s.prefix, s.hook = prefix, hook
	s.mu.Unlock()
	s.fired.Store(false)
}

func (s *onRead) after(keys []store.Key) {
	s.mu.Lock()
	prefix, hook := s.prefix, s.hook
	s.mu.Unlock()
	if hook == nil {
		return
	}
	for _, k := range keys {
		if strings.HasPrefix(k.SK, prefix) {
			if s.fired.CompareAndSwap(false, true) {
				hook()
			}
			return
		}
	}
}

func (s *onRead) Get(ctx context.Context, k store.Key) (store.Item, error) {
	it, err := s.Store.Get(ctx, k)
	s.after([]store.Key{k})
	return it, err
}

func (s *onRead) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	its, err := s.Store.GetMany(ctx, keys)
	s.after(keys)
	return its, err
}

func (s *onRead) Commit(ctx context.Context, tx store.Tx) error {
	n := int64(tx.Size())
	for {
		if m := s.maxOps.Load(); n <= m || s.maxOps.CompareAndSwap(m, n) {
			break
		}
	}
	var r int64
	for _, p := range tx.Puts {
		if strings.HasPrefix(p.Item.SK, reactions.PushedPrefix) {
			r++
		}
	}
	if r > 0 && s.dieAt.Load() > 0 && s.sealCommits.Add(1) >= s.dieAt.Load() {
		return errors.New("injected: the process died")
	}
	err := s.Store.Commit(ctx, tx)
	if err == nil && r > 0 {
		s.reactionPuts.Add(r)
		for {
			if m := s.maxReactionPuts.Load(); r <= m || s.maxReactionPuts.CompareAndSwap(m, r) {
				break
			}
		}
	}
	return err
}

// lagging is a process's clock some milliseconds behind another's, as
// separate Lambdas' clocks are.
type lagging struct {
	clock.Clock
	lag time.Duration
}

func (c lagging) Now() time.Time { return c.Clock.Now().Add(-c.lag) }

// tallyKind sets up one kind of vote read from a message's reactions: 👍
// from discord:11 and 12, 👎 from discord:13, ending at end; against says
// how many 👎 (overturning, for a confidence vote) the end counted.
type tallyKind struct {
	name  string
	setup func(g *gov) (message string, end time.Time, against func() int)
}

var tallyKinds = []tallyKind{
	{"standard proposal", func(g *gov) (string, time.Time, func() int) {
		g.Clk.Set(thursday)
		p := g.Propose(pl(10), "vote", game.SubmitProposal{Title: "More gifts"})
		return "vote", p.VotingEnd, func() int { return resultOf(g, p.ID).Against }
	}},
	{"urgent proposal", func(g *gov) (string, time.Time, func() int) {
		g.Clk.Set(thursday)
		p := g.Propose(pl(10), "vote", game.SubmitProposal{Title: "Now", Class: governance.Urgent})
		return "vote", p.VotingEnd, func() int { return resultOf(g, p.ID).Against }
	}},
	{"confidence vote", func(g *gov) (string, time.Time, func() int) {
		g.Elect(pl(10))
		rq := gametest.Decode[game.JusticeRecord](g.T, g.Must(g.Svc.RequestJustice(g.Ctx, req(pl(11), "rq"),
			game.RequestJustice{Kind: governance.KindStatement, Text: "Kings are worth 12.", Message: msg("rq")})))
		ru := gametest.Decode[game.RulingView](g.T, g.Must(g.Svc.Rule(g.Ctx, req(pl(10), "rule"), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
		opened := g.Clk.Now().Add(time.Hour)
		g.Clk.Set(opened)
		g.Must(g.Svc.OpenConfidence(g.Ctx, req(pl(12), "conf"), game.OpenConfidence{Ruling: ru.ID, Poll: msg("vote")}))
		return "vote", opened.Add(48 * time.Hour), func() int {
			rs, err := g.Svc.Rulings(g.Ctx, "hall")
			if err != nil || rs[0].Confidence == nil || rs[0].Confidence.Result == nil {
				g.T.Fatalf("the confidence vote has no result: %+v %v", rs, err)
			}
			return rs[0].Confidence.Result.Overturn
		}
	}},
	{"Judge election", func(g *gov) (string, time.Time, func() int) {
		g.Clk.Set(thursday)
		g.Must(g.Svc.StandForJudge(g.Ctx, req(pl(10), g.Key()), game.StandForJudge{Message: msg("vote")}))
		return "vote", nextMonday, func() int {
			v, err := g.Svc.Candidacies(g.Ctx, "hall", "2026-W49", game.PageRequest{})
			if err != nil || v.Result == nil || len(v.Result.Standings) != 1 {
				g.T.Fatalf("the election has no result: %+v %v", v, err)
			}
			return v.Result.Standings[0].Down
		}
	}},
}

func resultOf(g *gov, id string) *governance.Result {
	g.T.Helper()
	v := g.Proposal(id)
	if v.Result == nil {
		g.T.Fatalf("proposal %s has no result: %+v", id, v.Proposal)
	}
	return v.Result
}

// raceTheTally is issue 23's lost reaction, for one kind of tally: 👍 from
// two players and 👎 from one are on the message, and the scheduler's clock
// reaches the end. A bridge's push of two more 👎 from a process whose clock
// is 1 ms behind the end lands (after) right after the tally read the
// message's record, or (before) reads the record before the tally and
// commits after it. Its clock says voting is open. It must be counted (3
// against) or refused voting_closed (1 against); acknowledged and left out
// of the count is the defect.
func raceTheTally(t *testing.T, k tallyKind) {
	for _, order := range []string{"push lands right after the tally read the reactions", "push read the reactions before the tally"} {
		t.Run(order, func(t *testing.T) {
			hooked := &onRead{Store: gametest.Bolt(t)}
			g := newGovOn(t, hooked)
			m, end, against := k.setup(g)
			g.Vote(m, pls(11, 12), pls(13))
			late := rulesets.New(hooked, lagging{Clock: g.Clk, lag: time.Millisecond})
			var lateRes *game.Result
			var lateErr error
			push := func() {
				lateRes, lateErr = late.PushReactions(g.Ctx, req(admin, "late"), game.PushReactions{Message: msg(m), Op: "add", Down: pls(14, 15)})
			}
			g.Clk.Set(end)
			if strings.HasPrefix(order, "push lands") {
				hooked.arm(reactions.PushedPrefix, push)
				g.RunDue(end)
			} else {
				hooked.arm(reactions.PushedPrefix, func() {
					if _, err := g.Svc.RunDue(g.Ctx); err != nil {
						t.Errorf("the tally: %v", err)
					}
				})
				push()
			}
			if !hooked.fired.Load() {
				t.Fatal("the race never happened: nothing read the reactions")
			}
			hooked.arm("", nil)
			g.RunDue(end.Add(time.Minute))
			switch got := against(); {
			case lateErr == nil && lateRes != nil:
				if got != 3 {
					t.Fatalf("the push 1 ms before the end was acknowledged (%s) but the %s counted %d against, not 3", lateRes.Body, k.name, got)
				}
			case gametest.RuleCode(lateErr) == "voting_closed":
				if got != 1 {
					t.Fatalf("the push was refused (%v) but the %s counted %d against, not 1", lateErr, k.name, got)
				}
			default:
				t.Fatalf("the push: %v", lateErr)
			}
		})
	}
}

func TestT5_StandardProposalCountsOrRefusesAPushRacingItsTally(t *testing.T) {
	raceTheTally(t, tallyKinds[0])
}

func TestT5_UrgentProposalCountsOrRefusesAPushRacingItsTally(t *testing.T) {
	raceTheTally(t, tallyKinds[1])
}

func TestT5_ConfidenceVoteCountsOrRefusesAPushRacingItsEnd(t *testing.T) {
	raceTheTally(t, tallyKinds[2])
}

func TestT5_JudgeElectionCountsOrRefusesAPushRacingItsEnd(t *testing.T) {
	raceTheTally(t, tallyKinds[3])
}

// TestT5_APushStampedBeforeTheCountIsRefusedSayingWhatAndWhen: once a
// proposal's votes are counted, a push from a process whose clock is a
// moment behind is refused voting_closed, says what the message is and when
// its votes were counted, and changes nothing; a push stamped after the
// count is recorded (it counts for nothing: the message is one thing, G6)
// and leaves the result alone.
func TestT5_APushStampedBeforeTheCountIsRefusedSayingWhatAndWhen(t *testing.T) {
	g := newGov(t)
	m, end, against := tallyKinds[0].setup(g)
	g.Vote(m, pls(11, 12), pls(13))
	g.RunDue(end)
	if got := against(); got != 1 {
		t.Fatalf("counted %d against", got)
	}
	k, _ := reactions.Key(game.GamePK("hall"), msg(m))
	before, _ := g.Svc.Store().Get(g.Ctx, k)
	nEntries := len(g.Entries())
	late := rulesets.New(g.Svc.Store(), lagging{Clock: g.Clk, lag: time.Millisecond})
	for _, p := range []func() error{
		func() error {
			_, err := late.PushReactions(g.Ctx, req(admin, "late"), game.PushReactions{Message: msg(m), Op: "add", Down: pls(14)})
			return err
		},
		func() error {
			_, err := late.PushMessageEvent(g.Ctx, req(admin, "late-edit"), game.MessageEvent{Message: msg(m), Event: "edited"})
			return err
		},
	} {
		err := p()
		if gametest.RuleCode(err) != "voting_closed" {
			t.Fatalf("a push stamped 1 ms before the end, after the count: %v; want voting_closed", err)
		}
		id := resultID(g)
		for _, want := range []string{"proposal " + id + " «More gifts»", "counted as of Mon 7 Dec 2026 00:00 UTC"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the refusal %q does not say %q", err, want)
			}
		}
	}
	after, _ := g.Svc.Store().Get(g.Ctx, k)
	if after.Version != before.Version || string(after.Data) != string(before.Data) || len(g.Entries()) != nEntries {
		t.Fatalf("a refused push changed something: record v%d -> v%d, %d -> %d log entries", before.Version, after.Version, nEntries, len(g.Entries()))
	}
	g.Clk.Set(end.Add(time.Second))
	g.Must(g.Svc.PushReactions(g.Ctx, req(admin, "after"), game.PushReactions{Message: msg(m), Op: "add", Down: pls(14)}))
	if got := against(); got != 1 {
		t.Fatalf("a push after the count changed the result: %d against", got)
	}
}

func resultID(g *gov) string {
	ps, err := g.Svc.Proposals(g.Ctx, "hall", "")
	if err != nil || len(ps) != 1 {
		g.T.Fatalf("proposals %+v %v", ps, err)
	}
	return ps[0].ID
}

// concurrentPushes: 40 players' 👍 pushed by processes whose clocks are
// 1 to 5 ms behind race the tally of an urgent proposal at its end, which
// starts once 10 of them are acknowledged. Every
// push is stamped before the end, so each acknowledged one must be
// counted, and each refused one (voting_closed) neither counted nor
// recorded. filler people who are not players have reacted before, so
// that the record is stored in pages (issue 22) when filler is large.
func concurrentPushes(t *testing.T, st store.Store, filler int) {
	g := newGovOn(t, st)
	const n = 40
	for i := range n {
		g.Must(g.Svc.Join(g.Ctx, req(pl(100+i), "join"), game.JoinGame{}))
	}
	m, end, _ := tallyKinds[1].setup(g)
	var others []string
	for i := 0; i < filler; i += 100 {
		var ids []string
		for j := i; j < min(filler, i+100); j++ {
			ids = append(ids, fmt.Sprintf("discord:%018d", 900000000000000000+j))
		}
		v := gametest.Decode[game.PushedView](t, g.Must(g.Svc.PushReactions(g.Ctx, req(admin, fmt.Sprintf("filler-%d", i)), game.PushReactions{Message: msg(m), Op: "add", Up: ids})))
		others = append(others, ids...)
		// The response, logged with the push, holds a sample and the count.
		if v.UpCount != len(others) || len(v.Up) != min(len(others), governance.VoterSample) || v.Up[0] != others[0] {
			t.Fatalf("after %d reactors the push answers %d (%d listed, first %s)", len(others), v.UpCount, len(v.Up), v.Up[0])
		}
	}
	g.Clk.Set(end)
	svcs := make([]*game.Service, 5)
	for i := range svcs {
		svcs[i] = rulesets.New(st, lagging{Clock: g.Clk, lag: time.Duration(i+1) * time.Millisecond})
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		acked    []string
		refused  int
		failures []string
	)
	// The tally starts once 10 pushes are in, so that the rest race it.
	start, tenIn := make(chan struct{}), make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(tenIn) }) }
	done := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			who := pl(100 + i)
			_, err := svcs[i%len(svcs)].PushReactions(g.Ctx, req(admin, "race-"+who), game.PushReactions{Message: msg(m), Op: "add", Up: []string{who}})
			mu.Lock()
			defer mu.Unlock()
			if done++; done == n {
				release() // however few were acknowledged
			}
			switch {
			case err == nil:
				acked = append(acked, who)
				if len(acked) == 10 {
					release()
				}
			case gametest.RuleCode(err) == "voting_closed":
				refused++
			default:
				failures = append(failures, err.Error())
			}
		}()
	}
	var tallyErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-tenIn
		rep, err := g.Svc.RunDue(g.Ctx)
		if err == nil && len(rep.Failed) > 0 {
			err = fmt.Errorf("%v", rep.Failed)
		}
		tallyErr = err
	}()
	close(start)
	wg.Wait()
	if tallyErr != nil || len(failures) > 0 {
		t.Fatalf("the tally: %v; pushes failed: %v", tallyErr, failures)
	}
	g.RunDue(end.Add(time.Minute))
	slices.Sort(acked)
	res := resultOf(g, resultID(g))
	if !slices.Equal(res.ForVoters, acked) {
		t.Fatalf("%d pushes acknowledged, %d refused; counted for: %v, acknowledged: %v", len(acked), refused, res.ForVoters, acked)
	}
	k, _ := reactions.Key(game.GamePK("hall"), msg(m))
	h, rec, err := reactions.Load(g.Ctx, st, k, msg(m))
	if err != nil {
		t.Fatalf("reading %s: %v", k, err)
	}
	want := slices.Sorted(slices.Values(append(others, acked...)))
	if got := rec.AsOf(time.Time{}).Up; !slices.Equal(got, want) {
		t.Fatalf("a refused push was recorded: the record holds %d reactors, %d acknowledged", len(got), len(want))
	}
	t.Logf("%d acknowledged and counted, %d refused as late; the record has %d pages", len(acked), refused, len(h.PageKeys()))
}

func TestT5_ConcurrentPushesRacingTheTallyBolt(t *testing.T) {
	concurrentPushes(t, gametest.Bolt(t), 0)
}

func TestT5_ConcurrentPushesRacingTheTallyDynamoDB(t *testing.T) {
	concurrentPushes(t, gametest.Dynamo(t), 0)
}

// A message 5,000 people reacted to is a record in pages (issue 22); the
// pushes racing the tally write its head, and the seal seals it there.
func TestT5_ConcurrentPushesRacingTheTallyOfAPagedRecordBolt(t *testing.T) {
	concurrentPushes(t, gametest.Bolt(t), 5000)
}

func TestT5_ConcurrentPushesRacingTheTallyOfAPagedRecordDynamoDB(t *testing.T) {
	concurrentPushes(t, gametest.Dynamo(t), 5000)
}

// manyCandidacies: an election of 120 candidacies (more than one commit
// may hold) run by 5 schedulers at once: it is held once, every candidacy's
// record is sealed as of the week's end exactly once, and no commit
// exceeds DynamoDB's 100 operations (the seal's hold at most 90 records).
func manyCandidacies(t *testing.T, st store.Store) {
	hooked, g := candidacies120(t, st)
	const n = 120
	g.Clk.Set(nextMonday)
	var wg sync.WaitGroup
	errs := make([]error, 5)
	for r := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := g.Svc.RunDue(g.Ctx)
			if err == nil && len(rep.Failed) > 0 {
				err = fmt.Errorf("%v", rep.Failed)
			}
			errs[r] = err
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("runner %d: %v", r, err)
		}
	}
	if ev := g.Events("judge_elected"); len(ev) != 1 || ev[0].Player != pl(107) {
		t.Fatalf("judge_elected events: %+v", ev)
	}
	sealedOnce(t, g, n)
	if ops := hooked.maxOps.Load(); ops > store.MaxTxItems {
		t.Fatalf("a commit of %d operations", ops)
	}
	if got := hooked.maxReactionPuts.Load(); got > 90 {
		t.Fatalf("one commit sealed %d records", got)
	}
	t.Logf("largest commit %d operations, at most %d records sealed in one", hooked.maxOps.Load(), hooked.maxReactionPuts.Load())
}

// candidacies120 is a game with 120 more players (discord:100 to 219),
// each standing for Judge in week 49 on message c<i>; candidacy 7 has the
// most 👍, 3 and 50 some votes too.
func candidacies120(t *testing.T, st store.Store) (*onRead, *gov) {
	hooked := &onRead{Store: st}
	g := newGovOn(t, hooked)
	g.Clk.Set(gametest.Start.Add(time.Hour))
	for i := range 120 {
		g.Must(g.Svc.Join(g.Ctx, req(pl(100+i), "join"), game.JoinGame{}))
	}
	g.Clk.Set(thursday)
	for i := range 120 {
		g.Must(g.Svc.StandForJudge(g.Ctx, req(pl(100+i), "stand"), game.StandForJudge{Message: msg(fmt.Sprintf("c%d", i))}))
	}
	g.Vote("c7", pls(10, 11, 12, 13), nil)
	g.Vote("c3", pls(10, 11), nil)
	g.Vote("c50", pls(12), pls(13, 14))
	return hooked, g
}

// sealedOnce checks that each of the n candidacies' records is sealed as
// of the week's end, and was written by one seal only (its version is its
// pushes plus one).
func sealedOnce(t *testing.T, g *gov, n int) {
	t.Helper()
	pushes := map[string]int64{"c7": 1, "c3": 1, "c50": 1}
	for i := range n {
		m := fmt.Sprintf("c%d", i)
		k, _ := reactions.Key(game.GamePK("hall"), msg(m))
		it, err := g.Svc.Store().Get(g.Ctx, k)
		var sealed struct {
			CountedAt time.Time `json:"counted_at"`
		}
		if err != nil || json.Unmarshal(it.Data, &sealed) != nil || !sealed.CountedAt.Equal(nextMonday) {
			t.Fatalf("%s: %s (v%d) is not sealed as of the week's end: %v", m, it.Data, it.Version, err)
		}
		if it.Version != pushes[m]+1 {
			t.Fatalf("%s: version %d after %d pushes: sealed more than once", m, it.Version, pushes[m])
		}
	}
}

// TestT5_AnElectionsSealInterruptedPartWayIsResumed: the runner holding an
// election of 120 candidacies dies before its second seal commit (every
// attempt of it fails); the election stays due, and the next run seals the
// rest (each record once) and holds it.
func TestT5_AnElectionsSealInterruptedPartWayIsResumed(t *testing.T) {
	hooked, g := candidacies120(t, gametest.Bolt(t))
	hooked.dieAt.Store(2)
	g.Clk.Set(nextMonday)
	rep, err := g.Svc.RunDue(g.Ctx)
	if err != nil || len(rep.Failed) == 0 || !strings.Contains(rep.Failed[0], "injected") {
		t.Fatalf("the interrupted run: %+v, %v", rep, err)
	}
	if ev := g.Events("judge_elected"); len(ev) != 0 {
		t.Fatalf("%d judge_elected events before every candidacy was sealed", len(ev))
	}
	sealed := 0
	for i := range 120 {
		k, _ := reactions.Key(game.GamePK("hall"), msg(fmt.Sprintf("c%d", i)))
		if it, _ := g.Svc.Store().Get(g.Ctx, k); strings.Contains(string(it.Data), "counted_at") {
			sealed++
		}
	}
	if sealed != 90 {
		t.Fatalf("%d records sealed by the first commit, want 90", sealed)
	}
	hooked.dieAt.Store(0)
	g.RunDue(nextMonday.Add(time.Minute))
	if ev := g.Events("judge_elected"); len(ev) != 1 || ev[0].Player != pl(107) {
		t.Fatalf("judge_elected events: %+v", ev)
	}
	sealedOnce(t, g, 120)
}

func TestT5_ElectionOf120CandidaciesSealsInBoundedIdempotentCommitsBolt(t *testing.T) {
	manyCandidacies(t, gametest.Bolt(t))
}

func TestT5_ElectionOf120CandidaciesSealsInBoundedIdempotentCommitsDynamoDB(t *testing.T) {
	manyCandidacies(t, gametest.Dynamo(t))
}

// TestT5_TheSealCostsOneSmallWritePerMessage measures a proposal tally's
// store cost (bolt bills as DynamoDB would): the seal adds one put of the
// message's record, a single PutItem when the tally counts one message.
func TestT5_TheSealCostsOneSmallWritePerMessage(t *testing.T) {
	hooked := &onRead{Store: gametest.Bolt(t)}
	g := newGovOn(t, hooked)
	m, end, _ := tallyKinds[0].setup(g)
	g.Vote(m, pls(11, 12), pls(13))
	g.Clk.Set(end)
	var u store.Usage
	before := hooked.reactionPuts.Load()
	if _, err := g.Svc.RunDue(store.WithUsage(g.Ctx, &u)); err != nil {
		t.Fatal(err)
	}
	c := u.Snapshot()
	t.Logf("the tally at the end of the standard proposal's vote: %d requests, %d items read, %d written, %.1f read units, %.1f write units",
		c.Requests, c.ItemsRead, c.ItemsWritten, c.ReadUnits, c.WriteUnits)
	if got := hooked.reactionPuts.Load() - before; got != 1 {
		t.Fatalf("the tally wrote %d reaction records; it counts one message", got)
	}
}

// TestT5_SealReactionsForAModulesEnd is the call a module's scheduled end
// makes (the turns module's turn end): SealReactions on the messages it
// counts, then ReactionsAt. Pushed messages are sealed (a later push
// stamped before the end is refused; one after is recorded and not read as
// of the end); messages the platform reader reads live are not touched; a
// moment the service's clock has not reached is not sealed.
func TestT5_SealReactionsForAModulesEnd(t *testing.T) {
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	ctx := context.Background()
	svc = rulesets.New(svc.Store(), clk, game.WithEntropy(gametest.Seeded(2)), game.WithReactions(discordOnly{}))
	slackMsg := game.MessageRef{Platform: "slack", Channel: "C1", Message: "1700000000.000100"}
	discordMsg := msg("live")
	if _, err := svc.PushReactions(ctx, req(admin, "r"), game.PushReactions{Message: slackMsg, Up: pls(10, 11)}); err != nil {
		t.Fatal(err)
	}
	end := clk.Now().Add(time.Hour)
	if err := svc.SealReactions(ctx, "hall", []game.MessageRef{slackMsg}, end); err == nil {
		t.Fatal("sealed as of a moment the clock has not reached")
	}
	clk.Set(end)
	for range 2 { // the second call finds them sealed and writes nothing
		if err := svc.SealReactions(ctx, "hall", []game.MessageRef{slackMsg, discordMsg}, end); err != nil {
			t.Fatal(err)
		}
	}
	sk, _ := reactions.Key(game.GamePK("hall"), slackMsg)
	dk, _ := reactions.Key(game.GamePK("hall"), discordMsg)
	if it, _ := svc.Store().Get(ctx, sk); it.Version != 2 {
		t.Fatalf("the pushed record is at v%d after a push and two seals, want 2", it.Version)
	}
	if it, _ := svc.Store().Get(ctx, dk); it.Exists() {
		t.Fatal("a message read live from Discord was sealed")
	}
	late := rulesets.New(svc.Store(), lagging{Clock: clk, lag: time.Millisecond})
	if _, err := late.PushReactions(ctx, req(admin, "late"), game.PushReactions{Message: slackMsg, Op: "add", Up: pls(12)}); gametest.RuleCode(err) != "voting_closed" ||
		!strings.Contains(err.Error(), "The votes on this message were counted as of") {
		t.Fatalf("a push 1 ms before the sealed moment: %v", err)
	}
	clk.Set(end.Add(time.Second))
	if _, err := svc.PushReactions(ctx, req(admin, "after"), game.PushReactions{Message: slackMsg, Op: "add", Up: pls(13)}); err != nil {
		t.Fatalf("a push after the sealed moment: %v", err)
	}
	snap, err := svc.ReactionsAt(ctx, "hall", slackMsg, end)
	if err != nil || !slices.Equal(snap.Up, pls(10, 11)) {
		t.Fatalf("read as of the end after the seal: %+v %v", snap, err)
	}
}
