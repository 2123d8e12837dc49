package gildedhall_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/fair"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// suit returns the names "2 of <suit>" .. "<hi> of <suit>".
func suit(s string, lo, hi int) []string {
	var out []string
	for v := lo; v <= hi; v++ {
		out = append(out, fmt.Sprintf("%d of %s", v, s))
	}
	return out
}

func view(t *testing.T, svc *game.Service, id, viewer string) gildedhall.MatchView {
	t.Helper()
	v, err := gildedhall.On(svc).Match(context.Background(), "hall", id, viewer)
	if err != nil {
		t.Fatalf("match %s: %v", id, err)
	}
	return v
}

func chipsOf(t *testing.T, svc *game.Service, id string) int {
	t.Helper()
	v, err := gildedhall.On(svc).Player(context.Background(), "hall", id)
	if err != nil {
		t.Fatal(err)
	}
	return v.Inventory.Chips
}

func move(t *testing.T, svc *game.Service, actor string, mv gildedhall.MatchMove) gildedhall.MoveResult {
	t.Helper()
	res, err := gildedhall.On(svc).Move(context.Background(), req(actor, gametest.K("move")), mv)
	if err != nil {
		t.Fatalf("%s %s %+v: %v", actor, mv.Kind, mv, err)
	}
	return gametest.Decode[gildedhall.MoveResult](t, res)
}

// duel makes players[0] request a duel with the others, who all accept.
func duel(t *testing.T, svc *game.Service, ps ...string) string {
	t.Helper()
	ctx := context.Background()
	res, err := gildedhall.On(svc).RequestDuel(ctx, req(ps[0], gametest.K("duel")), gildedhall.RequestDuel{Invitees: ps[1:]})
	if err != nil {
		t.Fatalf("request duel: %v", err)
	}
	id := gametest.Decode[gildedhall.MatchView](t, res).ID
	for _, p := range ps[1:] {
		if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(p, gametest.K("accept")), gildedhall.AnswerDuel{Match: id, Accept: true}); err != nil {
			t.Fatalf("%s accepts: %v", p, err)
		}
	}
	return id
}

// selectHands submits each player's hand; sizes decide the turn order (X2).
func selectHands(t *testing.T, svc *game.Service, id string, hands map[string][]string) {
	t.Helper()
	for p, h := range hands {
		move(t, svc, p, gildedhall.MatchMove{Match: id, Kind: "select", Cards: h})
	}
}

// autoplay makes random legal moves (never forfeiting or terminating) until
// the match ends. Betting passes or matches; selection takes the first
// cards offered, or forfeits when too few are left.
func autoplay(t *testing.T, svc *game.Service, id string, rng *rand.Rand, limit int) gildedhall.MatchView {
	t.Helper()
	for range limit {
		v := view(t, svc, id, "")
		if v.Status != gildedhall.MatchPlaying {
			return v
		}
		if len(v.Movers) == 0 {
			t.Fatalf("a running match waits on nobody: %+v", v)
		}
		mover := v.Movers[0]
		lv := view(t, svc, id, mover)
		var choices []exoptosis.Move
		for _, m := range lv.LegalMoves {
			if m.Kind != "forfeit" && m.Kind != "terminate" {
				choices = append(choices, m)
			}
		}
		var mv exoptosis.Move
		switch {
		case len(choices) == 0:
			mv = exoptosis.Move{Kind: "forfeit"}
		case choices[0].Kind == "select":
			mv = choices[0]
			if len(mv.Cards) < 4 {
				mv = exoptosis.Move{Kind: "forfeit"}
			} else {
				mv.Cards = mv.Cards[:4]
			}
		case lv.Phase == "betting":
			mv = choices[0]
			for _, c := range choices {
				if c.Kind == "pass" || c.Kind == "match" {
					mv = c
				}
			}
		default:
			mv = choices[rng.IntN(len(choices))]
		}
		move(t, svc, mover, gildedhall.MatchMove{Match: id, Kind: mv.Kind, Card: mv.Card, Cards: mv.Cards, Target: mv.Target,
			Targets: mv.Targets, Amount: mv.Amount})
	}
	t.Fatalf("match %s did not end in %d moves", id, limit)
	return gildedhall.MatchView{}
}

