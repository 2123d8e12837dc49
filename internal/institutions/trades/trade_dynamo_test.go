package trades_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rulesets/gildedhall"
)

// holding is what one player holds, by id, for comparing ownership.
type holding struct {
	vertebrae, chips int
	cards, packs     map[string]bool
}

func holdings(t *testing.T, svc *game.Service) map[string]*holding {
	t.Helper()
	views, err := gildedhall.On(svc).Players(context.Background(), "hall")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*holding{}
	for _, v := range views {
		h := &holding{vertebrae: v.Inventory.Vertebrae, chips: v.Inventory.Chips, cards: map[string]bool{}, packs: map[string]bool{}}
		for _, c := range v.Inventory.Cards {
			h.cards[c.ID] = true
		}
		for _, p := range v.Inventory.Packs {
			h.packs[p.ID] = true
		}
		out[v.ID] = h
	}
	return out
}

func (h *holding) clone() *holding {
	c := *h
	c.cards, c.packs = map[string]bool{}, map[string]bool{}
	for id := range h.cards {
		c.cards[id] = true
	}
	for id := range h.packs {
		c.packs[id] = true
	}
	return &c
}

func (h *holding) has(it economy.Items) bool {
	if h.vertebrae < it.Vertebrae || h.chips < it.Chips {
		return false
	}
	for _, id := range it.Cards {
		if !h.cards[id] {
			return false
		}
	}
	for _, id := range it.Packs {
		if !h.packs[id] {
			return false
		}
	}
	return true
}

func (h *holding) move(to *holding, it economy.Items) {
	h.vertebrae -= it.Vertebrae
	to.vertebrae += it.Vertebrae
	h.chips -= it.Chips
	to.chips += it.Chips
	for _, id := range it.Cards {
		delete(h.cards, id)
		to.cards[id] = true
	}
	for _, id := range it.Packs {
		delete(h.packs, id)
		to.packs[id] = true
	}
}

// serialisable reports whether the trades can be executed one after another
// from start, in some order, each finding both parties holding its items
// (what executing them atomically guarantees), and whether they end in
// final. The state after a set of valid trades does not depend on their
// order, so a search over sets (a bit mask, at most 2^len) decides it.
func serialisable(start map[string]*holding, made []trades.Trade, final map[string]*holding) bool {
	dead := map[uint32]bool{}
	var try func(done uint32, st map[string]*holding) bool
	try = func(done uint32, st map[string]*holding) bool {
		if done == 1<<len(made)-1 {
			return sameHoldings(st, final)
		}
		if dead[done] {
			return false
		}
		for i, tr := range made {
			if done&(1<<i) != 0 || !st[tr.From].has(tr.Give) || !st[tr.To].has(tr.Take) {
				continue
			}
			next := map[string]*holding{}
			for id, h := range st {
				next[id] = h.clone()
			}
			next[tr.From].move(next[tr.To], tr.Give)
			next[tr.To].move(next[tr.From], tr.Take)
			if try(done|1<<i, next) {
				return true
			}
		}
		dead[done] = true
		return false
	}
	return try(0, start)
}

func sameHoldings(a, b map[string]*holding) bool {
	if len(a) != len(b) {
		return false
	}
	for id, x := range a {
		y := b[id]
		if y == nil || x.vertebrae != y.vertebrae || x.chips != y.chips || !sameSet(x.cards, y.cards) || !sameSet(x.packs, y.packs) {
			return false
		}
	}
	return true
}

