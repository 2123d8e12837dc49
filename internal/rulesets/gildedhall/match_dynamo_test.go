package gildedhall_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"croupier/internal/gametest"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// Acceptance 5 (issue 4), against DynamoDB Local: two moves submitted at the
// same instant for the same turn: exactly one applies, the other is refused
// (not_your_turn, or busy when contention outlasts the retries), and the
// match stays consistent. Repeated over many turns of one match.
func TestAcceptance5_ConcurrentMovesSameTurnDynamo(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Dynamo(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 0)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 0)
	id := twoInPlay(t, svc, suit("Hearts", 2, 6), suit("Clubs", 2, 5))

	rounds := 0
	for round := range 12 {
		v := view(t, svc, id, "")
		if v.Status != gildedhall.MatchPlaying {
			break
		}
		mover := v.Movers[0]
		var choices []exoptosis.Move
		for _, m := range view(t, svc, id, mover).LegalMoves {
			if m.Kind == "play" || m.Kind == "add" || m.Kind == "giver" || m.Kind == "give" {
				choices = append(choices, m)
			}
		}
		if len(choices) == 0 {
			t.Fatalf("round %d: %s has no turn-ending move", round, mover)
		}
		pair := []exoptosis.Move{choices[0], choices[len(choices)-1]}
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			start = make(chan struct{})
			ok    int
			codes []string
		)
		for i, mv := range pair {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := gildedhall.On(svc).Move(ctx, req(mover, fmt.Sprintf("r%d-%d", round, i)), gildedhall.MatchMove{Match: id, Kind: mv.Kind,
					Card: mv.Card, Target: mv.Target, Targets: mv.Targets})
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					ok++
				} else {
					codes = append(codes, gametest.RuleCode(err))
				}
			}()
		}
		close(start)
		wg.Wait()
		after := view(t, svc, id, "")
		refusal := "not_your_turn"
		if after.Status == gildedhall.MatchEnded {
			refusal = "match_over" // the move that applied won the match
		}
		if ok != 1 || len(codes) != 1 || (codes[0] != refusal && codes[0] != "busy") {
			t.Fatalf("round %d (%s: %v): %d applied, refusals %v; want exactly one applied and %s", round, mover, pair, ok, codes, refusal)
		}
		if after.Moves != v.Moves+1 {
			t.Fatalf("round %d: the match log grew by %d, want 1", round, after.Moves-v.Moves)
		}
		seen := map[string]bool{}
		for _, c := range after.Pile {
			seen[c] = true
		}
		for _, p := range after.Participants {
			for _, c := range p.Hand {
				if seen[c] {
					t.Fatalf("round %d: %s is twice in the match (X1): %+v", round, c, after)
				}
				seen[c] = true
			}
		}
		if mover == after.Turn && after.Pending == nil && after.Status == gildedhall.MatchPlaying && !strings.HasPrefix(pair[0].Kind, "give") {
			t.Fatalf("round %d: the turn did not pass: %+v", round, after)
		}
		rounds++
	}
	if rounds < 3 {
		t.Fatalf("only %d concurrent rounds ran", rounds)
	}
}
