package economy

import (
	"fmt"
	"slices"
	"strings"

	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// Items is one side of a trade (seed 002 Trading: "a specified finite set of
// items"): amounts of currency and specific card copies and packs by id,
// and counts of Ritual Components. A ruleset's players hold some of these
// (Gilded Hall's the first four, the Obelisk's the components): a side
// naming what the other ruleset's players hold is missing from them.
type Items struct {
	Vertebrae int      `json:"vertebrae,omitempty"`
	Chips     int      `json:"chips,omitempty"`
	Cards     []string `json:"cards,omitempty"`
	Packs     []string `json:"packs,omitempty"`
	// Components are Ritual Components (the Obelisk, RULINGS O1).
	Components ruleset.Components `json:"components,omitzero"`
}

// MaxTradeIDs bounds the card and pack ids on one side of a trade.
const MaxTradeIDs = 200

// Empty reports whether the side gives nothing.
func (it Items) Empty() bool {
	return it.Vertebrae == 0 && it.Chips == 0 && len(it.Cards) == 0 && len(it.Packs) == 0 && it.Components.IsZero()
}

// CardsEmpty reports whether the side gives none of Gilded Hall's items
// (what an Obelisk player cannot hold).
func (it Items) CardsEmpty() bool {
	return it.Vertebrae == 0 && it.Chips == 0 && len(it.Cards) == 0 && len(it.Packs) == 0
}

// Check refuses a side that is not a finite set of items: negative amounts,
// an id named twice, too many ids. side names it in the message.
func (it Items) Check(side string) error {
	if it.Vertebrae < 0 || it.Chips < 0 || slices.ContainsFunc(ruleset.ComponentIDs(), func(id string) bool { return it.Components.Get(id) < 0 }) {
		return rules.Refuse("invalid_trade", "The %s side has a negative amount; a trade moves items, it cannot take by giving less than nothing.", side)
	}
	if len(it.Cards)+len(it.Packs) > MaxTradeIDs {
		return rules.Refuse("invalid_trade", "The %s side names %d cards and packs; at most %d are allowed.", side, len(it.Cards)+len(it.Packs), MaxTradeIDs)
	}
	seen := map[string]bool{}
	for _, id := range slices.Concat(it.Cards, it.Packs) {
		if id == "" {
			return rules.Refuse("invalid_trade", "The %s side names an empty card or pack id.", side)
		}
		if seen[id] {
			return rules.Refuse("invalid_trade", "The %s side names %s twice.", side, id)
		}
		seen[id] = true
	}
	return nil
}

// String describes the side for people ("3 Vertebrae, 1 Chip, card 9a.1").
func (it Items) String() string {
	var parts []string
	if it.Vertebrae > 0 {
		parts = append(parts, words.Count(it.Vertebrae, "Vertebra", "Vertebrae"))
	}
	if it.Chips > 0 {
		parts = append(parts, words.Count(it.Chips, "Chip", "Chips"))
	}
	for _, c := range it.Cards {
		parts = append(parts, "card "+c)
	}
	for _, p := range it.Packs {
		parts = append(parts, "pack "+p)
	}
	if !it.Components.IsZero() {
		parts = append(parts, it.Components.String())
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// Missing lists what of it inv does not hold, in words; empty if it holds
// everything.
func Missing(inv *players.Inventory, it Items) []string {
	var out []string
	if inv.Vertebrae < it.Vertebrae {
		out = append(out, fmt.Sprintf("%s (holds %d)", words.Count(it.Vertebrae, "Vertebra", "Vertebrae"), inv.Vertebrae))
	}
	if inv.Chips < it.Chips {
		out = append(out, fmt.Sprintf("%s (holds %d)", words.Count(it.Chips, "Chip", "Chips"), inv.Chips))
	}
	for _, id := range it.Cards {
		if !slices.ContainsFunc(inv.Cards, func(c players.Card) bool { return c.ID == id }) {
			out = append(out, "card "+id)
		}
	}
	for _, id := range it.Packs {
		if !slices.ContainsFunc(inv.Packs, func(p players.Pack) bool { return p.ID == id }) {
			out = append(out, "pack "+id)
		}
	}
	if !it.Components.IsZero() {
		out = append(out, it.Components.String()+" (holds no Ritual Components)")
	}
	return out
}

// Holds refuses when who lacks part of it (named by their display name, or
// their id without one). It says "does not hold": the check is made when a
// trade is offered as well as when it is accepted.
func Holds(who *players.Player, inv *players.Inventory, it Items) error {
	if m := Missing(inv, it); len(m) > 0 {
		return rules.Refuse("trade_items_missing", "%s does not hold everything the trade needs: %s is missing.", who.Label(), strings.Join(m, ", ")).
			With("player", who.ID).With("missing", m)
	}
	return nil
}

// Move transfers it from one inventory to another. The caller has checked
// Holds; Move keeps each card copy and pack whole (same id, same flags), so
// every item has exactly one owner before and after.
func Move(from, to *players.Inventory, it Items) {
	from.Vertebrae -= it.Vertebrae
	to.Vertebrae += it.Vertebrae
	from.Chips -= it.Chips
	to.Chips += it.Chips
	if len(it.Cards) > 0 {
		var keep []players.Card
		for _, c := range from.Cards {
			if slices.Contains(it.Cards, c.ID) {
				to.Cards = append(to.Cards, c)
			} else {
				keep = append(keep, c)
			}
		}
		from.Cards = keep
	}
	if len(it.Packs) > 0 {
		var keep []players.Pack
		for _, p := range from.Packs {
			if slices.Contains(it.Packs, p.ID) {
				to.Packs = append(to.Packs, p)
			} else {
				keep = append(keep, p)
			}
		}
		from.Packs = keep
	}
}

// Swap executes a trade between a (giving give) and b (giving take)
// atomically: both are checked first, then both moves are made, or nothing.
func Swap(a, b *Player, give, take Items) error {
	if err := Holds(&a.Player, &a.Inventory, give); err != nil {
		return err
	}
	if err := Holds(&b.Player, &b.Inventory, take); err != nil {
		return err
	}
	Move(&a.Inventory, &b.Inventory, give)
	Move(&b.Inventory, &a.Inventory, take)
	return nil
}

// Take removes it from inv (an operator's revocation) and returns what was
// taken, or refuses naming what is missing and takes nothing.
func Take(who string, inv *players.Inventory, it Items) (players.Inventory, error) {
	var taken players.Inventory
	if m := Missing(inv, it); len(m) > 0 {
		return taken, rules.Refuse("insufficient_items", "%s does not hold %s; nothing was revoked.", who, strings.Join(m, ", ")).
			With("missing", m)
	}
	Move(inv, &taken, it)
	return taken, nil
}
