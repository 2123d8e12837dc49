package gildedhall_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"croupier/internal/gametest"
	"croupier/internal/rulesets/gildedhall"
)

// Friday 2026-12-04 00:00 UTC: the end of Phase I of the test game's week.
var phaseEnd = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)

// X10: thirty players engage during a phase; when it ends one collective
// match starts for them; it runs through selection (partly by timeout),
// betting and play, and settles in one commit: the pool and the random
// reward to the winner.
func TestX10_ThirtyPlayerBattle(t *testing.T) { thirtyPlayerBattle(t, false) }

// X10 and X1 in a battle too large for one match item (here: more than 5
// engaged players, as a game of thousands): the engaged players are kept
// in the battle's roster and take seats as they select; the rules play out
// as in the small battle (first come, first served, then random hands or
// forfeits at the deadline), and the match item holds only the seated.
func TestX10_LargeBattleKeepsARoster(t *testing.T) {
	defer gildedhall.SetBattleInline(5)()
	thirtyPlayerBattle(t, true)
}

// The same with a roster split into items of 2 entrants, 3 items to a
// commit: the setup writes most of the roster in commits of its own first
// (a battle of tens of thousands), and the battle plays out the same way.
func TestX10_LargeBattleRosterInManyItems(t *testing.T) {
	defer gildedhall.SetBattleInline(5)()
	defer gildedhall.SetRosterPaging(2, 3)()
	thirtyPlayerBattle(t, true)
}

