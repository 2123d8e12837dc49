// Package trades is the trading institution (seed 002 Trading) as a
// component of the engine (internal/game): offers of items between two
// players, executed at once on the receiver's consent within the trade
// window, withdrawn, declined or expired. Who may trade is ruleset data
// (RULINGS P4) and what a player trades is its record's (Trader): the
// Gilded Hall and the Obelisk both include it.
package trades

import (
	"context"

	engine "croupier/internal/game"
	"croupier/internal/store"
)

// InstTrades is the trading institution (an engine.Component name; who
// may trade is ruleset data).
const InstTrades = "trades"

var viewTrades = engine.View{Name: "trades", Institution: InstTrades, What: "trades"}

// Component is the trading component: offers of items between players, who
// may trade being ruleset data.
func Component() engine.Component {
	return engine.Component{Name: InstTrades, Views: []engine.View{viewTrades}, Due: []engine.DueWork{tradeWork}, Events: tradeEvents(),
		OnJoin: func(_ *engine.Tx, prevRec, rec engine.PlayerRecord) error {
			// The trade index (trade_index.go) is complete from a first join;
			// a rejoin keeps the open trades the departure had no room to close.
			p, _ := traderOf(rec)
			if p == nil {
				return nil
			}
			trades, indexed := p.OpenTrades()
			prev, _ := traderOf(prevRec)
			*indexed = true
			if prev != nil {
				pt, pi := prev.OpenTrades()
				*indexed, *trades = *pi, *pt
			}
			return nil
		},
		OnLeave: func(t *engine.Tx, r engine.PlayerRecord, res *engine.LeaveResult) error {
			p, err := traderOf(r)
			if err != nil || p == nil {
				return err
			}
			withdrawn, err := wrap(t).withdrawTradesOf(p) // trade_index.go
			res.WithdrawnTrades = withdrawn
			return err
		},
		Commands: []engine.Command{
			{Name: "trade-offer", Institution: InstTrades, Action: true, What: "trades", Summary: "Offer a trade", Call: method((*Service).OfferTrade, engine.Creates), Says: saysTrade,
				Chat: "trade offer",
				Help: "Your offer is your consent (seed 002): it executes when the other player accepts within the trade window, if both still hold everything. Either may withdraw it until then.",
				Args: []engine.Arg{
					{Name: "to", Type: engine.FieldPlayer, Required: true, Positional: true, Description: "Who you offer it to"},
					{Name: "give", Type: engine.FieldJSON, Required: true, Description: `What you give: {"vertebrae":N,"chips":N,"cards":[ids],"packs":[ids],"components":{"herbs":N}}, members left out for none`},
					{Name: "take", Type: engine.FieldJSON, Required: true, Description: "What they give you, as give"},
					{Name: "note", Type: engine.FieldString, Description: "A note for the other player"},
				}},
			{Name: "trade-accept", Institution: InstTrades, Action: true, What: "trades", Summary: "Accept a trade", Call: byTrade((*Service).AcceptTrade, true), Says: saysTrade,
				Chat: "trade accept", Args: []engine.Arg{tradeArg("The trade offered to you (default: the only one)")}},
			{Name: "trade-withdraw", Institution: InstTrades, Action: true, What: "trades", Summary: "Withdraw or decline a trade", Call: byTrade((*Service).WithdrawTrade, false), Says: saysTrade,
				Chat: "trade withdraw", Args: []engine.Arg{tradeArg("Your offer, or one made to you (default: your only open trade)")}},
			{Name: "trade-expire", Institution: InstTrades, Scheduled: true, What: "trades"},
		}}
}

// Service runs the trades' commands and views over the engine: the
// engine's service with this component's methods (the edges and tests
// that speak of trades by type call these; the rest go through the
// catalogue).
type Service struct{ *engine.Service }

// On returns svc with the trades' methods.
func On(svc *engine.Service) *Service { return &Service{svc} }

// method is the Call of one of this component's command methods.
func method(m any, opts ...engine.CallOption) *engine.Call { return engine.MethodVia(m, via, opts...) }

// via is the component's service over the engine's.
func via(s *engine.Service) any { return On(s) }

// TradeRef is the payload of trade-accept and trade-withdraw: the trade,
// or none for the actor's only open one (onlyOpenTrade).
type TradeRef struct {
	Trade string `json:"trade,omitempty"`
}

// tradeArg is the trade argument of trade-accept and trade-withdraw.
func tradeArg(what string) engine.Arg {
	return engine.Arg{Name: "trade", Type: engine.FieldString, Positional: true, Description: what + ", by id", Suggest: &SuggestMyTrades}
}

// byTrade is the Call of trade-accept (accept) or trade-withdraw over m.
func byTrade(m func(*Service, context.Context, engine.Request, string) (*engine.Result, error), accept bool) *engine.Call {
	return method(func(s *Service, ctx context.Context, req engine.Request, r TradeRef) (*engine.Result, error) {
		if r.Trade == "" {
			id, err := s.onlyOpenTrade(ctx, req, accept)
			if err != nil {
				return nil, err
			}
			r.Trade = id
		}
		return m(s, ctx, req, r.Trade)
	})
}

// SuggestMyTrades suggests the open trades the caller is a party to, their
// players by name.
var SuggestMyTrades = engine.Suggest{Name: "my-trades", List: listMyTrades}

func listMyTrades(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	ts, err := On(s).Trades(ctx, q.Game, TradeFilter{Player: q.Actor, Status: TradeOpen})
	if err != nil {
		return nil, err
	}
	name := s.Names(ctx, q.Game)
	out := make([]engine.Choice, len(ts))
	for i, t := range ts {
		out[i] = engine.Choice{Label: engine.Clip(t.ID+": "+engine.Or(name(t.From), t.From)+" → "+engine.Or(name(t.To), t.To), 100), Value: t.ID}
	}
	return out, nil
}

// tx is the engine's transaction with this component's methods. It keeps
// no state of its own, so it does not take the attempt's one module view
// (engine.ViewOf, Tx.Scratch): the module that includes trades keeps its
// own there, the Gilded Hall's battle roster say, through a departure that
// withdraws trades and forfeits matches in one commit.
type tx struct{ *engine.Tx }

func wrap(t *engine.Tx) *tx { return &tx{Tx: t} }

// spec is engine.Spec with an apply that takes the component's transaction.
type spec = engine.ModuleSpec[*tx]

// run runs sp through the engine's one command path.
func (s *Service) run(ctx context.Context, sp spec) (*engine.Result, error) {
	return engine.RunModule(s.Service, ctx, sp, wrap)
}

// viewIn runs a read-only query of the trades view.
func (s *Service) viewIn(ctx context.Context, v engine.View, game string, extra ...store.Key) (*tx, error) {
	t, err := s.ViewIn(ctx, v, game, extra...)
	if err != nil {
		return nil, err
	}
	return wrap(t), nil
}

// TradesPage is one page of the game's trades that f selects, oldest id first.
func (s *Service) TradesPage(ctx context.Context, game string, f TradeFilter, pr engine.PageRequest) ([]Trade, string, error) {
	t, err := s.viewIn(ctx, viewTrades, game)
	if err != nil {
		return nil, "", err
	}
	return engine.PageRecords(ctx, s.Service, game, tradePrefix, pr, func(tr *Trade) bool {
		t.expireView(tr)
		return (f.Player == "" || tr.From == f.Player || tr.To == f.Player) && (f.Status == "" || tr.Status == f.Status)
	})
}
