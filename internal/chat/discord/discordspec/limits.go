package discordspec

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The limits below are Discord's documented ones (developer docs:
// Application Commands, Message Components, Channel "Embed Limits",
// Interactions "Autocomplete") that the OpenAPI description does not
// encode, or encodes only in part. Lengths are in characters (code points).
const (
	maxChatInputCommands = 100 // per application globally, and per guild
	maxMenuCommands      = 15  // user commands, and message commands, likewise
	maxCommandChars      = 4000
	maxOptions           = 25
	maxChoices           = 25
	maxContent           = 2000
	maxEmbeds            = 10
	maxEmbedTitle        = 256
	maxEmbedDescription  = 4096
	maxEmbedFields       = 25
	maxFieldName         = 256
	maxFieldValue        = 1024
	maxFooter            = 2048
	maxAuthor            = 256
	maxEmbedTotal        = 6000
	maxActionRows        = 5
	maxRowButtons        = 5
	maxCustomID          = 100
	maxButtonLabel       = 80
	maxSelectOptions     = 25
	maxAutocomplete      = 25
)

// nameRe is a CHAT_INPUT command's or an option's name (it must also be
// lower case where the script has case).
var nameRe = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// mentionRe finds what Discord renders as a mention in content,
// descriptions and field values, but not in embed titles and field names,
// where it shows as raw text ("<@2>").
var mentionRe = regexp.MustCompile(`<(@[!&]?|#)\d+>`)

func n(s string) int { return utf8.RuneCountInString(s) }

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func list(m map[string]any, k string) []any { l, _ := m[k].([]any); return l }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func num(m map[string]any, k string) (float64, bool) { f, ok := m[k].(float64); return f, ok }

func typeOf(m map[string]any) int { f, _ := num(m, "type"); return int(f) }

// CommandLimits checks a bulk overwrite's commands (the decoded body of
// PUT /applications/{id}[/guilds/{id}]/commands).
func CommandLimits(v any, global bool) []error {
	cmds, ok := v.([]any)
	if !ok {
		return []error{fmt.Errorf("the commands are not a list")}
	}
	var errs []error
	count := map[int]int{}
	seen := map[string]bool{}
	for _, c := range cmds {
		cm := obj(c)
		typ := typeOf(cm)
		if typ == 0 {
			typ = 1
		}
		count[typ]++
		name := str(cm, "name")
		key := fmt.Sprint(typ, "/", name)
		if seen[key] {
			errs = append(errs, fmt.Errorf("command %q (type %d) is registered twice", name, typ))
		}
		seen[key] = true
		errs = append(errs, command(cm, typ)...)
	}
	scope := "a guild"
	if global {
		scope = "the application globally"
	}
	if count[1] > maxChatInputCommands {
		errs = append(errs, fmt.Errorf("%d slash commands: %s may have at most %d", count[1], scope, maxChatInputCommands))
	}
	for typ, what := range map[int]string{2: "user", 3: "message"} {
		if count[typ] > maxMenuCommands {
			errs = append(errs, fmt.Errorf("%d %s commands: %s may have at most %d", count[typ], what, scope, maxMenuCommands))
		}
	}
	return errs
}

func command(c map[string]any, typ int) []error {
	name := str(c, "name")
	var errs []error
	bad := func(f string, a ...any) {
		errs = append(errs, fmt.Errorf("command %q: "+f, append([]any{name}, a...)...))
	}
	if typ != 1 {
		if n(name) < 1 || n(name) > 32 {
			bad("a context-menu name is 1-32 characters")
		}
		if str(c, "description") != "" || len(list(c, "options")) > 0 {
			bad("a context-menu command has no description and no options")
		}
		return errs
	}
	if !nameRe.MatchString(name) || strings.ToLower(name) != name {
		bad("the name must match ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ in lower case")
	}
	if d := n(str(c, "description")); d < 1 || d > 100 {
		bad("the description has %d characters, not 1-100", d)
	}
	total := n(name) + n(str(c, "description"))
	errs = append(errs, options(name, list(c, "options"), 0, &total)...)
	if total > maxCommandChars {
		bad("%d characters in its name, description, options and choices; at most %d", total, maxCommandChars)
	}
	return errs
}

