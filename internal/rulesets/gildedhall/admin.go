package gildedhall

import (
	"context"
	engine "croupier/internal/game"

	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// Grant is the payload of an admin grant: items to add to a player (negative
// currency amounts take it away). It is how a moderator moves a game's state
// from the wiki into Croupier and corrects it "to its intended state" after
// a ruling or an urgent proposal; every grant is in the log with the admin
// who made it and why.
type Grant struct {
	Player    string `json:"player"`
	Vertebrae int    `json:"vertebrae,omitempty"`
	Chips     int    `json:"chips,omitempty"`
	// Cards are specific cards by name; RandomCards are drawn like a gift's
	// (RULINGS C1: holographic with the granted chance).
	Cards       []CardGrant `json:"cards,omitempty"`
	RandomCards int         `json:"random_cards,omitempty"`
	Packs       []PackGrant `json:"packs,omitempty"`
	Reason      string      `json:"reason"`
}

// CardGrant is Count copies of one card.
type CardGrant struct {
	Name  string `json:"name"`
	Holo  bool   `json:"holo,omitempty"`
	Count int    `json:"count,omitempty"` // default 1
}

// PackGrant is Count unopened packs of one kind.
type PackGrant struct {
	Pack  string `json:"pack"`
	Count int    `json:"count,omitempty"` // default 1
}

// GrantResult is the response of a grant.
type GrantResult struct {
	Player    string         `json:"player"`
	Vertebrae int            `json:"vertebrae"`
	Chips     int            `json:"chips"`
	Cards     []players.Card `json:"cards,omitempty"`
	Packs     []players.Pack `json:"packs,omitempty"`
	Reason    string         `json:"reason"`
	Won       bool           `json:"won,omitempty"`
}

// MaxGrant bounds one grant's currency amounts, MaxGrantItems its cards and
// packs, to catch typos.
const (
	MaxGrant      = 1_000_000
	MaxGrantItems = 100
)

func (g *Grant) check() error {
	if !engine.ValidIdentity(g.Player) {
		return rules.Refuse("invalid_request", "player %q is not a platform identity such as discord:1234.", g.Player)
	}
	if abs(g.Vertebrae) > MaxGrant || abs(g.Chips) > MaxGrant {
		return rules.Refuse("invalid_request", "A grant moves at most %d of each currency.", MaxGrant)
	}
	items := g.RandomCards
	if g.RandomCards < 0 {
		return rules.Refuse("invalid_request", "random_cards cannot be negative; revoke specific cards instead.")
	}
	for i := range g.Cards {
		if g.Cards[i].Count == 0 {
			g.Cards[i].Count = 1
		}
		if g.Cards[i].Count < 0 {
			return rules.Refuse("invalid_request", "A card count cannot be negative; revoke specific cards instead.")
		}
		items += g.Cards[i].Count
	}
	for i := range g.Packs {
		if g.Packs[i].Count == 0 {
			g.Packs[i].Count = 1
		}
		if g.Packs[i].Count < 0 {
			return rules.Refuse("invalid_request", "A pack count cannot be negative; revoke specific packs instead.")
		}
		items += g.Packs[i].Count
	}
	if items > MaxGrantItems {
		return rules.Refuse("invalid_request", "A grant adds at most %d cards and packs; this one adds %d.", MaxGrantItems, items)
	}
	if g.Vertebrae == 0 && g.Chips == 0 && items == 0 {
		return rules.Refuse("invalid_request", "A grant needs something to grant: vertebrae, chips, cards, random_cards or packs.")
	}
	return engine.NeedReason(g.Reason)
}

// Grant adds items to a player (admins only). Chips that reach the winning
// count win the game, by this route as by any other (RULINGS C7).
func (s *Service) Grant(ctx context.Context, req engine.Request, g Grant) (*engine.Result, error) {
	player, err := s.ResolvePlayer(ctx, req, g.Player)
	if err != nil {
		return nil, err
	}
	g.Player = player
	if err := g.check(); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: "grant", Body: g, Random: g.RandomCards > 0,
		Keys: func(game string) []store.Key { return []store.Key{engine.PlayerKey(game, g.Player)} },
		Apply: func(t *tx) (any, error) {
			if err := t.Admin("grant items"); err != nil {
				return nil, err
			}
			p, err := t.target(g.Player)
			if err != nil {
				return nil, err
			}
			inv := &p.Inventory
			if inv.Vertebrae+g.Vertebrae < 0 || inv.Chips+g.Chips < 0 {
				return nil, rules.Refuse("insufficient_funds", "%s holds %d Vertebrae and %d Chips; a balance never goes negative.",
					p.ID, inv.Vertebrae, inv.Chips)
			}
			res := GrantResult{Player: p.ID, Reason: g.Reason}
			for _, c := range g.Cards {
				info, ok := t.Rules.Card(c.Name)
				if !ok {
					return nil, rules.Refuse("unknown_card", "There is no card %q in this game's card table (e.g. \"7 of Hearts\", \"Red Joker\").", c.Name)
				}
				for range c.Count {
					res.Cards = append(res.Cards, players.Card{ID: t.newID(), Name: info.Name, Holo: c.Holo})
				}
			}
			if g.RandomCards > 0 {
				res.Cards = append(res.Cards, cards.RandomN(t.Drawer, t.Rules, g.RandomCards, t.Rules.Chances.HoloGranted, t.newID)...)
			}
			for _, pg := range g.Packs {
				if _, ok := t.Rules.Pack(pg.Pack); !ok {
					return nil, rules.Refuse("unknown_pack", "There is no pack kind %q in this game's ruleset.", pg.Pack)
				}
				for range pg.Count {
					res.Packs = append(res.Packs, players.Pack{ID: t.newID(), Kind: pg.Pack})
				}
			}
			inv.Vertebrae += g.Vertebrae
			inv.Chips += g.Chips
			inv.Cards = append(inv.Cards, res.Cards...)
			inv.Packs = append(inv.Packs, res.Packs...)
			res.Vertebrae, res.Chips = inv.Vertebrae, inv.Chips
			t.Save(p)
			t.Emit("granted", p.ID, grantedEvent{Grant: g, NewCards: res.Cards, NewPacks: res.Packs})
			if err := t.Flush(); err != nil {
				return nil, err
			}
			res.Won = t.Meta.Ended && t.Meta.Winner == p.ID
			return res, nil
		},
	})
}

