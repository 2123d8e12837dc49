package trades_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// checkTradeIndex asserts each person's index of open trades against the
// game's full list of trades: their record lists exactly, once each, the
// open trades they offered or received, and it is complete (indexed).
func checkTradeIndex(t gametest.Fataler, svc *game.Service, people []string) {
	t.Helper()
	all, err := trades.On(svc).Trades(context.Background(), "hall", trades.TradeFilter{})
	if err != nil {
		t.Fatalf("trades: %v", err)
	}
	for _, id := range people {
		p := gametest.Record(t, svc, id)
		if p == nil {
			continue
		}
		var want []string
		for _, tr := range all {
			if tr.Status == trades.TradeOpen && (tr.From == id || tr.To == id) {
				want = append(want, tr.ID)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(p.Trades)))) != len(p.Trades) {
			t.Fatalf("%s indexes a trade twice: %v", id, p.Trades)
		}
		if !gametest.SameIDs(p.Trades, want) {
			t.Fatalf("%s indexes trades %v; the open trades they are party to are %v", id, p.Trades, want)
		}
		if !p.TradesIndexed {
			t.Fatalf("%s joined after the index existed, yet their record is not marked indexed", id)
		}
	}
}

// A random mix of offers, acceptances, withdrawals and refusals (by either
// party, or by a stranger, refused), departures, rejoins and time passing
// (expiries);
// after every step each player's index is exactly their open trades.
func TestTradeIndex_Property(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ctx := context.Background()
		clk := clock.NewManual(gametest.Start)
		svc := rulesets.New(gametest.Bolt(t), clk, game.WithEntropy(gametest.Seeded(7)))
		if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
			rt.Fatal(err)
		}
		people := []string{ada, bo, cy, dee}
		seq := 0
		key := func() string { seq++; return fmt.Sprintf("k%d", seq) }
		for _, p := range people {
			if _, err := svc.Join(ctx, req(p, key()), game.JoinGame{}); err != nil {
				rt.Fatal(err)
			}
			if _, err := gildedhall.On(svc).Grant(ctx, req(admin, key()), gildedhall.Grant{Player: p, Vertebrae: 20, Reason: "test"}); err != nil {
				rt.Fatal(err)
			}
		}
		left := map[string]bool{}
		refused := func(err error) { gametest.Refusal(rt, err) }
		open := func(rt *rapid.T) trades.Trade {
			ts, err := trades.On(svc).Trades(ctx, "hall", trades.TradeFilter{Status: trades.TradeOpen})
			if err != nil {
				rt.Fatal(err)
			}
			if len(ts) == 0 {
				rt.Skip("no open trade")
			}
			return rapid.SampledFrom(ts).Draw(rt, "trade")
		}
		// who is usually a party, sometimes anyone (a refusal).
		who := func(rt *rapid.T, party string) string {
			if rapid.IntRange(0, 4).Draw(rt, "stranger") == 0 {
				return rapid.SampledFrom(people).Draw(rt, "who")
			}
			return party
		}
		offer := func(rt *rapid.T) {
			from := rapid.SampledFrom(people).Draw(rt, "from")
			to := rapid.SampledFrom(people).Draw(rt, "to")
			o := trades.OfferTrade{To: to, Give: economy.Items{Vertebrae: rapid.IntRange(0, 2).Draw(rt, "give")},
				Take: economy.Items{Vertebrae: rapid.IntRange(1, 2).Draw(rt, "take")}}
			_, err := trades.On(svc).OfferTrade(ctx, req(from, key()), o)
			refused(err)
		}
		rt.Repeat(map[string]func(*rapid.T){
			"offer":       offer,
			"offer again": offer, // offers are the most common step
			"accept": func(rt *rapid.T) {
				tr := open(rt)
				_, err := trades.On(svc).AcceptTrade(ctx, req(who(rt, tr.To), key()), tr.ID)
				refused(err)
			},
			"withdraw": func(rt *rapid.T) {
				tr := open(rt)
				party := rapid.SampledFrom([]string{tr.From, tr.To}).Draw(rt, "party")
				_, err := trades.On(svc).WithdrawTrade(ctx, req(who(rt, party), key()), tr.ID)
				refused(err)
			},
			"leave": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "who")
				if left[p] {
					rt.Skip("left already")
				}
				if _, err := svc.Leave(ctx, req(p, key())); err != nil {
					rt.Fatal(err)
				}
				left[p] = true
			},
			"rejoin": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "who")
				if !left[p] {
					rt.Skip("a player")
				}
				_, err := svc.Join(ctx, req(p, key()), game.JoinGame{})
				refused(err) // too soon after leaving
				if err == nil {
					delete(left, p)
					if _, err := gildedhall.On(svc).Grant(ctx, req(admin, key()), gildedhall.Grant{Player: p, Vertebrae: 20, Reason: "test"}); err != nil {
						rt.Fatal(err)
					}
				}
			},
			"time": func(rt *rapid.T) {
				clk.Advance(time.Duration(rapid.IntRange(1, 200).Draw(rt, "hours")) * time.Hour)
				gametest.RunDue(rt, svc)
			},
			"": func(rt *rapid.T) { checkTradeIndex(rt, svc, people) },
		})
	})
}

