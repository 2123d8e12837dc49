package gildedhall

import (
	"context"
	"strconv"
	"strings"

	engine "croupier/internal/game"
)

// The sources of suggested values of this module's arguments
// (engine.Arg.Suggest): what an edge offers as a person types (chat's
// autocompletion). The module owns the data, so it lists it. Written
// without fmt, as says.go is: chat's Lambdas link them.

// Suggestions of the economy.
var (
	// SuggestShop: the Croupier's items (id, with name and price).
	SuggestShop = engine.Suggest{Name: "shop", List: listShop}
	// SuggestCardNames: the card names of the game's card table.
	SuggestCardNames = engine.Suggest{Name: "cards", List: listCardNames}
	// SuggestPackKinds: the pack kinds of the game's ruleset.
	SuggestPackKinds = engine.Suggest{Name: "pack-kinds", List: listPackKinds}
	// SuggestMyCards and SuggestMyPacks: the caller's card copies and
	// unopened packs, by id.
	SuggestMyCards = engine.Suggest{Name: "my-cards", List: listHoldings(false, false)}
	SuggestMyPacks = engine.Suggest{Name: "my-packs", List: listHoldings(false, true)}
	// SuggestTheirCards and SuggestTheirPacks: those of the player in
	// argument "player" (the taking side of a trade, a revocation).
	SuggestTheirCards = engine.Suggest{Name: "their-cards", List: listHoldings(true, false)}
	SuggestTheirPacks = engine.Suggest{Name: "their-packs", List: listHoldings(true, true)}
)

// maxChoiceValue is the longest suggested value (Discord's limit for a
// choice's value and label).
const maxChoiceValue = 100

func listShop(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	items, err := On(s).Shop(ctx, q.Game)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Choice, len(items))
	for i, it := range items {
		out[i] = engine.Choice{Label: it.Name + ": " + strconv.Itoa(it.Price) + " " + CurrencyName(it.Currency), Value: it.ID}
	}
	return out, nil
}

// CurrencyName is a shop currency as people read it: Chips or Vertebrae.
func CurrencyName(c string) string {
	if c == "chips" {
		return "Chips"
	}
	return "Vertebrae"
}

func listCardNames(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	rs, err := s.Ruleset(ctx, q.Game)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Choice, len(rs.Cards))
	for i, c := range rs.Cards {
		out[i] = engine.Choice{Label: c.Name, Value: c.Name}
	}
	return out, nil
}

func listPackKinds(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	rs, err := s.Ruleset(ctx, q.Game)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Choice, len(rs.Packs))
	for i, p := range rs.Packs {
		out[i] = engine.Choice{Label: p.Name, Value: p.ID}
	}
	return out, nil
}

// listHoldings suggests card copies (or packs) of the caller, or of the
// player in argument "player" (their). The arguments take comma-separated
// ids, so a suggestion completes the last one and keeps those before it.
func listHoldings(their, packs bool) func(context.Context, *engine.Service, engine.SuggestQuery) ([]engine.Choice, error) {
	return func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
		id := q.Actor
		if their {
			if id = q.Args["player"]; id == "" {
				return nil, nil
			}
		}
		p, err := s.Player(ctx, q.Game, id)
		if err != nil {
			return nil, err
		}
		head, last := "", q.Partial
		if i := strings.LastIndex(q.Partial, ","); i >= 0 {
			head, last = strings.TrimSpace(q.Partial[:i+1])+" ", q.Partial[i+1:]
		}
		taken := map[string]bool{}
		for _, t := range strings.FieldsFunc(head, func(r rune) bool { return r == ',' || r == ' ' }) {
			taken[t] = true
		}
		var out []engine.Choice
		add := func(label, value string) {
			if v := head + value; !taken[value] && len(v) <= maxChoiceValue && matches(label+" "+value, last) {
				// The label starts as the value does, with the ids before
				// it: the edge keeps what contains the text typed.
				out = append(out, engine.Choice{Label: clip(head+label+" · "+value, maxChoiceValue), Value: v})
			}
		}
		inv := ViewOf(p).Inventory
		if packs {
			for _, pk := range inv.Packs {
				add(pk.Kind, pk.ID)
			}
		} else {
			for _, c := range inv.Cards {
				label := c.Name
				if c.Holo {
					label += " ✨"
				}
				add(label, c.ID)
			}
		}
		return out, nil
	}
}

// matches reports whether text contains typed, in any case: the last id
// of a list narrows the suggestions for it.
func matches(text, typed string) bool {
	return strings.Contains(strings.ToLower(text), strings.ToLower(strings.TrimSpace(typed)))
}

// clip cuts s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n -= len("…"); n > 0 && !utf8Start(s[n]); n-- {
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Suggestions of trades and Exoptosis.
var (
	// SuggestMyMatches: the running matches (and duels waiting for
	// answers) the caller is in.
	SuggestMyMatches = engine.Suggest{Name: "my-matches", List: listMyMatches}
	// SuggestMatchCards: the cards the caller's legal moves name in the
	// match of argument "match" (or their only running match).
	SuggestMatchCards = engine.Suggest{Name: "match-cards", List: listMatchCards}
)

func listMyMatches(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	// The player's live-match index: cost independent of past matches.
	ms, err := On(s).LiveMatches(ctx, q.Game, q.Actor)
	if err != nil {
		return nil, err
	}
	name := s.Names(ctx, q.Game) // people read names (a few players a match)
	var out []engine.Choice
	for _, m := range ms {
		if m.Status != MatchPlaying && m.Status != MatchRequested {
			continue
		}
		who := make([]string, len(m.Players))
		for i, id := range m.Players {
			who[i] = engine.Or(name(id), id)
		}
		out = append(out, engine.Choice{Label: clip(m.Kind+" "+m.ID+" ("+m.Status+"): "+strings.Join(who, ", "), maxChoiceValue), Value: m.ID})
	}
	return out, nil
}

// listMatchCards suggests the cards the caller's legal moves name. A
// comma-separated argument (a selection) completes its last card and keeps
// the ones before it.
func listMatchCards(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	id := q.Args["match"]
	if id == "" {
		live, err := On(s).LiveMatches(ctx, q.Game, q.Actor)
		if err != nil {
			return nil, err
		}
		for _, m := range live {
			if m.Status == MatchPlaying {
				if id != "" {
					return nil, nil // several: the command itself asks which
				}
				id = m.ID
			}
		}
		if id == "" {
			return nil, nil
		}
	}
	v, err := On(s).Match(ctx, q.Game, id, q.Actor)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, m := range v.LegalMoves {
		names = append(names, m.Cards...)
		if m.Card != "" {
			names = append(names, m.Card)
		}
	}
	head, last := "", q.Partial
	if i := strings.LastIndex(q.Partial, ","); i >= 0 {
		head, last = strings.TrimSpace(q.Partial[:i+1])+" ", q.Partial[i+1:]
	}
	taken := map[string]bool{}
	for _, t := range strings.Split(head, ",") {
		taken[strings.TrimSpace(t)] = true
	}
	var out []engine.Choice
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] || taken[n] || len(head+n) > maxChoiceValue || !matches(n, last) {
			continue
		}
		seen[n] = true
		out = append(out, engine.Choice{Label: head + n, Value: head + n})
	}
	return out, nil
}
