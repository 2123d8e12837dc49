package gametest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rulesets/gildedhall"
)

// Econ is a Gilded Hall game, whose records trade the richest goods
// (Vertebrae, Chips, card copies and packs), with shorthand for the calls
// the economy's and the trades' tests make over and over; every call fails
// the test on an unexpected error.
type Econ struct {
	T   *testing.T
	Ctx context.Context
	Svc *game.Service
	Clk *clock.Manual
	n   int
}

// NewEcon is the game Game of NewGame on a bolt store, which joiners join.
func NewEcon(t *testing.T, joiners ...string) *Econ {
	t.Helper()
	svc, clk := NewGame(t, Bolt(t))
	e := &Econ{T: t, Ctx: context.Background(), Svc: svc, Clk: clk}
	for _, p := range joiners {
		e.Must(e.Svc.Join(e.Ctx, e.Req(p), game.JoinGame{}))
	}
	return e
}

// Req is a request with a fresh idempotency key.
func (e *Econ) Req(actor string) game.Request {
	e.n++
	return Req(actor, fmt.Sprintf("k%d", e.n))
}

// Must is res, or ends the test on err.
func (e *Econ) Must(res *game.Result, err error) *game.Result {
	e.T.Helper()
	if err != nil {
		e.T.Fatalf("unexpected refusal: %v", err)
	}
	return res
}

// Refused checks that err is the rule refusal code.
func (e *Econ) Refused(what string, err error, code string) {
	e.T.Helper()
	if got := RuleCode(err); got != code {
		e.T.Fatalf("%s: got %s, want %s", what, got, code)
	}
}

// Grant is the administrator's grant g (reason "test setup" unless given).
func (e *Econ) Grant(g gildedhall.Grant) gildedhall.GrantResult {
	e.T.Helper()
	if g.Reason == "" {
		g.Reason = "test setup"
	}
	return Decode[gildedhall.GrantResult](e.T, e.Must(gildedhall.On(e.Svc).Grant(e.Ctx, e.Req(Admin), g)))
}

// Buy is who's purchase of item.
func (e *Econ) Buy(who, item string) gildedhall.PurchaseResult {
	e.T.Helper()
	return Decode[gildedhall.PurchaseResult](e.T, e.Must(gildedhall.On(e.Svc).Purchase(e.Ctx, e.Req(who), gildedhall.Purchase{Item: item})))
}

// Gift is from's gift to to.
func (e *Econ) Gift(from, to string) gildedhall.GiftResult {
	e.T.Helper()
	return Decode[gildedhall.GiftResult](e.T, e.Must(gildedhall.On(e.Svc).Gift(e.Ctx, e.Req(from), gildedhall.Gift{To: to})))
}

// Offer is from's trade offer o.
func (e *Econ) Offer(from string, o trades.OfferTrade) trades.Trade {
	e.T.Helper()
	return Decode[trades.Trade](e.T, e.Must(trades.On(e.Svc).OfferTrade(e.Ctx, e.Req(from), o)))
}

// Player is id's view.
func (e *Econ) Player(id string) gildedhall.PlayerView {
	e.T.Helper()
	v, err := gildedhall.On(e.Svc).Player(e.Ctx, Game, id)
	if err != nil {
		e.T.Fatal(err)
	}
	return v
}

// Trade reads the trade id.
func (e *Econ) Trade(id string) trades.Trade {
	e.T.Helper()
	tr, err := trades.On(e.Svc).Trade(e.Ctx, Game, id)
	if err != nil {
		e.T.Fatal(err)
	}
	return tr
}

// At moves the clock to when and runs the scheduler, as the phase-end
// function would.
func (e *Econ) At(when time.Time) game.DueReport {
	e.T.Helper()
	e.Clk.Set(when)
	rep, err := e.Svc.RunDue(e.Ctx)
	if err != nil || len(rep.Failed) > 0 {
		e.T.Fatalf("RunDue at %v: %+v %v", when, rep, err)
	}
	return rep
}

// Entries reads the whole log.
func (e *Econ) Entries() []game.Entry {
	e.T.Helper()
	return Entries(e.T, e.Svc)
}

// Events lists the log's events of type typ, in order.
func (e *Econ) Events(typ string) []game.Event {
	e.T.Helper()
	return Events(e.Entries(), typ)
}

// SameInventory says whether two views hold the same inventory.
func SameInventory(a, b gildedhall.PlayerView) bool {
	ja, _ := json.Marshal(a.Inventory)
	jb, _ := json.Marshal(b.Inventory)
	return string(ja) == string(jb)
}
