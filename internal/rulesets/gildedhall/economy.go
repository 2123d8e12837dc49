package gildedhall

import (
	"context"
	"strings"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/store"
)

// settleGifts is what acting settles in Gilded Hall (Module.OnAction):
// each giver of a gift p received while inactive in this period gets their
// card, once per gift (RULINGS C4).
func settleGifts(gt *engine.Tx, r engine.PlayerRecord) error {
	t := wrap(gt)
	p, err := asPlayer(r)
	if err != nil {
		return err
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
		g, err := t.member(o.Giver)
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
		got := cards.RandomN(src, t.Rules, t.Rules.Thresholds.Gift.ReturnToGiver, t.Rules.Chances.HoloGranted, t.newID)
		g.Inventory.Cards = append(g.Inventory.Cards, got...)
		t.Save(g)
		t.Emit("gift_returned", g.ID, map[string]any{"receiver": p.ID, "gift": o.Gift, "cards": got})
	}
	return nil
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
func (s *Service) Purchase(ctx context.Context, req engine.Request, b Purchase) (*engine.Result, error) {
	b.Item = strings.TrimSpace(b.Item)
	// Defaults are applied before the body is hashed, so a body that spells
	// a default out is the same request as one that leaves it out.
	if b.Quantity == 0 {
		b.Quantity = 1
	}
	return s.run(ctx, spec{
		Req: req, Command: "purchase", Body: b, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			bought, err := economy.Buy(&p.Inventory, t.Rules, b.Item, b.Quantity, t.Drawer, t.newID)
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

// OpenResult is the response of open: the pack, its cards and who opened
// it.
type OpenResult struct {
	Player string `json:"player"`
	economy.Opened
}

// Open opens one of the actor's packs (RULINGS C5).
func (s *Service) Open(ctx context.Context, req engine.Request, o OpenPack) (*engine.Result, error) {
	o.Pack = strings.TrimSpace(o.Pack)
	if o.Pack == "" {
		return nil, rules.Refuse("invalid_request", "Say which pack to open: its id, or its kind (e.g. handy-pack).")
	}
	return s.run(ctx, spec{
		Req: req, Command: "open", Body: o, Random: true,
		Keys: func(g string) []store.Key { return []store.Key{engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			p, err := t.actor()
			if err != nil {
				return nil, err
			}
			opened, err := economy.Open(&p.Inventory, t.Rules, o.Pack, t.Drawer, t.newID)
			if err != nil {
				return nil, err
			}
			t.Save(p)
			t.Emit("pack_opened", p.ID, opened)
			return OpenResult{Player: p.ID, Opened: opened}, t.Acted(p)
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
func (s *Service) Gift(ctx context.Context, req engine.Request, g Gift) (*engine.Result, error) {
	to, err := s.ResolvePlayer(ctx, req, g.To)
	if err != nil {
		return nil, err
	}
	g.To = to
	if !engine.ValidIdentity(g.To) {
		return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", g.To)
	}
	return s.run(ctx, spec{
		Req: req, Command: "gift", Body: g, Random: true,
		Keys: func(game string) []store.Key {
			return []store.Key{engine.PlayerKey(game, req.Actor), engine.PlayerKey(game, g.To)}
		},
		Apply: func(t *tx) (any, error) {
			giver, err := t.player(req.Actor)
			if err != nil {
				return nil, err
			}
			recv, err := t.player(g.To)
			if err != nil {
				return nil, err
			}
			if recv == nil && g.To != req.Actor {
				recv = &Player{Player: players.Player{ID: g.To}}
			}
			name := func(id string) string {
				if p, err := t.player(id); err == nil && p != nil {
					return p.Name
				}
				return ""
			}
			if err := economy.CheckGift(giver, recv, t.Period.ID, name); err != nil {
				return nil, err
			}
			prev := t.Schedule.Prev(t.Period)
			inactive := players.Inactive(&recv.Player, t.Period.ID, prev.ID)
			gs := t.Rules.Thresholds.Gift
			n := economy.GiftSize(gs, len(recv.Inventory.Cards), inactive)
			res := GiftResult{Giver: giver.ID, Receiver: recv.ID, Inactive: inactive,
				SmallDeck: len(recv.Inventory.Cards) < gs.SmallDeckBelow, Period: t.Period.ID}
			res.Cards = cards.RandomN(t.Drawer, t.Rules, n, t.Rules.Chances.HoloGranted, t.newID)
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

// ShopItemView is one item the Croupier sells, priced for this game.
type ShopItemView struct {
	ruleset.ShopItem
	// Cards is how many cards the item brings (a pack's size, or Count random cards).
	Cards int `json:"cards,omitempty"`
	// HoloChance is each card's holographic percentage.
	HoloChance int `json:"holo_chance,omitempty"`
}

// Shop lists what the Croupier sells in this game, at the game's prices.
func (s *Service) Shop(ctx context.Context, game string) ([]ShopItemView, error) {
	t, err := s.viewIn(ctx, viewShop, game)
	if err != nil {
		return nil, err
	}
	out := make([]ShopItemView, 0, len(t.Rules.Shop))
	for _, it := range t.Rules.Shop {
		v := ShopItemView{ShopItem: it}
		switch it.Kind {
		case ruleset.ItemRandomCard:
			v.Cards, v.HoloChance = it.Count, t.Rules.Chances.HoloCroupierCard
		case ruleset.ItemPack:
			if p, ok := t.Rules.Pack(it.Pack); ok {
				v.Cards, v.HoloChance = p.Size(), t.Rules.Chances.HoloPack
			}
		}
		out = append(out, v)
	}
	return out, nil
}

func groupPacks(t *engine.Tx, ps []players.Pack) []PackEntry {
	out := []PackEntry{}
	idx := map[string]int{}
	for _, p := range ps {
		i, ok := idx[p.Kind]
		if !ok {
			name := p.Kind
			if k, known := t.Rules.Pack(p.Kind); known {
				name = k.Name
			}
			i = len(out)
			idx[p.Kind] = i
			out = append(out, PackEntry{Pack: p.Kind, Name: name})
		}
		out[i].Count++
		out[i].IDs = append(out[i].IDs, p.ID)
	}
	return out
}
