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
	"slices"

	engine "croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/cards"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/exoptosis"
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
		{Name: "purchase", Institution: InstCards, Action: true, Draws: true, What: "purchases from the Croupier", Summary: "Buy from the Croupier", Call: method((*Service).Purchase), Says: saysPurchase,
			Chat: "buy", Private: true,
			Help: "A purchase is all or nothing (RULINGS C6): the whole quantity, paid in the item's currency, or none of it.",
			Args: []engine.Arg{
				{Name: "item", Type: engine.FieldString, Required: true, Positional: true, Description: "What to buy: a Croupier item's id (the shop lists them)", Suggest: &SuggestShop},
				{Name: "quantity", Type: engine.FieldInteger, Positional: true, Min: engine.Bound(1), Max: engine.Bound(economy.MaxQuantity), Description: "How many (default 1)"},
			}},
		{Name: "open", Institution: InstCards, Action: true, Draws: true, What: "packs", Summary: "Open a pack", Call: method((*Service).Open), Says: saysOpen,
			Args: []engine.Arg{
				{Name: "pack", Type: engine.FieldString, Required: true, Positional: true, Description: "The pack: its id, its kind or its name (your oldest of that kind)", Suggest: &SuggestMyPacks},
			}},
		{Name: "gift", Institution: InstCards, Action: true, Draws: true, What: "gifts", Summary: "Gift random cards to another player (once a period)", Call: method((*Service).Gift), Says: saysGift,
			Help: "Once a period, random cards for another player (RULINGS C4): more when they are inactive or hold a small deck, and a card back for you if an inactive receiver acts in the period.",
			Args: []engine.Arg{
				// In chat "player", as players and bridges have long sent it.
				{Name: "to", Type: engine.FieldPlayer, Required: true, Positional: true, Description: "Who receives it", ChatOption: "player"},
			}},
		{Name: "grant", Institution: InstCards, Admin: true, Draws: true, What: "grants of Vertebrae, Chips, cards or packs", Summary: "Grant items to a player (admins)", Call: method((*Service).Grant), Says: saysGrant,
			Args: []engine.Arg{
				{Name: "player", Type: engine.FieldPlayer, Required: true, Positional: true, Description: "Who receives them"},
				{Name: "vertebrae", Type: engine.FieldInteger, Min: engine.Bound(-MaxGrant), Max: engine.Bound(MaxGrant), Description: "Vertebrae to add (negative takes)"},
				{Name: "chips", Type: engine.FieldInteger, Min: engine.Bound(-MaxGrant), Max: engine.Bound(MaxGrant), Description: "Chips to add (negative takes)"},
				{Name: "cards", Type: engine.FieldJSON, Description: `Cards by name, e.g. [{"name":"Red Joker","holo":true,"count":2}]`},
				{Name: "random_cards", Type: engine.FieldInteger, Min: engine.Bound(0), Max: engine.Bound(MaxGrantItems), Description: "Random cards to draw"},
				{Name: "packs", Type: engine.FieldJSON, Description: `Packs by kind, e.g. [{"pack":"handy-pack","count":2}]`},
				{Name: "reason", Type: engine.FieldString, Required: true, Description: "Why (kept in the log)"},
			}},
		{Name: "revoke", Institution: InstCards, Admin: true, What: "revocations of Vertebrae, Chips, cards or packs", Summary: "Take specific items from a player (admins)", Call: method((*Service).Revoke), Says: saysRevoke,
			Help: "All or nothing: a player who lacks any of the items keeps them all.",
			Args: []engine.Arg{
				{Name: "player", Type: engine.FieldPlayer, Required: true, Positional: true, Description: "Whose items"},
				{Name: "vertebrae", Type: engine.FieldInteger, Min: engine.Bound(0), Description: "Vertebrae to take"},
				{Name: "chips", Type: engine.FieldInteger, Min: engine.Bound(0), Description: "Chips to take"},
				{Name: "cards", Type: engine.FieldStrings, Description: "Card ids", Suggest: &SuggestTheirCards},
				{Name: "packs", Type: engine.FieldStrings, Description: "Pack ids", Suggest: &SuggestTheirPacks},
				{Name: "components", Type: engine.FieldJSON, Description: `Ritual Components by id, e.g. {"herbs":2} (the Obelisk's; none here)`},
				{Name: "reason", Type: engine.FieldString, Required: true, Description: "Why (kept in the log)"},
			}},
		{Name: "import", Institution: InstCards, Admin: true, What: "imports of holdings", Summary: "Carry players and their holdings over in one correction (admins)", Call: method((*Service).Import), Says: saysImport,
			Help: "Each row names a player (identity and name) and what they hold; the import is one logged correction, revocable as a whole (import-revoke). croupier play import FILE reads a CSV file.",
			Args: []engine.Arg{{Name: "rows", Type: engine.FieldJSON, Required: true, Description: `The players and holdings: [{"player":"discord:2","name":"Bob","vertebrae":3,"cards":[{"name":"Ace of Spades"}]}]`},
				{Name: "reason", Type: engine.FieldString, Required: true, Description: "Why, for the log"}}},
		{Name: "import-revoke", Institution: InstCards, Admin: true, What: "revocations of imports", Summary: "Undo an import as a whole (admins)", Call: method((*Service).RevokeImport), Says: saysImport,
			Args: []engine.Arg{{Name: "import", Type: engine.FieldString, Required: true, Positional: true, Description: "The import, by id"},
				{Name: "reason", Type: engine.FieldString, Required: true, Description: "Why, for the log"}}},
	}}
}

