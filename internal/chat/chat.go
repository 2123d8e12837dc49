// Package chat is the platform-neutral chat command layer: every chat
// integration (internal/chat/discord, internal/chat/slack, the bridge)
// verifies its own requests, turns them into an Invocation, hands it to a
// Router, and renders the Reply it gets back in its own format (Discord
// messages and components, Slack Block Kit...). Nothing here knows a
// platform's wire format, so one command table serves them all.
//
// # The pieces
//
//   - Invocation: who (User, a platform identity "discord:<id>"), where
//     (Platform, Guild = Discord guild / Slack team, Channel), what (Command
//     path such as "trade offer" and its Options as strings), and Key, the
//     platform's unique id of the interaction, used as the game command's
//     idempotency key (a replay changes nothing).
//   - Reply: Text, Fields, Buttons and Selects, Ephemeral for a private
//     view. Buttons and selects carry an Action (a command path and options,
//     see EncodeAction) that comes back as a new Invocation when pressed.
//     A press on a message others use (Invocation.OnShared) is answered to
//     the presser alone, and its Reply.Shared is that message's new public
//     state, which the platform writes to the message itself.
//   - Command: one entry of the table: name, description, typed options
//     (choices, autocomplete kinds), and a Handler calling *game.Service.
//   - Router: finds the game bound to the invocation's space
//     (game.Service.BindingFor), runs the handler, and turns refusals
//     (*rules.Error) into a clear ephemeral message with the rule's sentence;
//     any other failure becomes a generic ephemeral apology (and a log line),
//     never a panic or a 500.
//
// # Adding commands (other areas)
//
// The table is explicit: each area declares its commands as values in a
// function of its own file (economyCommands in commands_economy.go...),
// and groups (registry.go) lists those functions once; autocomplete
// providers likewise, in completions. Nothing registers from init(). Each
// command names the catalogue commands and views it runs (Runs), so each
// ruleset offers only the commands it has (CommandsFor, RULINGS R3).
// Names are unique: a duplicate panics the first time the table is built,
// which every test does.
package chat

