package gildedhall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// Monday 2026-11-30 12:00 UTC, in Phase I of ISO week 49, which ends on
// Friday 2026-12-04 00:00: the battle of its engaged players starts then.
var (
	hallStart  = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	hallPhased = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
)

const hallBattle = "b-2026-W49-I"

// hall is a Gilded Hall game on bolt with a manual clock; every service
// made by svc shares its store and clock, as the Lambdas of one
// deployment share a table.
type hall struct {
	t   *testing.T
	st  *hookStore
	clk *clock.Manual
	svc *game.Service
	n   int
}

func newHall(t *testing.T) *hall {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "hall.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &hall{t: t, st: &hookStore{Store: st}, clk: clock.NewManual(hallStart)}
	h.svc = h.service(rand.NewChaCha8([32]byte{1}))
	if _, err := h.svc.Create(context.Background(), h.req("discord:1"), game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	return h
}

// service is another process over the same store and clock, whose log ids
// take their entropy from ids.
func (h *hall) service(ids io.Reader) *game.Service {
	return rulesets.New(h.st, h.clk, game.WithEntropy(ids), game.WithLogger(slog.New(slog.DiscardHandler)))
}

func (h *hall) req(actor string) game.Request {
	h.n++
	return game.Request{Game: "hall", Actor: actor, Key: fmt.Sprint("k", h.n)}
}

// engage joins each player with the named cards and engages them in the
// phase's battle, then lets the phase end and the battle start.
func (h *hall) engage(decks map[string][]string, order ...string) {
	h.t.Helper()
	ctx := context.Background()
	for _, p := range order {
		if _, err := h.svc.Join(ctx, h.req(p), game.JoinGame{Name: "Player " + p[len("discord:"):]}); err != nil {
			h.t.Fatal(err)
		}
		g := gildedhall.Grant{Player: p, Reason: "test"}
		for _, c := range decks[p] {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c})
		}
		if _, err := gildedhall.On(h.svc).Grant(ctx, h.req("discord:1"), g); err != nil {
			h.t.Fatal(err)
		}
		if _, err := gildedhall.On(h.svc).EngageBattle(ctx, h.req(p)); err != nil {
			h.t.Fatal(err)
		}
	}
	h.clk.Set(hallPhased.Add(time.Minute))
	for range 2 { // the period end forms the battle; the match timer sets it up
		if rep, err := h.svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			h.t.Fatalf("run due: %+v %v", rep, err)
		}
	}
	if v := h.view(); v.Status != gildedhall.MatchPlaying || v.Phase != "selection" || len(v.Participants) != len(order) {
		h.t.Fatalf("the battle of %d starts: %s, %s, %d participants", len(order), v.Status, v.Phase, len(v.Participants))
	}
}

func (h *hall) selects(p string, cards ...string) {
	h.t.Helper()
	if _, err := gildedhall.On(h.svc).Select(context.Background(), h.req(p), hallBattle, cards); err != nil {
		h.t.Fatalf("%s selects: %v", p, err)
	}
}

