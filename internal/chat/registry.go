package chat

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"croupier/internal/game"
	"croupier/internal/order"
	"croupier/internal/ruleset"
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

// Completion names an option's source of suggestions (a game.Suggest's
// Name): set, a platform offers autocompletion for the option.
type Completion string

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
	// suggest is the declaration's source of suggestions (game.Arg), for
	// an option made from a catalogue command's argument.
	suggest *game.Suggest
	// In, when set, says which rulesets have the option, from their data:
	// a ruleset whose data it does not fit is not offered it (a trade
	// offer's cards in the Gilded Hall, its components in the Obelisk), and
	// a game of that ruleset refuses it (OptionsIn).
	In func(rs *ruleset.Ruleset) bool
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
	// Runs names the catalogue commands (game.Catalogue) and institution
	// views (game.Views) the command runs. A ruleset offers the command
	// when it has every one of them (RULINGS R3); a command that names
	// none (help, status, the log...) is offered by every ruleset.
	Runs []string
	// Past: the command is a view of the game that reads it as of a past
	// moment too: it takes the option at (past.go), and its handler then
	// runs over the game as it was.
	Past bool
}

// InRuleset reports whether ruleset id offers c: whether it has every
// catalogue command and view c runs.
func (c Command) InRuleset(reg *game.Registry, id string) bool {
	for _, name := range c.Runs {
		if !reg.Has(id, name) {
			return false
		}
	}
	return true
}

// groups lists every area's commands, once: the command table. Each area's
// function (playerCommands in commands_players.go...) declares its commands
// as values; nothing is added from init().
func groups() [][]Command {
	return [][]Command{playerCommands(), adminCommands(), economyCommands(), exoptosisCommands(), governanceCommands(), obeliskCommands(), turnsCommands(), rulesCommands()}
}

var (
	tableOnce sync.Once
	tableMu   sync.RWMutex
	table     map[string]Command
	// covered are the catalogue commands some command of the table runs
	// (Runs): the declared commands chat does not offer as they are
	// (catalogue.go), kept with the table rather than found per lookup.
	covered map[string]bool
)

// commandTable returns the table, built from groups on first use (built
// lazily, not as a package variable's initialiser, because help reads the
// table it is in).
func commandTable() map[string]Command {
	tableOnce.Do(func() {
		t := map[string]Command{}
		for _, g := range groups() {
			for _, c := range g {
				add(t, c)
			}
		}
		cov := map[string]bool{}
		for _, c := range t {
			for _, name := range c.Runs {
				cov[name] = true
			}
		}
		tableMu.Lock()
		table, covered = t, cov
		tableMu.Unlock()
	})
	return table
}

// add puts c in t. It panics on a duplicate name or an entry without a name
// or handler: these are programming errors, found by every test.
func add(t map[string]Command, c Command) {
	if c.Name == "" || c.Handler == nil {
		panic(fmt.Sprintf("chat: command %q needs a name and a handler", c.Name))
	}
	if _, ok := t[c.Name]; ok {
		panic(fmt.Sprintf("chat: command %q is in the table twice", c.Name))
	}
	if c.Kind == Slash && len(strings.Fields(c.Name)) > 2 {
		panic(fmt.Sprintf("chat: command %q: at most a name and a subcommand", c.Name))
	}
	t[c.Name] = withAt(c)
}

// Register adds a test's own commands to the table (the Croupier's own are
// listed in groups). It panics on a duplicate name.
func Register(cmds ...Command) {
	commandTable()
	tableMu.Lock()
	defer tableMu.Unlock()
	for _, c := range cmds {
		add(table, c)
		// A copy: a reader may hold the previous set.
		cov := maps.Clone(covered)
		for _, name := range c.Runs {
			cov[name] = true
		}
		covered = cov
	}
}

// Lookup returns the command named name.
func Lookup(name string) (Command, bool) {
	t := commandTable()
	tableMu.RLock()
	defer tableMu.RUnlock()
	c, ok := t[name]
	return c, ok
}

// Commands returns every command, sorted by kind then name.
func Commands() []Command {
	t := commandTable()
	tableMu.RLock()
	defer tableMu.RUnlock()
	out := make([]Command, 0, len(t))
	for _, c := range t {
		out = append(out, c)
	}
	order.Sort(out, func(a, b Command) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// CommandsFor returns the commands ruleset id offers, sorted as Commands:
// the table's it has, and its catalogue commands the table does not cover
// (catalogue.go).
func CommandsFor(reg *game.Registry, id string) []Command {
	out := slices.DeleteFunc(Commands(), func(c Command) bool { return !c.InRuleset(reg, id) })
	if rs, err := reg.Data(id); err == nil {
		for i := range out {
			out[i].Options = out[i].OptionsIn(rs)
		}
	}
	out = append(out, catalogueCommands(reg, id)...)
	order.Stable(out, func(a, b Command) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// OptionsIn returns the options of c that ruleset data rs has (Option.In).
func (c Command) OptionsIn(rs *ruleset.Ruleset) []Option {
	var out []Option
	for _, o := range c.Options {
		if o.In == nil || o.In(rs) {
			out = append(out, o)
		}
	}
	return out
}

// refuseForeignOptions refuses the options inv sets that the game's
// ruleset data rs does not have (Option.In), naming those it has: a
// client that registered every ruleset's options (Slack, a global
// registration) must not reach the engine with them.
func refuseForeignOptions(cmd Command, inv *Invocation, rs *ruleset.Ruleset) error {
	var foreign, ours []string
	for _, o := range cmd.Options {
		if o.In == nil {
			continue
		}
		if o.In(rs) {
			ours = append(ours, o.Name)
		} else if inv.Opt(o.Name) != "" {
			foreign = append(foreign, o.Name)
		}
	}
	if len(foreign) == 0 || len(ours) == 0 {
		// None of them is the ruleset's: the command itself is not, and
		// its run refuses it as not_in_ruleset (RULINGS R3).
		return nil
	}
	return refusef("invalid_option", "This game's ruleset has no %s for /%s; it takes %s.", strings.Join(foreign, ", "), cmd.Name, strings.Join(ours, ", "))
}

// AllCommands returns the commands of every ruleset, each once with the
// options of every ruleset that has it, sorted as
// Commands: what a platform registers for every space at once (Discord's
// global commands, which every server shows whatever game it is bound
// to). A command the bound game's ruleset lacks is then refused
// not_in_ruleset when it runs (RULINGS R3), and /help lists only the bound
// ruleset's.
func AllCommands(reg *game.Registry) []Command {
	var out []Command
	at := map[string]int{}
	for _, id := range reg.Rulesets() {
		for _, c := range CommandsFor(reg, id) {
			i, ok := at[c.Name]
			if !ok {
				at[c.Name] = len(out)
				out = append(out, c)
				continue
			}
			// One command of several rulesets takes each one's options
			// (Option.In: /trade offer's cards and components); a game is
			// refused another ruleset's before it runs.
			for _, o := range c.Options {
				if _, has := out[i].Option(o.Name); !has {
					out[i].Options = append(slices.Clone(out[i].Options), o)
				}
			}
		}
	}
	order.Stable(out, func(a, b Command) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

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

func intp(n int) *int { return &n }
