package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/oklog/ulid/v2"
	"slices"
	"strings"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/nearest"
	"croupier/internal/rulesets"
)

// A verb the table above does not have is looked up in the game's own
// command list (GET /v1/games/{game}/commands): a ruleset's command that
// has no hand-written verb runs as `croupier play NAME`, its payload from
// the positional arguments and --FIELD flags, its answer printed by
// catalogueText. So a new ruleset's commands need no change here.

// catalogueVerb returns the play command of the game's catalogue command
// name, or the usage error of an unknown verb.
func (e *env) catalogueVerb(name string, opts playOpts, rest []string) (playCmd, error) {
	unknown := usagef("unknown play command %q%s; run croupier play help for the list", name, closest(name, verbNames(nil)))
	scanCommonFlags(&opts, rest)
	if opts.game == "" || opts.timeout <= 0 {
		return playCmd{}, unknown
	}
	c, err := client.New(opts.url, opts.key, opts.as)
	if err != nil {
		return playCmd{}, unknown
	}
	ctx, cancel := context.WithTimeout(e.ctx, opts.timeout)
	defer cancel()
	list, _, err := c.Commands(ctx, opts.game)
	if err != nil {
		return playCmd{}, usagef("unknown play command %q; run croupier play help for the list (the commands of game %s could not be read: %v)", name, opts.game, err)
	}
	i := slices.IndexFunc(list.Commands, func(c game.CommandInfo) bool { return c.Name == name })
	var info game.CommandInfo
	if i >= 0 {
		info = list.Commands[i]
	} else if c, ok := rulesets.Registry().CommandNamed(name); ok && c.Call != nil && !c.Scheduled {
		// Another ruleset's command: sent as it would be there, the server
		// refuses it not_in_ruleset (RULINGS R3) and changes nothing.
		info = c.Info()
	} else {
		return playCmd{}, usagef("unknown play command %q: neither croupier play nor game %s's ruleset (%s) has it%s; run croupier play help --game %s for its commands", name, opts.game, list.Ruleset, closest(name, verbNames(list.Commands)), opts.game)
	}
	return playCmd{synopsis: catalogueSynopsis(info), needGame: true, needActor: true,
		setup: func(fs *flag.FlagSet) func(*player, []string) error {
			given := map[string]*fieldFlag{}
			var atField *game.Field
			for _, f := range info.Fields {
				if f.Name == "at" {
					// A command's own moment (a Request for Judgment's
					// disputed one): --at is its argument, not a read's.
					atField = &f
					continue
				}
				if fs.Lookup(f.Name) != nil {
					continue // a common flag's name: the field is positional only
				}
				given[f.Name] = &fieldFlag{f: f}
				fs.Var(given[f.Name], f.Name, fieldUsage(f))
			}
			return func(p *player, pos []string) error {
				if atField != nil && p.c.At != "" {
					// A bare entry id is the command's to read (a disputed
					// action is the moment just before it); a phrase is
					// sent as the time it names.
					at := p.c.At
					if _, err := ulid.ParseStrict(strings.ToUpper(strings.TrimSpace(p.opts.at))); err == nil {
						at = strings.TrimSpace(p.opts.at)
					}
					given["at"] = &fieldFlag{f: *atField, set: true, val: at}
					p.c.At = ""
				}
				payload, err := cataloguePayload(info, given, pos)
				if err != nil {
					return err
				}
				raw, rep, err := p.c.Command(p.ctx, p.idem(), p.opts.game, info.Name, payload)
				if err != nil {
					return err
				}
				return p.out(rep, func() string { return cmp.Or(rep.Says, catalogueText(info.Name, raw, p.lazyNameOf())) })
			}
		}}, nil
}

// scanCommonFlags reads the common flags that say where the command list
// is (--url, --key, --game, --as) from args, before the verb's own flags
// are known.
func scanCommonFlags(o *playOpts, args []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var dst *string
		switch name {
		case "url":
			dst = &o.url
		case "key":
			dst = &o.key
		case "game":
			dst = &o.game
		case "as":
			dst = &o.as
		default:
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return
			}
			i++
			val = args[i]
		}
		*dst = val
	}
}

