package chat

import (
	"context"
	"encoding/json"
	"strings"

	"croupier/internal/game"
)

// A ruleset's command that no command of the table runs (no Runs names it)
// is offered in chat as it is in the catalogue: a slash command of its
// name, described by its summary, whose options are its payload's fields,
// answered with its result's members. So a new ruleset's commands need no
// change here; a hand-written command of the table (with its own options,
// buttons and text) takes its place as soon as one runs it.

// catalogueCommands returns the catalogue commands of ruleset id that the
// table does not cover, as chat commands.
func catalogueCommands(reg *game.Registry, id string) []Command {
	covered := coveredByTable()
	var out []Command
	for _, name := range reg.CallableIn(id) {
		c, _ := reg.CommandNamed(name)
		if c.Platform || covered[name] {
			continue
		}
		out = append(out, catalogueCommand(c))
	}
	return out
}

// coveredByTable is the catalogue commands some command of the table runs
// (not to be changed: it is the table's).
func coveredByTable() map[string]bool {
	commandTable()
	tableMu.RLock()
	defer tableMu.RUnlock()
	return covered
}

// catalogueLookup returns the chat command named name (its declaration's
// Chat path, or its catalogue name) when the table has no command of that
// name and none runs it: a command of some ruleset the registry runs
// (whether the game's ruleset has it is the command's own check,
// not_in_ruleset, when it runs).
func catalogueLookup(reg *game.Registry, name string) (Command, bool) {
	covered := coveredByTable()
	for _, c := range reg.Catalogue() {
		if c.Call == nil || c.Platform || c.Scheduled || covered[c.Name] || c.ChatName() != name {
			continue
		}
		return catalogueCommand(c), true
	}
	return Command{}, false
}

// catalogueCommand is the chat command of a catalogue command: its
// declaration's path, summary, privacy and arguments (game.Arg) as
// options, with their choices, bounds and suggestions.
func catalogueCommand(c game.Command) Command {
	desc := c.Summary
	if desc == "" {
		desc = "The " + c.Name + " command of this game's ruleset"
	}
	args := c.Arguments()
	cmd := Command{Name: c.ChatName(), Description: desc, Kind: Slash, Admin: c.Admin, Private: c.Private, Runs: []string{c.Name}, Handler: runCatalogue(c, args)}
	for _, a := range args {
		if a.NotInChat {
			continue
		}
		o := Option{Name: a.OptionName(), Required: a.Required, Description: a.Description, Min: a.Min, Max: a.Max, suggest: a.Suggest}
		for _, ch := range a.Choices {
			o.Choices = append(o.Choices, Choice{Label: ch.Label, Value: ch.Value})
		}
		if a.Suggest != nil {
			o.Complete = Completion(a.Suggest.Name)
		}
		switch a.Type {
		case game.FieldInteger:
			o.Type = Integer
		case game.FieldBoolean:
			o.Type = Boolean
		case game.FieldPlayer:
			o.Type = User
		case game.FieldStrings, game.FieldPlayers:
			if !strings.Contains(o.Description, "comma") {
				o.Description += ", separated by commas"
			}
		case game.FieldJSON:
			if !strings.Contains(o.Description, "JSON") {
				o.Description += ", as JSON"
			}
		}
		cmd.Options = append(cmd.Options, o)
	}
	return cmd
}

// runCatalogue runs c with the payload its options make, each read as its
// declaration says (game.Arg.Value: its kind, choices and bounds), and
// answers with the sentence its declaration says of the result.
func runCatalogue(c game.Command, args []game.Arg) Handler {
	return func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		payload := map[string]any{}
		for _, a := range args {
			v := inv.Opt(a.OptionName())
			if v == "" {
				continue
			}
			if a.Type == game.FieldJSON {
				if !json.Valid([]byte(v)) {
					return nil, refusef("invalid_option", "Option %s must be JSON, not %q.", a.OptionName(), v)
				}
				payload[a.Name] = json.RawMessage(v)
				continue
			}
			named := a
			named.Name = a.OptionName() // its refusal names the option typed
			val, err := named.Value(v)
			if err != nil {
				return nil, refusef("invalid_option", "Option %s.", upperFirst(err.Error()))
			}
			payload[a.Name] = val
		}
		raw, err := json.Marshal(payload)
		if err != nil {
			return nil, err
		}
		p, err := c.Call.PayloadOf(raw)
		if err != nil {
			return nil, refusef("invalid_option", "The options of /%s do not make its payload: %v.", c.ChatName(), err)
		}
		res, err := c.Call.Run(ctx, s, req(inv), p)
		if err != nil {
			return nil, err
		}
		r := catalogueReply(ctx, s, inv, c.Name, res)
		r.Ephemeral = c.Private
		if present, ok := presenters[c.Name]; ok {
			present(ctx, s, inv, res, r)
		}
		return r, nil
	}
}

// Presenter adds to a catalogue command's reply in chat what its
// declaration cannot say: a title, buttons, the shared message a press
// updates. The reply's text is the declaration's (Command.Says) already.
type Presenter func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply)

// presenters lists every area's presenters by catalogue command, once.
var presenters = mergePresenters(turnsPresenters, obeliskPresenters, hallPresenters, exoptosisPresenters)

// mergePresenters merges the areas' presenters; a command in two areas is
// a programming error.
func mergePresenters(areas ...map[string]Presenter) map[string]Presenter {
	out := map[string]Presenter{}
	for _, a := range areas {
		for k, fn := range a {
			if _, dup := out[k]; dup {
				panic("chat: a presenter of " + k + " is defined twice")
			}
			out[k] = fn
		}
	}
	return out
}

// upperFirst is s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// catalogueReply is the sentence the command's declaration says of its
// answer (Command.Says), as the CLI and the bridge show it.
func catalogueReply(ctx context.Context, s *game.Service, inv *Invocation, name string, res *game.Result) *Reply {
	return &Reply{Text: clip(s.Says(name, res.Body, playerNames(ctx, s, inv.Game, res.Names)), MaxText)}
}

// mentionedNames is playerNames for a reply on a hot path (a match move):
// a player of the reply's own platform whom the command did not read is
// mentioned (the platform shows the mention as their name, at no read),
// and only another platform's player is read for their name.
func mentionedNames(ctx context.Context, s *game.Service, inv *Invocation, known map[string]string) func(string) string {
	read := playerNames(ctx, s, inv.Game, known)
	return func(id string) string {
		if n, ok := known[id]; ok && n != "" {
			return n
		}
		if u, ok := strings.CutPrefix(id, inv.Platform+":"); ok && inv.Platform != "" {
			return "<@" + u + ">"
		}
		return read(id)
	}
}

// playerNames is the game's display names by id, read when first asked
// for (the id itself for someone who is not a player now).
func playerNames(ctx context.Context, s *game.Service, g string, known map[string]string) func(string) string {
	names := s.Names(ctx, g, known)
	return func(id string) string {
		if n := names(id); n != "" {
			return n
		}
		return id
	}
}
