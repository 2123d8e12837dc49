package httpapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
)

// withPlayers is withGame plus bob as a second player.
func withPlayers(t *testing.T) *env {
	t.Helper()
	e := withGame(t)
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: bob, Idem: "join-bob", Body: game.JoinGame{Name: "Bob"}}), http.StatusOK)
	return e
}

// step moves the clock a second before a command, so log entries are
// strictly ordered.
func (e *env) step() { e.clock.Advance(time.Second) }

func cardIDs(cs []players.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

func holds(p gildedhall.PlayerView, cardID string) bool {
	return slices.Contains(cardIDs(p.Inventory.Cards), cardID)
}

// TestEconomyFlow walks the economy through the API as a bridge would (every
// exchange checked against openapi.yaml): a grant, a purchase (C6), opening
// the pack (C5), a gift (C4), a trade offered and accepted, the listings,
// the shop and ruleset, an amended price, and a revocation.
func TestEconomyFlow(t *testing.T) {
	e := withPlayers(t)
	g := "/v1/games/" + gameID

	// An admin grants Vertebrae, with the reason the log keeps.
	e.step()
	var granted gildedhall.GrantResult
	e.mustStatus(e.Post(g+"/grants", "grant-1", gildedhall.Grant{Player: ada, Vertebrae: 40, Reason: "state from the wiki"}), 200).Decode(t, &granted)
	if granted.Vertebrae != 40 || granted.Reason != "state from the wiki" {
		t.Errorf("grant = %+v, want 40 Vertebrae with its reason", granted)
	}

	// C6: a Handy Pack costs 12 Vertebrae.
	e.step()
	buy := apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Idem: "buy-1", Body: gildedhall.Purchase{Item: "handy-pack"}}
	r := e.mustStatus(e.Do(buy), 200)
	var bought gildedhall.PurchaseResult
	r.Decode(t, &bought)
	if bought.Item != "handy-pack" || bought.Name != "Handy Pack" || bought.Quantity != 1 || bought.Paid != 12 ||
		bought.Currency != "vertebrae" || bought.Vertebrae != 28 || len(bought.Packs) != 1 || bought.Packs[0].Kind != "handy-pack" || bought.Won {
		t.Errorf("purchase = %+v, want one handy-pack for 12, 28 Vertebrae left", bought)
	}
	// A retry with the same key is the same purchase, not a second one.
	again := e.mustStatus(e.Do(buy), 200)
	if string(again.Body) != string(r.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retried purchase = %s (replayed %q), want the first answer replayed", again.Body, again.Header.Get("Idempotent-Replayed"))
	}

	// C5: opening it by kind yields its 3 cards into the deck.
	e.step()
	var opened economy.Opened
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/packs/open", Actor: ada, Idem: "open-1", Body: gildedhall.OpenPack{Pack: "handy-pack"}}), 200).Decode(t, &opened)
	if opened.Pack != bought.Packs[0] || opened.Name != "Handy Pack" || len(opened.Cards) != 3 {
		t.Errorf("opened = %+v, want pack %+v with 3 cards", opened, bought.Packs[0])
	}
	p := e.player(gameID, ada)
	if p.DeckSize != 3 || len(p.Packs) != 0 || len(p.Inventory.Packs) != 0 || p.Inventory.Vertebrae != 28 || !p.CanGift {
		t.Errorf("ada after opening = deck %d, packs %+v, %d Vertebrae, can_gift %v; want 3 cards, no packs, 28, true",
			p.DeckSize, p.Packs, p.Inventory.Vertebrae, p.CanGift)
	}
	deckTotal := 0
	for _, d := range p.Deck {
		deckTotal += d.Count
	}
	if deckTotal != 3 {
		t.Errorf("the grouped deck counts %d cards, want 3: %+v", deckTotal, p.Deck)
	}

	// C4: bob joined this phase (active) and holds no cards: 1 + 1 for the small deck.
	e.step()
	var gift gildedhall.GiftResult
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/gifts", Actor: ada, Idem: "gift-1", Body: gildedhall.Gift{To: bob}}), 200).Decode(t, &gift)
	if gift.Giver != ada || gift.Receiver != bob || len(gift.Cards) != 2 || gift.Inactive || !gift.SmallDeck || gift.Period != "2026-W49-I" {
		t.Errorf("gift = %+v, want 2 cards to active bob with a small deck", gift)
	}
	if p := e.player(gameID, ada); p.CanGift {
		t.Error("ada can still gift after gifting this phase")
	}

	// A trade: ada gives 10 Vertebrae and a card for one of bob's cards.
	e.step()
	adaCard, bobCard := opened.Cards[0].ID, gift.Cards[0].ID
	offer := trades.OfferTrade{To: bob, Give: economy.Items{Vertebrae: 10, Cards: []string{adaCard}}, Take: economy.Items{Cards: []string{bobCard}}, Note: "a fair swap"}
	var tr trades.Trade
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Idem: "trade-1", Body: offer}), http.StatusCreated).Decode(t, &tr)
	if tr.ID == "" || tr.From != ada || tr.To != bob || tr.Status != trades.TradeOpen || tr.Note != "a fair swap" ||
		!tr.ExpiresAt.Equal(e.clock.Now().Add(7*24*time.Hour)) || !tr.ClosedAt.IsZero() {
		t.Errorf("offer = %+v, want an open trade expiring in 7 days", tr)
	}
	var open struct{ Trades []trades.Trade }
	e.mustStatus(e.Get(g+"/trades?status=open"), 200).Decode(t, &open)
	if len(open.Trades) != 1 || open.Trades[0].ID != tr.ID {
		t.Errorf("open trades = %+v, want %s", open.Trades, tr.ID)
	}

	e.step()
	var done trades.Trade
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades/" + tr.ID + "/accept", Actor: bob, Idem: "accept-1"}), 200).Decode(t, &done)
	if done.ID != tr.ID || done.Status != trades.TradeExecuted || done.ClosedBy != bob || !done.ClosedAt.Equal(e.clock.Now()) {
		t.Errorf("accepted = %+v, want executed by bob now", done)
	}
	a, b := e.player(gameID, ada), e.player(gameID, bob)
	if a.Inventory.Vertebrae != 18 || b.Inventory.Vertebrae != 10 || !holds(a, bobCard) || holds(a, adaCard) || !holds(b, adaCard) || holds(b, bobCard) {
		t.Errorf("after the trade: ada %d Vertebrae cards %v, bob %d cards %v; want 18/10 and the two cards swapped",
			a.Inventory.Vertebrae, cardIDs(a.Inventory.Cards), b.Inventory.Vertebrae, cardIDs(b.Inventory.Cards))
	}

	// Listings: by player and status; one trade by id.
	var list struct{ Trades []trades.Trade }
	e.mustStatus(e.Get(g+"/trades?player="+bob), 200).Decode(t, &list)
	if len(list.Trades) != 1 || list.Trades[0].Status != trades.TradeExecuted {
		t.Errorf("bob's trades = %+v, want the executed one", list.Trades)
	}
	// A player named by a display name (issue 23 point 4).
	e.mustStatus(e.Get(g+"/trades?player=bob"), 200).Decode(t, &list)
	if len(list.Trades) != 1 || list.Trades[0].Status != trades.TradeExecuted {
		t.Errorf("trades of the player named bob = %+v, want the executed one", list.Trades)
	}
	var byName game.PlayerView
	e.mustStatus(e.Get(g+"/players/BOB"), 200).Decode(t, &byName)
	if byName.ID != bob || byName.Name != "Bob" {
		t.Errorf("GET players/BOB = %s %q, want %s", byName.ID, byName.Name, bob)
	}
	e.mustStatus(e.Get(g+"/trades?status=open"), 200).Decode(t, &list)
	if len(list.Trades) != 0 {
		t.Errorf("open trades after the acceptance = %+v, want none", list.Trades)
	}
	e.mustStatus(e.Get(g+"/trades?player="+admin), 200).Decode(t, &list)
	if len(list.Trades) != 0 {
		t.Errorf("the admin's trades = %+v, want none", list.Trades)
	}
	var one trades.Trade
	e.mustStatus(e.Get(g+"/trades/"+tr.ID), 200).Decode(t, &one)
	if one.ID != tr.ID || one.Status != trades.TradeExecuted || !slices.Equal(one.Give.Cards, []string{adaCard}) {
		t.Errorf("GET trade = %+v", one)
	}

	// The shop and the ruleset show the prices.
	var shop struct{ Items []gildedhall.ShopItemView }
	e.mustStatus(e.Get(g+"/shop"), 200).Decode(t, &shop)
	handy := func() gildedhall.ShopItemView {
		for _, it := range shop.Items {
			if it.ID == "handy-pack" {
				return it
			}
		}
		t.Fatalf("the shop has no handy-pack: %+v", shop.Items)
		return gildedhall.ShopItemView{}
	}
	if h := handy(); len(shop.Items) != 5 || h.Price != 12 || h.Cards != 3 || h.HoloChance != 5 {
		t.Errorf("shop = %+v, want 5 items, handy-pack at 12 with 3 cards at 5%%", shop.Items)
	}
	var rs ruleset.Ruleset
	e.mustStatus(e.Get(g+"/ruleset"), 200).Decode(t, &rs)
	if rs.ID != "gilded-hall" || rs.Version != 1 || len(rs.Cards) != 54 || rs.Thresholds.WinChips != 25 {
		t.Errorf("ruleset = %s v%d, %d cards, win at %d; want gilded-hall v1, 54, 25", rs.ID, rs.Version, len(rs.Cards), rs.Thresholds.WinChips)
	}

	// An amendment: the Handy Pack now costs 8 (a merge patch replaces the shop whole).
	e.step()
	newShop := slices.Clone(rs.Shop)
	for i := range newShop {
		if newShop[i].ID == "handy-pack" {
			newShop[i].Price = 8
		}
	}
	patch, _ := json.Marshal(map[string]any{"shop": newShop})
	var am game.AmendResult
	e.mustStatus(e.Post(g+"/amendments", "amend-1", game.Amend{Patch: patch, Reason: "proposal 412 adopted"}), 200).Decode(t, &am)
	if am.Ruleset != "gilded-hall" || am.Version != 2 || am.Amendment.Version != 2 || am.Amendment.By != admin ||
		am.Amendment.Reason != "proposal 412 adopted" || am.Amendment.Source != "admin" {
		t.Errorf("amendment = %+v, want version 2 by the admin with its reason", am)
	}
	e.mustStatus(e.Get(g+"/ruleset"), 200).Decode(t, &rs)
	var gv game.GameView
	e.mustStatus(e.Get(g), 200).Decode(t, &gv)
	e.mustStatus(e.Get(g+"/shop"), 200).Decode(t, &shop)
	if rs.Version != 2 || gv.RulesetVersion != 2 || handy().Price != 8 {
		t.Errorf("after the amendment: ruleset v%d, game v%d, handy-pack at %d; want v2, v2, 8", rs.Version, gv.RulesetVersion, handy().Price)
	}

	// The next purchase pays the new price.
	e.step()
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Idem: "buy-2", Body: gildedhall.Purchase{Item: "handy-pack"}}), 200).Decode(t, &bought)
	if bought.Paid != 8 || bought.Vertebrae != 10 || len(bought.Packs) != 1 {
		t.Errorf("purchase after the amendment = %+v, want 8 paid, 10 left", bought)
	}

	// A revocation takes that pack and 5 Vertebrae back.
	e.step()
	var rev gildedhall.RevokeResult
	e.mustStatus(e.Post(g+"/revocations", "revoke-1", gildedhall.Revoke{Player: ada, Items: economy.Items{Vertebrae: 5, Packs: []string{bought.Packs[0].ID}}, Reason: "Judge's ruling 12"}), 200).Decode(t, &rev)
	if rev.Player != ada || rev.Revoked.Vertebrae != 5 || len(rev.Revoked.Packs) != 1 || rev.Revoked.Packs[0] != bought.Packs[0] || rev.Reason != "Judge's ruling 12" {
		t.Errorf("revocation = %+v, want 5 Vertebrae and pack %s", rev, bought.Packs[0].ID)
	}
	if p := e.player(gameID, ada); p.Inventory.Vertebrae != 5 || len(p.Inventory.Packs) != 0 {
		t.Errorf("ada after the revocation: %d Vertebrae, packs %+v; want 5, none", p.Inventory.Vertebrae, p.Inventory.Packs)
	}

	// The log tells the story, with the reasons.
	var commands []string
	for _, en := range e.logEntries(gameID) {
		commands = append(commands, en.Command)
	}
	want := []string{"create", "join", "join", "grant", "purchase", "open", "gift", "trade-offer", "trade-accept", "amend", "purchase", "revoke"}
	if !slices.Equal(commands, want) {
		t.Errorf("log commands = %v, want %v", commands, want)
	}
}

