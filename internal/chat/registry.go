package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"croupier/internal/game"
)

// Kind is how a command is invoked.
type Kind int

const (
	// Slash is a typed command ("/trade offer player:@ada ...", "/croupier
	// trade offer ..." on Slack).
	Slash Kind = iota
	// UserMenu is a context-menu command on a user (Discord "Apps" menu).
	UserMenu
	// MessageMenu is a context-menu command on a message.
	MessageMenu
)

// OptionType is an option's value type.
type OptionType int

const (
	String OptionType = iota
	Integer
	Boolean
	// User values arrive as platform identities ("discord:123").
	User
	// Channel values arrive as the platform's channel id.
	Channel
)

// Completion names an autocomplete provider (RegisterCompletion).
type Completion string

// The autocomplete kinds this package provides.
const (
	// CompleteCards: card names of the game's ruleset card table.
	CompleteCards Completion = "cards"
	// CompleteShop: the Croupier's items (id, with name and price).
	CompleteShop Completion = "shop"
	// CompleteMyCards: the caller's own card copies (id, with card name).
	CompleteMyCards Completion = "my-cards"
	// CompleteMyPacks: the caller's unopened packs (id, with pack name).
	CompleteMyPacks Completion = "my-packs"
	// CompleteTheirCards: card copies of the player named in option
	// "player" (for the taking side of a trade offer).
	CompleteTheirCards Completion = "their-cards"
	// CompleteTheirPacks: packs of the player named in option "player".
	CompleteTheirPacks Completion = "their-packs"
	// CompleteMyTrades: open trades the caller is a party to.
	CompleteMyTrades Completion = "my-trades"
)

// Option is one typed option of a command.
type Option struct {
	Name        string
	Description string
	Type        OptionType
	Required    bool
	// Choices, when set, are the only values allowed (shown as a list).
	Choices []Choice
	// Complete, when set, suggests values as the user types.
	Complete Completion
	// Min and Max bound an Integer (nil: unbounded).
	Min, Max *int
}

// Handler runs a command for an invocation whose Game the Router has set
// (unless the command is NoGame). A *rules.Error it returns is shown to the
// user as a refusal.
type Handler func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error)

// Command is one entry of the command table.
type Command struct {
	// Name is the command path: "join", "trade offer" (a top-level name and
	// a subcommand), or a context-menu name ("Submit as proposal").
	Name        string
	Description string
	Kind        Kind
	Options     []Option
	Handler     Handler
	// Admin marks commands for the game's admins (the game enforces it;
	// platforms may also hide them from other members).
	Admin bool
	// NoGame: the command runs without a bound game (help, bind).
	NoGame bool
	// Private: the reply is for the caller alone (status, inventory...).
	// Platforms that must answer before the reply exists (a deferred
	// Discord response) use it to keep the answer private.
	Private bool
	// Hidden commands are not registered with the platform: they are run
	// only by buttons and selects ("buy confirm").
	Hidden bool
	// Placeholder entries may be replaced by a later Register of the same
	// name (commands whose area has not landed yet).
	Placeholder bool
}

var (
	regMu    sync.RWMutex
	registry = map[string]Command{}
)

// Register adds commands to the table (call it from init). It panics on a
// duplicate name (unless the existing entry is a Placeholder) or an entry
// without a name or handler: these are programming errors, found at start-up.
func Register(cmds ...Command) {
	regMu.Lock()
	defer regMu.Unlock()
	for _, c := range cmds {
		if c.Name == "" || c.Handler == nil {
			panic(fmt.Sprintf("chat.Register: command %q needs a name and a handler", c.Name))
		}
		if old, ok := registry[c.Name]; ok && !old.Placeholder {
			panic(fmt.Sprintf("chat.Register: command %q is registered twice", c.Name))
		}
		if c.Kind == Slash && len(strings.Fields(c.Name)) > 2 {
			panic(fmt.Sprintf("chat.Register: command %q: at most a name and a subcommand", c.Name))
		}
		registry[c.Name] = c
	}
}

// Lookup returns the command named name.
func Lookup(name string) (Command, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	c, ok := registry[name]
	return c, ok
}

// Commands returns every command, sorted by kind then name.
func Commands() []Command {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]Command, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Command) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Option returns the command's option named name.
func (c Command) Option(name string) (Option, bool) {
	i := slices.IndexFunc(c.Options, func(o Option) bool { return o.Name == name })
	if i < 0 {
		return Option{}, false
	}
	return c.Options[i], true
}

// CompletionFunc suggests values for an option as the user types partial.
// inv carries the other options typed so far.
type CompletionFunc func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error)

var completions = map[Completion]CompletionFunc{}

// RegisterCompletion adds an autocomplete provider (call it from init).
func RegisterCompletion(kind Completion, fn CompletionFunc) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := completions[kind]; ok {
		panic(fmt.Sprintf("chat.RegisterCompletion: %q is registered twice", kind))
	}
	completions[kind] = fn
}

func completion(kind Completion) (CompletionFunc, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	fn, ok := completions[kind]
	return fn, ok
}

func intp(n int) *int { return &n }