import (
	"croupier/internal/rules/players"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Invocation is one verified command from a chat platform.
type Invocation struct {
	// Platform is the adapter's name ("discord", "slack"); it prefixes
	// identities and binding keys.
	Platform string
	// Guild is the chat space (Discord guild, Slack team); empty in a DM.
	Guild   string
	Channel string
	// User is the caller's platform identity, e.g. "discord:80351110224678912".
	User string
	// UserName is the caller's display name (join uses it by default).
	UserName string
	// Command is the command path: "join", "trade offer", or a context-menu
	// command's name ("Submit as proposal").
	Command string
	// Options are the option values as strings: numbers in decimal,
	// booleans "true"/"false", users as platform identities, channels as ids.
	Options map[string]string
	// Key is the platform's unique id of this interaction: the idempotency
	// key of the game command it runs.
	Key string
	// Target is the message a message command was used on.
	Target *MessageRef
	// TargetUser is the user a user command was used on (an identity).
	TargetUser string
	// Game is the game bound to Guild; the Router fills it in.
	Game string
	// Component reports that the invocation comes from a button or select
	// pressed on an earlier reply.
	Component bool
	// Message is the message the pressed component is on (Discord's
	// interaction message, Slack's container), nil when the platform does
	// not say. See OnShared.
	Message *MessageRef
}

// OnShared reports that inv is a press on a message others use too (a
// proposal's vote buttons, a Gathering, a duel invitation, a trade in a
// channel): the presser is answered privately, and the message itself
// only ever shows its public state (Reply.Shared). A press on a message
// private to the presser (an ephemeral prompt) is answered by replacing
// that message, as is one whose message the platform does not name.
func (inv *Invocation) OnShared() bool {
	return inv.Component && inv.Message != nil && !inv.Message.Private && inv.Message.ID != ""
}

// OnOption is the action option by which a button of a private answer
// names the shared message its press changes (the Gathering's message, on
// the "Withdraw it" of a contribution's private answer), in the channel
// of the message the button is on.
const OnOption = "_on"

// SharedMessage is the shared message whose public state a press changes
// (Reply.Shared is written to it): the message the component is on when
// others use it too, or the one a private answer's button names
// (OnOption); nil for any other invocation.
func (inv *Invocation) SharedMessage() *MessageRef {
	switch {
	case inv.OnShared():
		return inv.Message
	case inv.Component && inv.Message != nil && inv.Opt(OnOption) != "":
		return &MessageRef{Channel: inv.Message.Channel, ID: inv.Opt(OnOption)}
	}
	return nil
}

// naming returns a with OnOption naming inv's shared message, when there
// is one and the action still fits a component id; otherwise a as it is
// (the message then shows its new state at the next press on it).
func naming(inv *Invocation, a Action) Action {
	m := inv.SharedMessage()
	if m == nil {
		return a
	}
	opts := map[string]string{OnOption: m.ID}
	for k, v := range a.Options {
		opts[k] = v
	}
	named := Action{Command: a.Command, Options: opts}
	if _, err := EncodeAction(named); err != nil {
		return a
	}
	return named
}

// MessageRef names a chat message (the target of a message command, or
// the message a pressed component is on).
type MessageRef struct {
	Channel string
	ID      string
	// Author is the message author's identity.
	Author  string
	Content string
	// Private: only the presser sees the message (an ephemeral reply).
	Private bool
}

// Opt returns option name's value ("" when absent).
func (inv *Invocation) Opt(name string) string { return strings.TrimSpace(inv.Options[name]) }

// Int returns option name as an integer (0 when absent); a value that is not
// an integer is a refusal the user sees.
func (inv *Invocation) Int(name string) (int, error) {
	v := inv.Opt(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, refusef("invalid_option", "Option %s must be a whole number, not %q.", name, v)
	}
	return n, nil
}

// Bool returns option name as a boolean (false when absent).
func (inv *Invocation) Bool(name string) bool {
	b, _ := strconv.ParseBool(inv.Opt(name))
	return b
}

// List returns a comma- or space-separated option as its items.
func (inv *Invocation) List(name string) []string {
	return strings.FieldsFunc(inv.Opt(name), func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
}

// Reply is what a command answers, rendered by each platform.
type Reply struct {
	// Title heads the reply (an embed title on Discord, a header block on Slack).
	Title string
	Text  string
	// Fields are labelled values (balances, prices...).
	Fields []Field
	// Ephemeral: only the caller sees the reply (private views, refusals).
	Ephemeral bool
	Buttons   []Button
	Selects   []Select
	// Refusal marks a rule refusal or an error (platforms may style it).
	Refusal bool
	// Cards are the card copies the reply is about (a pack's contents, a
	// gift, a purchase). The Router turns them into Images when it knows
	// where card pictures are served.
	Cards []players.Card
	// Images are pictures to show with the reply (PNG: Discord shows no SVG).
	Images []Image
	// Logged reports that a game command's log entry holds the outcome (it
	// committed, or replayed its first commit): the entry is the
	// interaction's idempotency record, and a replay answers from it
	// again, so the reply needs no cache of its own (ReplyCache.Keep).
	Logged bool `json:"-"`
	// Shared is the new public state of the shared message a press acted
	// on (Invocation.SharedMessage): the tally, what has been contributed,
	// who accepted, with the buttons still valid. Platforms edit that message
	// with it, never with the reply itself, which goes to the presser
	// alone. Nil leaves the message as it is (refusals always do).
	Shared *Reply `json:"-"`
}

// Image is a picture and its text alternative.
type Image struct {
	URL string
	Alt string
}

// MaxImages bounds the pictures of one reply (Discord: 10 embeds a message,
// one of them the reply's own).
const MaxImages = 9

// Field is one labelled value of a reply.
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// Button styles.
const (
	StylePrimary   = "primary"
	StyleSecondary = "secondary"
	StyleSuccess   = "success"
	StyleDanger    = "danger"
)

// Button runs Action when pressed, as the user who pressed it.
type Button struct {
	Label  string
	Style  string
	Action Action
}

// Select offers Choices; the chosen value is put in Action.Options[Option]
// and Action runs, as the user who chose. A multi-select (MaxValues > 1)
// lets the user choose several values in one menu; they arrive joined with
// "," in Action.Options[Option], so its choices' values must not contain a
// comma. The values travel in the platform's interaction payload, never in
// the component id, so a long choice does not break MaxActionLen.
type Select struct {
	Placeholder string
	Action      Action
	Option      string
	Choices     []Choice
	// MinValues and MaxValues bound how many choices the user makes; 0
	// means 1 (a single select). Platforms cap them at the choices they
	// render (Discord: at most 25).
	MinValues, MaxValues int
}

// Multi reports whether s lets the user choose more than one value.
func (s Select) Multi() bool { return s.MaxValues > 1 }

// Bounds returns s's minimum and maximum number of choices for n rendered
// choices: 0 reads as 1, the maximum is at most n, and the minimum at most
// the maximum (a platform refuses a menu that cannot be satisfied).
func (s Select) Bounds(n int) (lo, hi int) {
	lo, hi = max(s.MinValues, 1), max(s.MaxValues, 1)
	hi = min(hi, max(n, 1))
	return min(lo, hi), hi
}

// Choice is one value a user can pick (select entries, option choices,
// autocomplete suggestions).
type Choice struct {
	Label string
	Value string
}

// Action is a command a button or select runs: a command path and options.
type Action struct {
	Command string
	Options map[string]string
}

// MaxActionLen is the longest encoded action (Discord's custom_id limit).
const MaxActionLen = 100

// actionVersion prefixes encoded actions, so a later format can tell old
// buttons (still on old messages) from new ones.
const actionVersion = "a1:"

// EncodeAction writes an action as a short string for a platform's
// component id (Discord custom_id, Slack action value): "a1:trade
// accept?trade=t123". It fails when the result exceeds MaxActionLen.
func EncodeAction(a Action) (string, error) {
	q := url.Values{}
	for k, v := range a.Options {
		q.Set(k, v)
	}
	s := actionVersion + a.Command
	if len(q) > 0 {
		s += "?" + q.Encode()
	}
	if len(s) > MaxActionLen {
		return "", fmt.Errorf("chat: action %q is %d characters, at most %d fit a component id", a.Command, len(s), MaxActionLen)
	}
	return s, nil
}

// DecodeAction reads what EncodeAction wrote.
func DecodeAction(s string) (Action, error) {
	rest, ok := strings.CutPrefix(s, actionVersion)
	if !ok || len(s) > MaxActionLen {
		return Action{}, fmt.Errorf("chat: %q is not an action this version wrote", s)
	}
	cmd, query, _ := strings.Cut(rest, "?")
	if cmd == "" {
		return Action{}, fmt.Errorf("chat: action %q names no command", s)
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return Action{}, fmt.Errorf("chat: action %q: %v", s, err)
	}
	a := Action{Command: cmd, Options: map[string]string{}}
	for k, vs := range q {
		a.Options[k] = vs[len(vs)-1]
	}
	return a, nil
}

// Identity returns the platform identity of a user id ("discord" + "123"
// -> "discord:123").
func Identity(platform, id string) string { return platform + ":" + id }

// UserID returns the platform's user id of an identity of that platform
// ("discord:123" -> "123"), or the identity unchanged.
func UserID(platform, identity string) string {
	if id, ok := strings.CutPrefix(identity, platform+":"); ok {
		return id
	}
	return identity
}

// sortedKeys returns m's keys in order (stable output).
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
