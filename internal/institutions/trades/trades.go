package trades

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

const tradePrefix = "TRADE#"

func tradeKey(g, id string) store.Key { return store.Key{PK: engine.GamePK(g), SK: tradePrefix + id} }

// Trade statuses.
const (
	TradeOpen      = "open"
	TradeExecuted  = "executed"
	TradeWithdrawn = "withdrawn"
	TradeExpired   = "expired"
)

// Trade is an offer between two players (seed 002 Trading): From gives Give
// and receives Take. Making the offer is From's consent; it executes when To
// consents within the trade window, if both still hold everything then.
type Trade struct {
	ID        string        `json:"id"`
	From      string        `json:"from"`
	To        string        `json:"to"`
	Give      economy.Items `json:"give"`
	Take      economy.Items `json:"take"`
	Note      string        `json:"note,omitempty"`
	Status    string        `json:"status"`
	CreatedAt time.Time     `json:"created_at"`
	ExpiresAt time.Time     `json:"expires_at"`
	ClosedAt  time.Time     `json:"closed_at,omitzero"`
	ClosedBy  string        `json:"closed_by,omitempty"`
	// CardNames names the card copies on either side ("Red Joker (holo)"
	// by copy id), as they were at the offer: people read the trade, and
	// its log events, by card name.
	CardNames map[string]string `json:"card_names,omitempty"`
}

// due is the trade's timer: its expiry while open, none once closed.
func (tr *Trade) due() time.Time {
	if tr.Status == TradeOpen {
		return tr.ExpiresAt
	}
	return time.Time{}
}

// OfferTrade is the payload of a trade offer.
type OfferTrade struct {
	To   string        `json:"to"`
	Give economy.Items `json:"give"`
	Take economy.Items `json:"take"`
	Note string        `json:"note,omitempty"`
}

// OfferTrade makes a trade offer to another player. Both sides are checked
// now (a clear refusal beats an offer that can never execute) and again at
// acceptance.
func (s *Service) OfferTrade(ctx context.Context, req engine.Request, o OfferTrade) (*engine.Result, error) {
	to, err := s.ResolvePlayer(ctx, req, o.To)
	if err != nil {
		return nil, err
	}
	o.To = to
	if !engine.ValidIdentity(o.To) {
		return nil, rules.Refuse("invalid_request", "%q is not a platform identity such as discord:1234.", o.To)
	}
	if o.To == req.Actor {
		return nil, rules.Refuse("self_trade", "You cannot trade with yourself.")
	}
	if err := o.Give.Check("give"); err != nil {
		return nil, err
	}
	if err := o.Take.Check("take"); err != nil {
		return nil, err
	}
	if o.Give.Empty() && o.Take.Empty() {
		return nil, rules.Refuse("invalid_trade", "A trade needs at least one item on one side.")
	}
	if len(o.Note) > engine.MaxReason {
		return nil, rules.Refuse("invalid_request", "The note is %d characters long; at most %d are allowed.", len(o.Note), engine.MaxReason)
	}
	return s.run(ctx, spec{
		Req: req, Command: "trade-offer", Body: o,
		Keys: func(g string) []store.Key {
			return []store.Key{engine.PlayerKey(g, req.Actor), engine.PlayerKey(g, o.To)}
		},
		Apply: func(t *tx) (any, error) {
			from, err := t.traderActor()
			if err != nil {
				return nil, err
			}
			to, err := t.memberTrader(o.To)
			if err != nil {
				return nil, err
			}
			if to == nil {
				return nil, rules.Refuse("not_a_player", "%s is not a player in this game; trades are between players.", o.To)
			}
			if err := from.MayTrade(t.Tx, to, o.Give, o.Take); err != nil {
				return nil, err
			}
			if err := from.Holds(o.Give); err != nil {
				return nil, err
			}
			if err := to.Holds(o.Take); err != nil {
				return nil, err
			}
			tr := &Trade{ID: "t" + t.Entry.CommandID[:10], From: from.Core().ID, To: to.Core().ID, Give: o.Give, Take: o.Take, Note: o.Note,
				Status: TradeOpen, CreatedAt: t.Now, ExpiresAt: t.Now.Add(t.Rules.Durations.TradeWindow.Std()),
				CardNames: cardNamesOf(o.Give.Cards, from, o.Take.Cards, to)}
			if err := t.Put(tradeKey(t.Game, tr.ID), tr, tr.due()); err != nil {
				return nil, err
			}
			indexTrade(tr, from, to)
			t.Save(recordOf(from))
			t.Save(recordOf(to))
			t.Emit("trade_offered", from.Core().ID, tr)
			return tr, t.Acted(recordOf(from))
		},
	})
}