func hasEvent(e game.Entry, typ string) bool {
	return slices.ContainsFunc(e.Events, func(ev game.Event) bool { return ev.Type == typ })
}

// settlementEntry finds the one log entry that settled the match.
func settlementEntry(t *testing.T, svc *game.Service, id string) game.Entry {
	t.Helper()
	var found []game.Entry
	for _, e := range gametest.Entries(t, svc) {
		for _, ev := range e.Events {
			if ev.Type == "match_settled" && strings.Contains(string(ev.Data), `"match":"`+id+`"`) {
				found = append(found, e)
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("want exactly one settlement of %s in the log, found %d", id, len(found))
	}
	return found[0]
}

const (
	ada, bo, cy, dee = "discord:2", "discord:3", "discord:4", "discord:5"
)

// A three-player duel with bets (X8, X11): the bets leave the inventories
// at once, the pool goes to the winner in the commit that ends the match.
func TestX11_ThreePlayerDuelWithBetsPaysTheWinner(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 10)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
	gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 10)

	res, err := gildedhall.On(svc).RequestDuel(ctx, req(ada, "duel"), gildedhall.RequestDuel{Invitees: []string{bo, cy}})
	if err != nil {
		t.Fatal(err)
	}
	d := gametest.Decode[gildedhall.MatchView](t, res)
	if d.Status != gildedhall.MatchRequested || !slices.Equal(d.WaitingFor, []string{bo, cy}) {
		t.Fatalf("a new request waits for both invitees: %+v", d)
	}
	if _, err := gildedhall.On(svc).Play(ctx, req(ada, "early"), d.ID, "2 of Hearts"); gametest.RuleCode(err) != "match_not_started" {
		t.Fatalf("a move before everyone accepted: %v", err)
	}
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(bo, "a1"), gildedhall.AnswerDuel{Match: d.ID, Accept: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(bo, "a2"), gildedhall.AnswerDuel{Match: d.ID, Accept: true}); gametest.RuleCode(err) != "already_answered" {
		t.Fatalf("answering twice: %v", err)
	}
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(cy, "a3"), gildedhall.AnswerDuel{Match: d.ID, Accept: true}); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc, d.ID, "")
	if v.Status != gildedhall.MatchPlaying || v.Phase != "selection" || len(v.Participants) != 3 {
		t.Fatalf("the last acceptance starts the match: %+v", v)
	}

	// X1: a selection is hidden from the others until every hand is in.
	move(t, svc, ada, gildedhall.MatchMove{Match: d.ID, Kind: "select", Cards: suit("Hearts", 2, 7)})
	if p := view(t, svc, d.ID, bo).Participants[0]; p.Hand != nil || !p.Hidden {
		t.Fatalf("Ada's selection shown to Bo before the reveal: %+v", p)
	}
	if p := view(t, svc, d.ID, ada).Participants[0]; len(p.Hand) != 6 {
		t.Fatalf("Ada sees her own selection: %+v", p)
	}
	if _, err := gildedhall.On(svc).Select(ctx, req(ada, "sel-again"), d.ID, suit("Hearts", 2, 5)); gametest.RuleCode(err) != "not_your_turn" {
		t.Fatalf("selecting twice: %v", err)
	}
	move(t, svc, bo, gildedhall.MatchMove{Match: d.ID, Kind: "select", Cards: suit("Clubs", 2, 6)})
	move(t, svc, cy, gildedhall.MatchMove{Match: d.ID, Kind: "select", Cards: suit("Spades", 2, 5)})
	v = view(t, svc, d.ID, "")
	if v.Phase != "betting" || !slices.Equal(v.Order, []string{ada, bo, cy}) {
		t.Fatalf("order by hand size (X2): %+v", v)
	}
	for _, p := range v.Participants {
		if p.Hidden || p.Hand == nil {
			t.Fatalf("hands are public once revealed: %+v", p)
		}
	}
	for _, e := range gametest.Entries(t, svc) {
		for _, ev := range e.Events {
			if ev.Type == "match_selected" && strings.Contains(string(ev.Data), "of ") {
				t.Fatalf("the log shows a selection: %s", ev.Data)
			}
		}
	}
	// Issue 25: the public log's changes keep the selections as secret as
	// its events do: a selection's change of the match says that it
	// changed, not how; the reveal's holds the whole match.
	wasSecret, sawSecret := false, false
	for _, e := range gametest.Entries(t, svc) {
		for _, c := range e.Changes {
			if c.SK != "MATCH#"+d.ID {
				continue
			}
			switch {
			case c.Secret && c.Ops != nil:
				t.Fatalf("the public log shows how %s changed the match while hands were selected: %+v", e.Command, c.Ops)
			case !c.Secret && wasSecret && (len(c.Ops) != 1 || len(c.Ops[0].Path) != 0):
				t.Fatalf("the reveal's change of the match is not the whole match: %+v", c.Ops)
			}
			wasSecret = c.Secret
			sawSecret = sawSecret || c.Secret
		}
	}
	if !sawSecret {
		t.Fatal("no change of the match was secret while its hands were selected")
	}

	// X8: Ada raises to 3, Bo matches, Cy raises to 5, both match; then all pass.
	bet := func(who, kind string, amount int) {
		t.Helper()
		if _, err := gildedhall.On(svc).Bet(ctx, req(who, gametest.K("bet")), d.ID, kind, amount); err != nil {
			t.Fatalf("%s %s %d: %v", who, kind, amount, err)
		}
	}
	if _, err := gildedhall.On(svc).Bet(ctx, req(bo, "out-of-turn"), d.ID, "pass", 0); gametest.RuleCode(err) != "not_your_turn" {
		t.Fatalf("Bo before Ada: %v", err)
	}
	bet(ada, "raise", 3)
	if got := chipsOf(t, svc, ada); got != 7 {
		t.Fatalf("a bet leaves the inventory at once: Ada holds %d, want 7", got)
	}
	bet(bo, "match", 0)
	bet(cy, "raise", 5)
	bet(ada, "match", 0)
	bet(bo, "match", 0)
	for range 3 {
		v = view(t, svc, d.ID, "")
		if v.Phase != "betting" {
			break
		}
		bet(v.Turn, "pass", 0)
	}
	v = view(t, svc, d.ID, "")
	if v.Phase != "play" || v.Pool != 15 {
		t.Fatalf("play starts with a pool of 15: phase %s pool %d", v.Phase, v.Pool)
	}
	for _, p := range []string{ada, bo, cy} {
		if got := chipsOf(t, svc, p); got != 5 {
			t.Fatalf("%s holds %d Chips after betting 5 of 10", p, got)
		}
	}

	end := autoplay(t, svc, d.ID, rand.New(rand.NewPCG(1, 2)), 3000)
	if end.Status != gildedhall.MatchEnded || end.Winner == "" || end.Phase != "ended" {
		t.Fatalf("the match ends with a winner: %+v", end)
	}
	for _, p := range []string{ada, bo, cy} {
		want := 5
		if p == end.Winner {
			want = 20
		}
		if got := chipsOf(t, svc, p); got != want {
			t.Errorf("%s holds %d Chips, want %d (winner %s takes the pool of 15)", p, got, want, end.Winner)
		}
	}
	e := settlementEntry(t, svc, d.ID)
	if !hasEvent(e, "match_ended") {
		t.Fatalf("the pool is paid in the commit that ends the match: %+v", e.Events)
	}
	if len(end.Settlement) != 1 || end.Settlement[0].To != end.Winner || end.Settlement[0].Chips != 15 {
		t.Fatalf("settlement: %+v", end.Settlement)
	}
	if end.Reward != nil {
		t.Fatalf("duels give no reward beyond the pool (X11): %+v", end.Reward)
	}

	rp, err := gildedhall.On(svc).Replay(ctx, "hall", d.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if !rp.Consistent || len(rp.Log) != end.Moves || len(rp.States) != end.Moves || len(rp.Decks) != 3 || rp.Log[0].Move == nil || len(rp.Log[0].Move.Cards) != 6 {
		t.Fatalf("the replay rebuilds every move, selections revealed: %d entries of %d, first %+v; %s", len(rp.Log), end.Moves, rp.Log[0], rp.Problem)
	}
	list, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Player: cy, Status: gildedhall.MatchEnded})
	if err != nil || len(list) != 1 || list[0].ID != d.ID || list[0].Winner != end.Winner {
		t.Fatalf("matches of Cy: %+v %v", list, err)
	}
}

