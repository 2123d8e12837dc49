package gildedhall_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// checkIndex asserts the index of live matches for each person against the
// full list of the game's matches: a current player's record indexes
// exactly the requested and running matches they are in (once each), a
// forming battle they are in is the battle of their BattlePeriod, and
// LiveMatches lists exactly the requested, forming and running ones. A
// person who is not a player (never joined, or left) indexes nothing.
func checkIndex(t gametest.Fataler, svc *game.Service, people []string) {
	t.Helper()
	ctx := context.Background()
	all, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{})
	if err != nil {
		t.Fatalf("matches: %v", err)
	}
	for _, id := range people {
		p := gametest.Record(t, svc, id)
		var indexed []string
		if p != nil {
			indexed = p.Matches
		}
		live, err := gildedhall.On(svc).LiveMatches(ctx, "hall", id)
		if err != nil {
			t.Fatalf("live matches of %s: %v", id, err)
		}
		var listed []string
		for _, m := range live {
			listed = append(listed, m.ID)
		}
		var wantIndexed, wantListed []string
		if p != nil && p.Member {
			for _, m := range all {
				if !slices.Contains(m.Players, id) {
					continue
				}
				switch m.Status {
				case gildedhall.MatchRequested, gildedhall.MatchPlaying:
					wantIndexed = append(wantIndexed, m.ID)
					wantListed = append(wantListed, m.ID)
				case gildedhall.MatchForming:
					if "b-"+p.BattlePeriod != m.ID {
						t.Fatalf("%s is in forming battle %s but engaged in %q", id, m.ID, p.BattlePeriod)
					}
					wantListed = append(wantListed, m.ID)
				}
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(indexed)))) != len(indexed) {
			t.Fatalf("%s indexes a match twice: %v", id, indexed)
		}
		if !gametest.SameIDs(indexed, wantIndexed) {
			t.Fatalf("%s indexes %v; the live matches they are in are %v", id, indexed, wantIndexed)
		}
		if !gametest.SameIDs(listed, wantListed) {
			t.Fatalf("LiveMatches(%s) = %v, want %v", id, listed, wantListed)
		}
	}
}

// The index after each step of duels: request, acceptance, a decline, a
// withdrawal, play to the end, and a departure that cancels and forfeits.
func TestMatchIndex_DuelLifecycle(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	people := []string{ada, bo, cy, dee}
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 10)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
	gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 10)
	gametest.Enrol(t, svc, dee, suit("Diamonds", 2, 10), 10)
	checkIndex(t, svc, people)

	request := func(from string, to ...string) string {
		t.Helper()
		res, err := gildedhall.On(svc).RequestDuel(ctx, req(from, gametest.K("duel")), gildedhall.RequestDuel{Invitees: to})
		if err != nil {
			t.Fatal(err)
		}
		checkIndex(t, svc, people)
		return gametest.Decode[gildedhall.MatchView](t, res).ID
	}
	answer := func(who, id string, accept bool) {
		t.Helper()
		if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(who, gametest.K("answer")), gildedhall.AnswerDuel{Match: id, Accept: accept}); err != nil {
			t.Fatal(err)
		}
		checkIndex(t, svc, people)
	}

	played := request(ada, bo, cy)
	if got := gametest.Record(t, svc, cy).Matches; !slices.Equal(got, []string{played}) {
		t.Fatalf("an invitee indexes the request at once: %v", got)
	}
	declined := request(bo, dee)
	withdrawn := request(dee, ada)
	answer(bo, played, true)
	answer(dee, declined, false)
	answer(dee, withdrawn, false)
	answer(cy, played, true) // the last acceptance starts it
	if got := gametest.Record(t, svc, dee).Matches; len(got) != 0 {
		t.Fatalf("Dee's duels were declined and withdrawn: %v", got)
	}

	hands := map[string][]string{ada: suit("Hearts", 2, 7), bo: suit("Clubs", 2, 6), cy: suit("Spades", 2, 5)}
	for p, h := range hands {
		move(t, svc, p, gildedhall.MatchMove{Match: played, Kind: "select", Cards: h})
		checkIndex(t, svc, people)
	}
	pending := request(dee, cy)
	if _, err := svc.Leave(ctx, req(cy, gametest.K("leave"))); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, svc, people)
	if v := view(t, svc, pending, ""); v.Status != gildedhall.MatchCancelled {
		t.Fatalf("the leaver's invitation is cancelled: %+v", v)
	}
	if _, err := gildedhall.On(svc).Forfeit(ctx, req(bo, gametest.K("forfeit")), played); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, svc, people)
	if v := view(t, svc, played, ""); v.Status != gildedhall.MatchEnded || v.Winner != ada {
		t.Fatalf("Ada, last standing, wins: %+v", v)
	}
	for _, p := range people {
		if got := gametest.Record(t, svc, p).Matches; len(got) != 0 {
			t.Fatalf("no live match is left, yet %s indexes %v", p, got)
		}
	}
}

