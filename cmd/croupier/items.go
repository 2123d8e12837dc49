package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// The item syntax of trade --give/--take and revoke: people type what they
// see in `play status` ("2 7 of Hearts, handy-pack, 3 vertebrae"), not the
// copy ids the API moves, so the CLI resolves names to ids against the
// holder's inventory. The server re-checks everything when the command runs.

const itemsHelp = `ITEMS is a comma-separated list; each item is one of
  N vertebrae              currency (also: vertebra, vert, v)    3 vertebrae
  N chips                  currency (also: chip)                  1 chip
  [card] ID                one card copy by its id               card e08f49f383.1
  [N] [holo] [card] NAME   N copies of a card, by name, from the holder's deck;
                           plain copies unless "holo" is said    2 7 of Hearts, holo Red Joker
  [pack] ID                one pack by its id                    pack e08f49f383.2
  [N] [pack] KIND          N packs of a kind (id or name)        handy-pack, 2 Deck Pack
  N COMPONENT              Ritual Components (obelisk games), by id, 4 herbs, 1 💎
                           emoji or name; never ⚡ Resolve
Case does not matter; "x" may follow a count (2 x 7 of Hearts); "and" and ";"
separate like commas. "card" and "pack" are only needed to be explicit.
Ids and names are shown by: croupier play status PLAYER --ids
`

// itemTerm is one parsed item, not yet resolved against an inventory.
type itemTerm struct {
	text     string // as typed, for messages
	n        int    // 0: not given
	currency string // "vertebrae" or "chips"; else a card or pack
	holo     bool
	kind     string // "card", "pack" or "" (either)
	ref      string // id, card name, pack kind or pack name
	// component is a Ritual Component's id (an obelisk game's items).
	component string
}

var (
	currencyWords = map[string]string{
		"vertebrae": ruleset.CurrencyVertebrae, "vertebra": ruleset.CurrencyVertebrae, "vert": ruleset.CurrencyVertebrae,
		"v": ruleset.CurrencyVertebrae, "chips": ruleset.CurrencyChips, "chip": ruleset.CurrencyChips,
	}
	kindWords = map[string]string{"card": "card", "cards": "card", "pack": "pack", "packs": "pack"}
	holoWords = map[string]bool{"holo": true, "holographic": true}
)

// splitItems splits a list on commas, semicolons and the word "and".
func splitItems(s string) []string {
	s = strings.NewReplacer(";", ",", "+", ",").Replace(s)
	var out []string
	for _, part := range strings.Split(s, ",") {
		var cur []string
		for _, w := range strings.Fields(part) {
			if strings.EqualFold(w, "and") {
				if len(cur) > 0 {
					out = append(out, strings.Join(cur, " "))
				}
				cur = nil
				continue
			}
			cur = append(cur, w)
		}
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
		}
	}
	return out
}

