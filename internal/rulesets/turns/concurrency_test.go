package turns_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// Votes racing the turn end, against DynamoDB Local (and bolt): 40 players
// vote at once while the clock reaches the turn's end and the scheduler
// (and the voters' own catch-ups) apply it. Every vote the game accepted
// is counted, with its direction, and no refused one is: the turn end's
// fence makes a vote committed before it part of the count and sends a
// later one back to find the voting closed.
func TestConcurrentVotesAndTheTurnEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   func(t *testing.T) store.Store
	}{
		{"bolt", func(t *testing.T) store.Store { return boltStore(t) }},
		{"dynamodb", func(t *testing.T) store.Store {
			client, table := testenv.DynamoTable(t, "turns")
			return dynamo.New(client, table)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 40
			var voters []string
			for i := range n {
				voters = append(voters, fmt.Sprintf("discord:%d", 100+i))
			}
			e := newEnv(t, tc.st(t), voters...)
			e.must(voters[0], "turns-propose", turns.Propose{Op: "enact", Text: "A rule."}, nil)
			_, _, end := turnTimes(1)
			e.at(end.Add(-time.Second))

			var mu sync.Mutex
			accepted := map[string]bool{} // voter -> for
			var got atomic.Int32
			var wg sync.WaitGroup
			for i, v := range voters {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range 3 { // a voter may change their vote
						f := (i+k)%3 != 0
						res, err := e.callConcurrent(v, "turns-vote", turns.Ballot{Proposal: "P1", Vote: map[bool]string{true: "for", false: "against"}[f]})
						var re *rules.Error
						switch {
						case err == nil && res != nil:
							mu.Lock()
							accepted[v] = f
							mu.Unlock()
							got.Add(1)
						case errors.As(err, &re) && re.Code == "voting_closed":
							return
						default:
							t.Errorf("%s: %v", v, err)
							return
						}
					}
				}()
			}
			// The turn ends while the votes come in.
			for got.Load() < n/2 {
				time.Sleep(time.Millisecond)
			}
			e.clk.Set(end)
			if _, err := e.svc.RunDue(e.ctx); err != nil {
				t.Fatal(err)
			}
			wg.Wait()
			e.at(end.Add(time.Minute))

			ps, err := turns.Proposals(e.ctx, e.svc, e.g)
			if err != nil || len(ps) != 1 || ps[0].Result == nil {
				t.Fatalf("proposals %+v %v", ps, err)
			}
			r := ps[0].Result
			var wantFor, wantAgainst []string
			for v, f := range accepted {
				if f {
					wantFor = append(wantFor, v)
				} else {
					wantAgainst = append(wantAgainst, v)
				}
			}
			// The counted votes are the proposal's vote items (issue 22:
			// the result holds the counts, never a list of voters).
			var gotFor, gotAgainst []string
			for _, v := range ps[0].Votes {
				if v.For {
					gotFor = append(gotFor, v.Voter)
				} else {
					gotAgainst = append(gotAgainst, v.Voter)
				}
			}
			slices.Sort(gotFor)
			slices.Sort(gotAgainst)
			if r.For != len(gotFor) || r.Against != len(gotAgainst) {
				t.Fatalf("the result counts %d for, %d against; the votes are %v and %v", r.For, r.Against, gotFor, gotAgainst)
			}
			slices.Sort(wantFor)
			slices.Sort(wantAgainst)
			if !slices.Equal(gotFor, wantFor) || !slices.Equal(gotAgainst, wantAgainst) {
				t.Fatalf("counted for %v against %v;\naccepted for %v against %v", gotFor, gotAgainst, wantFor, wantAgainst)
			}
			t.Logf("%d votes accepted from %d voters before the end, all counted: %s", got.Load(), len(accepted), r.Reason)
			if len(accepted) == 0 || len(accepted) == n && got.Load() == 3*n {
				t.Logf("the race did not interleave this time (accepted %d of %d voters)", len(accepted), n)
			}
		})
	}
}

// callConcurrent is call for goroutines: keys from a counter, and errors
// returned, never fatal.
func (e *env) callConcurrent(actor, name string, p any) (*game.Result, error) {
	return e.callReq(game.Request{Game: e.g, Actor: actor, Key: fmt.Sprintf("c-%s-%d", actor, keySeq.Add(1))}, name, p)
}

var keySeq atomic.Int64
