package gildedhall_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// What the Gilded Hall's rules say the Croupier sells (seed 000 Croupier)
// and what its packs hold: the test's own copy, so a mispriced ruleset or
// engine is caught rather than trusted.
var ecoShop = map[string]struct {
	price int
	pack  string // a pack item's kind
	cards int    // random cards per unit
	chips int    // chips per unit
}{
	"random-card":    {price: 5, cards: 1},
	"handy-pack":     {price: 12, pack: "handy-pack"},
	"deck-pack":      {price: 18, pack: "deck-pack"},
	"legendary-pack": {price: 50, pack: "legendary-pack"},
	"chip":           {price: 25, chips: 1},
}

var (
	ecoPackSize  = map[string]int{"handy-pack": 3, "deck-pack": 5, "legendary-pack": 7}
	ecoPackHolos = map[string]int{"legendary-pack": 2}
	ecoCardNames = []string{"7 of Hearts", "Ace of Spades", "Red Joker", "Queen of Clubs"}
)

const (
	ecoWinChips  = 25
	ecoOutsider  = "discord:9"  // a valid identity that never joins
	ecoStranger  = "discord:99" // a gift target that never joined
	ecoBadTarget = "bob"        // not a platform identity, nor anyone's name: unknown_player
)

// ecoHolder is the model of one player: exactly what they should hold, in
// the order the engine keeps it, plus what the gift rules remember.
type ecoHolder struct {
	vertebrae, chips int
	cards            []players.Card
	packs            []players.Pack
	owed             []players.Owed
	giftPeriod       string
	active           bool // as the engine last reported it (the previous check, same instant)
}

func (h *ecoHolder) hasCard(id string) bool {
	return slices.ContainsFunc(h.cards, func(c players.Card) bool { return c.ID == id })
}

func (h *ecoHolder) hasPack(id string) bool {
	return slices.ContainsFunc(h.packs, func(p players.Pack) bool { return p.ID == id })
}

func (h *ecoHolder) holds(it economy.Items) bool {
	if h == nil || h.vertebrae < it.Vertebrae || h.chips < it.Chips {
		return false
	}
	for _, id := range it.Cards {
		if !h.hasCard(id) {
			return false
		}
	}
	for _, id := range it.Packs {
		if !h.hasPack(id) {
			return false
		}
	}
	return true
}

// give moves it from h to to the way a trade or revocation does: copies
// keep their identity, the receiver gets them after what it holds, in the
// giver's order.
func (h *ecoHolder) give(to *ecoHolder, it economy.Items) {
	h.vertebrae -= it.Vertebrae
	to.vertebrae += it.Vertebrae
	h.chips -= it.Chips
	to.chips += it.Chips
	var keepC []players.Card
	for _, c := range h.cards {
		if slices.Contains(it.Cards, c.ID) {
			to.cards = append(to.cards, c)
		} else {
			keepC = append(keepC, c)
		}
	}
	h.cards = keepC
	var keepP []players.Pack
	for _, p := range h.packs {
		if slices.Contains(it.Packs, p.ID) {
			to.packs = append(to.packs, p)
		} else {
			keepP = append(keepP, p)
		}
	}
	h.packs = keepP
}

// ecoReplay repeats a command that succeeded: again with the identical
// request, changed with the same key and a different request.
type ecoReplay struct {
	name    string
	body    string
	again   func() (*game.Result, error)
	changed func() error
}

// ecoModel is what the players should hold, which trades exist, whether the
// game is over, and how many log entries there should be.
type ecoModel struct {
	clk     *clock.Manual
	members map[string]*ecoHolder
	names   []string // members, in joining order
	trades  map[string]*trades.Trade
	tradeID []string        // in offering order
	seen    map[string]bool // every card and pack id ever created
	revoked map[string]bool
	ended   bool
	winner  string
	entries int
	done    []ecoReplay
	keys    int
	stats   map[string]int
}

func (m *ecoModel) key() string { m.keys++; return fmt.Sprintf("e%d", m.keys) }

func (m *ecoModel) period() string { return calendar.Phases{}.PeriodAt(m.clk.Now()).ID }

// outcome is the refusal the model expects: a request error found before
// the game is read comes first, then game_over once the game has ended,
// then the rule the command breaks; "" means the command must succeed.
func (m *ecoModel) outcome(pre, rule string) string {
	switch {
	case pre != "":
		return pre
	case m.ended:
		return "game_over"
	}
	return rule
}

// refused checks a command's outcome against want, and reports whether it
// was (correctly) refused. An accepted command is one more log entry.
func (m *ecoModel) refused(rt *rapid.T, what string, res *game.Result, err error, want string) bool {
	if want != "" {
		var re *rules.Error
		if !errors.As(err, &re) || re.Code != want {
			rt.Fatalf("%s: want refusal %s, got %v (result %v)", what, want, err, res)
		}
		m.stats[what+" refused "+want]++
		return true
	}
	if err != nil {
		rt.Fatalf("%s: want success, got %v", what, err)
	}
	if res.Replayed {
		rt.Fatalf("%s with a new key was answered as a replay", what)
	}
	m.entries++
	m.stats[what+" ok"]++
	return false
}