// loadTrade decodes a trade read by the command.
func (t *tx) trade(id string) (*Trade, error) {
	it := t.Loaded[tradeKey(t.Game, id)]
	if !it.Exists() {
		return nil, rules.Refuse("trade_not_found", "There is no trade %q in this game.", id)
	}
	var tr Trade
	if err := json.Unmarshal(it.Data, &tr); err != nil {
		return nil, fmt.Errorf("decoding trade %s: %w", id, err)
	}
	return &tr, nil
}

func tradeClosed(tr *Trade) *rules.Error {
	return rules.Refuse("trade_closed", "Trade %s is already %s (%s).", tr.ID, tr.Status, tr.ClosedAt.UTC().Format(time.RFC1123)).
		With("trade_status", tr.Status)
}

// onlyOpenTrade is the trade an accept (accept: offered to the actor) or a
// withdrawal means when it names none: the actor's one open trade that
// fits. With none or several it refuses, naming them.
func (s *Service) onlyOpenTrade(ctx context.Context, req engine.Request, accept bool) (string, error) {
	open, err := s.Trades(ctx, req.Game, TradeFilter{Player: req.Actor, Status: TradeOpen})
	if err != nil {
		return "", err
	}
	var ids []string
	for _, tr := range open {
		if !accept || tr.To == req.Actor {
			ids = append(ids, tr.ID)
		}
	}
	verb := "withdraw"
	if accept {
		verb = "accept"
	}
	switch len(ids) {
	case 1:
		return ids[0], nil
	case 0:
		if accept {
			return "", rules.Refuse("trade_not_found", "No open trade is offered to you; nothing to accept.")
		}
		return "", rules.Refuse("trade_not_found", "You have no open trade to withdraw.")
	}
	return "", rules.Refuse("ambiguous_trade", "You can %s %d open trades: %s; name one.", verb, len(ids), strings.Join(ids, ", ")).With("candidates", ids)
}

// AcceptTrade is the receiving player's consent: the trade executes at once
// if it is open, within the window, and both still hold everything.
func (s *Service) AcceptTrade(ctx context.Context, req engine.Request, id string) (*engine.Result, error) {
	return s.tradeCommand(ctx, req, id, "trade-accept", func(t *tx, tr *Trade) error {
		if tr.To != req.Actor {
			if tr.From == req.Actor {
				return rules.Refuse("not_your_trade", "You made trade %s; your offer is your consent. %s must accept it.", tr.ID, t.PlayerNames(tr.To))
			}
			return rules.Refuse("not_your_trade", "Trade %s is between %s; only %s can accept it.", tr.ID, t.PlayerNames(tr.From, tr.To), t.PlayerNames(tr.To))
		}
		if !t.Now.Before(tr.ExpiresAt) {
			return rules.Refuse("trade_expired", "Trade %s expired on %s: both consents must be within %s of each other.",
				tr.ID, tr.ExpiresAt.UTC().Format(time.RFC1123), engine.Duration(t.Rules.Durations.TradeWindow.Std()))
		}
		to, err := t.traderActor()
		if err != nil {
			return err
		}
		from, err := t.memberTrader(tr.From)
		if err != nil {
			return err
		}
		if from == nil {
			return rules.Refuse("not_a_player", "%s, who offered trade %s, is no longer a player.", t.PlayerNames(tr.From), tr.ID)
		}
		if err := from.MayTrade(t.Tx, to, tr.Give, tr.Take); err != nil {
			return err
		}
		if err := from.Swap(t.Tx, to, tr.Give, tr.Take); err != nil {
			return err
		}
		t.Save(recordOf(from))
		t.Save(recordOf(to))
		tr.Status, tr.ClosedAt, tr.ClosedBy = TradeExecuted, t.Now, req.Actor
		t.Emit("trade_executed", to.Core().ID, tr)
		return t.Acted(recordOf(to))
	})
}