// options checks one level of options: depth 0 under a command, 1 under a
// subcommand group or a subcommand of the command, 2 under a group's
// subcommand.
func options(path string, opts []any, depth int, total *int) []error {
	var errs []error
	bad := func(f string, a ...any) { errs = append(errs, fmt.Errorf("%s: "+f, append([]any{path}, a...)...)) }
	if len(opts) > maxOptions {
		bad("%d options, at most %d", len(opts), maxOptions)
	}
	names := map[string]bool{}
	subs, values, optional := 0, 0, false
	for _, o := range opts {
		om := obj(o)
		name, typ := str(om, "name"), typeOf(om)
		here := path + " " + name
		*total += n(name) + n(str(om, "description"))
		if names[name] {
			bad("option %q twice", name)
		}
		names[name] = true
		if !nameRe.MatchString(name) || strings.ToLower(name) != name {
			bad("option %q: the name must match ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ in lower case", name)
		}
		if d := n(str(om, "description")); d < 1 || d > 100 {
			bad("option %q: the description has %d characters, not 1-100", name, d)
		}
		switch typ {
		case 1, 2:
			subs++
			if typ == 2 && depth > 0 || typ == 1 && depth > 1 {
				bad("option %q: a subcommand group holds only subcommands, and a subcommand no subcommand", name)
			}
			inner := list(om, "options")
			if typ == 2 {
				if len(inner) == 0 {
					bad("subcommand group %q has no subcommands", name)
				}
				for _, i := range inner {
					if typeOf(obj(i)) != 1 {
						bad("subcommand group %q holds an option of type %d; only subcommands", name, typeOf(obj(i)))
					}
				}
			}
			errs = append(errs, options(here, inner, depth+1, total)...)
			continue
		}
		values++
		if req, _ := om["required"].(bool); req && optional {
			bad("required option %q comes after an optional one", name)
		} else if !req {
			optional = true
		}
		choices := list(om, "choices")
		if len(choices) > 0 && typ != 3 && typ != 4 && typ != 10 {
			bad("option %q of type %d cannot have choices", name, typ)
		}
		if len(choices) > maxChoices {
			bad("option %q has %d choices, at most %d", name, len(choices), maxChoices)
		}
		if ac, _ := om["autocomplete"].(bool); ac && (len(choices) > 0 || typ != 3 && typ != 4 && typ != 10) {
			bad("option %q: autocomplete needs a string, integer or number option without choices", name)
		}
		for _, ch := range choices {
			cm := obj(ch)
			*total += n(str(cm, "name")) + n(fmt.Sprint(cm["value"]))
			if l := n(str(cm, "name")); l < 1 || l > 100 {
				bad("option %q: choice name %q has %d characters, not 1-100", name, str(cm, "name"), l)
			}
			if err := choiceValue(cm["value"], typ); err != nil {
				bad("option %q: choice %q: %v", name, str(cm, "name"), err)
			}
		}
		lo, hasLo := num(om, "min_value")
		hi, hasHi := num(om, "max_value")
		if hasLo && hasHi && lo > hi {
			bad("option %q: min_value %v is above max_value %v", name, lo, hi)
		}
		if _, ok := om["channel_types"]; ok && typ != 7 {
			bad("option %q: channel_types on an option of type %d", name, typ)
		}
	}
	if subs > 0 && values > 0 {
		bad("subcommands and value options side by side")
	}
	return errs
}

// choiceValue checks a choice's value against its option's type (3
// string, 4 integer, 10 number).
func choiceValue(v any, typ int) error {
	switch typ {
	case 3:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("value %v is not a string, as its string option needs", v)
		}
		if n(s) > 100 {
			return fmt.Errorf("value has %d characters, at most 100", n(s))
		}
	case 4:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("value %#v is not an integer, as its integer option needs", v)
		}
	case 10:
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("value %#v is not a number, as its number option needs", v)
		}
	}
	return nil
}

// Allowed response types per interaction type (Interactions: "Responding
// to an Interaction").
var allowedResponses = map[int][]int{
	1: {1},             // PING: PONG
	2: {4, 5, 9},       // APPLICATION_COMMAND
	3: {4, 5, 6, 7, 9}, // MESSAGE_COMPONENT
	4: {8},             // APPLICATION_COMMAND_AUTOCOMPLETE
	5: {4, 5, 6, 7},    // MODAL_SUBMIT
}