// fresh records newly created card or pack ids, failing if any was seen
// before (ids are never reused, not even after a revocation).
func (m *ecoModel) fresh(rt *rapid.T, what string, ids ...string) {
	for _, id := range ids {
		if id == "" || m.seen[id] {
			rt.Fatalf("%s created id %q, which is empty or was seen before", what, id)
		}
		m.seen[id] = true
	}
}

// acted settles what an action owes (RULINGS C4): each giver of a gift the
// actor received while inactive in this same period gets one card, once.
// The engine reports those cards as gift_returned events.
func (m *ecoModel) acted(rt *rapid.T, actor string, res *game.Result) {
	h := m.members[actor]
	var want []string
	for _, o := range h.owed {
		if o.Period == m.period() && m.members[o.Giver] != nil {
			want = append(want, o.Giver)
		}
	}
	h.owed = nil
	var got []string
	for _, ev := range res.Entry.Events {
		if ev.Type != "gift_returned" {
			continue
		}
		var d struct {
			Receiver string         `json:"receiver"`
			Cards    []players.Card `json:"cards"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			rt.Fatal(err)
		}
		if d.Receiver != actor || len(d.Cards) != 1 || m.members[ev.Player] == nil {
			rt.Fatalf("gift_returned event %s: want 1 card to a player for %s's gift", ev.Data, actor)
		}
		m.fresh(rt, "gift return", gametest.CardIDs(d.Cards)...)
		g := m.members[ev.Player]
		g.cards = append(g.cards, d.Cards...)
		got = append(got, ev.Player)
		m.stats["gift returned"]++
	}
	if !slices.Equal(got, want) {
		rt.Fatalf("%s acted: return cards went to %v, want %v", actor, got, want)
	}
}

// victory applies RULINGS C7: the command that brings a player to 25 Chips
// ends the game, naming them the winner.
func (m *ecoModel) victory(rt *rapid.T, res *game.Result) {
	var won []string
	for _, ev := range res.Entry.Events {
		if ev.Type == "game_won" {
			won = append(won, ev.Player)
		}
	}
	var over []string
	for _, id := range m.names {
		if m.members[id].chips >= ecoWinChips {
			over = append(over, id)
		}
	}
	switch {
	case m.ended && len(won) > 0:
		rt.Fatalf("game won again (%v) after it ended", won)
	case m.ended:
	case len(over) == 0 && len(won) > 0:
		rt.Fatalf("game won by %v though nobody holds %d Chips", won, ecoWinChips)
	case len(over) > 0 && (len(won) != 1 || !slices.Contains(over, won[0])):
		rt.Fatalf("%v hold %d Chips or more, but the game_won events are %v", over, ecoWinChips, won)
	case len(over) > 0:
		m.ended, m.winner = true, won[0]
		m.stats["game won"]++
	}
}

func (m *ecoModel) remember(r ecoReplay) { m.done = append(m.done, r) }

// rarely reports whether a step that can only be refused should go ahead
// (one time in five); otherwise the step does something that can change the
// state instead. (Skipping would not do: rapid ends a run that skips much.)
func rarely(rt *rapid.T, why string) bool {
	return rapid.IntRange(0, 4).Draw(rt, why) == 4
}

// actor draws who sends a command: a player, now and then someone who is not.
func (m *ecoModel) actor(rt *rapid.T) string {
	if rapid.IntRange(0, 14).Draw(rt, "outsider acts") == 14 {
		return ecoOutsider
	}
	return rapid.SampledFrom(m.names).Draw(rt, "actor")
}

// target draws whom a command is about: a player other than self, now and
// then one of the wrong targets.
func (m *ecoModel) target(rt *rapid.T, self string, wrong ...string) string {
	if rapid.IntRange(0, 9).Draw(rt, "wrong target") == 9 {
		return rapid.SampledFrom(wrong).Draw(rt, "target")
	}
	return rapid.SampledFrom(m.others(self)).Draw(rt, "target")
}

// others lists the members other than id.
func (m *ecoModel) others(id string) []string {
	var out []string
	for _, n := range m.names {
		if n != id {
			out = append(out, n)
		}
	}
	return out
}

// tradeChoices lists trade ids to act on: open ones first (rapid draws
// early entries more often), then closed ones, then one that never existed.
func (m *ecoModel) tradeChoices() []string {
	var open, closed []string
	for _, id := range m.tradeID {
		if m.trades[id].Status == trades.TradeOpen {
			open = append(open, id)
		} else {
			closed = append(closed, id)
		}
	}
	return append(append(open, closed...), "t0000000000")
}

func rbody[T any](rt *rapid.T, res *game.Result) T {
	var v T
	if err := json.Unmarshal(res.Body, &v); err != nil {
		rt.Fatalf("decoding %s: %v", res.Body, err)
	}
	return v
}

func itemsEqual(a, b economy.Items) bool {
	return a.Vertebrae == b.Vertebrae && a.Chips == b.Chips && slices.Equal(a.Cards, b.Cards) && slices.Equal(a.Packs, b.Packs)
}

// side draws one side of a trade or a revocation: some of what h holds and,
// now and then, an id h does not hold.
func side(rt *rapid.T, label string, h *ecoHolder, others []string) economy.Items {
	var cardPool, packPool []string
	held, chips := 0, 0
	if h != nil {
		cardPool = gametest.CardIDs(h.cards)
		packPool = gametest.PackIDs(h.packs)
		held, chips = h.vertebrae, h.chips
	}
	wrong := rapid.IntRange(0, 9).Draw(rt, label+" wrong")
	if wrong == 9 { // ids h does not hold
		cardPool = append(append(cardPool, others...), "zz.1")
		packPool = append(packPool, "zz.2")
	}
	var it economy.Items
	if len(cardPool) > 0 {
		it.Cards = rapid.SliceOfNDistinct(rapid.SampledFrom(cardPool), 0, 3, rapid.ID[string]).Draw(rt, label+" cards")
	}
	if len(packPool) > 0 {
		it.Packs = rapid.SliceOfNDistinct(rapid.SampledFrom(packPool), 0, 2, rapid.ID[string]).Draw(rt, label+" packs")
	}
	if rapid.IntRange(0, 2).Draw(rt, label+" with currency") == 2 {
		it.Vertebrae = rapid.IntRange(0, held).Draw(rt, label+" vertebrae")
		it.Chips = rapid.IntRange(0, chips).Draw(rt, label+" chips")
	}
	if wrong == 8 {
		it.Vertebrae = held + 1 // more than h holds
	}
	return it
}

// TestEconomyStateMachine is acceptance 2: random sequences of grants,
// purchases, pack openings, gifts, trade offers, acceptances and
// withdrawals (by the right and the wrong player), revocations, time
// passing (phase ends and trade expiries) and repeated idempotency keys,
// checked after every step against a model of what each player holds. No
// balance is negative; every card copy and pack has exactly one owner and a
// revoked id never comes back; currency totals change only by purchases and
// operator grants and revocations (trades conserve them); card and pack
// counts change only by what a command says it created or removed; a
// refused command changes nothing; 25 Chips end the game.
func TestEconomyStateMachine(t *testing.T) {
	stats := map[string]int{}
	quiet := slog.New(slog.DiscardHandler)
	rapid.Check(t, func(rt *rapid.T) {
		ctx := context.Background()
		clk := clock.NewManual(gametest.Start)
		svc := rulesets.New(newTmpfsBolt(t), clk, game.WithEntropy(gametest.Seeded(11)), game.WithLogger(quiet))
		if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
			rt.Fatal(err)
		}
		m := &ecoModel{clk: clk, members: map[string]*ecoHolder{}, trades: map[string]*trades.Trade{},
			seen: map[string]bool{}, revoked: map[string]bool{}, entries: 1, stats: stats}
		everyone := []string{"discord:2", "discord:3", "discord:4", "slack:U5", "discord:6"}
		n := rapid.IntRange(3, 5).Draw(rt, "players")
		for _, p := range everyone[:n] {
			if _, err := svc.Join(ctx, req(p, "join"), game.JoinGame{}); err != nil {
				rt.Fatal(err)
			}
			m.members[p] = &ecoHolder{active: true}
			m.names = append(m.names, p)
			m.entries++
		}
		actors := append(slices.Clone(m.names), ecoOutsider)
		// foreign lists ids held by players other than id (to put in an
		// offer or a revocation that the wrong player is asked for).
		foreign := func(id string) []string {
			var out []string
			for _, o := range m.names {
				if o != id && len(m.members[o].cards) > 0 {
					out = append(out, m.members[o].cards[0].ID)
				}
			}
			return out
		}

		var actions map[string]func(*rapid.T)
		instead := func(rt *rapid.T, action string) { actions[action](rt) }
		actions = map[string]func(*rapid.T){
			"grant": func(rt *rapid.T) {
				actor := admin
				if rapid.IntRange(0, 9).Draw(rt, "by a player") == 9 {
					actor = m.names[0]
				}
				g := gildedhall.Grant{
					Player:      m.target(rt, admin, ecoOutsider, ecoBadTarget),
					Vertebrae:   rapid.IntRange(0, 80).Draw(rt, "vertebrae"),
					Chips:       rapid.IntRange(0, 3).Draw(rt, "chips"),
					RandomCards: rapid.IntRange(0, 3).Draw(rt, "random cards"),
					Reason:      "test",
				}
				switch rapid.IntRange(0, 19).Draw(rt, "unusual amounts") {
				case 19:
					g.Vertebrae = -rapid.IntRange(1, 30).Draw(rt, "vertebrae taken")
				case 18:
					g.Chips = -rapid.IntRange(1, 3).Draw(rt, "chips taken")
				case 17:
					// Close to victory, or past it: enough to end some games,
					// by this grant or by a later chip bought or traded.
					if h := m.members[g.Player]; h != nil {
						g.Chips = max(1, ecoWinChips-h.chips-rapid.IntRange(0, 2).Draw(rt, "short of victory"))
					}
				}
				for i := range rapid.IntRange(0, 2).Draw(rt, "card grants") {
					g.Cards = append(g.Cards, gildedhall.CardGrant{
						Name:  rapid.SampledFrom(append(slices.Clone(ecoCardNames), "Nine of Cups")).Draw(rt, fmt.Sprintf("card %d", i)),
						Holo:  rapid.Bool().Draw(rt, fmt.Sprintf("holo %d", i)),
						Count: rapid.IntRange(0, 3).Draw(rt, fmt.Sprintf("count %d", i)),
					})
				}
				for i := range rapid.IntRange(0, 2).Draw(rt, "pack grants") {
					g.Packs = append(g.Packs, gildedhall.PackGrant{
						Pack:  rapid.SampledFrom([]string{"handy-pack", "deck-pack", "legendary-pack", "mystery-pack"}).Draw(rt, fmt.Sprintf("pack %d", i)),
						Count: rapid.IntRange(0, 2).Draw(rt, fmt.Sprintf("pack count %d", i)),
					})
				}
				items := g.RandomCards
				unknownCard, unknownPack := false, false
				for _, c := range g.Cards {
					items += max(c.Count, 1)
					unknownCard = unknownCard || !slices.Contains(ecoCardNames, c.Name)
				}
				for _, p := range g.Packs {
					items += max(p.Count, 1)
					_, known := ecoPackSize[p.Pack]
					unknownPack = unknownPack || !known
				}
				pre, rule := "", ""
				switch {
				case g.Player == ecoBadTarget:
					pre = "unknown_player"
				case g.Vertebrae == 0 && g.Chips == 0 && items == 0:
					pre = "invalid_request"
				}
				h := m.members[g.Player]
				switch {
				case actor != admin:
					rule = "forbidden"
				case h == nil:
					rule = "not_a_player"
				case h.vertebrae+g.Vertebrae < 0 || h.chips+g.Chips < 0:
					rule = "insufficient_funds"
				case unknownCard:
					rule = "unknown_card"
				case unknownPack:
					rule = "unknown_pack"
				}
				key := m.key()
				res, err := gildedhall.On(svc).Grant(ctx, req(actor, key), g)
				if m.refused(rt, "grant", res, err, m.outcome(pre, rule)) {
					return
				}
				r := rbody[gildedhall.GrantResult](rt, res)
				var wantNames []string
				for _, c := range g.Cards {
					for range max(c.Count, 1) {
						wantNames = append(wantNames, fmt.Sprintf("%s/%v", c.Name, c.Holo))
					}
				}
				if len(r.Cards) != len(wantNames)+g.RandomCards {
					rt.Fatalf("grant of %d named and %d random cards created %d", len(wantNames), g.RandomCards, len(r.Cards))
				}
				for i, w := range wantNames {
					if got := fmt.Sprintf("%s/%v", r.Cards[i].Name, r.Cards[i].Holo); got != w {
						rt.Fatalf("granted card %d is %s, want %s", i, got, w)
					}
				}
				var wantKinds, gotKinds []string
				for _, p := range g.Packs {
					for range max(p.Count, 1) {
						wantKinds = append(wantKinds, p.Pack)
					}
				}
				for _, p := range r.Packs {
					gotKinds = append(gotKinds, p.Kind)
				}
				if !slices.Equal(gotKinds, wantKinds) {
					rt.Fatalf("granted packs %v, want %v", gotKinds, wantKinds)
				}
				m.fresh(rt, "grant", gametest.CardIDs(r.Cards)...)
				m.fresh(rt, "grant", gametest.PackIDs(r.Packs)...)
				h.vertebrae += g.Vertebrae
				h.chips += g.Chips
				h.cards = append(h.cards, r.Cards...)
				h.packs = append(h.packs, r.Packs...)
				m.victory(rt, res)
				if r.Vertebrae != h.vertebrae || r.Chips != h.chips || r.Won != (m.ended && m.winner == g.Player) {
					rt.Fatalf("grant answered %dV %dC won=%v; model %dV %dC won=%v", r.Vertebrae, r.Chips, r.Won, h.vertebrae, h.chips, m.winner == g.Player)
				}
				m.remember(ecoReplay{name: "grant", body: string(res.Body),
					again: func() (*game.Result, error) { return gildedhall.On(svc).Grant(ctx, req(actor, key), g) },
					changed: func() error {
						g2 := g
						g2.Reason = "another reason"
						_, err := gildedhall.On(svc).Grant(ctx, req(actor, key), g2)
						return err
					}})
			},
			"revoke": func(rt *rapid.T) {
				actor := admin
				if rapid.IntRange(0, 9).Draw(rt, "by a player") == 9 {
					actor = m.names[0]
				}
				target := m.actor(rt)
				h := m.members[target]
				r := gildedhall.Revoke{Player: target, Items: side(rt, "revoke", h, foreign(target)), Reason: "test"}
				if r.Items.Empty() && !rarely(rt, "empty revocation") {
					instead(rt, "grant")
					return
				}
				pre, rule := "", ""
				if r.Items.Empty() {
					pre = "invalid_request"
				}
				switch {
				case actor != admin:
					rule = "forbidden"
				case h == nil:
					rule = "not_a_player"
				case !h.holds(r.Items):
					rule = "insufficient_items"
				}
				key := m.key()
				res, err := gildedhall.On(svc).Revoke(ctx, req(actor, key), r)
				if m.refused(rt, "revoke", res, err, m.outcome(pre, rule)) {
					return
				}
				got := rbody[gildedhall.RevokeResult](rt, res)
				var taken ecoHolder
				h.give(&taken, r.Items)
				if got.Revoked.Vertebrae != taken.vertebrae || got.Revoked.Chips != taken.chips ||
					!slices.Equal(got.Revoked.Cards, taken.cards) || !slices.Equal(got.Revoked.Packs, taken.packs) {
					rt.Fatalf("revocation of %v answered %+v", r.Items, got.Revoked)
				}
				for _, id := range slices.Concat(r.Items.Cards, r.Items.Packs) {
					m.revoked[id] = true
				}
				m.victory(rt, res)
				m.remember(ecoReplay{name: "revoke", body: string(res.Body),
					again: func() (*game.Result, error) { return gildedhall.On(svc).Revoke(ctx, req(actor, key), r) },
					changed: func() error {
						r2 := r
						r2.Reason = "another reason"
						_, err := gildedhall.On(svc).Revoke(ctx, req(actor, key), r2)
						return err
					}})
			},
			"purchase": func(rt *rapid.T) {
				actor := m.actor(rt)
				p := gildedhall.Purchase{
					Item:     rapid.SampledFrom([]string{"random-card", "handy-pack", "deck-pack", "legendary-pack", "chip", "croissant"}).Draw(rt, "item"),
					Quantity: rapid.SampledFrom([]int{1, 1, 2, 3, 0, 5, -1, 101}).Draw(rt, "quantity"),
				}
				h := m.members[actor]
				item, known := ecoShop[p.Item]
				qty := p.Quantity
				if qty == 0 {
					qty = 1 // the default
				}
				cost := item.price * qty
				rule := ""
				switch {
				case h == nil:
					rule = "not_a_player"
				case !known:
					rule = "unknown_item"
				case qty < 1 || qty > 100:
					rule = "invalid_quantity"
				case h.vertebrae < cost:
					rule = "insufficient_funds"
				}
				key := m.key()
				res, err := gildedhall.On(svc).Purchase(ctx, req(actor, key), p)
				if m.refused(rt, "purchase", res, err, m.outcome("", rule)) {
					return
				}
				b := rbody[gildedhall.PurchaseResult](rt, res)
				if b.Paid != cost || b.Quantity != qty || b.Currency != "vertebrae" {
					rt.Fatalf("%d × %s: paid %d %s for %d, want %d vertebrae", qty, p.Item, b.Paid, b.Currency, b.Quantity, cost)
				}
				if len(b.Cards) != qty*item.cards {
					rt.Fatalf("%d × %s brought %d cards", qty, p.Item, len(b.Cards))
				}
				if item.pack != "" {
					if len(b.Packs) != qty {
						rt.Fatalf("%d × %s brought %d packs", qty, p.Item, len(b.Packs))
					}
					for _, pk := range b.Packs {
						if pk.Kind != item.pack {
							rt.Fatalf("bought a %s, got pack %+v", p.Item, pk)
						}
					}
				} else if len(b.Packs) != 0 {
					rt.Fatalf("bought %s, got packs %v", p.Item, b.Packs)
				}
				m.fresh(rt, "purchase", gametest.CardIDs(b.Cards)...)
				m.fresh(rt, "purchase", gametest.PackIDs(b.Packs)...)
				h.vertebrae -= cost
				// The response's "chips" is the new balance (it hides the
				// embedded Bought.Chips): the balance check below proves the
				// chips bought.
				h.chips += qty * item.chips
				h.cards = append(h.cards, b.Cards...)
				h.packs = append(h.packs, b.Packs...)
				m.acted(rt, actor, res)
				m.victory(rt, res)
				if b.Vertebrae != h.vertebrae || b.Chips != h.chips || b.Won != (m.ended && m.winner == actor) {
					rt.Fatalf("purchase answered %dV %dC won=%v; model %dV %dC", b.Vertebrae, b.Chips, b.Won, h.vertebrae, h.chips)
				}
				m.remember(ecoReplay{name: "purchase", body: string(res.Body),
					again: func() (*game.Result, error) { return gildedhall.On(svc).Purchase(ctx, req(actor, key), p) },
					changed: func() error {
						_, err := gildedhall.On(svc).Purchase(ctx, req(actor, key), gildedhall.Purchase{Item: p.Item, Quantity: qty + 1})
						return err
					}})
			},
			"open": func(rt *rapid.T) {
				actor := m.actor(rt)
				h := m.members[actor]
				var refs []string
				if h != nil {
					refs = gametest.PackIDs(h.packs)
				}
				if len(refs) == 0 && !rarely(rt, "no packs") {
					instead(rt, "grant")
					return
				}
				refs = append(refs, "handy-pack", "deck-pack", "legendary-pack")
				for _, id := range m.names {
					if id != actor {
						refs = append(refs, gametest.PackIDs(m.members[id].packs)...)
					}
				}
				ref := rapid.SampledFrom(append(refs, "zz.2")).Draw(rt, "pack")
				rule := ""
				var want players.Pack
				if h == nil {
					rule = "not_a_player"
				} else if i := slices.IndexFunc(h.packs, func(p players.Pack) bool { return p.ID == ref }); i >= 0 {
					want = h.packs[i]
				} else if i := slices.IndexFunc(h.packs, func(p players.Pack) bool { return p.Kind == ref }); i >= 0 {
					want = h.packs[i] // the oldest of the kind
				} else {
					rule = "no_such_pack"
				}
				key := m.key()
				res, err := gildedhall.On(svc).Open(ctx, req(actor, key), gildedhall.OpenPack{Pack: ref})
				if m.refused(rt, "open", res, err, m.outcome("", rule)) {
					return
				}
				o := rbody[economy.Opened](rt, res)
				holos := 0
				for _, c := range o.Cards {
					if c.Holo {
						holos++
					}
				}
				if o.Pack != want || len(o.Cards) != ecoPackSize[want.Kind] || holos < ecoPackHolos[want.Kind] {
					rt.Fatalf("open %q: opened %+v with %d cards (%d holo); want %+v with %d (at least %d holo)",
						ref, o.Pack, len(o.Cards), holos, want, ecoPackSize[want.Kind], ecoPackHolos[want.Kind])
				}
				m.fresh(rt, "open", gametest.CardIDs(o.Cards)...)
				h.packs = slices.DeleteFunc(h.packs, func(p players.Pack) bool { return p.ID == want.ID })
				h.cards = append(h.cards, o.Cards...)
				m.acted(rt, actor, res)
				m.victory(rt, res)
				m.remember(ecoReplay{name: "open", body: string(res.Body),
					again: func() (*game.Result, error) {
						return gildedhall.On(svc).Open(ctx, req(actor, key), gildedhall.OpenPack{Pack: ref})
					},
					changed: func() error {
						_, err := gildedhall.On(svc).Open(ctx, req(actor, key), gildedhall.OpenPack{Pack: ref + "x"})
						return err
					}})
			},
			"gift": func(rt *rapid.T) {
				actor := m.actor(rt)
				to := m.target(rt, actor, actor, ecoStranger, ecoBadTarget)
				giver, recv := m.members[actor], m.members[to]
				pre, rule := "", ""
				if to == ecoBadTarget {
					pre = "unknown_player"
				}
				switch {
				case giver == nil:
					rule = "not_a_player"
				case to == actor:
					rule = "self_gift"
				case recv == nil:
					rule = "not_a_player"
				case giver.giftPeriod == m.period():
					rule = "already_gifted"
				}
				key := m.key()
				res, err := gildedhall.On(svc).Gift(ctx, req(actor, key), gildedhall.Gift{To: to})
				if m.refused(rt, "gift", res, err, m.outcome(pre, rule)) {
					return
				}
				g := rbody[gildedhall.GiftResult](rt, res)
				small := len(recv.cards) < 5
				size := 1 // RULINGS C4: base 1, +2 to an inactive player, +1 to a deck under 5
				if g.Inactive {
					size += 2
				}
				if small {
					size++
				}
				if g.Giver != actor || g.Receiver != to || g.Period != m.period() || g.SmallDeck != small ||
					g.Inactive == recv.active || len(g.Cards) != size {
					rt.Fatalf("gift %s→%s (receiver active=%v, %d cards) answered %+v; want %d cards",
						actor, to, recv.active, len(recv.cards), g, size)
				}
				m.fresh(rt, "gift", gametest.CardIDs(g.Cards)...)
				recv.cards = append(recv.cards, g.Cards...)
				if g.Inactive {
					recv.owed = append(recv.owed, players.Owed{Giver: actor, Period: g.Period})
					m.stats["gift to inactive"]++
				}
				giver.giftPeriod = g.Period
				m.acted(rt, actor, res)
				m.victory(rt, res)
				m.remember(ecoReplay{name: "gift", body: string(res.Body),
					again: func() (*game.Result, error) {
						return gildedhall.On(svc).Gift(ctx, req(actor, key), gildedhall.Gift{To: to})
					},
					changed: func() error {
						_, err := gildedhall.On(svc).Gift(ctx, req(actor, key), gildedhall.Gift{To: ecoStranger})
						return err
					}})
			},
			"offer trade": func(rt *rapid.T) {
				actor := m.actor(rt)
				to := m.target(rt, actor, ecoOutsider, actor, ecoBadTarget)
				from, recv := m.members[actor], m.members[to]
				o := trades.OfferTrade{To: to, Give: side(rt, "give", from, foreign(actor)), Take: side(rt, "take", recv, foreign(to))}
				if o.Give.Empty() && o.Take.Empty() && !rarely(rt, "empty offer") {
					instead(rt, "grant")
					return
				}
				if rapid.IntRange(0, 15).Draw(rt, "negative") == 9 {
					o.Give.Vertebrae = -1
				}
				pre, rule := "", ""
				switch {
				case to == ecoBadTarget:
					pre = "unknown_player"
				case to == actor:
					pre = "self_trade"
				case o.Give.Vertebrae < 0, o.Give.Empty() && o.Take.Empty():
					pre = "invalid_trade"
				}
				switch {
				case from == nil, recv == nil:
					rule = "not_a_player"
				case !from.holds(o.Give), !recv.holds(o.Take):
					rule = "trade_items_missing"
				}
				key := m.key()
				res, err := trades.On(svc).OfferTrade(ctx, req(actor, key), o)
				if m.refused(rt, "offer", res, err, m.outcome(pre, rule)) {
					return
				}
				tr := rbody[trades.Trade](rt, res)
				if tr.From != actor || tr.To != to || tr.Status != trades.TradeOpen || !itemsEqual(tr.Give, o.Give) ||
					!itemsEqual(tr.Take, o.Take) || !tr.ExpiresAt.Equal(clk.Now().Add(7*24*time.Hour)) || m.trades[tr.ID] != nil {
					rt.Fatalf("offer %+v answered %+v", o, tr)
				}
				m.trades[tr.ID] = &tr
				m.tradeID = append(m.tradeID, tr.ID)
				m.acted(rt, actor, res)
				m.victory(rt, res)
				m.remember(ecoReplay{name: "offer", body: string(res.Body),
					again: func() (*game.Result, error) { return trades.On(svc).OfferTrade(ctx, req(actor, key), o) },
					changed: func() error {
						o2 := o
						o2.Note = "changed my mind"
						_, err := trades.On(svc).OfferTrade(ctx, req(actor, key), o2)
						return err
					}})
			},
			"accept trade": func(rt *rapid.T) {
				if len(m.tradeID) == 0 && !rarely(rt, "no trades") {
					instead(rt, "offer trade")
					return
				}
				id := rapid.SampledFrom(m.tradeChoices()).Draw(rt, "trade")
				tr := m.trades[id]
				parties := actors
				if tr != nil {
					parties = append([]string{tr.To}, actors...) // the right player more often
				}
				actor := rapid.SampledFrom(parties).Draw(rt, "actor")
				rule := ""
				switch {
				case tr == nil:
					rule = "trade_not_found"
				case tr.Status != trades.TradeOpen:
					rule = "trade_closed"
				case actor != tr.To:
					rule = "not_your_trade"
				case !clk.Now().Before(tr.ExpiresAt):
					rule = "trade_expired"
				case !m.members[tr.From].holds(tr.Give), !m.members[tr.To].holds(tr.Take):
					rule = "trade_items_missing"
				}
				key := m.key()
				res, err := trades.On(svc).AcceptTrade(ctx, req(actor, key), id)
				if m.refused(rt, "accept", res, err, m.outcome("", rule)) {
					return
				}
				got := rbody[trades.Trade](rt, res)
				if got.ID != id || got.Status != trades.TradeExecuted || got.ClosedBy != actor {
					rt.Fatalf("accept of %s answered %+v", id, got)
				}
				from, to := m.members[tr.From], m.members[tr.To]
				from.give(to, tr.Give)
				to.give(from, tr.Take)
				tr.Status = trades.TradeExecuted
				m.acted(rt, actor, res)
				m.victory(rt, res)
				m.remember(ecoReplay{name: "accept", body: string(res.Body),
					again: func() (*game.Result, error) { return trades.On(svc).AcceptTrade(ctx, req(actor, key), id) },
					changed: func() error {
						_, err := trades.On(svc).AcceptTrade(ctx, req(actor, key), id+"x")
						return err
					}})
			},
			"withdraw trade": func(rt *rapid.T) {
				if len(m.tradeID) == 0 && !rarely(rt, "no trades") {
					instead(rt, "offer trade")
					return
				}
				id := rapid.SampledFrom(m.tradeChoices()).Draw(rt, "trade")
				tr := m.trades[id]
				parties := actors
				if tr != nil {
					parties = append(slices.Clone(actors), tr.From, tr.To)
				}
				actor := rapid.SampledFrom(parties).Draw(rt, "actor")
				rule := ""
				switch {
				case tr == nil:
					rule = "trade_not_found"
				case tr.Status != trades.TradeOpen:
					rule = "trade_closed"
				case actor != tr.From && actor != tr.To:
					rule = "not_your_trade"
				}
				key := m.key()
				res, err := trades.On(svc).WithdrawTrade(ctx, req(actor, key), id)
				if m.refused(rt, "withdraw", res, err, m.outcome("", rule)) {
					return
				}
				if got := rbody[trades.Trade](rt, res); got.Status != trades.TradeWithdrawn || got.ClosedBy != actor {
					rt.Fatalf("withdrawal of %s answered %+v", id, got)
				}
				tr.Status = trades.TradeWithdrawn
				m.acted(rt, actor, res)
				m.victory(rt, res)
				m.remember(ecoReplay{name: "withdraw", body: string(res.Body),
					again: func() (*game.Result, error) { return trades.On(svc).WithdrawTrade(ctx, req(actor, key), id) }})
			},
			"time passes": func(rt *rapid.T) {
				clk.Advance(time.Duration(rapid.IntRange(1, 180).Draw(rt, "hours")) * time.Hour)
				if rapid.IntRange(0, 4).Draw(rt, "scheduler late") == 3 {
					m.stats["scheduler late"]++
					return // trades past their window stay open in storage until the next run
				}
				rep, err := svc.RunDue(ctx)
				if err != nil || len(rep.Failed) > 0 {
					rt.Fatalf("run due: %v %v", err, rep.Failed)
				}
				var want []string
				for _, id := range m.tradeID {
					if tr := m.trades[id]; tr.Status == trades.TradeOpen && !clk.Now().Before(tr.ExpiresAt) {
						want = append(want, "hall/"+id)
						tr.Status = trades.TradeExpired
					}
				}
				got := slices.Clone(rep.Expired)
				sort.Strings(got)
				sort.Strings(want)
				if !slices.Equal(got, want) {
					rt.Fatalf("run due expired %v, want %v", got, want)
				}
				m.stats["trade expired"] += len(want)
				m.entries += len(rep.Transitions) + len(rep.Expired)
			},
			"repeat a command": func(rt *rapid.T) {
				if len(m.done) == 0 {
					rt.Skip("nothing to repeat")
				}
				d := m.done[rapid.IntRange(0, len(m.done)-1).Draw(rt, "command")]
				res, err := d.again()
				if err != nil || !res.Replayed || string(res.Body) != d.body {
					rt.Fatalf("repeating %s: %v (replayed %v) %s; first answer %s", d.name, err, res != nil && res.Replayed, resBody(res), d.body)
				}
				m.stats["replayed"]++
				if d.changed != nil && rapid.Bool().Draw(rt, "changed") {
					if err := d.changed(); gametest.RuleCode(err) != "idempotency_key_reused" {
						rt.Fatalf("%s's key with a different request: %v", d.name, err)
					}
				}
			},
			"": func(rt *rapid.T) { m.check(rt, ctx, svc) },
		}
		rt.Repeat(actions)
	})
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-40s %d", k, stats[k])
	}
	t.Logf("outcomes over all runs:%s", b.String())
}

// newTmpfsBolt is newBolt on /dev/shm when the machine has it: bbolt syncs
// every commit to disk, and a state machine makes thousands of commits, so
// on a RAM file system the 100 runs fit in seconds with the same code paths.
func newTmpfsBolt(t *testing.T) store.Store {
	t.Helper()
	dir, err := os.MkdirTemp("/dev/shm", "croupier-test-")
	if err != nil {
		return gametest.Bolt(t)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	st, err := bolt.Open(filepath.Join(dir, "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func resBody(res *game.Result) string {
	if res == nil {
		return "<nil>"
	}
	return string(res.Body)
}

// check compares what the engine says every player holds with the model.
func (m *ecoModel) check(rt *rapid.T, ctx context.Context, svc *game.Service) {
	views, err := gildedhall.On(svc).Players(ctx, "hall")
	if err != nil {
		rt.Fatal(err)
	}
	if len(views) != len(m.names) {
		rt.Fatalf("%d players, want %d", len(views), len(m.names))
	}
	type totals struct{ vertebrae, chips, cards, packs int }
	var got, want totals
	owner := map[string]string{}
	for _, v := range views {
		h := m.members[v.ID]
		if h == nil {
			rt.Fatalf("%s is listed as a player", v.ID)
		}
		inv := v.Inventory
		if inv.Vertebrae < 0 || inv.Chips < 0 {
			rt.Fatalf("%s has a negative balance: %d Vertebrae, %d Chips", v.ID, inv.Vertebrae, inv.Chips)
		}
		for _, id := range slices.Concat(gametest.CardIDs(inv.Cards), gametest.PackIDs(inv.Packs)) {
			if o, dup := owner[id]; dup {
				rt.Fatalf("%s is held by both %s and %s", id, o, v.ID)
			}
			if m.revoked[id] {
				rt.Fatalf("%s holds %s, which was revoked", v.ID, id)
			}
			owner[id] = v.ID
		}
		got.vertebrae += inv.Vertebrae
		got.chips += inv.Chips
		got.cards += len(inv.Cards)
		got.packs += len(inv.Packs)
		want.vertebrae += h.vertebrae
		want.chips += h.chips
		want.cards += len(h.cards)
		want.packs += len(h.packs)
	}
	if got != want {
		rt.Fatalf("totals (Vertebrae, Chips, cards, packs): engine %v, model %v", got, want)
	}
	for _, v := range views {
		h := m.members[v.ID]
		inv := v.Inventory
		if inv.Vertebrae != h.vertebrae || inv.Chips != h.chips || !slices.Equal(inv.Cards, h.cards) || !slices.Equal(inv.Packs, h.packs) {
			rt.Fatalf("%s: engine holds %dV %dC cards %v packs %v;\nmodel %dV %dC cards %v packs %v", v.ID,
				inv.Vertebrae, inv.Chips, gametest.CardIDs(inv.Cards), gametest.PackIDs(inv.Packs), h.vertebrae, h.chips, gametest.CardIDs(h.cards), gametest.PackIDs(h.packs))
		}
		if v.DeckSize != len(h.cards) || v.CanGift != (h.giftPeriod != m.period()) {
			rt.Fatalf("%s: deck_size %d can_gift %v; model %d cards, gifted in %q (now %s)", v.ID, v.DeckSize, v.CanGift, len(h.cards), h.giftPeriod, m.period())
		}
		h.active = v.Active
	}
	g, err := svc.Game(ctx, "hall")
	if err != nil {
		rt.Fatal(err)
	}
	if g.Ended != m.ended || g.Winner != m.winner {
		rt.Fatalf("game ended=%v winner=%q; model ended=%v winner=%q", g.Ended, g.Winner, m.ended, m.winner)
	}
	listed, err := trades.On(svc).Trades(ctx, "hall", trades.TradeFilter{})
	if err != nil {
		rt.Fatal(err)
	}
	if len(listed) != len(m.trades) {
		rt.Fatalf("%d trades listed, model has %d", len(listed), len(m.trades))
	}
	for _, tr := range listed {
		mt := m.trades[tr.ID]
		if mt == nil {
			rt.Fatalf("unknown trade %s listed", tr.ID)
		}
		want := mt.Status
		if want == trades.TradeOpen && !m.clk.Now().Before(mt.ExpiresAt) {
			want = trades.TradeExpired // reads tell the truth before the scheduler closes it
		}
		if tr.Status != want {
			rt.Fatalf("trade %s is %s, model says %s", tr.ID, tr.Status, want)
		}
	}
	if n := len(gametest.Entries(rt, svc)); n != m.entries {
		rt.Fatalf("%d log entries, want one per accepted command and scheduled change: %d", n, m.entries)
	}
}