// WithdrawTrade closes an open trade: its maker withdraws it, or its
// receiver declines it.
func (s *Service) WithdrawTrade(ctx context.Context, req engine.Request, id string) (*engine.Result, error) {
	return s.tradeCommand(ctx, req, id, "trade-withdraw", func(t *tx, tr *Trade) error {
		if tr.From != req.Actor && tr.To != req.Actor {
			return rules.Refuse("not_your_trade", "Trade %s is between %s; only they can withdraw it.", tr.ID, t.PlayerNames(tr.From, tr.To))
		}
		p, err := t.traderActor()
		if err != nil {
			return err
		}
		tr.Status, tr.ClosedAt, tr.ClosedBy = TradeWithdrawn, t.Now, req.Actor
		t.Emit("trade_withdrawn", p.Core().ID, tr)
		return t.Acted(recordOf(p))
	})
}

// tradeCommand runs a command on one open trade, loading it and both of its
// players in the first read (trade ids name their parties only once read,
// so the parties come from a second read only when not the actor).
func (s *Service) tradeCommand(ctx context.Context, req engine.Request, id, command string, fn func(*tx, *Trade) error) (*engine.Result, error) {
	id = strings.TrimSpace(id)
	if id == "" || len(id) > 64 {
		return nil, rules.Refuse("invalid_request", "%q is not a trade id.", id)
	}
	return s.run(ctx, spec{
		Req: req, Command: command, Body: map[string]string{"trade": id},
		Keys: func(g string) []store.Key { return []store.Key{tradeKey(g, id), engine.PlayerKey(g, req.Actor)} },
		Apply: func(t *tx) (any, error) {
			tr, err := t.trade(id)
			if err != nil {
				return nil, err
			}
			if tr.Status != TradeOpen {
				return nil, tradeClosed(tr)
			}
			if err := fn(t, tr); err != nil {
				return nil, err
			}
			if err := t.unindexTrade(tr); err != nil {
				return nil, err
			}
			if err := t.Put(tradeKey(t.Game, tr.ID), tr, tr.due()); err != nil {
				return nil, err
			}
			return tr, nil
		},
	})
}

// TradeFilter selects trades to list.
type TradeFilter struct {
	Player string // either party; "" for all
	Status string // "" for all
}

// Trades lists a game's trades, oldest first, page by page (TradesPage).
func (s *Service) Trades(ctx context.Context, game string, f TradeFilter) ([]Trade, error) {
	return engine.AllPages(func(pr engine.PageRequest) ([]Trade, string, error) { return s.TradesPage(ctx, game, f, pr) })
}

// Trade returns one trade.
func (s *Service) Trade(ctx context.Context, game, id string) (Trade, error) {
	t, err := s.viewIn(ctx, viewTrades, game, tradeKey(game, id))
	if err != nil {
		return Trade{}, err
	}
	tr, err := t.trade(id)
	if err != nil {
		return Trade{}, err
	}
	t.expireView(tr)
	return *tr, nil
}

// expireView shows an open trade past its expiry as expired even before the
// scheduler has closed it: reads tell the truth as of now.
func (t *tx) expireView(tr *Trade) {
	if tr.Status == TradeOpen && !t.Now.Before(tr.ExpiresAt) {
		tr.Status, tr.ClosedAt, tr.ClosedBy = TradeExpired, tr.ExpiresAt, engine.SchedulerActor
	}
}

// MayTradeReputable applies the ruleset's trading restriction: under seed
// 002 only reputable players trade, with reputable players (RULINGS P4).
// A Trader's MayTrade starts with it.
func MayTradeReputable(t *engine.Tx, a, b engine.PlayerRecord) error {
	if !t.Rules.Trading.ReputableOnly {
		return nil
	}
	d := t.Rules.Durations
	for _, r := range []engine.PlayerRecord{a, b} {
		p := r.Core()
		if !players.Reputable(p, t.Now, t.Meta.CreatedAt, d.ReputableTenure.Std(), d.ReputableGrace.Std()) {
			return rules.Refuse("not_reputable", "%s is not reputable yet (a player continuously for %s), and only reputable players trade in this game.",
				p.ID, d.ReputableTenure.Std()).With("player", p.ID).With("reputable_at", p.JoinedAt.Add(d.ReputableTenure.Std()).UTC())
		}
	}
	return nil
}