// Leaving reads only the leaver's open trades: the cost of a departure with
// two open trades (one offered, one received) is the same whether the game
// had no other trade or a hundred accepted, withdrawn and expired ones, and
// it reads at most 10 items (issue 16).
func TestTradeIndex_LeaveReadsOnlyOpenTrades(t *testing.T) {
	ctx := context.Background()
	cost := func(past int) store.Cost {
		svc, clk := gametest.NewGame(t, gametest.Bolt(t))
		offer := tradingParties(t, svc, 500)
		for i := range past {
			id := offer(ada, bo)
			var err error
			switch i % 3 {
			case 0:
				_, err = trades.On(svc).AcceptTrade(ctx, req(bo, gametest.K("accept")), id)
			case 1:
				_, err = trades.On(svc).WithdrawTrade(ctx, req(ada, gametest.K("withdraw")), id)
			case 2:
				clk.Advance(169 * time.Hour) // past the trade window (168h)
				if rep, rerr := svc.RunDue(ctx); rerr != nil || len(rep.Failed) > 0 {
					t.Fatalf("run due: %+v %v", rep, rerr)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		made, received := offer(ada, bo), offer(cy, ada)
		checkTradeIndex(t, svc, []string{ada, bo, cy})
		if got := gametest.Record(t, svc, ada).Trades; !gametest.SameIDs(got, []string{made, received}) {
			t.Fatalf("after %d past trades Ada indexes %v, want her two open ones", past, got)
		}
		var u store.Usage
		res, err := svc.Leave(store.WithUsage(ctx, &u), req(ada, gametest.K("leave")))
		if err != nil {
			t.Fatal(err)
		}
		if w := gametest.Decode[game.LeaveResult](t, res).WithdrawnTrades; !gametest.SameIDs(w, []string{made, received}) {
			t.Fatalf("the departure withdrew %v, want %v", w, []string{made, received})
		}
		for _, id := range []string{made, received} {
			if tr, err := trades.On(svc).Trade(ctx, "hall", id); err != nil || tr.Status != trades.TradeWithdrawn || tr.ClosedBy != ada {
				t.Fatalf("trade %s after Ada leaves: %+v %v", id, tr, err)
			}
		}
		checkTradeIndex(t, svc, []string{ada, bo, cy})
		return u.Snapshot()
	}
	c0, c100 := cost(0), cost(100)
	if c100.Requests != c0.Requests || c100.ItemsRead != c0.ItemsRead {
		t.Fatalf("leaving after 100 past trades costs %d requests, %d items read; with none %d, %d",
			c100.Requests, c100.ItemsRead, c0.Requests, c0.ItemsRead)
	}
	if c100.ItemsRead > 10 {
		t.Fatalf("leaving reads %d items, want at most 10", c100.ItemsRead)
	}
	t.Logf("leave after 100 past trades: %+v", c100)
}

// A record made before the index (no trades_indexed) is read the old way
// once: its departure still withdraws every open trade it is party to,
// including ones the index never listed, and leaves the counterparties'
// indexes exact.
func TestTradeIndex_RecordFromBeforeTheIndex(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Bolt(t))
	offer := tradingParties(t, svc, 5)
	before := offer(ada, bo)
	// Ada's record as the version before the index wrote it.
	pk := store.Key{PK: "GAME#hall", SK: "PLAYER#" + ada}
	it, err := svc.Store().Get(ctx, pk)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(it.Data, &raw); err != nil {
		t.Fatal(err)
	}
	delete(raw, "trades")
	delete(raw, "trades_indexed")
	data, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Store().Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: pk, Data: data}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
	after := offer(cy, ada)
	if got := gametest.Record(t, svc, ada); got.TradesIndexed || !slices.Equal(got.Trades, []string{after}) {
		t.Fatalf("the old record indexes only the offer made since: %+v", got)
	}
	res, err := svc.Leave(ctx, req(ada, gametest.K("leave")))
	if err != nil {
		t.Fatal(err)
	}
	if w := gametest.Decode[game.LeaveResult](t, res).WithdrawnTrades; !gametest.SameIDs(w, []string{before, after}) {
		t.Fatalf("the departure withdrew %v, want %v", w, []string{before, after})
	}
	checkTradeIndex(t, svc, []string{ada, bo, cy})
}

// Against DynamoDB Local, concurrently: acceptances, withdrawals and
// refusals of a dozen open trades, a dozen new offers, and the departure
// of a party to some of each. Every commit that opens or closes a trade
// writes both parties under version conditions, so afterwards each
// player's index is still exactly their open trades.
func TestTradeIndex_ConcurrentDynamo(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Dynamo(t))
	people := []string{ada, bo, cy, dee}
	for _, p := range people {
		gametest.Enrol(t, svc, p, nil, 0)
		if _, err := gildedhall.On(svc).Grant(ctx, req(admin, gametest.K("grant")), gildedhall.Grant{Player: p, Vertebrae: 100, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	offer := func(ctx context.Context, from, to string) (*game.Result, error) {
		return trades.On(svc).OfferTrade(ctx, req(from, gametest.K("offer")), trades.OfferTrade{To: to, Give: economy.Items{Vertebrae: 1}, Take: economy.Items{Vertebrae: 1}})
	}
	var open []trades.Trade
	for i := range 12 {
		res, err := offer(ctx, people[i%4], people[(i+1)%4])
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, gametest.Decode[trades.Trade](t, res))
	}
	checkTradeIndex(t, svc, people)
	var wg sync.WaitGroup
	run := func(f func() (*game.Result, error)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var re *rules.Error
			if _, err := f(); err != nil && !errors.As(err, &re) && !errors.Is(err, game.ErrBusy) {
				t.Error(err)
			}
		}()
	}
	for i, tr := range open {
		switch i % 3 {
		case 0:
			run(func() (*game.Result, error) {
				return trades.On(svc).AcceptTrade(ctx, req(tr.To, gametest.K("accept")), tr.ID)
			})
		case 1:
			run(func() (*game.Result, error) {
				return trades.On(svc).WithdrawTrade(ctx, req(tr.From, gametest.K("withdraw")), tr.ID)
			})
		case 2:
			run(func() (*game.Result, error) {
				return trades.On(svc).WithdrawTrade(ctx, req(tr.To, gametest.K("decline")), tr.ID)
			})
		}
	}
	for i := range 12 {
		run(func() (*game.Result, error) { return offer(ctx, people[i%4], people[(i+2)%4]) })
	}
	run(func() (*game.Result, error) { return svc.Leave(ctx, req(dee, gametest.K("leave"))) })
	wg.Wait()
	checkTradeIndex(t, svc, people)
	if p := gametest.Record(t, svc, dee); p.Member || len(p.Trades) != 0 {
		t.Fatalf("Dee left; her record: member %v, trades %v", p.Member, p.Trades)
	}
}

// tradingParties enrols ada, bo and cy with vertebrae each and returns
// offer, which makes an offer of 1 Vertebra from one to another and
// returns the trade's id.
func tradingParties(t *testing.T, svc *game.Service, vertebrae int) (offer func(from, to string) string) {
	t.Helper()
	ctx := context.Background()
	for _, p := range []string{ada, bo, cy} {
		gametest.Enrol(t, svc, p, nil, 0)
		if _, err := gildedhall.On(svc).Grant(ctx, req(admin, gametest.K("grant")), gildedhall.Grant{Player: p, Vertebrae: vertebrae, Reason: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return func(from, to string) string {
		t.Helper()
		res, err := trades.On(svc).OfferTrade(ctx, req(from, gametest.K("offer")), trades.OfferTrade{To: to, Give: economy.Items{Vertebrae: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return gametest.Decode[trades.Trade](t, res).ID
	}
}
