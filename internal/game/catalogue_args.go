package game

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A command's arguments as a person gives them: the one declaration every
// edge reads (docs/architecture.md, "One declaration per command"). The
// CLI makes its positional arguments, flags and help from it, chat its
// slash command's options, choices and autocompletion, the API its
// command list. A command that declares no Args is asked for its payload's
// members as they are (Call.Fields), named and typed by its JSON.

// The kinds of argument beyond the payload's JSON kinds (Field*): a player
// named by display name, mention or identity, resolved by the command
// (Service.ResolvePlayer), and a list of them.
const (
	FieldPlayer  = "player"
	FieldPlayers = "players"
)

// Arg is one argument of a command.
type Arg struct {
	// Name is the payload member it fills (its JSON name).
	Name string
	// Type is one of the Field* kinds; a player is FieldPlayer (a string
	// member) or FieldPlayers (a list of strings).
	Type string
	// Description says what it is, for help and chat's option text.
	Description string
	// Required: it must be given.
	Required bool
	// Positional: the CLI and Slack take it by position, in Args order,
	// before any other (the others by name only).
	Positional bool
	// Choices, when set, are the only values it takes.
	Choices []Choice
	// Min and Max bound an integer (nil: unbounded).
	Min, Max *int
	// Suggest, when set, lists values as a person types (chat's
	// autocompletion).
	Suggest *Suggest
	// ChatOption is its option's name in chat when that differs from the
	// payload member's: a name players and bridges already send (a gift's
	// "player" for the member "to"). Empty: Name.
	ChatOption string
	// NotInChat: chat offers no option for it. A chat message's reference,
	// say, is what the platform knows, not what a person types; the CLI
	// and the API still take it.
	NotInChat bool
}

// Choice is one allowed or suggested value of an argument.
type Choice struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Suggest is a source of suggested values for an argument.
type Suggest struct {
	// Name names the source in the API's command list.
	Name string
	// List returns the values for q, most fitting first (an edge keeps
	// the first 25).
	List func(ctx context.Context, s *Service, q SuggestQuery) ([]Choice, error)
}

// SuggestQuery is what a suggestion is for: the game, the person typing,
// the other arguments given so far and the text typed.
type SuggestQuery struct {
	Game, Actor string
	Args        map[string]string
	Partial     string
}

// OptionName is a's option's name in chat.
func (a Arg) OptionName() string {
	if a.ChatOption != "" {
		return a.ChatOption
	}
	return a.Name
}

// Bound is a pointer to n, for Arg.Min and Arg.Max.
func Bound(n int) *int { return &n }

// Arguments are c's arguments: its declared Args, or its payload's members
// as they are.
func (c Command) Arguments() []Arg {
	if c.Args != nil || c.Call == nil {
		return c.Args
	}
	var out []Arg
	for _, f := range c.Call.Fields() {
		out = append(out, Arg{Name: f.Name, Type: f.Type, Required: f.Required, Description: f.Name})
	}
	return out
}