// TestEconomyRefusals: every economy refusal reachable over HTTP gets its
// documented status and stable code, says what is wrong, and changes
// nothing.
func TestEconomyRefusals(t *testing.T) {
	e := withPlayers(t)
	g := "/v1/games/" + gameID
	e.step()
	e.mustStatus(e.Post(g+"/grants", "funds", gildedhall.Grant{Player: ada, Vertebrae: 10, Reason: "test"}), 200)
	e.step()
	var gift gildedhall.GiftResult
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/gifts", Actor: ada, Idem: "gift", Body: gildedhall.Gift{To: bob}}), 200).Decode(t, &gift)
	e.step()
	var open, closed trades.Trade
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Idem: "t-open",
		Body: trades.OfferTrade{To: bob, Give: economy.Items{Vertebrae: 5}, Take: economy.Items{Cards: cardIDs(gift.Cards[:1])}}}), 201).Decode(t, &open)
	e.step()
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades", Actor: bob, Idem: "t-closed",
		Body: trades.OfferTrade{To: ada, Take: economy.Items{Vertebrae: 1}}}), 201).Decode(t, &closed)
	e.step()
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades/" + closed.ID + "/withdraw", Actor: ada, Idem: "decline", Body: map[string]any{}}), 200)

	before := len(e.logEntries(gameID))
	adaBefore, bobBefore := e.player(gameID, ada), e.player(gameID, bob)
	outsider := "discord:9999"

	cases := []struct {
		name   string
		call   apitest.Call
		status int
		code   string
		detail string // a phrase the detail must contain
		extra  map[string]any
	}{
		{"unknown item", apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Body: gildedhall.Purchase{Item: "pony"}}, 400, "unknown_item", "handy-pack", nil},
		{"unaffordable purchase says what is missing", apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Body: gildedhall.Purchase{Item: "legendary-pack"}}, 422, "insufficient_funds",
			"40 Vertebrae are missing", map[string]any{"cost": 50.0, "have": 10.0, "missing": 40.0, "currency": "vertebrae"}},
		{"unaffordable quantity", apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Body: gildedhall.Purchase{Item: "random-card", Quantity: 3}}, 422, "insufficient_funds", "5 Vertebrae are missing", nil},
		{"quantity over 100", apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Body: gildedhall.Purchase{Item: "random-card", Quantity: 101}, Bad: true}, 400, "invalid_quantity", "", nil},
		{"purchase by a non-player", apitest.Call{Method: "POST", Path: g + "/purchases", Actor: outsider, Body: gildedhall.Purchase{Item: "random-card"}}, 409, "not_a_player", "", nil},
		{"no pack to open", apitest.Call{Method: "POST", Path: g + "/packs/open", Actor: ada, Body: gildedhall.OpenPack{Pack: "handy-pack"}}, 422, "no_such_pack", "no unopened packs", nil},
		{"second gift", apitest.Call{Method: "POST", Path: g + "/gifts", Actor: ada, Body: gildedhall.Gift{To: bob}}, 409, "already_gifted", "already gifted", map[string]any{"period": "2026-W49-I"}},
		{"self gift", apitest.Call{Method: "POST", Path: g + "/gifts", Actor: bob, Body: gildedhall.Gift{To: bob}}, 422, "self_gift", "yourself", nil},
		{"gift to a non-player", apitest.Call{Method: "POST", Path: g + "/gifts", Actor: bob, Body: gildedhall.Gift{To: outsider}}, 409, "not_a_player", outsider, nil},
		{"trade with self", apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Body: trades.OfferTrade{To: ada, Give: economy.Items{Vertebrae: 1}}}, 422, "self_trade", "yourself", nil},
		{"trade with a non-player", apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Body: trades.OfferTrade{To: outsider, Give: economy.Items{Vertebrae: 1}}}, 409, "not_a_player", outsider, nil},
		{"trade of items not held", apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Body: trades.OfferTrade{To: bob, Give: economy.Items{Vertebrae: 11}}}, 422, "trade_items_missing",
			"11 Vertebrae (holds 10)", map[string]any{"player": ada}},
		{"empty trade", apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Body: trades.OfferTrade{To: bob}}, 400, "invalid_trade", "", nil},
		{"accept by the maker", apitest.Call{Method: "POST", Path: g + "/trades/" + open.ID + "/accept", Actor: ada}, 403, "not_your_trade", "your offer is your consent", nil},
		{"accept by an outsider", apitest.Call{Method: "POST", Path: g + "/trades/" + open.ID + "/accept", Actor: admin}, 403, "not_your_trade", "only Bob can accept it", nil},
		{"withdraw by an outsider", apitest.Call{Method: "POST", Path: g + "/trades/" + open.ID + "/withdraw", Actor: admin}, 403, "not_your_trade", "", nil},
		{"accept of a closed trade", apitest.Call{Method: "POST", Path: g + "/trades/" + closed.ID + "/accept", Actor: ada}, 409, "trade_closed", "withdrawn", nil},
		{"unknown trade", apitest.Call{Method: "GET", Path: g + "/trades/tnothing"}, 404, "trade_not_found", "tnothing", nil},
		{"accept of an unknown trade", apitest.Call{Method: "POST", Path: g + "/trades/tnothing/accept", Actor: bob}, 404, "trade_not_found", "", nil},
		{"overlong trade id", apitest.Call{Method: "GET", Path: g + "/trades/" + strings.Repeat("t", 65), Bad: true}, 400, "invalid_request", "", nil},
		{"trades of nobody's name", apitest.Call{Method: "GET", Path: g + "/trades?player=nobody", Bad: true}, 404, "unknown_player", "", nil},
		{"trades of an unknown status", apitest.Call{Method: "GET", Path: g + "/trades?status=pending", Bad: true}, 400, "invalid_request", "open", nil},
		{"non-admin amendment", apitest.Call{Method: "POST", Path: g + "/amendments", Actor: ada, Body: game.Amend{Patch: json.RawMessage(`{"chances":{"holoPack":10}}`), Reason: "why not"}}, 403, "forbidden", "admins", nil},
		{"invalid amendment", apitest.Call{Method: "POST", Path: g + "/amendments", Body: game.Amend{Patch: json.RawMessage(`{"chances":{"holoPack":500}}`), Reason: "typo"}}, 400, "invalid_amendment", "holoPack", nil},
		{"amendment setting the version", apitest.Call{Method: "POST", Path: g + "/amendments", Body: game.Amend{Patch: json.RawMessage(`{"version":9}`), Reason: "typo"}}, 400, "invalid_amendment", "version", nil},
		{"amendment without a reason", apitest.Call{Method: "POST", Path: g + "/amendments", Body: game.Amend{Patch: json.RawMessage(`{"chances":{"holoPack":10}}`)}, Bad: true}, 400, "reason_required", "", nil},
		{"grant without a reason", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: ada, Chips: 1}, Bad: true}, 400, "reason_required", "reason", nil},
		{"grant of an unknown card", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: ada, Cards: []gildedhall.CardGrant{{Name: "14 of Hearts"}}, Reason: "test"}}, 400, "unknown_card", "14 of Hearts", nil},
		{"grant of an unknown pack", apitest.Call{Method: "POST", Path: g + "/grants", Body: gildedhall.Grant{Player: ada, Packs: []gildedhall.PackGrant{{Pack: "mega-pack"}}, Reason: "test"}}, 400, "unknown_pack", "mega-pack", nil},
		{"revocation without a reason", apitest.Call{Method: "POST", Path: g + "/revocations", Body: gildedhall.Revoke{Player: ada, Items: economy.Items{Vertebrae: 1}}, Bad: true}, 400, "reason_required", "", nil},
		{"revocation of items not held", apitest.Call{Method: "POST", Path: g + "/revocations", Body: gildedhall.Revoke{Player: ada, Items: economy.Items{Vertebrae: 1, Cards: []string{"nope.1"}}, Reason: "test"}}, 422, "insufficient_items",
			"card nope.1", map[string]any{"missing": []any{"card nope.1"}}},
		{"revocation by a non-admin", apitest.Call{Method: "POST", Path: g + "/revocations", Actor: bob, Body: gildedhall.Revoke{Player: ada, Items: economy.Items{Vertebrae: 1}, Reason: "test"}}, 403, "forbidden", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.T = t
			r := e.Do(tc.call)
			if r.Status != tc.status {
				t.Errorf("status %d, want %d; body %s", r.Status, tc.status, r.Body)
			}
			p := r.Problem(t)
			if p.Code != tc.code || p.Status != tc.status || p.Type != "https://croupier.dev/problems/"+tc.code {
				t.Errorf("problem = %+v, want code %s", p, tc.code)
			}
			if p.Detail == "" || !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("detail %q does not say %q", p.Detail, tc.detail)
			}
			for k, want := range tc.extra {
				got, _ := json.Marshal(p.Extra[k])
				w, _ := json.Marshal(want)
				if string(got) != string(w) {
					t.Errorf("problem member %s = %s, want %s", k, got, w)
				}
			}
		})
	}
	e.T = t

	if after := len(e.logEntries(gameID)); after != before {
		t.Errorf("the log has %d entries after the refusals, want %d", after, before)
	}
	a, b := e.player(gameID, ada), e.player(gameID, bob)
	if a.Inventory.Vertebrae != adaBefore.Inventory.Vertebrae || a.DeckSize != adaBefore.DeckSize || b.DeckSize != bobBefore.DeckSize {
		t.Errorf("inventories changed: ada %+v (was %+v), bob deck %d (was %d)", a.Inventory, adaBefore.Inventory, b.DeckSize, bobBefore.DeckSize)
	}
	var tr trades.Trade
	e.mustStatus(e.Get(g+"/trades/"+open.ID), 200).Decode(t, &tr)
	if tr.Status != trades.TradeOpen {
		t.Errorf("the open trade is %s after the refusals", tr.Status)
	}
}