// The index of a battle: a forming battle is found through the engagement;
// the scheduler's setup indexes it for every participant (30 player writes
// fit its commit) and its end takes it out of every index.
func TestMatchIndex_Battle(t *testing.T) {
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	var ps []string
	for i := range 30 {
		p := fmt.Sprintf("discord:%d", 100+i)
		ps = append(ps, p)
		gametest.Enrol(t, svc, p, nil, 0)
		if _, err := gildedhall.On(svc).Grant(ctx, req(admin, gametest.K("grant")), gildedhall.Grant{Player: p, RandomCards: 8, Chips: 3, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
		if _, err := gildedhall.On(svc).EngageBattle(ctx, req(p, "engage")); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(phaseEnd.Add(time.Minute))
	if _, err := svc.EndPeriods(ctx, "hall"); err != nil {
		t.Fatal(err)
	}
	list, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Kind: gildedhall.MatchBattle})
	if err != nil || len(list) != 1 || list[0].Status != gildedhall.MatchForming {
		t.Fatalf("the phase end forms the battle: %+v %v", list, err)
	}
	id := list[0].ID
	checkIndex(t, svc, ps)
	if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
		t.Fatalf("run due: %+v %v", rep, err)
	}
	if v := view(t, svc, id, ""); v.Status != gildedhall.MatchPlaying || len(v.Participants) != 30 {
		t.Fatalf("the battle of 30 starts: %+v", v)
	}
	checkIndex(t, svc, ps)
	if p := gametest.Record(t, svc, ps[0]); p.BattlePeriod != "" || !slices.Equal(p.Matches, []string{id}) {
		t.Fatalf("the engagement is spent into the index: %+v", p)
	}
	if _, err := svc.Leave(ctx, req(ps[29], gametest.K("leave"))); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, svc, ps)
	end := autoplay(t, svc, id, rand.New(rand.NewPCG(5, 6)), 5000)
	if end.Status != gildedhall.MatchEnded {
		t.Fatalf("the battle ends: %+v", end)
	}
	checkIndex(t, svc, ps)
}

// A random mix of requests, answers, moves (including forfeits and
// terminations), departures, battle engagements and time passing (turn
// timeouts, phase ends, battles set up); after every step each player's
// index is exactly the set of live matches they are in (checkIndex).
func TestMatchIndex_Property(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ctx := context.Background()
		clk := clock.NewManual(gametest.Start)
		svc := rulesets.New(gametest.Bolt(t), clk, game.WithEntropy(gametest.Seeded(9)))
		if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
			rt.Fatal(err)
		}
		people := []string{ada, bo, cy, dee}
		seq := 0
		key := func() string { seq++; return fmt.Sprintf("k%d", seq) }
		for i, p := range people {
			if _, err := svc.Join(ctx, req(p, key()), game.JoinGame{}); err != nil {
				rt.Fatal(err)
			}
			g := gildedhall.Grant{Player: p, Chips: 6, Reason: "test"}
			for _, n := range suit([]string{"Hearts", "Clubs", "Spades", "Diamonds"}[i], 2, 8) {
				g.Cards = append(g.Cards, gildedhall.CardGrant{Name: n})
			}
			if _, err := gildedhall.On(svc).Grant(ctx, req(admin, key()), g); err != nil {
				rt.Fatal(err)
			}
		}
		left := map[string]bool{}
		refused := func(err error) { gametest.Refusal(rt, err) }
		matches := func(status string) []gildedhall.MatchSummary {
			ms, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Status: status})
			if err != nil {
				rt.Fatal(err)
			}
			return ms
		}
		rt.Repeat(map[string]func(*rapid.T){
			"request": func(rt *rapid.T) {
				from := rapid.SampledFrom(people).Draw(rt, "from")
				others := slices.DeleteFunc(slices.Clone(people), func(p string) bool { return p == from })
				to := rapid.SliceOfNDistinct(rapid.SampledFrom(others), 1, 3, rapid.ID).Draw(rt, "to")
				_, err := gildedhall.On(svc).RequestDuel(ctx, req(from, key()), gildedhall.RequestDuel{Invitees: to})
				refused(err)
			},
			"answer": func(rt *rapid.T) {
				ms := matches(gildedhall.MatchRequested)
				if len(ms) == 0 {
					rt.Skip("no request")
				}
				m := rapid.SampledFrom(ms).Draw(rt, "duel")
				who := rapid.SampledFrom(m.Players).Draw(rt, "who")
				_, err := gildedhall.On(svc).AnswerDuel(ctx, req(who, key()), gildedhall.AnswerDuel{Match: m.ID, Accept: rapid.Bool().Draw(rt, "accept")})
				refused(err)
			},
			"move": func(rt *rapid.T) {
				ms := matches(gildedhall.MatchPlaying)
				if len(ms) == 0 {
					rt.Skip("no running match")
				}
				m := rapid.SampledFrom(ms).Draw(rt, "match")
				if len(m.Movers) == 0 {
					rt.Skip("nobody to move")
				}
				mover := rapid.SampledFrom(m.Movers).Draw(rt, "mover")
				lv, err := gildedhall.On(svc).Match(ctx, "hall", m.ID, mover)
				if err != nil {
					rt.Fatal(err)
				}
				if len(lv.LegalMoves) == 0 {
					rt.Skip("no legal move")
				}
				mv := rapid.SampledFrom(lv.LegalMoves).Draw(rt, "move")
				if mv.Kind == "select" {
					if len(mv.Cards) < 4 {
						rt.Skip("too few cards to select")
					}
					mv.Cards = mv.Cards[:4]
				}
				_, err = gildedhall.On(svc).Move(ctx, req(mover, key()), gildedhall.MatchMove{Match: m.ID, Kind: mv.Kind, Card: mv.Card, Cards: mv.Cards,
					Target: mv.Target, Targets: mv.Targets, Amount: mv.Amount})
				refused(err)
			},
			"leave": func(rt *rapid.T) {
				who := rapid.SampledFrom(people).Draw(rt, "who")
				if left[who] {
					rt.Skip("left already") // no rejoin: a rejoiner is a new record
				}
				if _, err := svc.Leave(ctx, req(who, key())); err != nil {
					rt.Fatal(err)
				}
				left[who] = true
			},
			"engage": func(rt *rapid.T) {
				_, err := gildedhall.On(svc).EngageBattle(ctx, req(rapid.SampledFrom(people).Draw(rt, "who"), key()))
				refused(err)
			},
			"time": func(rt *rapid.T) {
				clk.Advance(time.Duration(rapid.IntRange(1, 40).Draw(rt, "hours")) * time.Hour)
				gametest.RunDue(rt, svc)
			},
			"": func(rt *rapid.T) { checkIndex(rt, svc, people) },
		})
	})
}

