package chat

import (
	"context"
	"fmt"
	"strings"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/players"
	"croupier/internal/rulesets/gildedhall"
)

// CompletePackKinds: the pack kinds of the game's ruleset.
const CompletePackKinds Completion = "pack-kinds"

// The autocomplete providers. Suggestions are filtered by what the user
// typed (case-insensitive, anywhere in the label or value).
var economyCompletions = map[Completion]CompletionFunc{
	CompleteCards: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		rs, err := s.Ruleset(ctx, inv.Game)
		if err != nil {
			return nil, err
		}
		cs := make([]Choice, len(rs.Cards))
		for i, c := range rs.Cards {
			cs[i] = Choice{Label: c.Name, Value: c.Name}
		}
		return filterChoices(cs, partial), nil
	},
	CompletePackKinds: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		rs, err := s.Ruleset(ctx, inv.Game)
		if err != nil {
			return nil, err
		}
		cs := make([]Choice, len(rs.Packs))
		for i, p := range rs.Packs {
			cs[i] = Choice{Label: p.Name, Value: p.ID}
		}
		return filterChoices(cs, partial), nil
	},
	CompleteShop: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		items, err := gildedhall.On(s).Shop(ctx, inv.Game)
		if err != nil {
			return nil, err
		}
		cs := make([]Choice, len(items))
		for i, it := range items {
			cs[i] = Choice{Label: fmt.Sprintf("%s: %d %s", it.Name, it.Price, currency(it.Currency)), Value: it.ID}
		}
		return filterChoices(cs, partial), nil
	},
	CompleteMyCards:    holdings(false, false),
	CompleteMyPacks:    holdings(false, true),
	CompleteTheirCards: holdings(true, false),
	CompleteTheirPacks: holdings(true, true),
	CompleteMyTrades: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		ts, err := trades.On(s).Trades(ctx, inv.Game, trades.TradeFilter{Player: inv.User, Status: trades.TradeOpen})
		if err != nil {
			return nil, err
		}
		cs := make([]Choice, len(ts))
		name := playerNames(ctx, s, inv.Game, nil)
		for i, t := range ts {
			cs[i] = Choice{Label: clip(fmt.Sprintf("%s: %s → %s", t.ID, name(t.From), name(t.To)), 100), Value: t.ID}
		}
		return filterChoices(cs, partial), nil
	},
}

// holdings suggests card copies (or packs) of the caller, or of the player
// in option "player" (their = true). The options take comma-separated ids,
// so the suggestion completes the last one and keeps those before it.
func holdings(their, packs bool) CompletionFunc {
	return func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		id := inv.User
		if their {
			if id = inv.Opt("player"); id == "" {
				return nil, nil
			}
		}
		p, err := s.Player(ctx, inv.Game, id)
		if err != nil {
			return nil, err
		}
		head, last := "", partial
		if i := strings.LastIndexAny(partial, ", "); i >= 0 {
			head, last = strings.TrimRight(partial[:i+1], " ")+" ", partial[i+1:]
			head = strings.TrimLeft(head, " ")
		}
		taken := map[string]bool{}
		for _, t := range strings.FieldsFunc(head, func(r rune) bool { return r == ',' || r == ' ' }) {
			taken[t] = true
		}
		var cs []Choice
		add := func(label, value string) {
			if taken[value] {
				return
			}
			v := head + value
			if len(v) > 100 {
				return // Discord's limit for a choice value
			}
			cs = append(cs, Choice{Label: clip(label+" · "+value, 100), Value: v})
		}
		if packs {
			for _, pk := range gildedhall.ViewOf(p).Inventory.Packs {
				add(pk.Kind, pk.ID)
			}
		} else {
			for _, c := range gildedhall.ViewOf(p).Inventory.Cards {
				add(cardLabel(players.Card{Name: c.Name, Holo: c.Holo}), c.ID)
			}
		}
		return filterChoices(cs, last), nil
	}
}