func (h *hall) view() gildedhall.MatchView {
	h.t.Helper()
	v, err := gildedhall.On(h.svc).Match(context.Background(), "hall", hallBattle, "")
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// replays fails unless the battle's replay from the log takes every step
// the stored match counts and ends exactly as stored.
func (h *hall) replays() gildedhall.MatchReplay {
	h.t.Helper()
	rp, err := gildedhall.On(h.svc).Replay(context.Background(), "hall", hallBattle, "")
	if err != nil {
		h.t.Fatal(err)
	}
	if v := h.view(); !rp.Consistent || len(rp.Log) != v.Moves {
		h.t.Fatalf("the replay of the battle (%d steps stored) does not rebuild it: %d steps replayed; %s", v.Moves, len(rp.Log), rp.Problem)
	}
	return rp
}

// A battle whose last opponent leaves during selection ends with the
// winner's hand never revealed: the end logs it, so the replay rebuilds
// the winner's hand rather than leaving it empty.
func TestBattleEndedBeforeTheRevealReplaysTheWinnersHand(t *testing.T) {
	h := newHall(t)
	ada, bo := "discord:100", "discord:101"
	h.engage(map[string][]string{
		ada: {"2 of Hearts", "3 of Hearts", "4 of Hearts", "5 of Hearts", "6 of Hearts"},
		bo:  {"2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs", "6 of Clubs"},
	}, ada, bo)
	hand := []string{"2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs"}
	h.selects(bo, hand...)
	if _, err := h.svc.Leave(context.Background(), h.req(ada)); err != nil {
		t.Fatal(err)
	}
	v := h.view()
	if v.Phase != "ended" || v.Winner != bo || len(v.Participants) != 2 || fmt.Sprint(v.Participants[1].Hand) != fmt.Sprint(hand) {
		t.Fatalf("the departure leaves %s standing with the hand selected: phase %s, winner %q, %+v", bo, v.Phase, v.Winner, v.Participants)
	}
	rp := h.replays()
	if last := rp.States[len(rp.States)-1]; last.Phase != "ended" || fmt.Sprint(last.Hands[1].Hand) != fmt.Sprint(hand) {
		t.Fatalf("the replay's last state shows %s's hand: %+v", bo, last)
	}
}

// Two players leave a battle during selection, one after the other, the
// second leaving everyone else selected so the hands are revealed and the
// betting turn starts at that departure's moment. The first departure ran
// as of the minute before the clock moved on and committed after it (a
// slow command, as on DynamoDB under load), so both entries are logged in
// the same millisecond, and in that millisecond the log orders entries of
// different processes by their random part, here the reverse of the order
// they committed in. The replay places each departure by its step number,
// not by its place in the log, and rebuilds the match exactly.
func TestBattleReplaysDeparturesInTheOrderTheyCommitted(t *testing.T) {
	h := newHall(t)
	ada, bo, cy, dee := "discord:100", "discord:101", "discord:102", "discord:103"
	h.engage(map[string][]string{
		ada: {"2 of Hearts", "3 of Hearts", "4 of Hearts", "5 of Hearts", "6 of Hearts"},
		bo:  {"2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs"},
		cy:  {"2 of Spades", "3 of Spades", "4 of Spades", "5 of Spades"},
		dee: {"2 of Diamonds", "3 of Diamonds", "4 of Diamonds", "5 of Diamonds"},
	}, ada, bo, cy, dee)
	// Hands of different sizes: the turn order needs no draw (X2).
	h.selects(ada, "2 of Hearts", "3 of Hearts", "4 of Hearts", "5 of Hearts", "6 of Hearts")
	h.selects(bo, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs")

	ctx := context.Background()
	first := hallPhased.Add(2 * time.Minute)
	second := first.Add(time.Minute)
	h.clk.Set(first)
	late := h.service(bytes.NewReader(bytes.Repeat([]byte{0xff}, 1<<16))) // its ids sort last in a millisecond
	early := h.service(bytes.NewReader(make([]byte, 1<<16)))              // its ids sort first
	h.st.onRead(func() { h.clk.Set(second) })                             // cy's leave reads, then the clock moves on
	if _, err := late.Leave(ctx, h.req(cy)); err != nil {
		t.Fatal(err)
	}
	if _, err := early.Leave(ctx, h.req(dee)); err != nil {
		t.Fatal(err)
	}

	var logged []string
	if err := h.svc.LogRange(ctx, "hall", second, second, func(e *game.Entry) error {
		logged = append(logged, e.Actor+" at "+e.At.Format("15:04"))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprint([]string{dee + " at 00:03", cy + " at 00:02"}); fmt.Sprint(logged) != want {
		t.Fatalf("the log of 00:03 should hold the second departure before the first: %v, want %v", logged, want)
	}
	v := h.view()
	if v.Phase != "betting" || v.TurnStart == nil || !v.TurnStart.Equal(second) || v.Turn != ada {
		t.Fatalf("the second departure reveals the hands and starts %s's betting turn at %s: phase %s, turn %s from %v",
			ada, second.Format("15:04"), v.Phase, v.Turn, v.TurnStart)
	}
	h.replays()
}

// hookStore runs a hook once, after the next read it serves.
type hookStore struct {
	store.Store
	mu   sync.Mutex
	hook func()
}

func (s *hookStore) onRead(f func()) {
	s.mu.Lock()
	s.hook = f
	s.mu.Unlock()
}

func (s *hookStore) read() {
	s.mu.Lock()
	f := s.hook
	s.hook = nil
	s.mu.Unlock()
	if f != nil {
		f()
	}
}

func (s *hookStore) GetMany(ctx context.Context, keys []store.Key) ([]store.Item, error) {
	defer s.read()
	return s.Store.GetMany(ctx, keys)
}

// laggingClock is a process's clock some milliseconds behind the
// deployment's, as separate Lambdas' clocks are.
type laggingClock struct {
	clock.Clock
	lag time.Duration
}

func (c laggingClock) Now() time.Time { return c.Clock.Now().Add(-c.lag) }

// A duel starts at the clock of the process that took the last
// acceptance; a participant whose process's clock is 40 ms behind then
// forfeits, and that entry is dated before the match's start. The replay
// still reads it (the proving ground's lagging clients found it missing:
// "0 steps replayed").
func TestDuelReplaysAStepDatedJustBeforeItsStart(t *testing.T) {
	h := newHall(t)
	ctx := context.Background()
	ada, bo := "discord:100", "discord:101"
	for _, p := range []string{ada, bo} {
		if _, err := h.svc.Join(ctx, h.req(p), game.JoinGame{Name: "Player " + p[len("discord:"):]}); err != nil {
			t.Fatal(err)
		}
		g := gildedhall.Grant{Player: p, Reason: "test"}
		for _, c := range []string{"2", "3", "4", "5"} {
			g.Cards = append(g.Cards, gildedhall.CardGrant{Name: c + map[string]string{ada: " of Hearts", bo: " of Clubs"}[p]})
		}
		if _, err := gildedhall.On(h.svc).Grant(ctx, h.req("discord:1"), g); err != nil {
			t.Fatal(err)
		}
	}
	res, err := gildedhall.On(h.svc).RequestDuel(ctx, h.req(ada), gildedhall.RequestDuel{Invitees: []string{bo}})
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(res.Body, &d); err != nil || d.ID == "" {
		t.Fatalf("the duel's id: %s %v", res.Body, err)
	}
	h.clk.Set(hallStart.Add(time.Hour))
	if _, err := gildedhall.On(h.svc).AnswerDuel(ctx, h.req(bo), gildedhall.AnswerDuel{Match: d.ID, Accept: true}); err != nil {
		t.Fatal(err)
	}
	behind := rulesets.New(h.st, laggingClock{Clock: h.clk, lag: 40 * time.Millisecond}, game.WithLogger(slog.New(slog.DiscardHandler)))
	if _, err := gildedhall.On(behind).Forfeit(ctx, h.req(ada), d.ID); err != nil {
		t.Fatal(err)
	}
	v, err := gildedhall.On(h.svc).Match(ctx, "hall", d.ID, "")
	if err != nil || v.Status != gildedhall.MatchEnded {
		t.Fatalf("the duel after the forfeit: %s %v", v.Status, err)
	}
	rp, err := gildedhall.On(h.svc).Replay(ctx, "hall", d.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !rp.Consistent || len(rp.Log) != v.Moves {
		t.Fatalf("the replay of the duel (%d steps stored) does not rebuild it: %d steps replayed; %s", v.Moves, len(rp.Log), rp.Problem)
	}
}