// TestTradeExpiredOverHTTP: an offer not accepted within the 7-day window
// reads as expired at once, cannot be accepted (409 trade_expired), and the
// scheduler closes it.
func TestTradeExpiredOverHTTP(t *testing.T) {
	e := withPlayers(t)
	g := "/v1/games/" + gameID
	e.mustStatus(e.Post(g+"/grants", "funds", gildedhall.Grant{Player: ada, Vertebrae: 3, Reason: "test"}), 200)
	var tr trades.Trade
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades", Actor: ada, Idem: "t", Body: trades.OfferTrade{To: bob, Give: economy.Items{Vertebrae: 3}}}), 201).Decode(t, &tr)

	e.clock.Set(tr.ExpiresAt) // without running the scheduler
	var got trades.Trade
	e.mustStatus(e.Get(g+"/trades/"+tr.ID), 200).Decode(t, &got)
	if got.Status != trades.TradeExpired || !got.ClosedAt.Equal(tr.ExpiresAt) {
		t.Errorf("trade at its expiry = %+v, want expired at %s", got, tr.ExpiresAt)
	}
	r := e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/trades/" + tr.ID + "/accept", Actor: bob, Idem: "late"}), http.StatusConflict)
	if p := r.Problem(t); p.Code != "trade_expired" {
		t.Errorf("late acceptance: %+v, want trade_expired", p)
	}
	var moved struct{ Ran game.DueReport }
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/dev/clock", Body: `{"advance":"1s"}`}), 200).Decode(t, &moved)
	if !slices.Contains(moved.Ran.Expired, gameID+"/"+tr.ID) {
		t.Errorf("the scheduler expired %v, want %s", moved.Ran.Expired, tr.ID)
	}
	if p := e.player(gameID, ada); p.Inventory.Vertebrae != 3 {
		t.Errorf("ada holds %d Vertebrae after the expiry, want 3", p.Inventory.Vertebrae)
	}
}

