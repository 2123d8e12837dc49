package turns_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
)

// afterRead is a store that runs hook once, right after the first read
// of a sort key starting with prefix has returned (a query of such a
// prefix, or a Get of such a key): a way to land a command at an exact
// point of another's work, deterministically.
type afterRead struct {
	store.Store
	prefix string
	once   sync.Once
	hook   func()
}

func (s *afterRead) read(sk string) {
	if s.hook != nil && strings.HasPrefix(sk, s.prefix) {
		s.once.Do(s.hook)
	}
}

func (s *afterRead) Query(ctx context.Context, q store.Query) (store.Page, error) {
	p, err := s.Store.Query(ctx, q)
	s.read(q.Prefix)
	return p, err
}

func (s *afterRead) Get(ctx context.Context, k store.Key) (store.Item, error) {
	it, err := s.Store.Get(ctx, k)
	s.read(k.SK)
	return it, err
}

// laggingClock is a process's clock some milliseconds behind another's, as
// separate Lambdas' clocks are.
type laggingClock struct {
	clock.Clock
	lag time.Duration
}

func (c laggingClock) Now() time.Time { return c.Clock.Now().Add(-c.lag) }

// TestT5_AVoteLandingWhileTheTurnEndCountsIsCountedOrRefused is issue 22's
// lost vote: three players vote for P1 and the scheduler's clock reaches the
// turn end; right after the turn end reads the proposal's votes, a process
// whose clock is 1 ms behind casts an "against" vote. Its clock says voting
// is still open. The vote must be refused as late, or counted; an
// acknowledged vote left out of the count (P1 adopted 3 for, 0 against,
// with the "against" stored) is the defect.
func TestT5_AVoteLandingWhileTheTurnEndCountsIsCountedOrRefused(t *testing.T) {
	for _, appeal := range []bool{false, true} {
		name := map[bool]string{false: "proposal", true: "appeal"}[appeal]
		t.Run(name, func(t *testing.T) {
			hooked := &afterRead{Store: boltStore(t)}
			e := newEnv(t, hooked, "discord:11", "discord:12", "discord:13", "discord:14")
			late := rulesets.New(hooked, laggingClock{Clock: e.clk, lag: time.Millisecond})
			begin, _, end := turnTimes(1)
			id, turnEnd := "P1", end
			if appeal {
				// A case ruled in turn 1, appealed; the appeal is voted on
				// during turn 2 (U10).
				e.at(begin.Add(time.Hour))
				e.must("discord:11", "pool-enter", nil, nil)
				e.must("discord:12", "judgment-request", turns.Judgment{Statement: "The sky is green."}, nil)
				e.must("discord:11", "judge-rule", turns.Ruling{Case: 5301, Ruling: "FALSE"}, nil)
				var ap struct {
					ID string `json:"id"`
				}
				e.must("discord:13", "ruling-appeal", turns.Ruling{Case: 5301, Ruling: "TRUE", Reasons: "It is."}, &ap)
				if ap.ID == "" {
					t.Fatal("the appeal has no id")
				}
				id = ap.ID
				b2, _, end2 := turnTimes(2)
				e.at(b2.Add(time.Hour))
				turnEnd = end2
			} else {
				e.at(begin.Add(time.Hour))
				e.must("discord:11", "turns-propose", turns.Propose{Op: "enact", Text: "A rule."}, nil)
			}
			vote := func(svc *game.Service, actor string, f bool) (*game.Result, error) {
				c, _ := svc.CommandNamed(map[bool]string{false: "turns-vote", true: "appeal-vote"}[appeal])
				p := c.Call.Payload()
				v := map[bool]string{true: "for", false: "against"}[f]
				if appeal {
					*p.(*turns.AppealBallot) = turns.AppealBallot{Case: 5301, Vote: v}
				} else {
					*p.(*turns.Ballot) = turns.Ballot{Proposal: id, Vote: v}
				}
				return c.Call.Run(e.ctx, svc, game.Request{Game: e.g, Actor: actor, Key: fmt.Sprintf("vote-%s-%v", actor, f)}, p)
			}
			// Dee votes for at first: her late vote changes it (a first vote
			// marks her as a voter of the turn, U8, in the game item, which
			// the turn end's commit would see move).
			for _, p := range []string{"discord:11", "discord:12", "discord:13", "discord:14"} {
				if _, err := vote(e.svc, p, true); err != nil {
					t.Fatal(err)
				}
			}
			var lateRes *game.Result
			var lateErr error
			hooked.prefix = "TVOTE#" + id + "#"
			hooked.hook = func() { lateRes, lateErr = vote(late, "discord:14", false) }
			e.at(turnEnd)
			e.at(turnEnd.Add(time.Minute))

			var re *rules.Error
			switch {
			case lateErr == nil && lateRes != nil:
				// Acknowledged: it must be in the count.
				against := countedAgainst(t, e, appeal, id)
				if against != 1 {
					t.Fatalf("the late vote was acknowledged (%s) but the count has %d against", lateRes.Body, against)
				}
			case errors.As(lateErr, &re) && re.Code == "voting_closed":
				if against := countedAgainst(t, e, appeal, id); against != 0 {
					t.Fatalf("the late vote was refused but the count has %d against", against)
				}
			default:
				t.Fatalf("the late vote: %v", lateErr)
			}
		})
	}
}