// parseItems parses an ITEMS list; flag names the flag in messages.
// defaultKind ("card", "pack" or "") applies where no kind word is given.
func parseItems(flag, s, defaultKind string) ([]itemTerm, error) {
	parts := splitItems(s)
	if len(parts) == 0 {
		return nil, usagef("%s is empty; list items such as \"3 vertebrae, card e08f49f383.1\"", flag)
	}
	terms := make([]itemTerm, 0, len(parts))
	for _, part := range parts {
		t, err := parseTerm(part, defaultKind)
		if err != nil {
			return nil, usagef("%s: %q: %v", flag, part, err)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

func parseTerm(part, defaultKind string) (itemTerm, error) {
	t := itemTerm{text: part, kind: defaultKind}
	w := strings.Fields(part)
	// A leading number is a count, unless it begins a card name ("7 of
	// Hearts"): then the count, if any, comes before it ("2 7 of Hearts").
	if n, err := strconv.Atoi(w[0]); err == nil && !(len(w) > 1 && strings.EqualFold(w[1], "of")) {
		if n <= 0 {
			return t, fmt.Errorf("a count must be positive, not %d", n)
		}
		t.n, w = n, w[1:]
		if len(w) > 0 && (strings.EqualFold(w[0], "x") || w[0] == "×") {
			w = w[1:]
		}
	}
	if c, ok := ruleset.Component(strings.Join(w, " ")); ok && len(w) > 0 {
		if t.n == 0 {
			return t, fmt.Errorf("say how many, e.g. 2 %s", c.ID)
		}
		t.component = c.ID
		return t, nil
	}
	if len(w) == 1 {
		if c, ok := currencyWords[strings.ToLower(w[0])]; ok {
			if t.n == 0 {
				return t, fmt.Errorf("say how many, e.g. 3 %s", w[0])
			}
			t.currency = c
			return t, nil
		}
	}
	if len(w) > 0 && holoWords[strings.ToLower(w[0])] {
		t.holo, w = true, w[1:]
	}
	if len(w) > 0 {
		if k, ok := kindWords[strings.ToLower(w[0])]; ok {
			t.kind, w = k, w[1:]
		}
	}
	if len(w) == 0 {
		return t, fmt.Errorf("which one? name a card, a pack or an amount of vertebrae or chips")
	}
	if t.holo && t.kind == "pack" {
		return t, fmt.Errorf("packs are not holographic; only cards are")
	}
	t.ref = strings.Join(w, " ")
	return t, nil
}

// holderInventory is what resolution needs to know of the holder.
type holderInventory struct {
	id    string
	view  gildedhall.PlayerView
	taken map[string]bool // ids already picked by an earlier term
}

// needsInventory reports whether any term must be resolved against the
// holder's inventory (everything but currency).
func needsInventory(terms []itemTerm) bool {
	return slices.ContainsFunc(terms, func(t itemTerm) bool { return t.currency == "" && t.component == "" })
}

// resolveItems turns terms into the ids the API moves, picking copies from
// the holder's inventory. An item the holder lacks is an error that says
// what they do hold.
func resolveItems(terms []itemTerm, h *holderInventory) (economy.Items, error) {
	var it economy.Items
	if h.taken == nil {
		h.taken = map[string]bool{}
	}
	for _, t := range terms {
		if t.component != "" {
			it.Components.Add(t.component, t.n)
			continue
		}
		switch t.currency {
		case ruleset.CurrencyVertebrae:
			it.Vertebrae += t.n
			continue
		case ruleset.CurrencyChips:
			it.Chips += t.n
			continue
		}
		cards, packs, err := h.pick(t)
		if err != nil {
			return it, err
		}
		it.Cards = append(it.Cards, cards...)
		it.Packs = append(it.Packs, packs...)
	}
	return it, nil
}

func (h *holderInventory) pick(t itemTerm) (cards, packs []string, err error) {
	inv := h.view.Inventory
	take := func(id string) error {
		if h.taken[id] {
			return fmt.Errorf("%q names %s, which is already on this side of the trade", t.text, id)
		}
		h.taken[id] = true
		return nil
	}
	// An exact id.
	for _, c := range inv.Cards {
		if c.ID == t.ref && t.kind != "pack" {
			if t.n > 1 {
				return nil, nil, fmt.Errorf("%q: an id names one copy; drop the count %d", t.text, t.n)
			}
			return []string{c.ID}, nil, take(c.ID)
		}
	}
	for _, p := range inv.Packs {
		if p.ID == t.ref && t.kind != "card" {
			if t.n > 1 {
				return nil, nil, fmt.Errorf("%q: an id names one pack; drop the count %d", t.text, t.n)
			}
			return nil, []string{p.ID}, take(p.ID)
		}
	}
	n := max(t.n, 1)
	// A card by name: plain copies unless holo was said, never both, so a
	// holographic copy is never traded away by accident.
	if t.kind != "pack" {
		for _, e := range h.view.Deck {
			if !strings.EqualFold(e.Card, t.ref) {
				continue
			}
			for _, c := range e.Copies {
				if c.Holo == t.holo && !h.taken[c.ID] && len(cards) < n {
					cards = append(cards, c.ID)
					h.taken[c.ID] = true
				}
			}
			if len(cards) < n {
				what := "plain"
				if t.holo {
					what = "holographic"
				}
				return nil, nil, fmt.Errorf("%s holds %d %s cop%s of %s (%d holographic) not already named; %q needs %d",
					h.id, len(cards), what, pluralY(len(cards)), e.Card, e.Holo, t.text, n)
			}
			return cards, nil, nil
		}
	}
	if t.kind != "card" && !t.holo {
		for _, pe := range h.view.Packs {
			if !strings.EqualFold(pe.Pack, t.ref) && !strings.EqualFold(pe.Name, t.ref) {
				continue
			}
			for _, id := range pe.IDs {
				if !h.taken[id] && len(packs) < n {
					packs = append(packs, id)
					h.taken[id] = true
				}
			}
			if len(packs) < n {
				return nil, nil, fmt.Errorf("%s holds %s not already named; %q needs %d", h.id, plural(len(packs), pe.Name, pe.Name+"s"), t.text, n)
			}
			return nil, packs, nil
		}
	}
	what := "card or pack"
	if t.kind != "" {
		what = t.kind
	}
	return nil, nil, fmt.Errorf("%s holds no %s %q (see: croupier play status %s --ids)", h.id, what, t.ref, h.id)
}

func pluralY(n int) string {
	if n == 1 {
		return "y"
	}
	return "ies"
}

// canonicalCard returns the card table's spelling of name (any case).
func canonicalCard(rs *ruleset.Ruleset, name string) (string, bool) {
	for _, c := range rs.Cards {
		if strings.EqualFold(c.Name, name) {
			return c.Name, true
		}
	}
	return "", false
}

// canonicalPack returns the pack kind id named by its id or name (any case).
func canonicalPack(rs *ruleset.Ruleset, ref string) (string, bool) {
	for _, p := range rs.Packs {
		if strings.EqualFold(p.ID, ref) || strings.EqualFold(p.Name, ref) {
			return p.ID, true
		}
	}
	return "", false
}