// X11: any decline cancels the duel; nothing more can be answered or played.
func TestX11_DeclineCancels(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	for _, p := range []string{ada, bo, cy, dee} {
		gametest.Enrol(t, svc, p, nil, 0)
	}
	res, err := gildedhall.On(svc).RequestDuel(ctx, req(ada, "duel"), gildedhall.RequestDuel{Invitees: []string{bo, cy}})
	if err != nil {
		t.Fatal(err)
	}
	id := gametest.Decode[gildedhall.MatchView](t, res).ID
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(dee, "x"), gildedhall.AnswerDuel{Match: id, Accept: true}); gametest.RuleCode(err) != "not_invited" {
		t.Fatalf("an outsider answers: %v", err)
	}
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(bo, "y"), gildedhall.AnswerDuel{Match: id, Accept: true}); err != nil {
		t.Fatal(err)
	}
	res, err = gildedhall.On(svc).AnswerDuel(ctx, req(cy, "n"), gildedhall.AnswerDuel{Match: id})
	if err != nil {
		t.Fatal(err)
	}
	if v := gametest.Decode[gildedhall.MatchView](t, res); v.Status != gildedhall.MatchCancelled || v.CancelReason != "declined" || v.CancelledBy != cy {
		t.Fatalf("a decline cancels: %+v", v)
	}
	if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(ada, "z"), gildedhall.AnswerDuel{Match: id, Accept: true}); gametest.RuleCode(err) != "duel_closed" {
		t.Fatalf("answering a cancelled duel: %v", err)
	}
	if _, err := gildedhall.On(svc).Forfeit(ctx, req(ada, "f"), id); gametest.RuleCode(err) != "duel_closed" {
		t.Fatalf("moving in a cancelled duel: %v", err)
	}
	if _, err := gildedhall.On(svc).Forfeit(ctx, req(ada, "f2"), "dnope"); gametest.RuleCode(err) != "match_not_found" {
		t.Fatalf("an unknown match: %v", err)
	}
	if _, err := gildedhall.On(svc).RequestDuel(ctx, req(ada, "d2"), gildedhall.RequestDuel{Invitees: []string{"discord:99"}}); gametest.RuleCode(err) != "not_a_player" {
		t.Fatalf("inviting a non-player: %v", err)
	}
}

