// Package gildedhall is the Gilded Hall ruleset as a module of the engine
// (internal/game): its cards economy (Vertebrae, Chips, cards, packs, the
// Croupier, gifts), the Exoptosis card game (seed 001: duels, battles and
// their matches), with the trades (internal/institutions/trades) and the
// 000 governance (the engine's) included. Its rules are the pure
// functions of internal/rules/{cards,economy,exoptosis}; this package
// applies them inside the engine's transaction.
package gildedhall

import (
	"context"
	"encoding/json"
	"fmt"

	engine "croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/players"
)

// ID is the ruleset id of Gilded Hall.
const ID = "gilded-hall"

// The module's own institutions (engine.Component names).
const (
	// InstCards is the economy: Vertebrae, Chips, cards, packs, the
	// Croupier, gifts, and the admin grants and revocations of them.
	InstCards = "cards"
	// InstExoptosis is seed 001: duels, battles and their matches.
	InstExoptosis = "exoptosis"
)

// The module's views.
var (
	viewShop    = engine.View{Name: "shop", Institution: InstCards, What: "shop (the Croupier sells nothing)"}
	viewMatches = engine.View{Name: "matches", Institution: InstExoptosis, What: "Exoptosis matches"}
)

// Module returns Gilded Hall as the engine runs it.
func Module() engine.Module {
	return engine.Module{
		ID: ID, Title: "Gilded Hall", Seasons: true,
		// Trades before Exoptosis: a departure withdraws its trades, then
		// forfeits its matches (the order of its log events).
		Components: []engine.Component{Holdings(), Cards(), trades.Component(), Exoptosis(), engine.Governance()},
		NewPlayer:  NewPlayer,
		Victory: func(t *engine.Tx, r engine.PlayerRecord) (bool, any) {
			p, _ := r.(*Player)
			if p == nil || !economy.Won(t.Rules, p) {
				return false, nil
			}
			return true, map[string]any{"chips": p.Inventory.Chips, "threshold": t.Rules.Thresholds.WinChips}
		},
		PlayerView: HoldingsView,
	}
}

// PlayerHoldings is a Gilded Hall player's part of their status: what they hold
// (Vertebrae, Chips, their deck and packs) and whether they may gift in this
// period. Its members are the player view's own (engine.PlayerView).
type PlayerHoldings struct {
	DeckSize  int               `json:"deck_size"`
	Inventory players.Inventory `json:"inventory"`
	// Deck is the deck grouped by card, in card-table order, with counts
	// and holographic copies (RULINGS C2); Packs groups unopened packs.
	Deck  []players.DeckEntry `json:"deck"`
	Packs []PackEntry         `json:"packs"`
	// CanGift: the player has not gifted in this period (RULINGS C4).
	CanGift bool `json:"can_gift"`
	// Battle is the battle the player engaged in during this phase (it
	// starts when the phase ends; RULINGS X10), if they did.
	Battle string `json:"battle,omitempty"`
}

// PackEntry is the unopened packs of one kind.
type PackEntry struct {
	Pack  string   `json:"pack"`
	Name  string   `json:"name"`
	Count int      `json:"count"`
	IDs   []string `json:"ids"`
}

// HoldingsOf reads a Gilded Hall player's holdings back from their view;
// false for a player of a ruleset without them.
func HoldingsOf(v engine.PlayerView) (PlayerHoldings, bool) {
	return engine.HoldingsAs[PlayerHoldings](v, "inventory")
}

// PlayerView is a Gilded Hall player's status with the holdings as fields of
// its own (what the tracker's pages and the tests read).
type PlayerView struct {
	engine.PlayerView
	PlayerHoldings
}

// ViewOf is v with its Gilded Hall holdings (empty ones for a player of a
// ruleset without them).
func ViewOf(v engine.PlayerView) PlayerView {
	h, ok := HoldingsOf(v)
	if !ok {
		h = PlayerHoldings{Inventory: players.Inventory{}.Normalized(), Deck: []players.DeckEntry{}, Packs: []PackEntry{}}
	}
	return PlayerView{PlayerView: v, PlayerHoldings: h}
}