// CallbackLimits checks a decoded interaction response; interaction is the
// interaction's type and focused the type of its focused option (0 when
// unknown: then only what holds for any interaction is checked).
func CallbackLimits(v any, interaction, focused int) []error {
	m := obj(v)
	if m == nil {
		return []error{fmt.Errorf("the response is not an object")}
	}
	typ := typeOf(m)
	var errs []error
	if ok, known := allowedResponses[interaction]; known && !contains(ok, typ) {
		errs = append(errs, fmt.Errorf("response type %d does not answer an interaction of type %d (allowed: %v)", typ, interaction, ok))
	}
	data := obj(m["data"])
	switch typ {
	case 4:
		errs = append(errs, MessageLimits(data, true)...)
	case 7:
		errs = append(errs, MessageLimits(data, false)...)
	case 5:
		for k := range data {
			if k != "flags" {
				errs = append(errs, fmt.Errorf("a deferred response carries %q; only flags count (the message comes with the edit)", k))
			}
		}
	case 6, 1:
		if len(data) > 0 {
			errs = append(errs, fmt.Errorf("a response of type %d carries data", typ))
		}
	case 8:
		cs := list(data, "choices")
		if len(cs) > maxAutocomplete {
			errs = append(errs, fmt.Errorf("%d autocomplete choices, at most %d", len(cs), maxAutocomplete))
		}
		for _, c := range cs {
			cm := obj(c)
			if l := n(str(cm, "name")); l < 1 || l > 100 {
				errs = append(errs, fmt.Errorf("autocomplete choice name %q has %d characters, not 1-100", str(cm, "name"), l))
			}
			if focused != 0 {
				if err := choiceValue(cm["value"], focused); err != nil {
					errs = append(errs, fmt.Errorf("autocomplete choice %q for an option of type %d: %v", str(cm, "name"), focused, err))
				}
			}
		}
	}
	return errs
}