// Arg returns c's argument name.
func (c Command) Arg(name string) (Arg, bool) {
	for _, a := range c.Arguments() {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// ChatName is c's slash command path in chat: "turns propose" (a group and
// a subcommand) or its catalogue name.
func (c Command) ChatName() string {
	if c.Chat != "" {
		return c.Chat
	}
	return c.Name
}

// checkArgs refuses a declaration that does not describe c's payload: an
// argument no member has, of another kind, twice, or leaving out a member
// (every member is some argument, so every edge can give all of it).
func checkArgs(c Command) error {
	if c.Args == nil {
		return nil
	}
	if c.Call == nil {
		return fmt.Errorf("command %q declares arguments but no edge may call it", c.Name)
	}
	fields := c.Call.Fields()
	seen := map[string]bool{}
	positional := true
	for _, a := range c.Args {
		i := slices.IndexFunc(fields, func(f Field) bool { return f.Name == a.Name })
		if i < 0 {
			return fmt.Errorf("command %q: argument %q is no member of its payload", c.Name, a.Name)
		}
		if seen[a.Name] {
			return fmt.Errorf("command %q: argument %q is declared twice", c.Name, a.Name)
		}
		seen[a.Name] = true
		f := fields[i]
		if want := payloadKind(a.Type); want != f.Type {
			return fmt.Errorf("command %q: argument %q is of kind %s, but its member is of kind %s", c.Name, a.Name, a.Type, f.Type)
		}
		if f.Required && !a.Required {
			return fmt.Errorf("command %q: argument %q is required by its payload", c.Name, a.Name)
		}
		if a.Positional && !positional {
			return fmt.Errorf("command %q: positional argument %q follows a named one", c.Name, a.Name)
		}
		positional = a.Positional
		if a.Description == "" {
			return fmt.Errorf("command %q: argument %q has no description", c.Name, a.Name)
		}
		for _, ch := range a.Choices {
			if _, err := a.Value(ch.Value); err != nil {
				return fmt.Errorf("command %q: choice %q of %q: %v", c.Name, ch.Value, a.Name, err)
			}
		}
	}
	for _, f := range fields {
		if !seen[f.Name] {
			return fmt.Errorf("command %q: its payload's member %q is no argument", c.Name, f.Name)
		}
	}
	return nil
}

// payloadKind is the payload member's kind an argument of type t fills.
func payloadKind(t string) string {
	switch t {
	case FieldPlayer:
		return FieldString
	case FieldPlayers:
		return FieldStrings
	}
	return t
}

// Value reads text as a value of a, as a person typed it, or says why it
// is none: a whole number for an integer, true or false for a boolean, one
// of the choices when a has them (by value or label, in any case: the
// choice's value),
// within its bounds.
func (a Arg) Value(text string) (any, error) {
	if len(a.Choices) > 0 {
		c, ok := a.choice(strings.TrimSpace(text))
		if !ok {
			return nil, fmt.Errorf("%s must be %s, not %q", a.Name, a.ChoiceWords(), text)
		}
		text = c.Value
	}
	switch a.Type {
	case FieldInteger:
		n, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%s must be a whole number, not %q", a.Name, text)
		}
		if a.Min != nil && n < *a.Min || a.Max != nil && n > *a.Max {
			return nil, fmt.Errorf("%s must be %s, not %d", a.Name, a.RangeWords(), n)
		}
		return n, nil
	case FieldBoolean:
		b, err := strconv.ParseBool(strings.TrimSpace(text))
		if err != nil {
			return nil, fmt.Errorf("%s must be true or false, not %q", a.Name, text)
		}
		return b, nil
	case FieldStrings, FieldPlayers:
		var out []string
		for _, v := range strings.Split(text, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
		return out, nil
	}
	return text, nil
}

// choice is the choice text names as a person types it: its value or its
// label in any case ("true" is TRUE, "Against" is against), or the one
// choice with a word of its label ("🌿" or "herbs" of "🌿 Herbs").
func (a Arg) choice(text string) (Choice, bool) {
	for _, c := range a.Choices {
		if strings.EqualFold(c.Value, text) || strings.EqualFold(c.Label, text) {
			return c, true
		}
	}
	var found []Choice
	for _, c := range a.Choices {
		if slices.ContainsFunc(strings.Fields(c.Label), func(w string) bool { return strings.EqualFold(w, text) }) {
			found = append(found, c)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Choice{}, false
}

// ChoiceWords says a's choices: "for or against", "enact, amend or repeal".
func (a Arg) ChoiceWords() string {
	var vs []string
	for _, c := range a.Choices {
		vs = append(vs, c.Value)
	}
	return OrList(vs)
}

// RangeWords says a's bounds: "from 1 to 2", "at least 1".
func (a Arg) RangeWords() string {
	switch {
	case a.Min != nil && a.Max != nil:
		return fmt.Sprintf("from %d to %d", *a.Min, *a.Max)
	case a.Min != nil:
		return fmt.Sprintf("at least %d", *a.Min)
	case a.Max != nil:
		return fmt.Sprintf("at most %d", *a.Max)
	}
	return "a whole number"
}

// OrList joins words as a person lists alternatives: "a", "a or b",
// "a, b or c".
func OrList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