// ViewsOf is ViewOf of each view.
func ViewsOf(vs []engine.PlayerView) []PlayerView {
	out := make([]PlayerView, len(vs))
	for i, v := range vs {
		out[i] = ViewOf(v)
	}
	return out
}

// MarshalJSON writes the view with these holdings (the engine view's own
// JSON, flat).
func (v PlayerView) MarshalJSON() ([]byte, error) {
	e := v.PlayerView
	e.Holdings = v.PlayerHoldings
	return json.Marshal(e)
}

// UnmarshalJSON reads a player view with its holdings.
func (v *PlayerView) UnmarshalJSON(b []byte) error {
	var e engine.PlayerView
	if err := json.Unmarshal(b, &e); err != nil {
		return err
	}
	*v = ViewOf(e)
	return nil
}

// HoldingsView fills in a player's holdings (Vertebrae, Chips, their deck
// and packs) and whether they may gift in this period: Gilded Hall's part
// of a player's status, which a module trading these items shows too.
func HoldingsView(t *engine.Tx, r engine.PlayerRecord, v *engine.PlayerView) error {
	p, _ := r.(*Player)
	if p == nil {
		return nil
	}
	h := PlayerHoldings{DeckSize: len(p.Inventory.Cards), Inventory: p.Inventory.Normalized(),
		Deck: cards.Group(t.Rules, p.Inventory.Cards), Packs: groupPacks(t, p.Inventory.Packs)}
	h.CanGift = p.Member && p.GiftPeriod != t.Period.ID
	if p.Member && p.BattlePeriod == t.Period.ID {
		h.Battle = battleID(t.Period.ID)
	}
	v.Holdings = h
	return nil
}

// InstHoldings is what a player holds: Vertebrae, Chips, cards and packs.
const InstHoldings = "holdings"

// Holdings is what a player holds as a component: a departure destroys it
// (seed 002 Items: an item owned by a non-player is destroyed), first, so
// the log keeps what it was. A module whose players hold these items
// (NewPlayer, HoldingsView) includes it.
func Holdings() engine.Component {
	return engine.Component{Name: InstHoldings, OnLeave: onLeave(func(_ *tx, p *Player, res *engine.LeaveResult) error {
		d := economy.DestroyHoldings(p)
		res.Destroyed = &d
		if d.Vertebrae+d.Chips+len(d.Cards)+len(d.Packs) > 0 {
			res.Lost = append(res.Lost, fmt.Sprintf("%s, %s, %s and %s", engine.Count(d.Vertebrae, "Vertebra", "Vertebrae"),
				engine.Count(d.Chips, "Chip", "Chips"), engine.Count(len(d.Cards), "card", "cards"), engine.Count(len(d.Packs), "pack", "packs")))
		}
		return nil
	})}
}

// NewPlayer is the record of a player who holds Gilded Hall's items: a new
// stint starts with nothing.
func NewPlayer(m engine.Player) engine.PlayerRecord { return &Player{Player: m} }

// onLeave adapts a leave hook on this module's records.
func onLeave(h func(t *tx, p *Player, res *engine.LeaveResult) error) func(*engine.Tx, engine.PlayerRecord, *engine.LeaveResult) error {
	return func(t *engine.Tx, r engine.PlayerRecord, res *engine.LeaveResult) error {
		p, err := asPlayer(r)
		if err != nil {
			return err
		}
		return h(wrap(t), p, res)
	}
}

// Cards is the economy component.
func Cards() engine.Component {
	return engine.Component{Name: InstCards, Views: []engine.View{viewShop}, OnAction: settleGifts, Events: cardsEvents(), Commands: []engine.Command{
		{Name: "purchase", Institution: InstCards, Action: true, Draws: true, What: "purchases from the Croupier", Summary: "Buy from the Croupier", Call: method((*Service).Purchase), Says: saysPurchase},
		{Name: "open", Institution: InstCards, Action: true, Draws: true, What: "packs", Summary: "Open a pack", Call: method((*Service).Open), Says: saysOpen},
		{Name: "gift", Institution: InstCards, Action: true, Draws: true, What: "gifts", Summary: "Gift random cards to another player (once a period)", Call: method((*Service).Gift), Says: saysGift},
		{Name: "grant", Institution: InstCards, Admin: true, Draws: true, What: "grants of Vertebrae, Chips, cards or packs", Summary: "Grant items to a player (admins)", Call: method((*Service).Grant), Says: saysGrant},
		{Name: "revoke", Institution: InstCards, Admin: true, What: "revocations of Vertebrae, Chips, cards or packs", Summary: "Take specific items from a player (admins)", Call: method((*Service).Revoke), Says: saysRevoke},
		{Name: "import", Institution: InstCards, Admin: true, What: "imports of holdings", Summary: "Carry players and their holdings over in one correction (admins)", Call: method((*Service).Import), Says: saysImport},
		{Name: "import-revoke", Institution: InstCards, Admin: true, What: "revocations of imports", Summary: "Undo an import as a whole (admins)", Call: method((*Service).RevokeImport), Says: saysImport},
	}}
}