// TestC7_GameOverOverHTTP: reaching 25 Chips by any route (an admin grant,
// a purchase) wins the game; the next command is refused with 409
// game_over naming the winner, and reads still work.
func TestC7_GameOverOverHTTP(t *testing.T) {
	for _, route := range []string{"grant", "purchase"} {
		t.Run(route, func(t *testing.T) {
			e := withPlayers(t)
			g := "/v1/games/" + gameID
			var granted gildedhall.GrantResult
			chips := 25
			if route == "purchase" {
				chips = 24
			}
			e.mustStatus(e.Post(g+"/grants", "chips", gildedhall.Grant{Player: ada, Vertebrae: 30, Chips: chips, Reason: "cycle state from the wiki"}), 200).Decode(t, &granted)
			if granted.Won != (route == "grant") || granted.Chips != chips {
				t.Errorf("grant = %+v, want %d Chips, won %v", granted, chips, route == "grant")
			}
			vertebrae := 30
			if route == "purchase" {
				var bought gildedhall.PurchaseResult
				e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: g + "/purchases", Actor: ada, Idem: "chip", Body: gildedhall.Purchase{Item: "chip"}}), 200).Decode(t, &bought)
				if !bought.Won || bought.Chips != 25 || bought.Paid != 25 || bought.Vertebrae != 5 {
					t.Errorf("purchase = %+v, want the 25th Chip for 25 Vertebrae and won", bought)
				}
				vertebrae = 5
			}
			var gv game.GameView
			e.mustStatus(e.Get(g), 200).Decode(t, &gv)
			if !gv.Ended || gv.Winner != ada || gv.EndedAt == nil || !gv.EndedAt.Equal(t0) {
				t.Errorf("game = %+v, want ended at %s, won by %s", gv, t0, ada)
			}
			for _, call := range []apitest.Call{
				{Method: "POST", Path: g + "/purchases", Actor: bob, Idem: "late-buy", Body: gildedhall.Purchase{Item: "random-card"}},
				{Method: "POST", Path: g + "/purchases", Actor: ada, Idem: "late-buy", Body: gildedhall.Purchase{Item: "random-card"}},
				{Method: "POST", Path: g + "/gifts", Actor: bob, Idem: "late-gift", Body: gildedhall.Gift{To: ada}},
				{Method: "POST", Path: g + "/grants", Idem: "late-grant", Body: gildedhall.Grant{Player: bob, Chips: 1, Reason: "too late"}},
			} {
				r := e.mustStatus(e.Do(call), http.StatusConflict)
				if p := r.Problem(t); p.Code != "game_over" || !strings.Contains(p.Detail, ada) {
					t.Errorf("%s after the win: %+v, want game_over naming the winner", call.Path, p)
				}
			}
			if p := e.player(gameID, ada); p.Inventory.Chips != 25 || p.Inventory.Vertebrae != vertebrae {
				t.Errorf("ada after the refused purchase: %+v, want 25 Chips and %d Vertebrae", p.Inventory, vertebrae)
			}
			e.mustStatus(e.Get(g+"/shop"), 200)
			e.mustStatus(e.Get(g+"/ruleset"), 200)
			e.mustStatus(e.Get(g+"/trades"), 200)
			e.mustStatus(e.Get(g+"/players"), 200)
		})
	}
}

