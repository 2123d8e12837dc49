package chat

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// The economy (RULINGS C1-C7): the Croupier's shop and purchases (with a
// confirmation button), packs, gifts and trades (consent buttons on an
// offer).
func economyCommands() []Command {
	purchase := hallCommand(gildedhall.Cards(), "purchase")
	cmds := []Command{
		Command{Name: "shop", Runs: []string{"shop"}, Private: true, Description: "What the Croupier sells, at this game's prices", Handler: shop},
		// /buy asks to confirm (a table command over purchase's declaration,
		// chat path "buy"): buying is not undone.
		Command{Name: "buy", Runs: []string{"purchase", "shop"}, Private: true, Description: "Buy from the Croupier (asks you to confirm)",
			Options: purchase.Options, Handler: buy},
		Command{Name: "buy confirm", Runs: []string{"purchase"}, Description: "Confirm a purchase", Hidden: true,
			Options: purchase.Options, Handler: purchase.Handler},
		Command{Name: "trade offer", Runs: []string{"trade-offer"}, Description: "Offer a trade to a player (they accept with a button)",
			Options: tradeOfferOptions(), Handler: tradeOffer},
		Command{Name: "trade accept", Runs: []string{"trade-accept"}, Description: "Accept a trade offered to you",
			Options: hallCommand(trades.Component(), "trade-accept").Options, Handler: tradeAccept},
		Command{Name: "trade withdraw", Runs: []string{"trade-withdraw"}, Description: "Withdraw your offer, or decline one made to you",
			Options: hallCommand(trades.Component(), "trade-withdraw").Options, Handler: tradeWithdraw},
		Command{Name: "trade list", Runs: []string{"trades"}, Private: true, Description: "Your trades (only you see them)",
			Options: []Option{{Name: "status", Description: "Which trades (default open)", Choices: []Choice{
				{Label: "open", Value: trades.TradeOpen}, {Label: "executed", Value: trades.TradeExecuted},
				{Label: "withdrawn", Value: trades.TradeWithdrawn}, {Label: "expired", Value: trades.TradeExpired}, {Label: "all", Value: "all"}}}},
			Handler: tradeList},
		Command{Name: "trade show", Runs: []string{"trades"}, Private: true, Description: "One trade, with its buttons",
			Options: []Option{{Name: "trade", Description: "The trade's id", Required: true, Complete: Completion(trades.SuggestMyTrades.Name), suggest: &trades.SuggestMyTrades}},
			Handler: tradeShow},
	}
	return cmds
}

// hallCommand is the chat command the declaration of catalogue command name
// in component comp makes (catalogueCommand): its options, privacy and
// generic run, for a table command that adds what a declaration cannot say
// (a confirmation, buttons).
func hallCommand(comp game.Component, name string) Command {
	return catalogueCommand(hallDecl(comp, name))
}

// hallDecl is the declaration of catalogue command name in comp.
func hallDecl(comp game.Component, name string) game.Command {
	for _, c := range comp.Commands {
		if c.Name == name {
			return c
		}
	}
	panic("chat: the Gilded Hall declares no " + name)
}

// hallPresenters add to the Gilded Hall's replies what their declarations
// cannot say: the cards they are about (shown as images) and balances.
var hallPresenters = map[string]Presenter{
	"purchase": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if b, err := decoded[*gildedhall.PurchaseResult](res, nil); err == nil {
			r.Cards = b.Cards
			r.Fields = []Field{{Name: "Vertebrae", Value: strconv.Itoa(b.Vertebrae), Inline: true}, {Name: "Chips", Value: strconv.Itoa(b.Chips), Inline: true}}
			if len(b.Packs) > 0 {
				r.Text += " /open opens them."
			}
		}
	},
	"open": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if o, err := decoded[*gildedhall.OpenResult](res, nil); err == nil {
			r.Text, r.Cards = "📦 "+r.Text, o.Cards
		}
	},
	"gift": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if g, err := decoded[*gildedhall.GiftResult](res, nil); err == nil {
			r.Text, r.Cards = "🎁 "+r.Text, g.Cards
		}
	},
}

