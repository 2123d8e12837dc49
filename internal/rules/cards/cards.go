// Package cards holds the card rules shared by the economy and Exoptosis:
// individual card copies (RULINGS C2), how a random card is drawn and when it
// is holographic (C1), and what a card's printed values are (C3). The card
// table itself is ruleset data.
package cards

import (
	"fmt"

	"croupier/internal/fair"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

// Draw purposes, fixed strings so a logged draw says what it decided.
const (
	PurposeCard = "card" // which card of the table
	PurposeHolo = "holo" // whether it is holographic (a percentage draw)
)

// IDs makes the ids of new card copies and packs. The engine derives them
// from the command id, so a retried command makes the same ids.
type IDs func() string

// Sequence returns IDs prefix.1, prefix.2, ...
func Sequence(prefix string) IDs {
	n := 0
	return func() string {
		n++
		return fmt.Sprintf("%s.%d", prefix, n)
	}
}

// Random draws one random card (RULINGS C1): uniform over the ruleset's card
// table, holographic with holoPercent percent. It always makes exactly two
// draws (card, then holo), so the draw sequence does not depend on chances.
func Random(src fair.Source, rs *ruleset.Ruleset, holoPercent int, id IDs) players.Card {
	c := rs.Cards[src.Intn(PurposeCard, len(rs.Cards))]
	return players.Card{ID: id(), Name: c.Name, Holo: fair.Chance(src, PurposeHolo, holoPercent)}
}

// RandomHolo draws a random card that is always holographic (the Legendary
// Pack's extra cards): one draw, no chance roll.
func RandomHolo(src fair.Source, rs *ruleset.Ruleset, id IDs) players.Card {
	c := rs.Cards[src.Intn(PurposeCard, len(rs.Cards))]
	return players.Card{ID: id(), Name: c.Name, Holo: true}
}

// RandomN draws n random cards with holoPercent each.
func RandomN(src fair.Source, rs *ruleset.Ruleset, n, holoPercent int, id IDs) []players.Card {
	out := make([]players.Card, 0, n)
	for range n {
		out = append(out, Random(src, rs, holoPercent, id))
	}
	return out
}

// Open draws the contents of one pack (RULINGS C1, C5): its Cards random
// cards with the pack chance, then its HoloCards always-holographic cards.
func Open(src fair.Source, rs *ruleset.Ruleset, p ruleset.Pack, id IDs) []players.Card {
	out := RandomN(src, rs, p.Cards, rs.Chances.HoloPack, id)
	for range p.HoloCards {
		out = append(out, RandomHolo(src, rs, id))
	}
	return out
}

// Entry is one line of a deck grouped by card (players.DeckEntry: a
// player's view holds it).
type Entry = players.DeckEntry

// Group groups a deck by card name in the order of the ruleset's card table
// (names the table does not know come last, in deck order).
func Group(rs *ruleset.Ruleset, deck []players.Card) []Entry {
	byName := map[string]*Entry{}
	var unknown []string
	for _, c := range deck {
		e, ok := byName[c.Name]
		if !ok {
			e = &Entry{Card: c.Name}
			if info, known := rs.Card(c.Name); known {
				e.Value, e.Colour = info.Value, info.Colour
			} else {
				unknown = append(unknown, c.Name)
			}
			byName[c.Name] = e
		}
		e.Count++
		if c.Holo {
			e.Holo++
		}
		e.Copies = append(e.Copies, c)
	}
	out := make([]Entry, 0, len(byName))
	for _, c := range rs.Cards {
		if e, ok := byName[c.Name]; ok {
			out = append(out, *e)
		}
	}
	for _, n := range unknown {
		out = append(out, *byName[n])
	}
	return out
}