func thirtyPlayerBattle(t *testing.T, roster bool) {
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
	}
	gametest.Enrol(t, svc, dee, suit("Hearts", 2, 4), 0)
	if _, err := gildedhall.On(svc).EngageBattle(ctx, req(dee, "e")); gametest.RuleCode(err) != "too_few_cards" {
		t.Fatalf("engaging with 3 cards: %v", err)
	}
	for _, p := range ps {
		res, err := gildedhall.On(svc).EngageBattle(ctx, req(p, "engage"))
		if err != nil {
			t.Fatalf("%s engages: %v", p, err)
		}
		if e := gametest.Decode[gildedhall.BattleEngagement](t, res); !e.StartsAt.Equal(phaseEnd) {
			t.Fatalf("the battle starts at the phase's end: %+v", e)
		}
	}
	if _, err := gildedhall.On(svc).EngageBattle(ctx, req(ps[0], "engage-again")); gametest.RuleCode(err) != "already_engaged" {
		t.Fatalf("engaging twice: %v", err)
	}

	clk.Set(phaseEnd.Add(time.Minute))
	for range 2 { // the period end forms the battle; its own run sets it up
		if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			t.Fatalf("run due: %+v %v", rep, err)
		}
	}
	list, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Kind: gildedhall.MatchBattle})
	if err != nil || len(list) != 1 {
		t.Fatalf("one battle: %+v %v", list, err)
	}
	id := list[0].ID
	v := view(t, svc, id, "")
	wantSeated, wantEntrants := 30, 0
	if roster {
		wantSeated, wantEntrants = 0, 30
	}
	if v.Status != gildedhall.MatchPlaying || v.Phase != "selection" || len(v.Participants) != wantSeated ||
		v.Entrants != wantEntrants || v.Waiting != wantEntrants || !v.StartedAt.Equal(phaseEnd) {
		t.Fatalf("the battle of all 30 starts at the phase's end: status %s phase %s, %d participants (%d entrants, %d waiting), started %v",
			v.Status, v.Phase, len(v.Participants), v.Entrants, v.Waiting, v.StartedAt)
	}

	// Eight select (those who still can: a name is in a match once, X1); the
	// rest are chosen for, or forfeit, at the deadline (X7).
	selected := 0
	for _, p := range ps {
		if selected == 8 {
			break
		}
		lv := view(t, svc, id, p)
		if lm := lv.LegalMoves[0]; lm.Kind == "select" && len(lm.Cards) >= 4 {
			move(t, svc, p, gildedhall.MatchMove{Match: id, Kind: "select", Cards: lm.Cards[:4]})
			selected++
		}
	}
	v = view(t, svc, id, "")
	if roster {
		if len(v.Participants) != 8 || v.Waiting != 22 {
			t.Fatalf("the 8 who selected are seated, 22 wait: %d seated, %d waiting", len(v.Participants), v.Waiting)
		}
		// A selection naming a card already in the match is refused, and
		// the refused entrant stays waiting (X1).
		taken := v.Participants[0].ID
		own := view(t, svc, id, taken)
		for _, p := range ps {
			if slices.ContainsFunc(v.Participants, func(q gildedhall.ParticipantView) bool { return q.ID == p }) {
				continue
			}
			mine, err := gildedhall.On(svc).Player(ctx, "hall", p)
			if err != nil {
				t.Fatal(err)
			}
			var clash []string
			for _, c := range own.Participants[0].Hand {
				for _, d := range mine.Inventory.Cards {
					if d.Name == c && !slices.Contains(clash, c) {
						clash = append(clash, c)
					}
				}
			}
			for _, d := range mine.Inventory.Cards {
				if len(clash) < 4 && !slices.Contains(clash, d.Name) {
					clash = append(clash, d.Name)
				}
			}
			if len(clash) < 4 || !slices.ContainsFunc(clash, func(c string) bool { return slices.Contains(own.Participants[0].Hand, c) }) {
				continue
			}
			_, err = gildedhall.On(svc).Move(ctx, req(p, gametest.K("clash")), gildedhall.MatchMove{Match: id, Kind: "select", Cards: clash})
			if gametest.RuleCode(err) != "card_in_match" {
				t.Fatalf("%s selects %v, which holds a card of %s's hand: %v", p, clash, taken, err)
			}
			if w := view(t, svc, id, ""); len(w.Participants) != 8 || w.Waiting != 22 {
				t.Fatalf("a refused selection seats nobody: %d seated, %d waiting", len(w.Participants), w.Waiting)
			}
			break
		}
	}
	clk.Set(v.Deadline.Add(time.Minute))
	if rep, err := svc.RunDue(ctx); err != nil || !slices.Contains(rep.Done["match"], "hall/"+id) {
		t.Fatalf("selection deadline: %+v %v", rep, err)
	}
	v = view(t, svc, id, "")
	active := 0
	for _, p := range v.Participants {
		if p.Status == "active" {
			active++
		}
	}
	if v.Phase != "betting" || active < 2 || active > 13 {
		t.Fatalf("betting among the players who hold hands (at most 54/4): phase %s, %d active", v.Phase, active)
	}
	if roster && (v.Waiting != 0 || len(v.Participants) != active) {
		t.Fatalf("after the deadline only those holding hands stay in the match item: %d seated, %d active, %d waiting",
			len(v.Participants), active, v.Waiting)
	}
	move(t, svc, v.Turn, gildedhall.MatchMove{Match: id, Kind: "raise", Amount: 1})

	end := autoplay(t, svc, id, rand.New(rand.NewPCG(3, 4)), 5000)
	if end.Status != gildedhall.MatchEnded || end.Winner == "" || end.Reward == nil {
		t.Fatalf("the battle ends with a rewarded winner: %+v", end)
	}
	var bet int
	for _, p := range end.Participants {
		if p.ID == end.Winner {
			bet = p.Bet
		}
	}
	w, err := gildedhall.On(svc).Player(ctx, "hall", end.Winner)
	if err != nil {
		t.Fatal(err)
	}
	wantChips, wantCards, wantVertebrae := 3-bet+end.Pool, 8, 0
	switch end.Reward.Kind {
	case "chips":
		wantChips += end.Reward.Chips
	case "cards":
		wantCards += len(end.Reward.Cards)
	case "vertebrae":
		wantVertebrae = end.Reward.Vertebrae
		if wantVertebrae < 5 || wantVertebrae > 16 {
			t.Fatalf("vertebrae reward out of 5-16: %d", wantVertebrae)
		}
	}
	if end.Pool < 2 || w.Inventory.Chips != wantChips || len(w.Inventory.Cards) != wantCards || w.Inventory.Vertebrae != wantVertebrae {
		t.Fatalf("winner %s holds %d Chips, %d cards, %d Vertebrae; want %d, %d, %d (pool %d, reward %+v)", end.Winner,
			w.Inventory.Chips, len(w.Inventory.Cards), w.Inventory.Vertebrae, wantChips, wantCards, wantVertebrae, end.Pool, end.Reward)
	}
	t.Logf("%d of 30 held hands; %s won a pool of %d after %d moves and got %+v", active, end.Winner, end.Pool, end.Moves, end.Reward)
	e := settlementEntry(t, svc, id)
	if !hasEvent(e, "match_ended") || !hasEvent(e, "battle_rewarded") {
		t.Fatalf("end, payout and reward in one commit: %+v", e.Events)
	}
	if rep, err := svc.Audit(ctx, "hall"); err != nil || !rep.OK() {
		t.Fatalf("every draw verifies: %+v %v", rep, err)
	}
	replays(t, svc, id)
}

// X10: with fewer than 2 engaged players there is no match.
func TestX10_OneEngagedPlayerNoMatch(t *testing.T) {
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 6), 0)
	if _, err := gildedhall.On(svc).EngageBattle(ctx, req(ada, "e")); err != nil {
		t.Fatal(err)
	}
	clk.Set(phaseEnd.Add(time.Hour))
	for range 2 {
		if _, err := svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
	}
	list, err := gildedhall.On(svc).Matches(ctx, "hall", gildedhall.MatchFilter{Player: ada})
	if err != nil || len(list) != 1 || list[0].Status != gildedhall.MatchCancelled || list[0].Phase != "" {
		t.Fatalf("a cancelled battle, never played: %+v %v", list, err)
	}
}

