package game

import (
	"context"
	"reflect"
	"strings"

	"croupier/internal/rules"
)

// Call is how an edge runs a catalogue command by name: the payload it
// decodes a request into, and the service method that runs it. A command
// whose other routes name a record in their path (a trade, a match, a
// proposal, a ruling) takes that record's id in its payload here.
type Call struct {
	// Payload returns a pointer to a new zero payload to decode into.
	Payload func() any
	// Run runs the command with a payload Payload returned, filled in.
	Run func(ctx context.Context, s *Service, req Request, payload any) (*Result, error)
	// Optional: the payload may be omitted, meaning the zero payload.
	Optional bool
	// Creates: the command creates the record its result describes (an
	// HTTP edge answers 201 Created).
	Creates bool
}

// PayloadType is the type of the command's payload.
func (c *Call) PayloadType() reflect.Type { return reflect.TypeOf(c.Payload()).Elem() }

// commands is the service's command methods as the catalogue's calls name
// them. They go through this interface because a method expression on an
// interface is no initialisation dependency: the catalogue names the
// methods, and the methods (through run) read the catalogue.
type commands interface {
	Join(context.Context, Request, JoinGame) (*Result, error)
	Leave(context.Context, Request) (*Result, error)
	Roll(context.Context, Request, RollDice) (*Result, error)
	Amend(context.Context, Request, Amend) (*Result, error)
	PushReactions(context.Context, Request, PushReactions) (*Result, error)
	PushMessageEvent(context.Context, Request, MessageEvent) (*Result, error)
	Purchase(context.Context, Request, Purchase) (*Result, error)
	Open(context.Context, Request, OpenPack) (*Result, error)
	Gift(context.Context, Request, Gift) (*Result, error)
	Grant(context.Context, Request, Grant) (*Result, error)
	Revoke(context.Context, Request, Revoke) (*Result, error)
	RequestDuel(context.Context, Request, RequestDuel) (*Result, error)
	AnswerDuel(context.Context, Request, AnswerDuel) (*Result, error)
	EngageBattle(context.Context, Request) (*Result, error)
	Move(context.Context, Request, MatchMove) (*Result, error)
	OfferTrade(context.Context, Request, OfferTrade) (*Result, error)
	AcceptTrade(context.Context, Request, string) (*Result, error)
	WithdrawTrade(context.Context, Request, string) (*Result, error)
	SubmitProposal(context.Context, Request, SubmitProposal) (*Result, error)
	WithdrawProposal(context.Context, Request, string) (*Result, error)
	RequestJustice(context.Context, Request, RequestJustice) (*Result, error)
	Rule(context.Context, Request, RuleOn) (*Result, error)
	Overturn(context.Context, Request, string) (*Result, error)
	OpenConfidence(context.Context, Request, OpenConfidence) (*Result, error)
	AssentRemoval(context.Context, Request) (*Result, error)
	Resign(context.Context, Request) (*Result, error)
	StandForJudge(context.Context, Request, StandForJudge) (*Result, error)
}

var _ commands = (*Service)(nil)

// callOption sets a flag of a Call.
type callOption func(*Call)

var (
	optional callOption = func(c *Call) { c.Optional = true }
	creates  callOption = func(c *Call) { c.Creates = true }
)

// call is the Call of a command method whose payload is a P.
func call[P any](m func(commands, context.Context, Request, P) (*Result, error), opts ...callOption) *Call {
	c := &Call{
		Payload: func() any { return new(P) },
		Run: func(ctx context.Context, s *Service, req Request, p any) (*Result, error) {
			return m(s, ctx, req, *p.(*P))
		},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

// NoPayload is the payload of a command without arguments: {} or nothing.
type NoPayload struct{}

// bare is the Call of a command method without arguments.
func bare(m func(commands, context.Context, Request) (*Result, error)) *Call {
	return call(func(s commands, ctx context.Context, req Request, _ NoPayload) (*Result, error) {
		return m(s, ctx, req)
	}, optional)
}

// A record's id, as the payload of a command on that record.
type (
	// TradeRef is the payload of trade-accept and trade-withdraw.
	TradeRef struct {
		Trade string `json:"trade"`
	}
	// ProposalRef is the payload of proposal-withdraw.
	ProposalRef struct {
		Proposal string `json:"proposal"`
	}
	// RulingRef is the payload of ruling-overturn.
	RulingRef struct {
		Ruling string `json:"ruling"`
	}
	// MatchRef is the payload of duel-accept and duel-decline.
	MatchRef struct {
		Match string `json:"match"`
	}
)

func (r TradeRef) id() string    { return r.Trade }
func (r ProposalRef) id() string { return r.Proposal }
func (r RulingRef) id() string   { return r.Ruling }

// byID is the Call of a command method on the record a P names.
func byID[P interface{ id() string }](m func(commands, context.Context, Request, string) (*Result, error)) *Call {
	return call(func(s commands, ctx context.Context, req Request, p P) (*Result, error) {
		return m(s, ctx, req, p.id())
	})
}

// answerDuel is the Call of duel-accept (accept) or duel-decline.
func answerDuel(accept bool) *Call {
	return call(func(s commands, ctx context.Context, req Request, m MatchRef) (*Result, error) {
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
func moveCall(kind string) *Call {
	return call(func(s commands, ctx context.Context, req Request, a MoveArgs) (*Result, error) {
		return s.Move(ctx, req, MatchMove{Match: a.Match, Kind: kind, Card: a.Card, Cards: a.Cards, Target: a.Target, Targets: a.Targets, Amount: a.Amount})
	})
}

// Callable returns the command name for an edge to run in game, or refuses
// it with unknown_command, naming the commands an edge may call there: a
// name the catalogue lacks, or one no edge calls by name (Command.Call).
// Whether the game's ruleset has the command is the command's own check
// (not_in_ruleset, RULINGS R3), when it runs.
func (s *Service) Callable(ctx context.Context, game, name string) (Command, error) {
	if c, ok := CommandNamed(name); ok && c.Call != nil {
		return c, nil
	}
	if !ValidGameID(game) {
		return Command{}, rules.Refuse("invalid_game_id", "%q is not a valid game id.", game)
	}
	id, err := s.rulesetOf(ctx, game)
	if err != nil {
		return Command{}, err
	}
	has := CallableIn(id)
	why := "There is no command %q"
	if c, ok := CommandNamed(name); ok && c.Scheduled {
		why = "The command %q is the scheduler's, not one to call,"
	} else if ok {
		why = "The command %q is not one to call by name,"
	}
	title := id
	if sh, ok := shapes[id]; ok {
		title = sh.Title
	}
	return Command{}, rules.Refuse("unknown_command", why+" in the %s game %q. Its commands are: %s.", name, title, game, strings.Join(has, ", ")).
		With("ruleset", id).With("command", name).With("commands", has)
}

// CallableIn returns the names of the commands of ruleset id an edge may
// call by name, in catalogue order.
func CallableIn(id string) []string {
	var out []string
	for _, c := range catalogue {
		if c.Call != nil && RulesetHas(id, c.Institution) {
			out = append(out, c.Name)
		}
	}
	return out
}
