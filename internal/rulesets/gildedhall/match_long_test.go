package gildedhall_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// A match that never ends by itself: every card in both hands is red and
// too far from the 5 of Hearts on the pile to follow it (X3), and both
// decks are in the hands, so nobody can add or draw (X4). Each turn the
// mover asks the other for a card, who gives one, and the turn passes:
// two moves a turn, for as long as the players like.
var (
	loopAda = []string{"5 of Hearts", "2 of Hearts", "2 of Diamonds", "8 of Hearts", "8 of Diamonds"}
	loopBo  = []string{"10 of Hearts", "10 of Diamonds", "9 of Hearts", "9 of Diamonds"}
)

// Issue 16, acceptance 2: a 2,000-move match completes, and its replay
// rebuilds it move by move from the log: every step legal, the hands and
// pile after each step those the move's answer showed, the end equal to the
// stored match. The match item does not grow with the moves.
func TestLongMatchReplaysMoveByMove(t *testing.T) {
	longMatch(t, gametest.Bolt(t), 2000)
}

// The same on DynamoDB Local, shorter: the replay reads the log through
// the table's order index.
func TestLongMatchReplaysMoveByMoveDynamoDB(t *testing.T) {
	longMatch(t, gametest.Dynamo(t), 120)
}

func longMatch(t *testing.T, st store.Store, moves int) {
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, st)
	gametest.Enrol(t, svc, ada, loopAda, 5)
	gametest.Enrol(t, svc, bo, loopBo, 5)
	id := duel(t, svc, ada, bo)

	// hands[i] is every hand after step i+1, as the answers showed them.
	var hands []map[string][]string
	var last gildedhall.MoveResult
	var sizes []int
	do := func(actor string, mv gildedhall.MatchMove) {
		t.Helper()
		mv.Match = id
		last = move(t, svc, actor, mv)
		h := map[string][]string{}
		for _, p := range last.Match.Participants {
			h[p.ID] = p.Hand
		}
		for len(hands) < last.Match.Moves {
			hands = append(hands, h)
		}
		if mv.Kind == exoptosis.MoveGive { // the same position in the loop each time
			it, err := st.Get(ctx, store.Key{PK: game.GamePK("hall"), SK: "MATCH#" + id})
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, len(it.Data))
		}
		clk.Advance(10 * time.Second)
	}
	do(ada, gildedhall.MatchMove{Kind: exoptosis.MoveSelect, Cards: loopAda})
	do(bo, gildedhall.MatchMove{Kind: exoptosis.MoveSelect, Cards: loopBo})
	if last.Match.Turn != ada {
		t.Fatalf("the larger hand bets first (X2): %+v", last.Match)
	}
	do(ada, gildedhall.MatchMove{Kind: exoptosis.MovePass})
	do(bo, gildedhall.MatchMove{Kind: exoptosis.MovePass})
	do(ada, gildedhall.MatchMove{Kind: exoptosis.MovePlay, Card: "5 of Hearts"})
	skipped := false
	for last.Match.Moves < moves-1 {
		v := last.Match
		if v.Phase != string(exoptosis.PhasePlay) {
			t.Fatalf("after %d moves the match is %s: %+v", v.Moves, v.Phase, v)
		}
		if !skipped && v.Moves >= moves/2 && v.Pending == nil {
			// Once, nobody moves for a day: the scheduler skips the turn
			// (X7), a step of its own in the log.
			skipped = true
			clk.Advance(25 * time.Hour)
			if done, err := gildedhall.On(svc).ExpireMatch(ctx, "hall", id); err != nil || !done {
				t.Fatalf("the overdue turn is not skipped: %v %v", done, err)
			}
			mv := view(t, svc, id, "")
			if mv.Moves != v.Moves+1 {
				t.Fatalf("the skip is one step: %d, then %d", v.Moves, mv.Moves)
			}
			last.Match = mv
			h := map[string][]string{}
			for _, p := range mv.Participants {
				h[p.ID] = p.Hand
			}
			hands = append(hands, h)
			continue
		}
		if pd := v.Pending; pd != nil && pd.Kind == exoptosis.ChoiceGive {
			i := slices.IndexFunc(v.Participants, func(p gildedhall.ParticipantView) bool { return p.ID == pd.Owner })
			do(pd.Owner, gildedhall.MatchMove{Kind: exoptosis.MoveGive, Card: v.Participants[i].Hand[0]})
			continue
		}
		other := ada
		if v.Turn == ada {
			other = bo
		}
		do(v.Turn, gildedhall.MatchMove{Kind: exoptosis.MoveGiver, Target: other})
	}
	do(bo, gildedhall.MatchMove{Kind: exoptosis.MoveForfeit})
	end := last.Match
	if end.Status != gildedhall.MatchEnded || end.Winner != ada || end.Moves != moves {
		t.Fatalf("the match ends with Ada last standing after %d moves: %s, winner %q, %d moves", moves, end.Status, end.Winner, end.Moves)
	}
	// Only the step count's digits and whose turn it is may differ.
	if grown := slices.Max(sizes) - slices.Min(sizes); grown > 16 {
		t.Errorf("the match item grew by %d bytes over the match (%d to %d): it must hold the current state only", grown, slices.Min(sizes), slices.Max(sizes))
	}

	rp, err := gildedhall.On(svc).Replay(ctx, "hall", id, "")
	if err != nil {
		t.Fatal(err)
	}
	if !rp.Consistent {
		t.Fatalf("the replay does not rebuild the match: %s", rp.Problem)
	}
	if len(rp.Log) != moves || len(rp.States) != moves {
		t.Fatalf("the replay has %d steps and %d states, the match %d moves", len(rp.Log), len(rp.States), moves)
	}
	if mv := rp.Log[0].Move; mv == nil || mv.Kind != exoptosis.MoveSelect || !slices.Equal(mv.Cards, loopAda) {
		t.Fatalf("the first step is Ada's selection, shown once revealed: %+v", rp.Log[0])
	}
	timeouts := 0
	for i, st := range rp.States {
		if rp.Log[i].Timeout {
			timeouts++
		}
		for _, h := range st.Hands {
			if want := hands[i][h.ID]; !slices.Equal(h.Hand, want) {
				t.Fatalf("after step %d (%+v) the replay has %s holding %v; the match had %v", i+1, rp.Log[i], h.ID, h.Hand, want)
			}
		}
		if want := min(1, i/4); st.Pile != want {
			t.Fatalf("after step %d the pile holds %d cards, want %d (the 5 of Hearts is played at step 5)", i+1, st.Pile, want)
		}
	}
	if timeouts != 1 || !slices.Equal(rp.Pile, []string{"5 of Hearts"}) {
		t.Fatalf("the replay shows %d timeouts (want the one skip) and pile %v", timeouts, rp.Pile)
	}
}

// replays checks that the replay of match id rebuilds it from the log: every
// step legal, one state per step, the end the stored match.
func replays(t *testing.T, svc *game.Service, id string) gildedhall.MatchReplay {
	t.Helper()
	rp, err := gildedhall.On(svc).Replay(context.Background(), "hall", id, "")
	if err != nil {
		t.Fatal(err)
	}
	v := view(t, svc, id, "")
	if !rp.Consistent || len(rp.Log) != v.Moves || len(rp.States) != v.Moves {
		t.Fatalf("the replay of %s (%d moves) does not rebuild it: %d steps, %d states; %s", id, v.Moves, len(rp.Log), len(rp.States), rp.Problem)
	}
	return rp
}
