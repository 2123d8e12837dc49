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

// Acted records that p performed an action (RULINGS P2) and settles what
// acting owes: each giver of a gift p received while inactive in this period
// gets their card, once per gift (C4). Every action command calls it.
func (t *Tx) Acted(p *Player) error {
	if players.RecordAction(p, t.Period.ID) {
		t.Save(p)
	}
	if len(p.Owed) == 0 {
		return nil
	}
	t.Save(p)
	owed := p.Owed
	p.Owed = nil
	for _, o := range owed {
		if o.Period != t.Period.ID {
			continue // the receiver did not act in that phase: nothing is owed
		}
		g, err := t.Member(o.Giver)
		if err != nil {
			return err
		}
		if g == nil {
			continue // the giver left; a non-player's items are destroyed
		}
		src, err := t.Source()
		if err != nil {
			return err
		}
		got := cards.RandomN(src, t.Rules, t.Rules.Thresholds.Gift.ReturnToGiver, t.Rules.Chances.HoloGranted, t.NewID)
		g.Inventory.Cards = append(g.Inventory.Cards, got...)
		t.Save(g)
		t.Emit("gift_returned", g.ID, map[string]any{"receiver": p.ID, "gift": o.Gift, "cards": got})
	}
	return nil
}

// Actor returns the acting player, refusing a non-player.
func (t *Tx) Actor() (*Player, error) {
	p, err := t.Member(t.Entry.Actor)
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
	return s.Run(ctx, Spec{
		Req: req, Command: "purchase", Body: b, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{PlayerKey(g, req.Actor)} },
		Apply: func(t *Tx) (any, error) {
			p, err := t.Actor()
			if err != nil {
				return nil, err
			}
			bought, err := economy.Buy(&p.Inventory, t.Rules, b.Item, b.Quantity, t.Drawer, t.NewID)
			if err != nil {
				return nil, err
			}
			t.Save(p)
			t.Emit("purchased", p.ID, bought)
			if err := t.Acted(p); err != nil {
				return nil, err
			}
			if err := t.Flush(); err != nil {
				return nil, err
			}
			return PurchaseResult{Bought: bought, Vertebrae: p.Inventory.Vertebrae, Chips: p.Inventory.Chips,
				Won: t.Meta.Ended && t.Meta.Winner == p.ID}, nil
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
	return s.Run(ctx, Spec{
		Req: req, Command: "open", Body: o, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{PlayerKey(g, req.Actor)} },
		Apply: func(t *Tx) (any, error) {
			p, err := t.Actor()
			if err != nil {
				return nil, err
			}
			opened, err := economy.Open(&p.Inventory, t.Rules, o.Pack, t.Drawer, t.NewID)
			if err != nil {
				return nil, err
			}
			t.Save(p)
			t.Emit("pack_opened", p.ID, opened)
			return opened, t.Acted(p)
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
	return s.Run(ctx, Spec{
		Req: req, Command: "gift", Body: g, Random: true,
		Keys: func(game string) []store.Key {
			return []store.Key{PlayerKey(game, req.Actor), PlayerKey(game, g.To)}
		},
		Apply: func(t *Tx) (any, error) {
			giver, err := t.Player(req.Actor)
			if err != nil {
				return nil, err
			}
			recv, err := t.Player(g.To)
			if err != nil {
				return nil, err
			}
			if recv == nil && g.To != req.Actor {
				recv = &Player{ID: g.To}
			}
			if err := economy.CheckGift(giver, recv, t.Period.ID); err != nil {
				return nil, err
			}
			prev := t.Schedule.Prev(t.Period)
			inactive := players.Inactive(recv, t.Period.ID, prev.ID)
			gs := t.Rules.Thresholds.Gift
			n := economy.GiftSize(gs, len(recv.Inventory.Cards), inactive)
			res := GiftResult{Giver: giver.ID, Receiver: recv.ID, Inactive: inactive,
				SmallDeck: len(recv.Inventory.Cards) < gs.SmallDeckBelow, Period: t.Period.ID}
			res.Cards = cards.RandomN(t.Drawer, t.Rules, n, t.Rules.Chances.HoloGranted, t.NewID)
			recv.Inventory.Cards = append(recv.Inventory.Cards, res.Cards...)
			if inactive && gs.ReturnToGiver > 0 {
				recv.Owed = append(recv.Owed, players.Owed{Giver: giver.ID, Period: t.Period.ID, Gift: t.Entry.CommandID})
			}
			giver.GiftPeriod, giver.GiftedTo = t.Period.ID, recv.ID
			t.Save(recv)
			t.Save(giver)
			t.Emit("gifted", giver.ID, res)
			return res, t.Acted(giver)
		},
	})
}