// catalogueSynopsis is a catalogue command's usage line, its summary, its
// help and each argument as its declaration says it (game.Arg).
func catalogueSynopsis(c game.CommandInfo) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, f := range c.Fields {
		if byPosition(c, f) && f.Required {
			fmt.Fprintf(&b, " %s", argName(f))
		}
	}
	for _, f := range c.Fields {
		switch {
		case byPosition(c, f) && !f.Required:
			fmt.Fprintf(&b, " [%s]", argName(f))
		case !byPosition(c, f) && f.Required:
			fmt.Fprintf(&b, " --%s %s", f.Name, argName(f))
		case !byPosition(c, f):
			fmt.Fprintf(&b, " [--%s %s]", f.Name, argName(f))
		}
	}
	if c.Summary != "" {
		b.WriteString("\n    " + c.Summary)
	}
	if c.Help != "" {
		b.WriteString("\n\n" + c.Help)
	}
	if len(c.Fields) > 0 {
		b.WriteString("\n\nArguments:")
		for _, f := range c.Fields {
			a := f.Arg()
			line := "  " + argName(f)
			if !byPosition(c, f) {
				line = "  --" + f.Name + " " + argName(f)
			}
			fmt.Fprintf(&b, "\n%-28s %s", line, argWords(a))
		}
	}
	if !declared(c) {
		b.WriteString("\n    (a command of the game's ruleset: arguments fill its fields in order, or give --FIELD VALUE)")
	}
	return b.String()
}

// declared reports whether c's arguments are declared (game.Arg), not
// only its payload's members: then only its positional ones are taken by
// position.
func declared(c game.CommandInfo) bool {
	for _, f := range c.Fields {
		if f.Positional || f.Description != "" {
			return true
		}
	}
	return false
}

// byPosition reports whether f of c is given by position: a declared
// positional argument, or, when nothing is declared, a required member.
func byPosition(c game.CommandInfo, f game.Field) bool {
	if declared(c) {
		return f.Positional
	}
	return f.Required
}

// argName is how a usage line names f's value.
func argName(f game.Field) string {
	if len(f.Choices) > 0 && len(f.Choices) <= 4 {
		var vs []string
		for _, c := range f.Choices {
			vs = append(vs, c.Value)
		}
		return strings.Join(vs, "|")
	}
	n := strings.ToUpper(f.Name)
	if f.Type == game.FieldStrings || f.Type == game.FieldPlayers {
		n += "..."
	}
	return n
}

// argWords says what argument a is and takes.
func argWords(a game.Arg) string {
	var parts []string
	if a.Description != "" && a.Description != a.Name {
		parts = append(parts, a.Description)
	}
	switch {
	case len(a.Choices) > 0:
		parts = append(parts, "one of "+a.ChoiceWords())
	case a.Type == game.FieldPlayer:
		parts = append(parts, "a player's name, mention or id")
	case a.Type == game.FieldPlayers:
		parts = append(parts, "players' names, mentions or ids, comma-separated or repeated")
	case a.Type == game.FieldInteger && (a.Min != nil || a.Max != nil):
		parts = append(parts, "a whole number "+a.RangeWords())
	case a.Type == game.FieldInteger:
		parts = append(parts, "a whole number")
	case a.Type == game.FieldBoolean:
		parts = append(parts, "true or false")
	case a.Type == game.FieldStrings:
		parts = append(parts, "comma-separated or repeated")
	case a.Type == game.FieldJSON:
		parts = append(parts, "as JSON")
	}
	if a.Required {
		parts = append(parts, "required")
	}
	return strings.Join(parts, "; ")
}

func fieldUsage(f game.Field) string {
	a := f.Arg()
	if w := argWords(a); w != "" {
		return w
	}
	return "the " + f.Type + " `" + strings.ToUpper(f.Name) + "`"
}

// fieldFlag is a --FIELD flag of a catalogue command.
type fieldFlag struct {
	f   game.Field
	set bool
	val any
}

func (v *fieldFlag) String() string { return "" }

func (v *fieldFlag) IsBoolFlag() bool { return v.f.Type == game.FieldBoolean }

func (v *fieldFlag) Set(s string) error {
	if v.f.Type == game.FieldStrings || v.f.Type == game.FieldPlayers {
		prev, _ := v.val.([]string)
		var l listFlag = prev
		_ = l.Set(s)
		v.val, v.set = []string(l), true
		return nil
	}
	val, err := fieldValue(v.f, s)
	if err != nil {
		return err
	}
	v.val, v.set = val, true
	return nil
}

// fieldValue reads s as a value of field f, as its declaration says
// (game.Arg.Value: its kind, choices and bounds).
func fieldValue(f game.Field, s string) (any, error) {
	if f.Type == game.FieldJSON {
		if !json.Valid([]byte(s)) {
			return nil, fmt.Errorf("%s must be JSON, not %q", f.Name, s)
		}
		return json.RawMessage(s), nil
	}
	return f.Arg().Value(s)
}