// tradeOfferOptions are /trade offer's options: who, then each side's
// items as the ruleset's players hold them (Option.In): the Gilded Hall's
// cards, packs, Vertebrae and Chips, and an amount of each component the
// Obelisk's players may trade (ruleset.TradableComponents: never ⚡).
func tradeOfferOptions() []Option {
	opts := []Option{{Name: "player", Description: "Who you offer it to", Type: User, Required: true}}
	for _, side := range []struct{ side, whose, verb string }{{"give", "Your", "you give"}, {"take", "Their", "you want"}} {
		cards, packs := &gildedhall.SuggestMyCards, &gildedhall.SuggestMyPacks
		if side.side == "take" {
			cards, packs = &gildedhall.SuggestTheirCards, &gildedhall.SuggestTheirPacks
		}
		opts = append(opts,
			Option{Name: side.side + "_cards", Description: side.whose + " card ids to " + side.side + ", comma-separated", Complete: Completion(cards.Name), suggest: cards, In: tradesCards},
			Option{Name: side.side + "_packs", Description: side.whose + " pack ids to " + side.side + ", comma-separated", Complete: Completion(packs.Name), suggest: packs, In: tradesCards},
			Option{Name: side.side + "_vertebrae", Description: "Vertebrae " + side.verb, Type: Integer, Min: intp(0), In: tradesCards},
			Option{Name: side.side + "_chips", Description: "Chips " + side.verb, Type: Integer, Min: intp(0), In: tradesCards})
		for _, c := range ruleset.ComponentList {
			if c.Tradable {
				opts = append(opts, Option{Name: side.side + "_" + c.ID, Description: c.Emoji + " " + c.Name + " " + side.verb, Type: Integer, Min: intp(0), In: tradesComponent(c.ID)})
			}
		}
	}
	return append(opts, Option{Name: "note", Description: "A note for the other player"})
}

// tradesCards: the ruleset's players hold cards, packs, Vertebrae and
// Chips (a card table: the Gilded Hall).
func tradesCards(rs *ruleset.Ruleset) bool { return len(rs.Cards) > 0 }

// tradesComponent: the ruleset's players may trade component id.
func tradesComponent(id string) func(*ruleset.Ruleset) bool {
	return func(rs *ruleset.Ruleset) bool {
		return slices.ContainsFunc(rs.TradableComponents(), func(c ruleset.ComponentInfo) bool { return c.ID == id })
	}
}

// statusFilter reads a list's status option: open when it is not given,
// and "all" for every status.
func statusFilter(inv *Invocation, open string) string {
	switch st := inv.Opt("status"); st {
	case "":
		return open
	case "all":
		return ""
	default:
		return st
	}
}

// listReply is a private list, one line an element, or the empty text
// alone when there are none.
func listReply[T any](title, empty string, vs []T, line func(T) string) *Reply {
	if len(vs) == 0 {
		return &Reply{Text: empty, Ephemeral: true}
	}
	ls := make([]string, len(vs))
	for i, v := range vs {
		ls[i] = line(v)
	}
	return &Reply{Title: title, Text: lines(ls), Ephemeral: true}
}

