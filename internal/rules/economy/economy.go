// Package economy holds the Gilded Hall's economy rules (seed 000 Inventory,
// Cards, Card gifting, Croupier, Victory; seed 002 Trading) as pure
// functions over inventories: buying from the Croupier (RULINGS C6), opening
// packs (C5), gifting (C4), trading, and the Chip victory (C7).
package economy

import (
	"fmt"
	"slices"
	"strings"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

// MaxQuantity bounds one purchase, to catch typos.
const MaxQuantity = 100

// Bought is what a purchase did.
type Bought struct {
	Item     string         `json:"item"`
	Name     string         `json:"name"`
	Quantity int            `json:"quantity"`
	Paid     int            `json:"paid"`
	Currency string         `json:"currency"`
	Cards    []players.Card `json:"cards,omitempty"`
	Packs    []players.Pack `json:"packs,omitempty"`
	// ChipsBought is the Chips the purchase granted (the buyer's balance is
	// reported beside it by the game layer).
	ChipsBought int `json:"chips_bought,omitempty"`
}

// Buy makes a purchase from the Croupier (RULINGS C6): quantity times the
// item at its ruleset price, all or nothing. A purchase the buyer cannot
// afford is refused with what is missing, and inv is untouched.
func Buy(inv *players.Inventory, rs *ruleset.Ruleset, itemID string, quantity int, src fair.Source, id cards.IDs) (Bought, error) {
	item, ok := rs.ShopItem(itemID)
	if !ok {
		return Bought{}, rules.Refuse("unknown_item", "The Croupier sells no %q; the items are %s.", itemID, shopList(rs)).
			With("items", shopIDs(rs))
	}
	if quantity == 0 {
		quantity = 1
	}
	if quantity < 0 || quantity > MaxQuantity {
		return Bought{}, rules.Refuse("invalid_quantity", "The quantity must be between 1 and %d; got %d.", MaxQuantity, quantity)
	}
	cost := item.Price * quantity
	have := balance(inv, item.Currency)
	if have < cost {
		what := fmt.Sprintf("%d × %s", quantity, item.Name)
		if quantity == 1 {
			what = item.Name
		}
		return Bought{}, rules.Refuse("insufficient_funds", "%s costs %d %s; you have %d, so %d %s are missing.",
			what, cost, currencyName(item.Currency), have, cost-have, currencyName(item.Currency)).
			With("cost", cost).With("have", have).With("missing", cost-have).With("currency", item.Currency)
	}
	b := Bought{Item: item.ID, Name: item.Name, Quantity: quantity, Paid: cost, Currency: item.Currency}
	pay(inv, item.Currency, cost)
	switch item.Kind {
	case ruleset.ItemRandomCard:
		b.Cards = cards.RandomN(src, rs, quantity*item.Count, rs.Chances.HoloCroupierCard, id)
		inv.Cards = append(inv.Cards, b.Cards...)
	case ruleset.ItemPack:
		for range quantity {
			b.Packs = append(b.Packs, players.Pack{ID: id(), Kind: item.Pack})
		}
		inv.Packs = append(inv.Packs, b.Packs...)
	case ruleset.ItemChips:
		b.ChipsBought = quantity * item.Count
		inv.Chips += b.ChipsBought
	}
	return b, nil
}

func balance(inv *players.Inventory, currency string) int {
	if currency == ruleset.CurrencyChips {
		return inv.Chips
	}
	return inv.Vertebrae
}

func pay(inv *players.Inventory, currency string, n int) {
	if currency == ruleset.CurrencyChips {
		inv.Chips -= n
	} else {
		inv.Vertebrae -= n
	}
}

func currencyName(c string) string {
	if c == ruleset.CurrencyChips {
		return "Chips"
	}
	return "Vertebrae"
}

func shopIDs(rs *ruleset.Ruleset) []string {
	out := make([]string, len(rs.Shop))
	for i, it := range rs.Shop {
		out[i] = it.ID
	}
	return out
}

func shopList(rs *ruleset.Ruleset) string {
	if len(rs.Shop) == 0 {
		return "none (this ruleset has no Croupier)"
	}
	return strings.Join(shopIDs(rs), ", ")
}

// Opened is what opening a pack did.
type Opened struct {
	Pack  players.Pack   `json:"pack"`
	Name  string         `json:"name"`
	Cards []players.Card `json:"cards"`
}

// Open opens one pack (RULINGS C5): ref is a pack's id, or a pack kind
// ("handy-pack") or name ("Handy Pack", in any case) meaning the oldest
// pack of that kind. The pack leaves the inventory and its cards join the
// deck.
func Open(inv *players.Inventory, rs *ruleset.Ruleset, ref string, src fair.Source, id cards.IDs) (Opened, error) {
	i := slices.IndexFunc(inv.Packs, func(p players.Pack) bool { return p.ID == ref })
	if i < 0 {
		i = slices.IndexFunc(inv.Packs, func(p players.Pack) bool {
			k, _ := rs.Pack(p.Kind)
			return strings.EqualFold(p.Kind, ref) || k.Name != "" && strings.EqualFold(k.Name, ref)
		})
	}
	if i < 0 {
		if len(inv.Packs) == 0 {
			return Opened{}, rules.Refuse("no_such_pack", "You have no unopened packs; the Croupier sells them.")
		}
		return Opened{}, rules.Refuse("no_such_pack", "You have no pack %q; your packs are %s.", ref, packList(inv.Packs))
	}
	p := inv.Packs[i]
	kind, ok := rs.Pack(p.Kind)
	if !ok {
		return Opened{}, rules.Refuse("unknown_pack", "Pack %s is of kind %q, which this game's ruleset no longer has.", p.ID, p.Kind)
	}
	o := Opened{Pack: p, Name: kind.Name, Cards: cards.Open(src, rs, kind, id)}
	inv.Packs = slices.Delete(slices.Clone(inv.Packs), i, i+1)
	inv.Cards = append(inv.Cards, o.Cards...)
	return o, nil
}

func packList(ps []players.Pack) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.ID + " (" + p.Kind + ")"
	}
	return strings.Join(s, ", ")
}

