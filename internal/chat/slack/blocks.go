package slack

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"croupier/internal/chat"
)

// Platform is the platform name of Slack identities ("slack:U024BE7LH")
// and bindings (a Slack team is the bound space).
const Platform = "slack"

// Message is a Slack message as a slash command response or a
// response_url post: Block Kit blocks with a plain-text fallback.
type Message struct {
	// ResponseType is "ephemeral" (only the caller sees it: private views
	// and refusals) or "in_channel".
	ResponseType    string  `json:"response_type"`
	Text            string  `json:"text"`
	Blocks          []block `json:"blocks"`
	ReplaceOriginal bool    `json:"replace_original,omitempty"`
}

type block = map[string]any

// Block Kit limits (https://api.slack.com/reference/block-kit).
const (
	maxSectionText = 3000
	maxFieldText   = 2000
	maxFields      = 10
	maxHeader      = 150
	maxButtonText  = 75
	maxElements    = 25
	maxOptions     = 100
	maxOptionText  = 75
	maxValue       = 150
)

// Render turns a neutral reply into a Slack message. Buttons and selects
// become interactive elements (their action encoded in action_id), and a
// context line also gives the equivalent slash command, so every step can
// be taken by typing even where the app's interactivity is not set up.
func Render(r *chat.Reply) Message {
	m := Message{ResponseType: "in_channel", Text: fallback(r)}
	if r.Ephemeral {
		m.ResponseType = "ephemeral"
	}
	if r.Title != "" {
		m.Blocks = append(m.Blocks, block{"type": "header", "text": plain(clip(r.Title, maxHeader))})
	}
	if r.Text != "" {
		text := mrkdwn(r.Text)
		if r.Refusal {
			text = ":no_entry: " + text
		}
		m.Blocks = append(m.Blocks, block{"type": "section", "text": md(clip(text, maxSectionText))})
	}
	for i := 0; i < len(r.Fields); i += maxFields {
		var fs []any
		for _, f := range r.Fields[i:min(i+maxFields, len(r.Fields))] {
			fs = append(fs, md(clip("*"+f.Name+"*\n"+mrkdwn(f.Value), maxFieldText)))
		}
		m.Blocks = append(m.Blocks, block{"type": "section", "fields": fs})
	}
	for _, img := range r.Images {
		m.Blocks = append(m.Blocks, block{"type": "image", "image_url": img.URL, "alt_text": clip(img.Alt, maxHeader)})
	}
	var elems []any
	var typed []string
	for _, b := range r.Buttons {
		id, err := chat.EncodeAction(b.Action)
		if err != nil {
			continue
		}
		e := block{"type": "button", "text": plain(clip(b.Label, maxButtonText)), "action_id": id, "value": clip(id, maxValue)}
		switch b.Style {
		case chat.StylePrimary, chat.StyleSuccess:
			e["style"] = "primary"
		case chat.StyleDanger:
			e["style"] = "danger"
		}
		elems = append(elems, e)
		typed = append(typed, b.Label+": `"+Command(b.Action)+"`")
	}
	for _, s := range r.Selects {
		id, err := chat.EncodeAction(s.Action)
		if err != nil || s.Option == "" {
			continue
		}
		var opts []any
		for _, c := range s.Choices[:min(len(s.Choices), maxOptions)] {
			if len(c.Value) > maxValue {
				continue
			}
			opts = append(opts, block{"text": plain(clip(c.Label, maxOptionText)), "value": c.Value})
		}
		if len(opts) == 0 {
			continue
		}
		ph := s.Placeholder
		if ph == "" {
			ph = "Choose…"
		}
		// The option the choice fills travels in the action (a select's
		// action_id is the encoded action with the option named).
		a := s.Action
		a.Options = cloneWith(a.Options, selectOption, s.Option)
		if sid, err := chat.EncodeAction(a); err == nil {
			id = sid
		}
		el := block{"type": "static_select", "placeholder": plain(clip(ph, maxOptionText)), "action_id": id, "options": opts}
		placeholder := "<" + s.Option + ">"
		if s.Multi() {
			// Slack has no minimum for a multi-select: the command
			// refuses too few choices with its own sentence.
			_, hi := s.Bounds(len(opts))
			el["type"], el["max_selected_items"] = "multi_static_select", hi
			placeholder = "<" + s.Option + ",...>"
		}
		elems = append(elems, el)
		typed = append(typed, ph+": `"+Command(chat.Action{Command: s.Action.Command, Options: cloneWith(s.Action.Options, s.Option, placeholder)})+"`")
	}
	if len(elems) > 0 {
		m.Blocks = append(m.Blocks, block{"type": "actions", "elements": elems[:min(len(elems), maxElements)]})
		m.Blocks = append(m.Blocks, block{"type": "context", "elements": []any{md(clip("Or type "+strings.Join(typed, " · "), maxSectionText))}})
	}
	if len(m.Blocks) == 0 {
		m.Blocks = append(m.Blocks, block{"type": "section", "text": md("Done.")})
	}
	return m
}

// selectOption is the action option that names which option a select's
// chosen value fills (it never collides with the table's option names).
const selectOption = "_select"

func cloneWith(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for a, b := range m {
		out[a] = b
	}
	out[k] = v
	return out
}

// Command is the slash command that runs an action: "/croupier buy
// confirm item=chip quantity=1".
func Command(a chat.Action) string {
	var b strings.Builder
	b.WriteString("/croupier " + a.Command)
	keys := make([]string, 0, len(a.Options))
	for k := range a.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := a.Options[k]
		if strings.ContainsAny(v, " \t") {
			v = `"` + v + `"`
		}
		fmt.Fprintf(&b, " %s=%s", k, v)
	}
	return b.String()
}

// fallback is the notification text of a message.
func fallback(r *chat.Reply) string {
	parts := []string{}
	if r.Title != "" {
		parts = append(parts, r.Title)
	}
	if r.Text != "" {
		parts = append(parts, r.Text)
	}
	if len(parts) == 0 {
		return "Done."
	}
	// An identity reads as its mention, which Slack shows as the member's
	// name, as in the message's blocks.
	return clip(slackIDRe.ReplaceAllString(strings.Join(parts, ": "), "<@$1>"), maxSectionText)
}

// mrkdwn converts the layer's Markdown (Discord-flavoured: **bold**,
// __underline__, ~~strike~~) to Slack's mrkdwn (*bold*, _italic_, ~strike~).
// slackIDRe is a Slack identity in a reply's text: Slack shows its mention
// (<@U…>) as the member's name.
var slackIDRe = regexp.MustCompile(`\bslack:([UW][A-Z0-9]{2,20})\b`)

func mrkdwn(s string) string {
	s = slackIDRe.ReplaceAllString(s, "<@$1>")
	s = strings.ReplaceAll(s, "**", "*")
	s = strings.ReplaceAll(s, "__", "_")
	return strings.ReplaceAll(s, "~~", "~")
}

func plain(s string) block { return block{"type": "plain_text", "text": s, "emoji": true} }
func md(s string) block    { return block{"type": "mrkdwn", "text": s} }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