// Exoptosis is the card game component (seed 001).
func Exoptosis() engine.Component {
	cmds := []engine.Command{
		{Name: "duel-request", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Request a duel", Call: method((*Service).RequestDuel, engine.Creates), Says: saysMatch,
			Chat: "duel request",
			Help: "The duel starts as soon as every player asked accepts (RULINGS X11); a decline cancels it.",
			Args: []engine.Arg{{Name: "invitees", Type: engine.FieldPlayers, Required: true, Positional: true, Description: "The players you ask to the duel"}}},
		{Name: "duel-accept", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Accept a duel", Call: answerDuel(true), Says: saysMatch,
			Chat: "duel answer", Args: []engine.Arg{duelArg}},
		{Name: "duel-decline", Institution: InstExoptosis, Action: true, What: "duels", Summary: "Decline a duel", Call: answerDuel(false), Says: saysMatch,
			Chat: "duel answer", Help: "A decline cancels the duel for everyone; the requester declining withdraws it.", Args: []engine.Arg{duelArg}},
		{Name: "battle-engage", Institution: InstExoptosis, Action: true, What: "battles", Summary: "Engage in this phase's battle", Call: engine.Bare(func(s *engine.Service, ctx context.Context, req engine.Request) (*engine.Result, error) {
			return On(s).EngageBattle(ctx, req)
		}), Says: saysBattle, Chat: "battle", Help: "The battle is one match of everyone who engaged in the phase (4 or more cards in their deck), starting when the phase ends (RULINGS X10); its winner also gets a random reward."},
		{Name: "match-timeout", Institution: InstExoptosis, Draws: true, AfterEnd: true, Scheduled: true, What: "Exoptosis matches"},
	}
	for _, k := range moveKinds {
		cmds = append(cmds, engine.Command{Name: "match-" + k, Institution: InstExoptosis, Action: true, Draws: true, What: "Exoptosis matches", Summary: "Make the move " + k + " in an Exoptosis match", Call: moveCall(k), Answer: answerMove, Says: saysMove,
			Chat: "match move", Args: moveArgs(k)})
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

// MatchRef is the payload of duel-accept and duel-decline: the duel, or
// none for the only one waiting for the actor's answer (onlyDuel).
type MatchRef struct {
	Match string `json:"match,omitempty"`
}

// answerDuel is the Call of duel-accept (accept) or duel-decline.
func answerDuel(accept bool) *engine.Call {
	return method(func(s *Service, ctx context.Context, req engine.Request, m MatchRef) (*engine.Result, error) {
		if m.Match == "" {
			id, err := s.onlyDuel(ctx, req, accept)
			if err != nil {
				return nil, err
			}
			m.Match = id
		}
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

// duelArg is the match argument of a duel's answer.
var duelArg = engine.Arg{Name: "match", Type: engine.FieldString, Positional: true, Description: "The duel, by id (default: the only one waiting for your answer)", Suggest: &SuggestMyMatches}

// matchArg is the match argument of a move.
func matchArg(what string) engine.Arg {
	return engine.Arg{Name: "match", Type: engine.FieldString, Required: true, Positional: true, Description: what + ": the match's id", Suggest: &SuggestMyMatches}
}

// moveArgs are the arguments of match-<kind>: the match, then what the
// kind reads (MoveArgs); the others are described as unused by it.
func moveArgs(kind string) []engine.Arg {
	uses := func(what, desc string) string {
		if slices.Contains(moveUses[kind], what) {
			return desc
		}
		return desc + " (not for " + kind + ")"
	}
	return []engine.Arg{
		matchArg("The match"),
		{Name: "card", Type: engine.FieldString, Description: uses("card", "The card: played, added, given, or a Queen's"), Suggest: &SuggestMatchCards},
		{Name: "cards", Type: engine.FieldStrings, Description: uses("cards", "The cards of your hand"), Suggest: &SuggestMatchCards},
		{Name: "target", Type: engine.FieldPlayer, Description: uses("target", "Who gives you a card")},
		{Name: "targets", Type: engine.FieldPlayers, Description: uses("targets", "The effect's targets (a King's two)")},
		{Name: "amount", Type: engine.FieldInteger, Min: engine.Bound(1), Description: uses("amount", "The new level: what each must bet in all")},
	}
}

// moveUses are the members of MoveArgs each move kind reads (RULINGS
// X1-X9; a Queen's target names a card too).
var moveUses = map[string][]string{
	exoptosis.MoveSelect: {"cards"}, exoptosis.MoveRaise: {"amount"}, exoptosis.MoveBet: {"amount"},
	exoptosis.MovePlay: {"card"}, exoptosis.MoveAdd: {"card"}, exoptosis.MoveGive: {"card"},
	exoptosis.MoveGiver: {"target"}, exoptosis.MoveTarget: {"targets", "card"},
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