func sameSet(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestConcurrentOverlappingTradesDynamo is acceptance 3 for trades: 20 open
// trades that compete for the same card copies, packs and Vertebrae are all
// accepted at once against DynamoDB Local. Afterwards every card copy and
// pack has exactly one owner, no currency, card or pack was created or
// lost, every acceptance either executed or was refused because an item was
// gone, and the trades that executed explain the final ownership: they can
// be run one after another from the starting holdings to exactly the end
// state.
func TestConcurrentOverlappingTradesDynamo(t *testing.T) {
	ctx := context.Background()
	svc, _ := gametest.NewGame(t, gametest.Dynamo(t))
	const a, b, c, d = "discord:2", "discord:3", "discord:4", "slack:U5"
	cardsOf := map[string][]string{}
	packsOf := map[string][]string{}
	for i, p := range []string{a, b, c, d} {
		if _, err := svc.Join(ctx, req(p, "j"), game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
		res, err := gildedhall.On(svc).Grant(ctx, req(admin, "g-"+p), gildedhall.Grant{Player: p, Vertebrae: 10, Chips: 2,
			Cards: []gildedhall.CardGrant{{Name: "Ace of Hearts"}, {Name: fmt.Sprintf("%d of Spades", i+2)}, {Name: "Red Joker", Holo: true}},
			Packs: []gildedhall.PackGrant{{Pack: "handy-pack", Count: 2}}, Reason: "test"})
		if err != nil {
			t.Fatal(err)
		}
		g := gametest.Decode[gildedhall.GrantResult](t, res)
		cardsOf[p], packsOf[p] = gametest.CardIDs(g.Cards), gametest.PackIDs(g.Packs)
	}
	card := func(p string, i int) []string { return []string{cardsOf[p][i]} }
	pack := func(p string, i int) []string { return []string{packsOf[p][i]} }
	type offer struct {
		from, to   string
		give, take economy.Items
	}
	offers := []offer{
		// A's first card, offered to three players.
		{a, b, economy.Items{Cards: card(a, 0)}, economy.Items{Vertebrae: 2}},
		{a, c, economy.Items{Cards: card(a, 0)}, economy.Items{Vertebrae: 2}},
		{a, d, economy.Items{Cards: card(a, 0)}, economy.Items{Chips: 1}},
		// A's first pack, asked for by three players.
		{b, a, economy.Items{Vertebrae: 3}, economy.Items{Packs: pack(a, 0)}},
		{c, a, economy.Items{Vertebrae: 3}, economy.Items{Packs: pack(a, 0)}},
		{d, a, economy.Items{Cards: card(d, 2)}, economy.Items{Packs: pack(a, 0)}},
		// B's first card, asked for by three players.
		{a, b, economy.Items{Packs: pack(a, 1)}, economy.Items{Cards: card(b, 0)}},
		{c, b, economy.Items{Cards: card(c, 0)}, economy.Items{Cards: card(b, 0)}},
		{d, b, economy.Items{Vertebrae: 5}, economy.Items{Cards: card(b, 0)}},
		// B gives away overlapping sets.
		{b, c, economy.Items{Cards: slices.Concat(card(b, 1), card(b, 2))}, economy.Items{Packs: pack(c, 0)}},
		{b, d, economy.Items{Cards: card(b, 1)}, economy.Items{Packs: pack(d, 0)}},
		{b, a, economy.Items{Cards: card(b, 2)}, economy.Items{Chips: 1}},
		// C's 10 Vertebrae, promised three times over.
		{c, d, economy.Items{Vertebrae: 8}, economy.Items{Cards: card(d, 0)}},
		{c, a, economy.Items{Vertebrae: 8}, economy.Items{Cards: card(a, 1)}},
		{c, b, economy.Items{Chips: 2}, economy.Items{Packs: pack(b, 0)}},
		// Chains: an item that one trade moves is what another one needs.
		{d, c, economy.Items{Cards: card(d, 0)}, economy.Items{Chips: 1}},
		{d, a, economy.Items{Cards: card(d, 1), Packs: pack(d, 1)}, economy.Items{Cards: card(a, 2)}},
		{a, c, economy.Items{Cards: card(a, 2)}, economy.Items{Cards: card(c, 1)}},
		{c, d, economy.Items{Cards: card(c, 1)}, economy.Items{Cards: card(d, 2)}},
		{a, d, economy.Items{Vertebrae: 10}, economy.Items{Packs: pack(d, 1)}},
	}
	var made []trades.Trade
	for i, o := range offers {
		res, err := trades.On(svc).OfferTrade(ctx, req(o.from, fmt.Sprintf("offer-%d", i)), trades.OfferTrade{To: o.to, Give: o.give, Take: o.take})
		if err != nil {
			t.Fatalf("offer %d: %v", i, err)
		}
		made = append(made, gametest.Decode[trades.Trade](t, res))
	}
	before := holdings(t, svc)

	type outcome struct {
		code     string // "" when executed
		attempts int
	}
	outcomes := make([]outcome, len(made))
	var wg sync.WaitGroup
	for i, tr := range made {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := trades.On(svc).AcceptTrade(ctx, req(tr.To, "accept-"+tr.ID), tr.ID)
			switch {
			case err == nil:
				outcomes[i] = outcome{attempts: res.Attempts}
			default:
				outcomes[i] = outcome{code: gametest.RuleCode(err)}
			}
		}()
	}
	wg.Wait()

	after := holdings(t, svc)
	var executed []trades.Trade
	counts := map[string]int{}
	attempts := 0
	for i, o := range outcomes {
		switch o.code {
		case "":
			executed = append(executed, made[i])
			counts["executed"]++
			attempts += o.attempts
		case "trade_items_missing", "trade_closed":
			counts[o.code]++
		default:
			t.Errorf("accepting trade %d (%s→%s): %s, want success or trade_items_missing", i, made[i].From, made[i].To, o.code)
		}
	}
	t.Logf("20 overlapping trades accepted at once: %v; the executed ones took %d attempts in all (limit %d each)", counts, attempts, svc.MaxAttempts)
	if len(executed) == 0 {
		t.Fatal("no trade executed: the first to commit always can")
	}

	// Exactly one owner per item, and nothing created or lost.
	type totals struct{ vertebrae, chips, cards, packs int }
	sum := func(hs map[string]*holding) (s totals) {
		for _, h := range hs {
			s.vertebrae += h.vertebrae
			s.chips += h.chips
			s.cards += len(h.cards)
			s.packs += len(h.packs)
		}
		return s
	}
	if sum(before) != sum(after) {
		t.Fatalf("totals (Vertebrae, Chips, cards, packs) %v before, %v after", sum(before), sum(after))
	}
	owner := map[string]string{}
	for p, h := range after {
		if h.vertebrae < 0 || h.chips < 0 {
			t.Fatalf("%s has a negative balance: %+v", p, h)
		}
		for id := range h.cards {
			if o, dup := owner[id]; dup {
				t.Fatalf("card %s is owned by %s and %s", id, o, p)
			}
			owner[id] = p
		}
		for id := range h.packs {
			if o, dup := owner[id]; dup {
				t.Fatalf("pack %s is owned by %s and %s", id, o, p)
			}
			owner[id] = p
		}
	}
	for _, h := range before {
		for id := range h.cards {
			if owner[id] == "" {
				t.Fatalf("card %s has no owner after the trades", id)
			}
		}
		for id := range h.packs {
			if owner[id] == "" {
				t.Fatalf("pack %s has no owner after the trades", id)
			}
		}
	}

	// The executed trades explain the end state.
	if !serialisable(before, executed, after) {
		t.Fatalf("no order of the %d executed trades leads from the starting holdings to the final ones", len(executed))
	}
	// Each trade's stored status agrees with what its acceptance answered.
	listed, err := trades.On(svc).Trades(ctx, "hall", trades.TradeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, tr := range listed {
		status[tr.ID] = tr.Status
	}
	for i, tr := range made {
		want := trades.TradeOpen
		if outcomes[i].code == "" {
			want = trades.TradeExecuted
		}
		if status[tr.ID] != want {
			t.Errorf("trade %d is %s, want %s", i, status[tr.ID], want)
		}
	}
}