// twoInPlay starts a duel of Ada (5 cards) and Bo (4) and passes the betting,
// so the match is in play with Ada to move.
func twoInPlay(t *testing.T, svc *game.Service, adaHand, boHand []string) string {
	t.Helper()
	id := duel(t, svc, ada, bo)
	selectHands(t, svc, id, map[string][]string{ada: adaHand, bo: boHand})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "pass"})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "pass"})
	if v := view(t, svc, id, ""); v.Phase != "play" || v.Turn != ada {
		t.Fatalf("setup: want play with Ada to move: %+v", v)
	}
	return id
}

// X7: a player who does not move for 24 hours is skipped by the scheduler;
// a duplicate run does nothing; a late run acts as of the deadline.
func TestX7_TurnSkippedAfter24Hours(t *testing.T) {
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 0)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 0)
	id := twoInPlay(t, svc, suit("Hearts", 2, 6), suit("Clubs", 2, 5))
	v := view(t, svc, id, "")
	deadline := *v.Deadline
	if !deadline.Equal(v.TurnStart.Add(24 * time.Hour)) {
		t.Fatalf("the turn's deadline is 24 hours after it started: %v vs %v", deadline, v.TurnStart)
	}

	clk.Set(deadline.Add(-time.Minute))
	rep, err := svc.RunDue(ctx)
	if err != nil || len(rep.Done["match"]) != 0 {
		t.Fatalf("nothing is due a minute early: %+v %v", rep, err)
	}
	// Late: 6 hours after the deadline.
	clk.Set(deadline.Add(6 * time.Hour))
	rep, err = svc.RunDue(ctx)
	if err != nil || !slices.Equal(rep.Done["match"], []string{"hall/" + id}) {
		t.Fatalf("the expired turn is acted on: %+v %v", rep, err)
	}
	v = view(t, svc, id, "")
	if v.Turn != bo || !v.TurnStart.Equal(deadline) || !v.Deadline.Equal(deadline.Add(24*time.Hour)) {
		t.Fatalf("Ada skipped as of the deadline: turn %s, started %v, deadline %v", v.Turn, v.TurnStart, v.Deadline)
	}
	if len(v.Pile) != 0 || v.Participants[0].HandSize != 5 {
		t.Fatalf("a skip carries no penalty: %+v", v)
	}
	var skip *game.Entry
	for _, e := range gametest.Entries(t, svc) {
		if hasEvent(e, "match_turn_skipped") {
			skip = &e
		}
	}
	if skip == nil || !skip.At.Equal(deadline) || skip.Actor != game.SchedulerActor {
		t.Fatalf("the skip is logged by the scheduler as of the deadline: %+v", skip)
	}

	n := len(gametest.Entries(t, svc))
	rep, err = svc.RunDue(ctx)
	if err != nil || len(rep.Done["match"]) != 0 || len(gametest.Entries(t, svc)) != n {
		t.Fatalf("a duplicate run does nothing: %+v %v", rep, err)
	}
	if done, err := gildedhall.On(svc).ExpireMatch(ctx, "hall", id); done || err != nil {
		t.Fatalf("expiring again: %v %v", done, err)
	}
	// Bo now moves normally; then Ada lets her turn expire again, and two
	// scheduler runs race for it: one acts, the other does nothing.
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "play", Card: "3 of Clubs"})
	v = view(t, svc, id, "")
	clk.Set(v.Deadline.Add(time.Second))
	var wg sync.WaitGroup
	var acted atomic.Int32
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := gildedhall.On(svc).ExpireMatch(ctx, "hall", id)
			if err != nil {
				t.Error(err)
			}
			if done {
				acted.Add(1)
			}
		}()
	}
	wg.Wait()
	if acted.Load() != 1 {
		t.Fatalf("two concurrent runs acted %d times, want once", acted.Load())
	}
	if after := view(t, svc, id, ""); after.Moves != v.Moves+1 || after.Turn != bo {
		t.Fatalf("one skip: moves %d -> %d, turn %s", v.Moves, after.Moves, after.Turn)
	}
}