// tradeWork closes trades whose window has passed.
var tradeWork = engine.DueWork{Kind: "trade", Prefix: tradePrefix, Run: func(s *engine.Service, ctx context.Context, g, sk string) ([]string, error) {
	id := strings.TrimPrefix(sk, tradePrefix)
	closed, err := On(s).ExpireTrade(ctx, g, id)
	if err != nil || !closed {
		return nil, err
	}
	return []string{g + "/" + id}, nil
}}

// ExpireTrade closes an open trade whose window has passed, as of its expiry
// (RULINGS T4). It reports whether it closed it; a trade already closed, by
// its parties or by an earlier run, is left alone.
func (s *Service) ExpireTrade(ctx context.Context, game, id string) (bool, error) {
	for attempt := 1; ; attempt++ {
		closed, err := s.tryExpireTrade(ctx, game, id)
		if errors.Is(err, store.ErrDuplicate) {
			return false, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return closed, err
		}
		if attempt >= s.MaxAttempts {
			return false, engine.ErrBusy
		}
		time.Sleep(s.Pause(attempt))
	}
}

func (s *Service) tryExpireTrade(ctx context.Context, game, id string) (bool, error) {
	now := s.Clock().Now()
	tk := tradeKey(game, id)
	cmdID := engine.CommandID(engine.SchedulerActor, "trade-expire:"+id)
	idem := engine.LogKey(game, cmdID)
	items, err := s.Store().GetMany(ctx, []store.Key{engine.MetaKey(game), tk, idem})
	if err != nil {
		return false, err
	}
	t := wrap(&engine.Tx{Svc: s.Service, Ctx: ctx, Now: now, Game: game, Loaded: map[store.Key]store.Item{}})
	for _, it := range items {
		t.Loaded[it.Key] = it
	}
	if t.Loaded[idem].Exists() {
		return false, store.ErrDuplicate
	}
	if err := t.LoadMeta(); err != nil {
		return false, err
	}
	tr, err := t.trade(id)
	if err != nil {
		return false, err
	}
	if tr.Status != TradeOpen || tr.ExpiresAt.After(now) {
		return false, nil
	}
	// Applied as of the moment it was due (RULINGS T4).
	t.Now = tr.ExpiresAt
	t.Period = t.Schedule.PeriodAt(t.Now)
	t.Entry = &engine.Entry{ID: s.NewLogID(t.Now), Command: "trade-expire", CommandID: cmdID, Actor: engine.SchedulerActor,
		Key: "trade-expire:" + id, At: t.Now, Period: t.Period.ID}
	tr.Status, tr.ClosedAt, tr.ClosedBy = TradeExpired, tr.ExpiresAt, engine.SchedulerActor
	if err := t.Put(tk, tr, time.Time{}); err != nil {
		return false, err
	}
	if err := t.unindexTrade(tr); err != nil {
		return false, err
	}
	t.Emit("trade_expired", "", tr)
	if err := t.Commit(ctx, idem, tr); err != nil {
		return false, err
	}
	return true, nil
}

// cardNamesOf names each copy id in ids by the card it is in p's deck
// (nil when there are none).
func cardNamesOf(giveIDs []string, from Trader, takeIDs []string, to Trader) map[string]string {
	if len(giveIDs)+len(takeIDs) == 0 {
		return nil
	}
	out := make(map[string]string, len(giveIDs)+len(takeIDs))
	for _, side := range []struct {
		ids []string
		t   Trader
	}{{giveIDs, from}, {takeIDs, to}} {
		// Only a record of the card economy holds cards.
		ct, ok := side.t.(cardTrader)
		if !ok {
			continue
		}
		for _, id := range side.ids {
			for _, c := range ct.Inventory.Cards {
				if c.ID == id {
					n := c.Name
					if c.Holo {
						n += " (holo)"
					}
					out[id] = n
					break
				}
			}
		}
	}
	return out
}