// Exoptosis is the card game component (seed 001).
func Exoptosis() engine.Component {
	cmds := []engine.Command{
		{Name: "duel-request", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Request a duel", Call: method((*Service).RequestDuel, engine.Creates), Says: saysMatch},
		{Name: "duel-accept", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Accept a duel", Call: answerDuel(true), Says: saysMatch},
		{Name: "duel-decline", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Decline a duel", Call: answerDuel(false), Says: saysMatch},
		{Name: "battle-engage", Institution: InstExoptosis, Action: true, What: "battles", Summary: "Engage in this phase's battle", Call: engine.Bare(func(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
			return On(s).EngageBattle(ctx, req)
		}), Says: saysBattle},
		{Name: "match-timeout", Institution: InstExoptosis, Draws: true, AfterEnd: true, Scheduled: true, What: "Exoptosis matches"},
	}
	for _, k := range moveKinds {
		cmds = append(cmds, engine.Command{Name: "match-" + k, Institution: InstExoptosis, Action: true, Draws: true, What: "Exoptosis matches", Summary: "Make the move " + k + " in an Exoptosis match", Call: moveCall(k), Answer: answerMove, Says: saysMove})
	}
	return engine.Component{Name: InstExoptosis, Commands: cmds, Views: []engine.View{viewMatches}, Events: exoptosisEvents(),
		Due: []engine.DueWork{matchWork}, AtPeriodEnd: []engine.AtHook{formBattleAtPeriodEnd},
		OnLeave: onLeave(func(t *tx, p *Player, _ *engine.LeaveResult) error {
			return t.leaveMatches(p) // match_leave.go: forfeits, duel requests, battle engagement
		})}
}

// method is the Call of one of this module's command methods.
func method(m any, opts ...engine.CallOption) *engine.Call { return engine.MethodVia(m, via, opts...) }

// via is the module's service over the engine's.
func via(s *engine.Service) any { return On(s) }

// MatchRef is the payload of duel-accept and duel-decline.
type MatchRef struct {
	Match string `json:"match"`
}

// answerDuel is the Call of duel-accept (accept) or duel-decline.
func answerDuel(accept bool) *engine.Call {
	return method(func(s *Service, ctx context.Context, req engine.Request, m MatchRef) (*engine.Result, error) {
		return s.AnswerDuel(ctx, req, AnswerDuel{Match: m.Match, Accept: accept})
	})
}

// MoveArgs is the payload of a match-<kind> command: a MatchMove whose kind
// is the command's name.
type MoveArgs struct {
	Match   string   `json:"match"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
}

// moveCall is the Call of the match-<kind> command.
func moveCall(kind string) *engine.Call {
	return method(func(s *Service, ctx context.Context, req engine.Request, a MoveArgs) (*engine.Result, error) {
		return s.Move(ctx, req, MatchMove{Match: a.Match, Kind: kind, Card: a.Card, Cards: a.Cards, Target: a.Target, Targets: a.Targets, Amount: a.Amount})
	})
}

// Player is a Gilded Hall player's status with their holdings.
func (s *Service) Player(ctx context.Context, game, id string) (PlayerView, error) {
	v, err := s.Service.Player(ctx, game, id)
	return ViewOf(v), err
}

// Players lists the game's current players with their holdings.
func (s *Service) Players(ctx context.Context, game string) ([]PlayerView, error) {
	vs, err := s.Service.Players(ctx, game)
	return ViewsOf(vs), err
}