// X4, X7: an expired pending choice is made at random by the scheduler,
// with the draw logged.
func TestX7_ExpiredChoiceMadeAtRandom(t *testing.T) {
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 0)
	gametest.Enrol(t, svc, bo, append(suit("Clubs", 5, 9), "Ace of Clubs"), 0)
	id := twoInPlay(t, svc, suit("Hearts", 2, 6), []string{"Ace of Clubs", "7 of Clubs", "8 of Clubs", "9 of Clubs"})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "play", Card: "2 of Hearts"})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "play", Card: "Ace of Clubs"})
	v := view(t, svc, id, "")
	if v.Pending == nil || v.Pending.Kind != "ace" || v.Pending.Owner != bo {
		t.Fatalf("the Ace waits for Bo's choice: %+v", v.Pending)
	}
	adaHand := v.Participants[0].HandSize
	clk.Set(v.Pending.Deadline.Add(time.Second))
	if rep, err := svc.RunDue(ctx); err != nil || len(rep.Done["match"]) != 1 {
		t.Fatalf("run: %+v %v", rep, err)
	}
	v = view(t, svc, id, "")
	if v.Pending != nil || v.Participants[0].HandSize != adaHand+2 {
		t.Fatalf("the choice is made (Ada, the only other, draws 2): pending %+v, Ada's hand %d -> %d", v.Pending, adaHand, v.Participants[0].HandSize)
	}
	var found bool
	for _, e := range gametest.Entries(t, svc) {
		if hasEvent(e, "match_chosen_at_random") {
			found = slices.ContainsFunc(e.Draws, func(d fair.Record) bool { return d.Purpose == exoptosis.PurposeChoice })
		}
	}
	if !found {
		t.Fatal("the random choice is logged with its draw")
	}
	if rep, err := svc.Audit(ctx, "hall"); err != nil || !rep.OK() {
		t.Fatalf("every draw verifies: %+v %v", rep, err)
	}
}

