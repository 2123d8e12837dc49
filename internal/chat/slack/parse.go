package slack

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"croupier/internal/chat"
)

// Parse reads the text after "/croupier" into a command path and options:
//
//	buy chip 2                      positional, in the command's option order
//	trade offer <@U024BE7LH> give_vertebrae=5 note="for the King"
//	grant player:<@U1> vertebrae=10 reason=welcome gift
//
// The command is the longest known path of one or two words ("trade
// offer", then "trade"). Options are name=value or name:value (name an
// option of the command), or positional values filling the options not yet
// given, in order; words after a text option given as name=value (or
// after the last option) continue it, so reasons and notes need no quotes. Double quotes group words. Users
// are Slack mentions (<@U123|ada>, as Slack escapes them), U123 or
// slack:U123; channels <#C123|general> or C123. An empty text is "help".
func Parse(text string) (string, map[string]string, error) { return ParseWith(chat.Lookup, text) }

// ParseWith is Parse with the commands lookup knows (a Router's Lookup
// knows the catalogue commands the table does not cover too).
func ParseWith(lookup func(string) (chat.Command, bool), text string) (string, map[string]string, error) {
	if c, ok := lookup(strings.TrimSpace(text)); ok && c.Kind != chat.Slash {
		return "", nil, fmt.Errorf("%q is a menu command on a message or user, which Slack's slash command cannot use", c.Name)
	}
	toks, err := tokenize(text)
	if err != nil {
		return "", nil, err
	}
	if len(toks) == 0 {
		return "help", map[string]string{}, nil
	}
	name, rest := toks[0], toks[1:]
	if len(toks) >= 2 {
		if _, ok := lookup(toks[0] + " " + toks[1]); ok {
			name, rest = toks[0]+" "+toks[1], toks[2:]
		}
	}
	cmd, ok := lookup(name)
	if !ok {
		// Let the router refuse it with the table's own sentence.
		return name, map[string]string{}, nil
	}
	if cmd.Kind != chat.Slash {
		return "", nil, fmt.Errorf("%q is a menu command on a message or user, which Slack's slash command cannot use", name)
	}
	opts := map[string]string{}
	// last is the option set most recently; byName says it was set as
	// name=value, so the words after it continue it (if it is text).
	var last *chat.Option
	byName := false
	for _, tok := range rest {
		if k, v, ok := keyword(cmd, tok); ok {
			o, _ := cmd.Option(k)
			if _, dup := opts[k]; dup {
				return "", nil, fmt.Errorf("option %s is given twice", k)
			}
			opts[k] = normalize(o, v)
			last, byName = &o, true
			continue
		}
		i := slices.IndexFunc(cmd.Options, func(o chat.Option) bool { _, set := opts[o.Name]; return !set })
		switch {
		case last != nil && last.Type == chat.String && last.Choices == nil && (byName || i < 0):
			opts[last.Name] += " " + tok
		case i < 0:
			return "", nil, fmt.Errorf("/%s takes %d option(s); %q is one too many (use name=value to be explicit)", cmd.Name, len(cmd.Options), tok)
		case (cmd.Options[i].Type == chat.Integer || cmd.Options[i].Type == chat.Boolean) && optionLike.MatchString(tok):
			// name=value naming no option, where no text continues: say so
			// (e.g. a component the command has no amount for), rather
			// than read it as the next option's value.
			names := make([]string, len(cmd.Options))
			for j, o := range cmd.Options {
				names[j] = o.Name
			}
			return "", nil, fmt.Errorf("/%s has no option %q; its options are %s", cmd.Name, tok[:strings.IndexAny(tok, "=:")], strings.Join(names, ", "))
		default:
			o := cmd.Options[i]
			opts[o.Name] = normalize(o, tok)
			last, byName = &o, false
		}
	}
	return name, opts, nil
}

// keyword splits name=value or name:value when name is an option of cmd.
func keyword(cmd chat.Command, tok string) (string, string, bool) {
	i := strings.IndexAny(tok, "=:")
	if i <= 0 {
		return "", "", false
	}
	if _, ok := cmd.Option(tok[:i]); !ok {
		return "", "", false
	}
	return tok[:i], tok[i+1:], true
}

var (
	// optionLike is a token that looks like name=value or name:value.
	optionLike     = regexp.MustCompile(`^[a-z][a-z0-9_]*[=:]`)
	userMention    = regexp.MustCompile(`^<@([UW][A-Z0-9]{1,20})(\|[^>]*)?>$`)
	bareUser       = regexp.MustCompile(`^[UW][A-Z0-9]{2,20}$`)
	channelMention = regexp.MustCompile(`^<#([CGD][A-Z0-9]{1,20})(\|[^>]*)?>$`)
)

// normalize turns Slack's escaped mentions into what the table expects.
func normalize(o chat.Option, v string) string {
	switch o.Type {
	case chat.User:
		if m := userMention.FindStringSubmatch(v); m != nil {
			return chat.Identity(Platform, m[1])
		}
		if bareUser.MatchString(v) {
			return chat.Identity(Platform, v)
		}
	case chat.Channel:
		if m := channelMention.FindStringSubmatch(v); m != nil {
			return m[1]
		}
	}
	return v
}

// tokenize splits on spaces, keeping "double-quoted" groups (straight or
// curly quotes, as Slack clients substitute them) as one token. A JSON
// object or array ({...} or [...], at a token's start or after name=) is
// kept whole, quotes and spaces included, with curly quotes straightened.
func tokenize(s string) ([]string, error) {
	var toks []string
	var cur strings.Builder
	inQuote, have := false, false
	depth := 0 // inside a JSON value
	for _, r := range s {
		switch {
		case depth > 0:
			switch r {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case '“', '”':
				r = '"'
			}
			cur.WriteRune(r)
		case !inQuote && (r == '{' || r == '[') && (!have || strings.HasSuffix(cur.String(), "=") || strings.HasSuffix(cur.String(), ":")):
			depth = 1
			cur.WriteRune(r)
			have = true
		case r == '"' || r == '“' || r == '”':
			inQuote = !inQuote
			have = true
		case !inQuote && (r == ' ' || r == '\t' || r == '\n' || r == '\u00a0'):
			if have {
				toks = append(toks, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("a quote is not closed in %q", s)
	}
	if depth > 0 {
		return nil, fmt.Errorf("a { or [ is not closed in %q", s)
	}
	if have {
		toks = append(toks, cur.String())
	}
	return toks, nil
}