// X9 and P1 in a large battle (here: more than 2 engaged players keep a
// roster): entrants who have not selected forfeit or leave without taking
// a seat for good, the one who has forfeited cannot select any more, and
// when the last but one forfeits the last is the last standing and wins,
// as in a small battle.
func TestX9_LargeBattleForfeitsLeaveTheLastStanding(t *testing.T) {
	defer gildedhall.SetBattleInline(2)()
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	ps := []string{ada, bo, cy, dee, "discord:6"}
	for i, p := range ps {
		gametest.Enrol(t, svc, p, suit([]string{"Hearts", "Spades", "Clubs", "Diamonds", "Hearts"}[i], 2, 7), 1)
		if _, err := gildedhall.On(svc).EngageBattle(ctx, req(p, "engage")); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(phaseEnd.Add(time.Minute))
	for range 2 {
		if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			t.Fatalf("run due: %+v %v", rep, err)
		}
	}
	id := "b-2026-W49-I"
	if v := view(t, svc, id, ""); v.Entrants != 5 || v.Waiting != 5 || len(v.Participants) != 0 {
		t.Fatalf("five entrants waiting in the roster: %d entrants, %d waiting, %d seated", v.Entrants, v.Waiting, len(v.Participants))
	}
	if lv := view(t, svc, id, ada); len(lv.LegalMoves) == 0 || lv.LegalMoves[0].Kind != "select" {
		t.Fatalf("a waiting entrant sees their selection: %+v", lv.LegalMoves)
	}
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "forfeit"})
	if _, err := gildedhall.On(svc).Move(ctx, req(ada, gametest.K("select")), gildedhall.MatchMove{Match: id, Kind: "select", Cards: suit("Hearts", 2, 5)}); gametest.RuleCode(err) != "forfeited" {
		t.Fatalf("selecting after forfeiting: %v", err)
	}
	if _, err := svc.Leave(ctx, req(bo, "leave")); err != nil {
		t.Fatal(err)
	}
	if v := view(t, svc, id, ""); v.Waiting != 3 || len(v.Participants) != 0 || v.Status != gildedhall.MatchPlaying {
		t.Fatalf("a forfeit and a departure leave 3 waiting and nobody seated: %d waiting, %d seated, %s", v.Waiting, len(v.Participants), v.Status)
	}
	move(t, svc, cy, gildedhall.MatchMove{Match: id, Kind: "forfeit"})
	res := move(t, svc, dee, gildedhall.MatchMove{Match: id, Kind: "forfeit"})
	if res.Match.Status != gildedhall.MatchEnded || res.Match.Winner != "discord:6" || res.Match.EndReason != "last_standing" {
		t.Fatalf("the last entrant standing wins: %s, winner %q (%s)", res.Match.Status, res.Match.Winner, res.Match.EndReason)
	}
	if w, err := gildedhall.On(svc).Player(ctx, "hall", "discord:6"); err != nil || w.Inventory.Vertebrae == 0 && w.Inventory.Chips == 1 && len(w.Inventory.Cards) == 6 {
		t.Fatalf("the winner got the battle's reward: %+v %v", w.Inventory, err)
	}
	replays(t, svc, id) // the departure's forfeit is a step of the match too
}

// A departure after a large battle's selection deadline, before the
// scheduler has acted on it, takes only the leaver out (a departure runs no
// Timeout); the scheduler's run then deals with everyone else as of the
// deadline (X7).
func TestX7_LargeBattleDepartureBeforeTheOverdueDeadline(t *testing.T) {
	defer gildedhall.SetBattleInline(2)()
	ctx := context.Background()
	svc, clk := gametest.NewGame(t, gametest.Bolt(t))
	ps := []string{ada, bo, cy, dee, "discord:6"}
	for i, p := range ps {
		gametest.Enrol(t, svc, p, suit([]string{"Hearts", "Spades", "Clubs", "Diamonds", "Hearts"}[i], 2, 7), 1)
		if _, err := gildedhall.On(svc).EngageBattle(ctx, req(p, "engage")); err != nil {
			t.Fatal(err)
		}
	}
	clk.Set(phaseEnd.Add(time.Minute))
	for range 2 {
		if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
			t.Fatalf("run due: %+v %v", rep, err)
		}
	}
	id := "b-2026-W49-I"
	v := view(t, svc, id, "")
	clk.Set(v.Deadline.Add(time.Hour))
	if _, err := svc.Leave(ctx, req(bo, "leave")); err != nil {
		t.Fatal(err)
	}
	if v := view(t, svc, id, ""); v.Waiting != 4 || len(v.Participants) != 0 || v.Phase != "selection" {
		t.Fatalf("the departure takes out only the leaver: %d waiting, %d seated, phase %s", v.Waiting, len(v.Participants), v.Phase)
	}
	if rep, err := svc.RunDue(ctx); err != nil || len(rep.Failed) > 0 {
		t.Fatalf("run due: %+v %v", rep, err)
	}
	// discord:6 holds the same six Hearts as Ada, who comes first: four of
	// them make Ada's hand, two are left, and discord:6 forfeits (X1).
	v = view(t, svc, id, "")
	if v.Phase != "betting" || v.Waiting != 0 || !slices.Equal(v.Players, []string{ada, cy, dee}) {
		t.Fatalf("the three who can hold hands get them at the deadline: phase %s, %d waiting, seated %v", v.Phase, v.Waiting, v.Players)
	}
	replays(t, svc, id)
}