func contains(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// MessageLimits checks a decoded message body (an interaction response's
// data, a follow-up or an edit); create says that it makes a new message,
// which may not be empty.
func MessageLimits(m map[string]any, create bool) []error {
	var errs []error
	bad := func(f string, a ...any) { errs = append(errs, fmt.Errorf(f, a...)) }
	if m == nil {
		if create {
			bad("a new message needs a body")
		}
		return errs
	}
	content := str(m, "content")
	if n(content) > maxContent {
		bad("content has %d characters, at most %d", n(content), maxContent)
	}
	embeds := list(m, "embeds")
	if len(embeds) > maxEmbeds {
		bad("%d embeds, at most %d", len(embeds), maxEmbeds)
	}
	total := 0
	for i, e := range embeds {
		em := obj(e)
		title, desc := str(em, "title"), str(em, "description")
		total += n(title) + n(desc)
		if n(title) > maxEmbedTitle {
			bad("embed %d: the title has %d characters, at most %d", i, n(title), maxEmbedTitle)
		}
		if mentionRe.MatchString(title) {
			bad("embed %d: the title %q holds a mention, which Discord shows raw in a title", i, title)
		}
		if n(desc) > maxEmbedDescription {
			bad("embed %d: the description has %d characters, at most %d", i, n(desc), maxEmbedDescription)
		}
		fields := list(em, "fields")
		if len(fields) > maxEmbedFields {
			bad("embed %d: %d fields, at most %d", i, len(fields), maxEmbedFields)
		}
		for _, f := range fields {
			fm := obj(f)
			name, value := str(fm, "name"), str(fm, "value")
			total += n(name) + n(value)
			if l := n(name); l < 1 || l > maxFieldName {
				bad("embed %d: field name %q has %d characters, not 1-%d", i, name, l, maxFieldName)
			}
			if l := n(value); l < 1 || l > maxFieldValue {
				bad("embed %d: field %q's value has %d characters, not 1-%d", i, name, l, maxFieldValue)
			}
			if mentionRe.MatchString(name) {
				bad("embed %d: field name %q holds a mention, which Discord shows raw in a field name", i, name)
			}
		}
		if f := obj(em["footer"]); f != nil {
			total += n(str(f, "text"))
			if n(str(f, "text")) > maxFooter {
				bad("embed %d: the footer has more than %d characters", i, maxFooter)
			}
		}
		if a := obj(em["author"]); a != nil {
			total += n(str(a, "name"))
			if n(str(a, "name")) > maxAuthor {
				bad("embed %d: the author's name has more than %d characters", i, maxAuthor)
			}
		}
		if img := obj(em["image"]); img != nil {
			if u := str(img, "url"); !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "attachment://") {
				bad("embed %d: image url %q is not http(s) or attachment://", i, u)
			}
		}
	}
	if total > maxEmbedTotal {
		bad("the embeds hold %d characters, at most %d together", total, maxEmbedTotal)
	}
	rows := list(m, "components")
	if create && content == "" && len(embeds) == 0 && len(rows) == 0 && m["poll"] == nil && len(list(m, "attachments")) == 0 {
		bad("a new message with no content, embed or component (Discord: 50006 Cannot send an empty message)")
	}
	if len(rows) > maxActionRows {
		bad("%d action rows, at most %d", len(rows), maxActionRows)
	}
	ids := map[string]bool{}
	for i, r := range rows {
		rm := obj(r)
		if typeOf(rm) != 1 {
			bad("component %d is of type %d, not an action row", i, typeOf(rm))
			continue
		}
		cs := list(rm, "components")
		if len(cs) < 1 || len(cs) > maxRowButtons {
			bad("action row %d holds %d components, not 1-%d", i, len(cs), maxRowButtons)
		}
		for _, c := range cs {
			cm := obj(c)
			id := str(cm, "custom_id")
			switch typeOf(cm) {
			case 2:
				style, _ := num(cm, "style")
				if style < 1 || style > 6 {
					bad("row %d: button style %v", i, style)
				}
				if style != 5 && style != 6 && (id == "" || n(id) > maxCustomID) {
					bad("row %d: button %q: custom_id has %d characters, not 1-%d", i, str(cm, "label"), n(id), maxCustomID)
				}
				if l := n(str(cm, "label")); l > maxButtonLabel || l == 0 && cm["emoji"] == nil {
					bad("row %d: button label %q has %d characters, not 1-%d", i, str(cm, "label"), l, maxButtonLabel)
				}
			case 3, 5, 6, 7, 8:
				if len(cs) != 1 {
					bad("row %d: a select menu shares its row with %d other components", i, len(cs)-1)
				}
				if id == "" || n(id) > maxCustomID {
					bad("row %d: select custom_id has %d characters, not 1-%d", i, n(id), maxCustomID)
				}
				if typeOf(cm) == 3 {
					opts := list(cm, "options")
					if len(opts) < 1 || len(opts) > maxSelectOptions {
						bad("row %d: select with %d options, not 1-%d", i, len(opts), maxSelectOptions)
					}
					values := map[string]bool{}
					for _, o := range opts {
						om := obj(o)
						if l, v := n(str(om, "label")), n(str(om, "value")); l < 1 || l > 100 || v < 1 || v > 100 {
							bad("row %d: select option %q: label and value are 1-100 characters", i, str(om, "value"))
						}
						if values[str(om, "value")] {
							bad("row %d: select option value %q twice", i, str(om, "value"))
						}
						values[str(om, "value")] = true
					}
					lo, hasLo := num(cm, "min_values")
					hi, hasHi := num(cm, "max_values")
					if !hasLo {
						lo = 1
					}
					if !hasHi {
						hi = 1
					}
					if lo > hi || hi > float64(len(opts)) {
						bad("row %d: select min_values %v, max_values %v over %d options", i, lo, hi, len(opts))
					}
				}
			default:
				bad("row %d: component type %d in an action row", i, typeOf(cm))
			}
			if id != "" {
				if ids[id] {
					bad("custom_id %q twice in one message", id)
				}
				ids[id] = true
			}
		}
	}
	if f, ok := num(m, "flags"); ok {
		if int(f)&^(4|64|4096|32768) != 0 {
			bad("flags %v: a message sets only SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2", f)
		}
	}
	if am := obj(m["allowed_mentions"]); am != nil {
		for _, p := range list(am, "parse") {
			if s, _ := p.(string); s != "users" && s != "roles" && s != "everyone" {
				bad("allowed_mentions.parse holds %v", p)
			}
		}
	}
	return errs
}
