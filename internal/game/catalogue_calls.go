package game

import (
	"context"
	"fmt"
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

// CallOption sets a flag of a Call.
type CallOption func(*Call)

// The flags of a Call.
var (
	// Optional: the payload may be omitted.
	Optional CallOption = func(c *Call) { c.Optional = true }
	// Creates: the command creates the record its result describes.
	Creates  CallOption = func(c *Call) { c.Creates = true }
	optional            = Optional
	creates             = Creates
)

// Method is the Call of a command function m, a
// func(*Service, context.Context, Request, P) (*Result, error) whose
// payload is a P: how a module makes its commands callable by name. It is
// not generic: a generic Method was stenciled for every payload's shape,
// 40 KB of code and names in each Lambda (TestBootstrapSizes); m's
// signature is checked when the catalogue is built, which every test and
// every start does.
func Method(m any, opts ...CallOption) *Call { return MethodVia(m, nil, opts...) }

// MethodVia is Method for a function whose first argument is what via
// makes of the engine's service (a module's own service type); nil via
// passes the engine's.
func MethodVia(m any, via func(*Service) any, opts ...CallOption) *Call {
	fn := reflect.ValueOf(m)
	t := fn.Type()
	if t.Kind() != reflect.Func || t.NumIn() != 4 || t.NumOut() != 2 || t.In(1) != ctxType || t.In(2) != requestType ||
		t.Out(0) != resultType || t.Out(1) != errorType || via == nil && !serviceType.AssignableTo(t.In(0)) {
		panic(fmt.Sprintf("game: %s is no command function func(service, context.Context, Request, payload) (*Result, error)", t))
	}
	pt := t.In(3)
	c := &Call{
		Payload: func() any { return reflect.New(pt).Interface() },
		Run: func(ctx context.Context, s *Service, req Request, p any) (*Result, error) {
			recv := reflect.ValueOf(s)
			if via != nil {
				recv = reflect.ValueOf(via(s))
			}
			out := fn.Call([]reflect.Value{recv, reflect.ValueOf(&ctx).Elem(), reflect.ValueOf(req), reflect.ValueOf(p).Elem()})
			res, _ := out[0].Interface().(*Result)
			err, _ := out[1].Interface().(error)
			return res, err
		},
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

var (
	ctxType     = reflect.TypeFor[context.Context]()
	requestType = reflect.TypeFor[Request]()
	resultType  = reflect.TypeFor[*Result]()
	errorType   = reflect.TypeFor[error]()
	serviceType = reflect.TypeFor[*Service]()
)

// call is the Call of one of the engine's command methods (a method
// expression on commands, which the service implements).
func call(m any, opts ...CallOption) *Call { return Method(m, opts...) }

// NoPayload is the payload of a command without arguments: {} or nothing.
type NoPayload struct{}

// Bare is the Call of a command function without arguments.
func Bare(m func(*Service, context.Context, Request) (*Result, error)) *Call {
	c := &Call{Payload: func() any { return new(NoPayload) }, Optional: true}
	c.Run = func(ctx context.Context, s *Service, req Request, _ any) (*Result, error) { return m(s, ctx, req) }
	return c
}

func bare(m func(commands, context.Context, Request) (*Result, error)) *Call {
	return Bare(func(s *Service, ctx context.Context, req Request) (*Result, error) { return m(s, ctx, req) })
}

// A record's id, as the payload of a command on that record.
type (
	// ProposalRef is the payload of proposal-withdraw.
	ProposalRef struct {
		Proposal string `json:"proposal"`
	}
	// RulingRef is the payload of ruling-overturn.
	RulingRef struct {
		Ruling string `json:"ruling"`
	}
)

// RecordID is the id of the record a payload names.
func (r ProposalRef) RecordID() string { return r.Proposal }

// RecordID is the id of the record a payload names.
func (r RulingRef) RecordID() string { return r.Ruling }

// ByID is the Call of a command method on the record a P names.
func ByID[P interface{ RecordID() string }](m func(commands, context.Context, Request, string) (*Result, error)) *Call {
	return &Call{Payload: func() any { return new(P) }, Run: func(ctx context.Context, s *Service, req Request, p any) (*Result, error) {
		return m(s, ctx, req, p.(interface{ RecordID() string }).RecordID())
	}}
}

// Callable returns the command name for an edge to run in game, or refuses
// it with unknown_command, naming the commands an edge may call there: a
// name the catalogue lacks, or one no edge calls by name (Command.Call).
// Whether the game's ruleset has the command is the command's own check
// (not_in_ruleset, RULINGS R3), when it runs.
func (s *Service) Callable(ctx context.Context, game, name string) (Command, error) {
	if c, ok := s.CommandNamed(name); ok && c.Call != nil {
		return c, nil
	}
	if !ValidGameID(game) {
		return Command{}, rules.Refuse("invalid_game_id", "%q is not a valid game id.", game)
	}
	id, err := s.RulesetOf(ctx, game)
	if err != nil {
		return Command{}, err
	}
	has := s.CallableIn(id)
	why := "There is no command %q"
	if c, ok := s.CommandNamed(name); ok && c.Scheduled {
		why = "The command %q is the scheduler's, not one to call,"
	} else if ok {
		why = "The command %q is not one to call by name,"
	}
	title := s.title(id)
	return Command{}, rules.Refuse("unknown_command", why+" in the %s game %q. Its commands are: %s.", name, title, game, strings.Join(has, ", ")).
		With("ruleset", id).With("command", name).With("commands", has)
}

// CallableIn returns the names of the commands of ruleset id an edge may
// call by name, in catalogue order: the one list of a ruleset's commands
// that GET .../commands, the not_in_ruleset and unknown_command refusals
// and help all give (issue 24 point 7), platform reports included (a
// bridge calls them), the scheduler's and bind (a chat platform's own
// proof of a server's admin) not.
func (r *Registry) CallableIn(id string) []string {
	var out []string
	for _, c := range r.commands {
		if c.Call != nil && r.HasCommand(id, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}