// grantedEvent is the log's record of a grant: the request as made and the
// card copies and packs it created.
type grantedEvent struct {
	Grant
	NewCards []players.Card `json:"new_cards,omitempty"`
	NewPacks []players.Pack `json:"new_packs,omitempty"`
}

// Revoke is the payload of an admin revocation: specific items to take from
// a player, and why.
type Revoke struct {
	Player string `json:"player"`
	economy.Items
	Reason string `json:"reason"`
}

// RevokeResult is the response of a revocation.
type RevokeResult struct {
	Player  string            `json:"player"`
	Revoked players.Inventory `json:"revoked"`
	Reason  string            `json:"reason"`
}

// Revoke takes items from a player (admins only): all of them or, if the
// player lacks any, none.
func (s *Service) Revoke(ctx context.Context, req engine.Request, r Revoke) (*engine.Result, error) {
	player, err := s.ResolvePlayer(ctx, req, r.Player)
	if err != nil {
		return nil, err
	}
	r.Player = player
	if !engine.ValidIdentity(r.Player) {
		return nil, rules.Refuse("invalid_request", "player %q is not a platform identity such as discord:1234.", r.Player)
	}
	if err := r.Items.Check("revoked"); err != nil {
		return nil, err
	}
	if r.Items.Empty() {
		return nil, rules.Refuse("invalid_request", "A revocation needs something to revoke: vertebrae, chips, cards or packs (by id).")
	}
	if err := engine.NeedReason(r.Reason); err != nil {
		return nil, err
	}
	return s.run(ctx, spec{
		Req: req, Command: "revoke", Body: r,
		Keys: func(game string) []store.Key { return []store.Key{engine.PlayerKey(game, r.Player)} },
		Apply: func(t *tx) (any, error) {
			if err := t.Admin("revoke items"); err != nil {
				return nil, err
			}
			p, err := t.target(r.Player)
			if err != nil {
				return nil, err
			}
			taken, err := economy.Take(p.ID, &p.Inventory, r.Items)
			if err != nil {
				return nil, err
			}
			t.Save(p)
			res := RevokeResult{Player: p.ID, Revoked: taken.Normalized(), Reason: r.Reason}
			t.Emit("revoked", p.ID, res)
			return res, nil
		},
	})
}

// target returns the player an admin command is about, refusing a
// non-player.
func (t *tx) target(id string) (*Player, error) {
	p, err := t.member(id)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, rules.Refuse("not_a_player", "%s is not a player in this game.", id)
	}
	return p, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
