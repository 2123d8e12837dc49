package chat

import (
	"context"
	"encoding/json"
	"strconv"

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
	covered := map[string]bool{}
	for _, c := range Commands() {
		for _, name := range c.Runs {
			covered[name] = true
		}
	}
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

// catalogueLookup returns the chat command of the catalogue command name,
// when the table has no command of that name and none runs it: a command
// of some ruleset the registry runs (whether the game's ruleset has it is
// the command's own check, not_in_ruleset, when it runs).
func catalogueLookup(reg *game.Registry, name string) (Command, bool) {
	c, ok := reg.CommandNamed(name)
	if !ok || c.Call == nil || c.Platform {
		return Command{}, false
	}
	for _, t := range Commands() {
		for _, r := range t.Runs {
			if r == name {
				return Command{}, false
			}
		}
	}
	return catalogueCommand(c), true
}

// catalogueCommand is the chat command of a catalogue command.
func catalogueCommand(c game.Command) Command {
	desc := c.Summary
	if desc == "" {
		desc = "The " + c.Name + " command of this game's ruleset"
	}
	fields := c.Call.Fields()
	cmd := Command{Name: c.Name, Description: desc, Kind: Slash, Admin: c.Admin, Runs: []string{c.Name}, Handler: runCatalogue(c, fields)}
	for _, f := range fields {
		o := Option{Name: f.Name, Required: f.Required, Description: f.Name}
		switch f.Type {
		case game.FieldInteger:
			o.Type = Integer
		case game.FieldBoolean:
			o.Type = Boolean
		case game.FieldStrings:
			o.Description = f.Name + ", separated by commas"
		case game.FieldJSON:
			o.Description = f.Name + ", as JSON"
		}
		cmd.Options = append(cmd.Options, o)
	}
	return cmd
}

// runCatalogue runs c with the payload its options make (checkOptions has
// checked the integers and booleans) and answers with the result.
func runCatalogue(c game.Command, fields []game.Field) Handler {
	return func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		payload := map[string]any{}
		for _, f := range fields {
			v := inv.Opt(f.Name)
			if v == "" {
				continue
			}
			switch f.Type {
			case game.FieldInteger:
				payload[f.Name], _ = strconv.Atoi(v)
			case game.FieldBoolean:
				payload[f.Name] = inv.Bool(f.Name)
			case game.FieldStrings:
				payload[f.Name] = inv.List(f.Name)
			case game.FieldJSON:
				if !json.Valid([]byte(v)) {
					return nil, refusef("invalid_option", "Option %s must be JSON, not %q.", f.Name, v)
				}
				payload[f.Name] = json.RawMessage(v)
			default:
				payload[f.Name] = v
			}
		}
		raw, err := json.Marshal(payload)
		if err != nil {
			return nil, err
		}
		p, err := c.Call.PayloadOf(raw)
		if err != nil {
			return nil, refusef("invalid_option", "The options of /%s do not make its payload: %v.", c.Name, err)
		}
		res, err := c.Call.Run(ctx, s, req(inv), p)
		if err != nil {
			return nil, err
		}
		return catalogueReply(ctx, s, inv, c.Name, res), nil
	}
}

// catalogueReply is the sentence the command's declaration says of its
// answer (Command.Says), as the CLI and the bridge show it.
func catalogueReply(ctx context.Context, s *game.Service, inv *Invocation, name string, res *game.Result) *Reply {
	return &Reply{Text: clip(s.Says(name, res.Body, playerNames(ctx, s, inv.Game, res.Names)), MaxText)}
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