// cataloguePayload is the command's payload from its flags and then its
// positional arguments, filling the fields given by position and not by a
// flag in order (a list field takes every argument left).
func cataloguePayload(c game.CommandInfo, given map[string]*fieldFlag, pos []string) (map[string]any, error) {
	payload := map[string]any{}
	for name, v := range given {
		if v.set {
			payload[name] = v.val
		}
	}
	for _, f := range c.Fields {
		if len(pos) == 0 {
			break
		}
		if _, ok := payload[f.Name]; ok || declared(c) && !f.Positional {
			continue
		}
		if f.Type == game.FieldStrings || f.Type == game.FieldPlayers {
			payload[f.Name], pos = pos, nil
			continue
		}
		v, err := fieldValue(f, pos[0])
		if err != nil {
			return nil, usagef("%s: %v", c.Name, err)
		}
		payload[f.Name], pos = v, pos[1:]
	}
	if len(pos) > 0 {
		return nil, usagef("%s: %q is one argument too many; usage: croupier play %s", c.Name, pos[0], strings.SplitN(catalogueSynopsis(c), "\n", 2)[0])
	}
	for _, f := range c.Fields {
		if _, ok := payload[f.Name]; f.Required && !ok {
			how := "an argument, or --" + f.Name
			if declared(c) && !f.Positional {
				how = "--" + f.Name
			}
			return nil, usagef("%s needs %s (%s); usage: croupier play %s", c.Name, f.Name, how, strings.SplitN(catalogueSynopsis(c), "\n", 2)[0])
		}
	}
	return payload, nil
}

// catalogueText is the answer of a command this CLI knows only from the
// game's command list: the sentence its declaration says (Command.Says),
// as chat and the bridge show it. The server sends it with the answer
// (client.Reply.Says), which the CLI shows first: the server may run a
// module this CLI does not link.
func catalogueText(name string, raw json.RawMessage, who func(string) string) string {
	return rulesets.Registry().Says(name, raw, who)
}

// says is the sentence command's declaration says of v, its decoded answer.
func (p *player) says(command string, v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%s: %v", command, err)
	}
	return catalogueText(command, raw, p.lazyNameOf())
}

// gameHelp lists the commands of opts.game's ruleset, as its server runs
// them, each with what it does and how to call it.
func (e *env) gameHelp(opts playOpts) error {
	c, err := client.New(opts.url, opts.key, opts.as)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(e.ctx, opts.timeout)
	defer cancel()
	list, _, err := c.Commands(ctx, opts.game)
	if err != nil {
		return fmt.Errorf("reading the commands of game %s: %w", opts.game, err)
	}
	fmt.Fprintf(e.stdout, "The commands of game %s (%s), run as croupier play NAME --game %s:\n", opts.game, rulesets.Registry().Title(list.Ruleset), opts.game)
	for _, info := range list.Commands {
		if info.Platform {
			continue // a chat platform's or a bridge's report, not a player's
		}
		line := "  " + catalogueSynopsis(info)
		if own, ok := playCommands[info.Name]; ok {
			// A verb of this CLI's own (join --name, roll DICE) runs the
			// command: its usage is the one to type.
			line = "  " + own.synopsis
		}
		if first, _, _ := strings.Cut(line, "\n"); first != "" {
			line = first
		}
		summary := info.Summary
		if info.Admin && !strings.Contains(summary, "admin") {
			summary += " (admins)"
		}
		if len(line) > 48 {
			// A long usage line keeps the summaries in one column.
			fmt.Fprintln(e.stdout, line)
			line = ""
		}
		fmt.Fprintf(e.stdout, "%-48s %s\n", line, summary)
	}
	fmt.Fprintf(e.stdout, "Every game also has: status, players, log, clock, help. croupier play help NAME --game %s gives one command's arguments.\n", opts.game)
	fmt.Fprintln(e.stdout, `Every read (status, players, log ...) takes --at T: the game as it was at T (a time, "2 days ago", "yesterday", a log entry's id).`)
	return nil
}

// verbNames are the CLI's own verbs and the catalogue's command names
// (of a game's ruleset, when its list is given).
func verbNames(cmds []game.CommandInfo) []string {
	var out []string
	for v := range playCommands {
		out = append(out, strings.Fields(v)[0])
	}
	if cmds == nil {
		for _, c := range rulesets.Registry().Catalogue() {
			if c.Call != nil && !c.Scheduled {
				out = append(out, c.Name)
			}
		}
	}
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// closest says the names nearest a misspelt one (" (did you mean …?)").
func closest(name string, names []string) string {
	near := nearest.Names(name, names, 5)
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}
