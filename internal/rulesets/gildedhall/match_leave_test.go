package gildedhall_test

import (
	"context"
	"testing"

	"croupier/internal/gametest"
	"croupier/internal/rulesets/gildedhall"
)

// P1, X9: a player who leaves forfeits every match they are in (the pool
// stays during play), and their duel requests and invitations are cancelled.
func TestP1_LeavingForfeitsAndWithdrawsDuels(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 10)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
	gametest.Enrol(t, svc, cy, suit("Spades", 2, 10), 10)
	gametest.Enrol(t, svc, dee, suit("Diamonds", 2, 10), 10)

	id := duel(t, svc, ada, bo, cy)
	selectHands(t, svc, id, map[string][]string{ada: suit("Hearts", 2, 7), bo: suit("Clubs", 2, 6), cy: suit("Spades", 2, 5)})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "raise", Amount: 2})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "match"})
	move(t, svc, cy, gildedhall.MatchMove{Match: id, Kind: "match"})
	for range 3 {
		if v := view(t, svc, id, ""); v.Phase == "betting" {
			move(t, svc, v.Turn, gildedhall.MatchMove{Match: id, Kind: "pass"})
		}
	}
	res, err := gildedhall.On(svc).RequestDuel(ctx, req(dee, "d"), gildedhall.RequestDuel{Invitees: []string{ada}})
	if err != nil {
		t.Fatal(err)
	}
	pending := gametest.Decode[gildedhall.MatchView](t, res).ID

	if _, err := svc.Leave(ctx, req(cy, "leave")); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc, id, "")
	if v.Status != gildedhall.MatchPlaying || v.Participants[2].Status != "forfeited" || v.Pool != 6 {
		t.Fatalf("Cy forfeits; the pool stays: %+v", v)
	}
	if _, err := svc.Leave(ctx, req(dee, "leave")); err != nil {
		t.Fatal(err)
	}
	if v := view(t, svc, pending, ""); v.Status != gildedhall.MatchCancelled || v.CancelReason != "left" {
		t.Fatalf("Dee's duel request is withdrawn: %+v", v)
	}
	if _, err := svc.Leave(ctx, req(bo, "leave")); err != nil {
		t.Fatal(err)
	}
	v = view(t, svc, id, "")
	if v.Status != gildedhall.MatchEnded || v.Winner != ada || v.EndReason != "last_standing" {
		t.Fatalf("Ada, last standing, wins: %+v", v)
	}
	if got := chipsOf(t, svc, ada); got != 14 {
		t.Fatalf("Ada holds %d Chips, want 8 + the pool of 6", got)
	}
}

// P1, X8: a leaver's bet refunded before play is destroyed with their other
// items; the log says so.
func TestP1_RefundToALeaverIsDestroyed(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	gametest.Enrol(t, svc, ada, suit("Hearts", 2, 10), 10)
	gametest.Enrol(t, svc, bo, suit("Clubs", 2, 10), 10)
	id := duel(t, svc, ada, bo)
	selectHands(t, svc, id, map[string][]string{ada: suit("Hearts", 2, 6), bo: suit("Clubs", 2, 5)})
	move(t, svc, ada, gildedhall.MatchMove{Match: id, Kind: "raise", Amount: 3})
	move(t, svc, bo, gildedhall.MatchMove{Match: id, Kind: "match"})
	if _, err := svc.Leave(ctx, req(ada, "leave")); err != nil {
		t.Fatal(err)
	}
	v := view(t, svc, id, "")
	if v.Winner != bo || chipsOf(t, svc, bo) != 10 {
		t.Fatalf("Bo wins back his own 3: winner %q, Bo holds %d", v.Winner, chipsOf(t, svc, bo))
	}
	var destroyed bool
	for _, e := range gametest.Entries(t, svc) {
		destroyed = destroyed || (e.Command == "leave" && hasEvent(e, "chips_destroyed"))
	}
	if !destroyed {
		t.Fatal("the leaver's refunded bet is destroyed, and logged")
	}
}
