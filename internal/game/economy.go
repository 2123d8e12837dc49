package game

import (
	"context"
	"strings"

	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// acted records that p performed an action (RULINGS P2) and settles what
// acting owes: each giver of a gift p received while inactive in this period
// gets their card, once per gift (C4). Every action command calls it.
func (t *tx) acted(p *Player) error {
	if players.RecordAction(p, t.period.ID) {
		t.save(p)
	}
	if len(p.Owed) == 0 {
		return nil
	}
	t.save(p)
	owed := p.Owed
	p.Owed = nil
	for _, o := range owed {
		if o.Period != t.period.ID {
			continue // the receiver did not act in that phase: nothing is owed
		}
		g, err := t.member(o.Giver)
		if err != nil {
			return err
		}
		if g == nil {
			continue // the giver left; a non-player's items are destroyed
		}
		src, err := t.source()
		if err != nil {
			return err
		}
		got := cards.RandomN(src, t.rs, t.rs.Thresholds.Gift.ReturnToGiver, t.rs.Chances.HoloGranted, t.newID)
		g.Inventory.Cards = append(g.Inventory.Cards, got...)
		t.save(g)
		t.emit("gift_returned", g.ID, map[string]any{"receiver": p.ID, "gift": o.Gift, "cards": got})
	}
	return nil
}

// actor returns the acting player, refusing a non-player.
func (t *tx) actor() (*Player, error) {
	p, err := t.member(t.entry.Actor)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, players.NotAPlayer()
	}
	return p, nil
}

// Purchase is the payload of buy: a Croupier item and how many.
type Purchase struct {
	Item     string `json:"item"`
	Quantity int    `json:"quantity,omitempty"`
}

// PurchaseResult is the response of buy.
type PurchaseResult struct {
	economy.Bought
	Vertebrae int  `json:"vertebrae"`
	Chips     int  `json:"chips"`
	Won       bool `json:"won,omitempty"`
}

// Purchase buys from the Croupier (RULINGS C6): all or nothing, the balance
// never negative; a Chip that brings the buyer to 25 wins the game (C7).
func (s *Service) Purchase(ctx context.Context, req Request, b Purchase) (*Result, error) {
	b.Item = strings.TrimSpace(b.Item)
	// Defaults are applied before the body is hashed, so a body that spells
	// a default out is the same request as one that leaves it out.
	if b.Quantity == 0 {
		b.Quantity = 1
	}
	return s.run(ctx, spec{
		req: req, command: "purchase", body: b, random: true,
		keys: func(g string) []store.Key { return []store.Key{playerKey(g, req.Actor)} },
		apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			bought, err := economy.Buy(&p.Inventory, t.rs, b.Item, b.Quantity, t.drawer, t.newID)
			if err != nil {
				return nil, err
			}
			t.save(p)
			t.emit("purchased", p.ID, bought)
			if err := t.acted(p); err != nil {
				return nil, err
			}
			if err := t.flush(); err != nil {
				return nil, err
			}
			return PurchaseResult{Bought: bought, Vertebrae: p.Inventory.Vertebrae, Chips: p.Inventory.Chips,
				Won: t.meta.Ended && t.meta.Winner == p.ID}, nil
		},
	})
}

// OpenPack is the payload of open: a pack id, or a pack kind for the
// oldest pack of that kind.
type OpenPack struct {
	Pack string `json:"pack"`
}

// Open opens one of the actor's packs (RULINGS C5).
func (s *Service) Open(ctx context.Context, req Request, o OpenPack) (*Result, error) {
	o.Pack = strings.TrimSpace(o.Pack)
	if o.Pack == "" {
		return nil, rules.Refuse("invalid_request", "Say which pack to open: its id, or its kind (e.g. handy-pack).")
	}
	return s.run(ctx, spec{
		req: req, command: "open", body: o, random: true,
		keys: func(g string) []store.Key { return []store.Key{playerKey(g, req.Actor)} },
		apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			opened, err := economy.Open(&p.Inventory, t.rs, o.Pack, t.drawer, t.newID)
			if err != nil {
				return nil, err
			}
			t.save(p)
			t.emit("pack_opened", p.ID, opened)
			return opened, t.acted(p)
		},
	})
}

// Gift is the payload of gift: the receiver.
type Gift struct {
	To string `json:"to"`
}

// GiftResult is the response of gift.
type GiftResult struct {
	Giver    string         `json:"giver"`
	Receiver string         `json:"receiver"`
	Cards    []players.Card `json:"cards"`
	// Inactive: the receiver was inactive, so got the bonus, and the giver
	// gets a card if the receiver acts in this period.
	Inactive bool `json:"inactive"`
	// SmallDeck: the receiver held fewer cards than the threshold.
	SmallDeck bool   `json:"small_deck"`
	Period    string `json:"period"`
}

// Gift makes the actor's gift of this period (RULINGS C4).
func (s *Service) Gift(ctx context.Context, req Request, g Gift) (*Result, error) {
	g.To = strings.TrimSpace(g.To)
	if !ValidIdentity(g.To) {
		return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", g.To)
	}
	return s.run(ctx, spec{
		req: req, command: "gift", body: g, random: true,
		keys: func(game string) []store.Key {
			return []store.Key{playerKey(game, req.Actor), playerKey(game, g.To)}
		},
		apply: func(t *tx) (any, error) {
			giver, err := t.player(req.Actor)
			if err != nil {
				return nil, err
			}
			recv, err := t.player(g.To)
			if err != nil {
				return nil, err
			}
			if recv == nil && g.To != req.Actor {
				recv = &Player{ID: g.To}
			}
			if err := economy.CheckGift(giver, recv, t.period.ID); err != nil {
				return nil, err
			}
			prev := t.sched.Prev(t.period)
			inactive := players.Inactive(recv, t.period.ID, prev.ID)
			gs := t.rs.Thresholds.Gift
			n := economy.GiftSize(gs, len(recv.Inventory.Cards), inactive)
			res := GiftResult{Giver: giver.ID, Receiver: recv.ID, Inactive: inactive,
				SmallDeck: len(recv.Inventory.Cards) < gs.SmallDeckBelow, Period: t.period.ID}
			res.Cards = cards.RandomN(t.drawer, t.rs, n, t.rs.Chances.HoloGranted, t.newID)
			recv.Inventory.Cards = append(recv.Inventory.Cards, res.Cards...)
			if inactive && gs.ReturnToGiver > 0 {
				recv.Owed = append(recv.Owed, players.Owed{Giver: giver.ID, Period: t.period.ID, Gift: t.entry.CommandID})
			}
			giver.GiftPeriod, giver.GiftedTo = t.period.ID, recv.ID
			t.save(recv)
			t.save(giver)
			t.emit("gifted", giver.ID, res)
			return res, t.acted(giver)
		},
	})
}