// X9: when every remaining participant consents, the match ends without a
// winner and each bettor gets their bet back.
func TestX9_TerminationRefunds(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 6)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 6)
	id := duel(t, svc, ada, bo)
	selectHands(t, svc, id, map[string][]string{ada: suit("Hearts", 2, 6), bo: suit("Clubs", 2, 5)})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "raise", Amount: 4})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "match"})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "pass"})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "pass"})
	if chipsOf(t, svc, ada) != 2 || chipsOf(t, svc, bo) != 2 {
		t.Fatal("4 Chips each are in the pool")
	}
	if _, err := gildedhall.On(svc).Terminate(ctx, req(ada, "t1"), id); err != nil {
		t.Fatal(err)
	}
	if _, err := gildedhall.On(svc).Terminate(ctx, req(ada, "t2"), id); gametest.RuleCode(err) != "already_consented" {
		t.Fatalf("consenting twice: %v", err)
	}
	res, err := gildedhall.On(svc).Terminate(ctx, req(bo, "t3"), id)
	if err != nil {
		t.Fatal(err)
	}
	v := gametest.Decode[gildedhall.MoveResult](t, res).Match
	if v.Status != gildedhall.MatchEnded || v.Winner != "" || v.EndReason != "terminated" || len(v.Settlement) != 2 {
		t.Fatalf("terminated: %+v", v)
	}
	if chipsOf(t, svc, ada) != 6 || chipsOf(t, svc, bo) != 6 {
		t.Fatalf("bets refunded: Ada %d, Bo %d", chipsOf(t, svc, ada), chipsOf(t, svc, bo))
	}
	if _, err := gildedhall.On(svc).Bet(ctx, req(ada, "late"), id, "pass", 0); gametest.RuleCode(err) != "match_over" {
		t.Fatalf("a move after the end: %v", err)
	}
}

// C7 over Exoptosis: winnings that bring a player to 25 Chips win the game
// in the commit that settles the match.
func TestC7_WinningsWinTheGame(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 20)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
	id := duel(t, svc, ada, bo)
	selectHands(t, svc, id, map[string][]string{ada: suit("Hearts", 2, 6), bo: suit("Clubs", 2, 5)})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "raise", Amount: 5})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "match"})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "pass"})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "pass"})
	if g, _ := svc.Game(ctx, "hall"); g.Ended {
		t.Fatal("nobody holds 25 Chips yet")
	}
	// X9: a forfeit during play leaves the pool; Ada, last standing, takes it.
	res, err := gildedhall.On(svc).Forfeit(ctx, req(bo, "ff"), id)
	if err != nil {
		t.Fatal(err)
	}
	if v := gametest.Decode[gildedhall.MoveResult](t, res).Match; v.Winner != ada || v.EndReason != "last_standing" {
		t.Fatalf("Ada wins: %+v", v)
	}
	if got := chipsOf(t, svc, ada); got != 25 {
		t.Fatalf("Ada holds %d Chips, want 15 + the pool of 10", got)
	}
	g, _ := svc.Game(ctx, "hall")
	if !g.Ended || g.Winner != ada {
		t.Fatalf("25 Chips won by winnings end the game: %+v", g)
	}
	if e := settlementEntry(t, svc, id); !hasEvent(e, "game_won") {
		t.Fatalf("the victory is in the settlement's commit: %+v", e.Events)
	}
}