// TestRulesetDocumented: every embedded ruleset, as GET ruleset serves it,
// matches the document (the harness checks the exchange).
func TestRulesetDocumented(t *testing.T) {
	e := newEnv(t)
	for _, id := range ruleset.IDs() {
		e.mustStatus(e.Post("/v1/games", "create-"+id, game.CreateGame{ID: id, Ruleset: id}), http.StatusCreated)
		var rs ruleset.Ruleset
		e.mustStatus(e.Get("/v1/games/"+id+"/ruleset"), 200).Decode(t, &rs)
		var shop struct{ Items []gildedhall.ShopItemView }
		if !rulesets.Registry().RulesetHas(id, gildedhall.InstCards) {
			// A ruleset without a Croupier has no shop (RULINGS R3).
			if p := e.mustStatus(e.Get("/v1/games/"+id+"/shop"), http.StatusUnprocessableEntity).Problem(t); p.Code != "not_in_ruleset" || len(rs.Shop) != 0 {
				t.Errorf("%s: shop answered %+v with %d items in its data, want not_in_ruleset and none", id, p, len(rs.Shop))
			}
			continue
		}
		e.mustStatus(e.Get("/v1/games/"+id+"/shop"), 200).Decode(t, &shop)
		if rs.ID != id || rs.Version != 1 || len(shop.Items) != len(rs.Shop) {
			t.Errorf("%s: ruleset %s v%d with %d shop items, shop lists %d", id, rs.ID, rs.Version, len(rs.Shop), len(shop.Items))
		}
	}
}