// GiftSize is how many random cards a gift grants (RULINGS C4): the base, the
// inactive bonus, and the small-deck bonus when the receiver holds fewer
// than SmallDeckBelow cards before the gift.
func GiftSize(g ruleset.Gift, receiverDeck int, inactive bool) int {
	n := g.Base
	if inactive {
		n += g.InactiveBonus
	}
	if receiverDeck < g.SmallDeckBelow {
		n += g.SmallDeckBonus
	}
	return n
}

// CheckGift refuses a gift the rules do not allow (RULINGS C4): a giver who
// already gifted in this period, a gift to oneself, to a non-player. name
// gives a player's display name by id, for the refusal that names the
// earlier gift's receiver (nil or "": the id).
func CheckGift(giver, receiver *Player, period string, name func(id string) string) error {
	if giver == nil || !giver.Member {
		return players.NotAPlayer()
	}
	if receiver != nil && receiver.ID == giver.ID {
		return rules.Refuse("self_gift", "You cannot gift a card to yourself; choose another player.")
	}
	if receiver == nil || !receiver.Member {
		id := "That person"
		if receiver != nil {
			id = receiver.ID
		}
		return rules.Refuse("not_a_player", "%s is not a player in this game; gifts go to players.", id)
	}
	if giver.GiftPeriod == period {
		to := giver.GiftedTo
		if name != nil && name(to) != "" {
			to = name(to)
		}
		return rules.Refuse("already_gifted", "You already gifted a card this phase (to %s); the allowance resets when the phase ends.", to).
			With("period", period)
	}
	return nil
}

// Won reports whether p's Chips win the cycle (RULINGS C7).
func Won(rs *ruleset.Ruleset, p *Player) bool {
	return p != nil && p.Member && rs.Thresholds.WinChips > 0 && p.Inventory.Chips >= rs.Thresholds.WinChips
}