func shop(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	items, err := gildedhall.On(s).Shop(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	r := &Reply{Title: "The Croupier's shop", Ephemeral: true}
	sel := Select{Placeholder: "Buy…", Action: Action{Command: "buy"}, Option: "item"}
	for _, it := range items {
		desc := fmt.Sprintf("%d %s", it.Price, gildedhall.CurrencyName(it.Currency))
		if it.Cards > 0 {
			desc += fmt.Sprintf(", %s (%d%% holographic)", plural(it.Cards, "card", "cards"), it.HoloChance)
		}
		r.Fields = append(r.Fields, Field{Name: fmt.Sprintf("%s (%s)", it.Name, it.ID), Value: desc})
		sel.Choices = append(sel.Choices, Choice{Label: fmt.Sprintf("%s: %d %s", it.Name, it.Price, gildedhall.CurrencyName(it.Currency)), Value: it.ID})
	}
	if len(items) == 0 {
		r.Text = "This game's ruleset has no Croupier."
	} else {
		r.Selects = []Select{sel}
	}
	return r, nil
}

// buy shows what a purchase would cost and asks to confirm: buying is not
// undone, and a slip of the autocomplete should not spend a week's savings.
func buy(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	qty, err := inv.Int("quantity")
	if err != nil {
		return nil, err
	}
	qty = max(qty, 1)
	items, err := gildedhall.On(s).Shop(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	id := inv.Opt("item")
	i := slices.IndexFunc(items, func(it gildedhall.ShopItemView) bool { return it.ID == id })
	if i < 0 {
		ids := make([]string, len(items))
		for j, it := range items {
			ids[j] = it.ID
		}
		return nil, refusef("unknown_item", "The Croupier sells no %q; the items are %v.", id, ids)
	}
	it := items[i]
	p, err := s.Player(ctx, inv.Game, inv.User)
	if err != nil {
		return nil, err
	}
	if !p.Member {
		return nil, players.NotAPlayer()
	}
	held := gildedhall.ViewOf(p).Inventory
	have := held.Vertebrae
	if it.Currency == "chips" {
		have = held.Chips
	}
	cost := it.Price * qty
	if cost > have {
		// No button that the Croupier would refuse (issue 23): say what is
		// missing, and offer nothing to press but dismissing it.
		return &Reply{Title: "Not enough " + gildedhall.CurrencyName(it.Currency), Ephemeral: true, Refusal: true,
			Text: fmt.Sprintf("%d × %s costs %d %s and you hold %d: %d short (C6: a purchase is all or nothing).",
				qty, it.Name, cost, gildedhall.CurrencyName(it.Currency), have, cost-have),
			Buttons: []Button{{Label: "Dismiss", Style: StyleSecondary, Action: Action{Command: "dismiss"}}}}, nil
	}
	text := fmt.Sprintf("Buy %d × %s for %d %s? You hold %d.", qty, it.Name, cost, gildedhall.CurrencyName(it.Currency), have)
	return &Reply{Title: "Confirm your purchase", Text: text, Ephemeral: true, Buttons: []Button{
		{Label: fmt.Sprintf("Buy for %d %s", cost, gildedhall.CurrencyName(it.Currency)), Style: StyleSuccess,
			Action: Action{Command: "buy confirm", Options: map[string]string{"item": it.ID, "quantity": strconv.Itoa(qty)}}},
		{Label: "Cancel", Style: StyleSecondary, Action: Action{Command: "dismiss"}},
	}}, nil
}

func tradeOffer(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rs, err := s.Ruleset(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	cmd, _ := Lookup("trade offer")
	if err := refuseForeignOptions(cmd, inv, rs); err != nil {
		return nil, err
	}
	var o trades.OfferTrade
	for _, c := range rs.TradableComponents() {
		for _, side := range []struct {
			name string
			dst  *ruleset.Components
		}{{"give_", &o.Give.Components}, {"take_", &o.Take.Components}} {
			n, err := inv.Int(side.name + c.ID)
			if err != nil {
				return nil, err
			}
			side.dst.Add(c.ID, n)
		}
	}
	o.To, o.Note = inv.Opt("player"), inv.Opt("note")
	o.Give.Cards, o.Give.Packs = inv.List("give_cards"), inv.List("give_packs")
	o.Take.Cards, o.Take.Packs = inv.List("take_cards"), inv.List("take_packs")
	for _, f := range []struct {
		opt string
		dst *int
	}{{"give_vertebrae", &o.Give.Vertebrae}, {"give_chips", &o.Give.Chips}, {"take_vertebrae", &o.Take.Vertebrae}, {"take_chips", &o.Take.Chips}} {
		if *f.dst, err = inv.Int(f.opt); err != nil {
			return nil, err
		}
	}
	tr, err := decoded[*trades.Trade](trades.On(s).OfferTrade(ctx, req(inv), o))
	if err != nil {
		return nil, err
	}
	return tradeReply(ctx, s, inv, *tr, false), nil
}

// tradeReply describes a trade, naming its cards from both inventories, with
// consent buttons while it is open.
func tradeReply(ctx context.Context, s *game.Service, inv *Invocation, tr trades.Trade, private bool) *Reply {
	var invs []players.Inventory
	people := map[string]string{}
	for _, id := range []string{tr.From, tr.To} {
		if p, err := s.Player(ctx, inv.Game, id); err == nil {
			invs = append(invs, gildedhall.ViewOf(p).Inventory)
			people[id] = p.Name
		}
	}
	who := func(id string) string {
		if n := people[id]; n != "" {
			return n
		}
		return id // a mention, where the platform renders one
	}
	names := itemNames(invs...)
	r := &Reply{
		Title:     fmt.Sprintf("Trade %s: %s", tr.ID, tr.Status),
		Text:      fmt.Sprintf("%s offers %s to %s in exchange for %s.", who(tr.From), describeItems(tr.Give, names), who(tr.To), describeItems(tr.Take, names)),
		Ephemeral: private,
	}
	if tr.Note != "" {
		r.Fields = append(r.Fields, Field{Name: "Note", Value: clip(tr.Note, 1000)})
	}
	switch tr.Status {
	case trades.TradeOpen:
		r.Text += fmt.Sprintf(" %s can accept until %s.", who(tr.To), tr.ExpiresAt.UTC().Format(time.RFC1123))
		opts := map[string]string{"trade": tr.ID}
		r.Buttons = []Button{
			{Label: "Accept", Style: StyleSuccess, Action: Action{Command: "trade accept", Options: opts}},
			{Label: "Decline / withdraw", Style: StyleDanger, Action: Action{Command: "trade withdraw", Options: opts}},
		}
	default:
		r.Text += fmt.Sprintf(" Closed by %s on %s.", who(tr.ClosedBy), tr.ClosedAt.UTC().Format(time.RFC1123))
	}
	return r
}

func tradeAccept(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	r, err := actOnTrade(ctx, s, inv, "trade-accept")
	if err != nil {
		return nil, err
	}
	who := inv.User
	if p, err := s.Player(ctx, inv.Game, inv.User); err == nil && p.Name != "" {
		who = p.Name
	}
	r.Text = fmt.Sprintf("🤝 %s accepted: the trade is done. ", who) + r.Text
	return sharedTrade(inv, r, "🤝 You accepted %s: the trade is done; /status shows what you hold now."), nil
}

func tradeWithdraw(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	r, err := actOnTrade(ctx, s, inv, "trade-withdraw")
	if err != nil {
		return nil, err
	}
	return sharedTrade(inv, r, "You closed %s; it is no longer open."), nil
}

// sharedTrade answers a press on a trade shown in a channel: the trade as
// it now stands is the message's new state, and the presser is told what
// they did (mine: a sentence naming the trade's title).
func sharedTrade(inv *Invocation, r *Reply, mine string) *Reply {
	if inv.SharedMessage() == nil {
		return r
	}
	pub := *r
	trade, _, _ := strings.Cut(r.Title, ":") // "Trade t1"
	return &Reply{Text: fmt.Sprintf(mine, trade), Shared: &pub}
}

// actOnTrade runs command (trade-accept or trade-withdraw) on the trade
// option, or on the caller's only open trade that fits (the command's own
// default), and describes the trade after it.
func actOnTrade(ctx context.Context, s *game.Service, inv *Invocation, command string) (*Reply, error) {
	c := hallDecl(trades.Component(), command)
	tr, err := decoded[*trades.Trade](c.Call.Run(ctx, s, req(inv), &trades.TradeRef{Trade: inv.Opt("trade")}))
	if err != nil {
		return nil, err
	}
	return tradeReply(ctx, s, inv, *tr, false), nil
}

func tradeList(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	ts, err := trades.On(s).Trades(ctx, inv.Game, trades.TradeFilter{Player: inv.User, Status: statusFilter(inv, trades.TradeOpen)})
	if err != nil {
		return nil, err
	}
	ls := make([]string, len(ts))
	who := whoFunc(ctx, s, inv)
	for i, t := range ts {
		ls[i] = fmt.Sprintf("%s (%s): %s → %s, gives %s, takes %s", t.ID, t.Status, who(t.From), who(t.To),
			describeItems(t.Give, nil), describeItems(t.Take, nil))
	}
	if len(ls) == 0 {
		ls = []string{"No trades."}
	}
	return &Reply{Title: "Your trades", Text: lines(ls), Ephemeral: true}, nil
}

func tradeShow(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	tr, err := trades.On(s).Trade(ctx, inv.Game, inv.Opt("trade"))
	if err != nil {
		return nil, err
	}
	return tradeReply(ctx, s, inv, tr, true), nil
}
