package gildedhall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// A move's log entry keeps its steps, not the match it left (issue 16), so
// a repeat of the move (a client retrying with the same idempotency key)
// is answered by rebuilding that match. The answer must be the first one,
// byte for byte: at once (the match item is as the move left it), and
// after the match has moved on or ended (the log is replayed up to the
// move). Random legal moves, with effects that draw, bets and a skipped
// turn, in duels of two and three.
func TestRepeatedMovesAnswerWhatTheFirstAnswered(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		hand int
	}{{"two", 1, 2}, {"three", 2, 3}, {"two again", 3, 2}} {
		t.Run(tc.name, func(t *testing.T) {
			st := gametest.Bolt(t)
			svc, clk := gametest.NewGame(t, st)
			rng := rand.New(rand.NewPCG(tc.seed, 16))
			decks := [][]string{
				{"Ace of Hearts", "2 of Hearts", "3 of Hearts", "Jack of Hearts", "Queen of Hearts", "King of Hearts", "7 of Diamonds", "8 of Diamonds", "Red Joker"},
				{"Ace of Spades", "2 of Spades", "3 of Spades", "Jack of Spades", "Queen of Clubs", "King of Clubs", "7 of Clubs", "8 of Clubs", "Black Joker"},
				{"4 of Hearts", "5 of Hearts", "6 of Hearts", "4 of Spades", "5 of Spades", "6 of Spades", "9 of Diamonds", "10 of Diamonds", "Jack of Diamonds"},
			}
			ps := []string{ada, bo, cy}[:tc.hand]
			for i, p := range ps {
				gametest.Enrol(t, svc, p, decks[i], 10)
			}
			id := duel(t, svc, ps...)

			type sent struct {
				req  game.Request
				mv   gildedhall.MatchMove
				body json.RawMessage
			}
			var moves []sent
			repeat := func(s sent) {
				t.Helper()
				res, err := gildedhall.On(svc).Move(context.Background(), s.req, s.mv)
				if err != nil {
					t.Fatalf("the repeat of %s's %s (move %d of %d) is refused: %v", s.req.Actor, s.mv.Kind, len(moves), view(t, svc, id, "").Moves, err)
				}
				if !res.Replayed {
					t.Fatalf("the repeat of %s's %s ran again", s.req.Actor, s.mv.Kind)
				}
				if !bytes.Equal(res.Body, s.body) {
					t.Fatalf("the repeat of %s's %s answers\n%s\nthe first answer was\n%s", s.req.Actor, s.mv.Kind, res.Body, s.body)
				}
			}
			skipped := 0
			for n := 0; n < 400; n++ {
				v := view(t, svc, id, "")
				if v.Status != gildedhall.MatchPlaying {
					break
				}
				late := v.Phase == string(exoptosis.PhasePlay) && skipped < 2 && rng.IntN(12) == 0
				if late {
					clk.Advance(25 * time.Hour) // nobody moves for a day: the next move meets the deadline first (X7)
					skipped++
				}
				mover := v.Movers[rng.IntN(len(v.Movers))]
				var legal []exoptosis.Move
				lv := view(t, svc, id, mover)
				if lv.Overdue && !late {
					expire(t, svc, id) // the scheduler acts on the deadline (X7)
					continue
				}
				for _, mv := range lv.LegalMoves {
					if mv.Kind != exoptosis.MoveForfeit && mv.Kind != exoptosis.MoveTerminate {
						legal = append(legal, mv)
					}
				}
				if len(legal) == 0 || n > 300 {
					legal = []exoptosis.Move{{Kind: exoptosis.MoveForfeit}}
				}
				l := legal[rng.IntN(len(legal))]
				mv := gildedhall.MatchMove{Match: id, Kind: l.Kind, Card: l.Card, Cards: l.Cards, Target: l.Target, Targets: l.Targets, Amount: l.Amount}
				r := req(mover, fmt.Sprintf("repeat-%d", n))
				res, err := gildedhall.On(svc).Move(context.Background(), r, mv)
				if err != nil {
					var re *rules.Error
					if late && errors.As(err, &re) {
						// The deadline acted first and made the listed move
						// stale; nothing was logged. The scheduler acts.
						expire(t, svc, id)
						continue
					}
					t.Fatalf("%s's listed %+v is refused: %v", mover, l, err)
				}
				s := sent{req: r, mv: mv, body: res.Body}
				moves = append(moves, s)
				repeat(s) // at once: the match is as the move left it
				clk.Advance(time.Minute)
			}
			end := view(t, svc, id, "")
			if end.Status != gildedhall.MatchEnded || len(moves) < 10 {
				t.Fatalf("after %d moves the match is %s", len(moves), end.Status)
			}
			for _, s := range moves {
				repeat(s) // the match has moved on and ended: rebuilt from the log
			}
			it, err := st.Get(context.Background(), store.Key{PK: game.GamePK("hall"), SK: "MATCH#" + id})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d moves, %d turns skipped; the ended match item is %d bytes", len(moves), skipped, store.ItemSize(it))
		})
	}
}

func expire(t *testing.T, svc *game.Service, id string) {
	t.Helper()
	if _, err := gildedhall.On(svc).ExpireMatch(context.Background(), "hall", id); err != nil {
		t.Fatalf("the scheduler's run on match %s: %v", id, err)
	}
}