// Leaving reads only the leaver's live matches: the cost of a departure
// with one live duel is the same whether the game had no other match or
// thirty ended and cancelled duels.
func TestMatchIndex_LeaveReadsOnlyLiveMatches(t *testing.T) {
	cost := func(past int) (leave, lookup store.Cost) {
		ctx := context.Background()
		svc, _ := gametest.NewGame(t, gametest.Bolt(t))
		gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 10)
		gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
		gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 10)
		for i := range past {
			if i%3 == 0 {
				res, err := gildedhall.On(svc).RequestDuel(ctx, req(ada, gametest.K("duel")), gildedhall.RequestDuel{Invitees: []string{bo}})
				if err != nil {
					t.Fatal(err)
				}
				answer := gildedhall.AnswerDuel{Match: gametest.Decode[gildedhall.MatchView](t, res).ID}
				if _, err := gildedhall.On(svc).AnswerDuel(ctx, req(bo, gametest.K("decline")), answer); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if _, err := gildedhall.On(svc).Forfeit(ctx, req(bo, gametest.K("forfeit")), duel(t, svc, ada, bo)); err != nil {
				t.Fatal(err)
			}
		}
		live := duel(t, svc, ada, cy)
		res, err := gildedhall.On(svc).RequestDuel(ctx, req(cy, gametest.K("duel")), gildedhall.RequestDuel{Invitees: []string{ada}})
		if err != nil {
			t.Fatal(err)
		}
		requested := gametest.Decode[gildedhall.MatchView](t, res).ID
		if got := gametest.Record(t, svc, ada).Matches; !slices.Equal(got, []string{live, requested}) {
			t.Fatalf("after %d past duels Ada indexes %v, want her two live ones", past, got)
		}

		var u store.Usage
		if _, err := gildedhall.On(svc).LiveMatches(store.WithUsage(ctx, &u), "hall", ada); err != nil {
			t.Fatal(err)
		}
		lookup = u.Snapshot()
		u = store.Usage{}
		if _, err := svc.Leave(store.WithUsage(ctx, &u), req(ada, gametest.K("leave"))); err != nil {
			t.Fatal(err)
		}
		leave = u.Snapshot()
		if v := view(t, svc, live, ""); v.Status != gildedhall.MatchEnded || v.Winner != cy {
			t.Fatalf("Ada forfeits the live duel: %+v", v)
		}
		if v := view(t, svc, requested, ""); v.Status != gildedhall.MatchCancelled {
			t.Fatalf("Cy's request to Ada is cancelled: %+v", v)
		}
		checkIndex(t, svc, []string{ada, bo, cy})
		return leave, lookup
	}
	leave0, lookup0 := cost(0)
	leave30, lookup30 := cost(30)
	if leave30.Requests != leave0.Requests || leave30.ItemsRead != leave0.ItemsRead {
		t.Fatalf("leaving after 30 past duels costs %d requests, %d items read; with none %d, %d",
			leave30.Requests, leave30.ItemsRead, leave0.Requests, leave0.ItemsRead)
	}
	if lookup30 != lookup0 || lookup0.Requests != 2 {
		t.Fatalf("the live-match lookup costs %+v after 30 past duels, %+v with none; want 2 requests either way", lookup30, lookup0)
	}
	t.Logf("leave: %+v; lookup: %+v", leave30, lookup30)
}