// countedAgainst is how many votes against the turn end counted.
func countedAgainst(t *testing.T, e *env, appeal bool, id string) int {
	t.Helper()
	if !appeal {
		ps, err := turns.Proposals(e.ctx, e.svc, e.g)
		if err != nil || len(ps) != 1 || ps[0].Result == nil {
			t.Fatalf("proposals %+v %v", ps, err)
		}
		return ps[0].Result.Against
	}
	cs, err := turns.Cases(e.ctx, e.svc, e.g)
	if err != nil || len(cs) != 1 {
		t.Fatalf("cases %+v %v", cs, err)
	}
	c := cs[0]
	for _, ap := range c.Appeals {
		if ap.ID == id {
			if ap.Result == nil {
				t.Fatalf("appeal %s has no result: %+v", id, ap)
			}
			return ap.Result.Against
		}
	}
	t.Fatalf("no appeal %s in %+v", id, c)
	return 0
}

// T5 for a proposal's 👍/👎 read at the turn end (U4): right after the turn
// end reads the pushed reactions, a bridge's push from a process 1 ms
// behind adds Ada's 👎 (her id sorts before those already read, so a page
// read after the push does not find her either). It is counted, or
// refused as late; acknowledged and left out is the defect.
func TestT5_AReactionPushedWhileTheTurnEndReadsIsCountedOrRefused(t *testing.T) {
	hooked := &afterRead{Store: boltStore(t)}
	e := newEnv(t, hooked, ada, bea, cy, dee)
	late := rulesets.New(hooked, laggingClock{Clock: e.clk, lag: time.Millisecond})
	m := game.MessageRef{Platform: "discord", Channel: "700", Message: "9002"}
	e.must(ada, "turns-propose", turns.Propose{Op: "enact", Text: "Reactions count.", Message: &m}, nil)
	if _, err := e.svc.PushReactions(e.ctx, e.req(admin), game.PushReactions{Message: m, Up: []string{bea, cy}}); err != nil {
		t.Fatal(err)
	}
	var lateErr error
	hooked.prefix = "REACTIONS#"
	hooked.hook = func() {
		_, lateErr = late.PushReactions(e.ctx, game.Request{Game: e.g, Actor: admin, Key: "late-push"},
			game.PushReactions{Op: "add", Message: m, Down: []string{ada}})
	}
	_, _, end := turnTimes(1)
	e.at(end)
	e.at(end.Add(time.Minute))
	ps, err := turns.Proposals(e.ctx, e.svc, e.g)
	if err != nil || len(ps) != 1 || ps[0].Result == nil {
		t.Fatalf("%+v %v", ps, err)
	}
	r := ps[0].Result
	var re *rules.Error
	switch {
	case lateErr == nil:
		if r.Against != 1 {
			t.Fatalf("Ada's 👎 was acknowledged but the count has %d against (%+v)", r.Against, r)
		}
	case errors.As(lateErr, &re) && re.Code == "voting_closed":
		if r.Against != 0 {
			t.Fatalf("Ada's 👎 was refused but the count has %d against", r.Against)
		}
	default:
		t.Fatalf("the late push: %v", lateErr)
	}
	if r.For != 2 {
		t.Fatalf("the count has %d for, want Bea and Cy", r.For)
	}
}
