package discord

import (
	"log/slog"
	"regexp"
	"strconv"
	"unicode/utf8"

	"croupier/internal/chat"
)

// Embed colours: the Croupier's gold, and red for refusals.
const (
	colourGold    = 0xC9A227
	colourRefusal = 0xC0392B
)

var identityRe = regexp.MustCompile(`\bdiscord:(\d{1,20})\b`)

// mentions turns identities in text into Discord mentions ("<@123>").
func mentions(s string) string { return identityRe.ReplaceAllString(s, "<@$1>") }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// message renders a neutral reply as a Discord message. Components that
// cannot be encoded (an action too long for a custom_id) are dropped and
// logged rather than failing the reply.
func message(r *chat.Reply, log *slog.Logger) *ResponseData {
	d := &ResponseData{AllowedMentions: &AllowedMentions{Parse: []string{"users"}}}
	if r.Ephemeral {
		d.Flags = FlagEphemeral
	}
	content := clip(mentions(r.Text), maxContent)
	d.Content = &content
	// total counts the characters of every embed of the message (bytes, a
	// bound on them): Discord refuses a message whose embeds hold more
	// than maxEmbedTotal together.
	total := 0
	if r.Title != "" || len(r.Fields) > 0 {
		e := Embed{Title: clip(r.Title, maxEmbedTitle), Color: colourGold}
		if identityRe.MatchString(r.Title) {
			// Discord renders no mention in a title ("<@2>" shows as
			// typed): a title naming someone by identity is the
			// description's bold first line instead, where it renders.
			e.Title, e.Description = "", clip("**"+mentions(r.Title)+"**", maxEmbedTitle+4)
		}
		if r.Refusal {
			e.Color = colourRefusal
		}
		total = len(e.Title) + len(e.Description)
		for i, f := range r.Fields {
			if i == maxEmbedFields {
				break
			}
			ef := EmbedField{Name: clip(f.Name, maxFieldName), Value: clip(mentions(f.Value), maxFieldValue), Inline: f.Inline}
			if identityRe.MatchString(f.Name) {
				// As in a title, a mention in a field's name shows as
				// typed: the name opens the value in bold instead.
				ef.Name, ef.Value = "", clip("**"+mentions(f.Name)+"**\n"+mentions(f.Value), maxFieldValue)
			}
			if ef.Name == "" {
				ef.Name = "\u200b"
			}
			if ef.Value == "" {
				ef.Value = "\u200b"
			}
			if total+len(ef.Name)+len(ef.Value) > maxEmbedTotal {
				break
			}
			total += len(ef.Name) + len(ef.Value)
			e.Fields = append(e.Fields, ef)
		}
		d.Embeds = []Embed{e}
	}
	// One embed a card picture, captioned with its name (the alt text).
	for _, img := range r.Images {
		caption := clip(img.Alt, maxEmbedTitle)
		if len(d.Embeds) == maxEmbeds || total+len(caption) > maxEmbedTotal {
			break
		}
		total += len(caption)
		d.Embeds = append(d.Embeds, Embed{Description: caption, Color: colourGold, Image: &EmbedImage{URL: img.URL}})
	}
	comps := []Component{}
	var row []Component
	flush := func() {
		if len(row) > 0 && len(comps) < maxRows {
			comps = append(comps, Component{Type: ComponentActionRow, Components: row})
		}
		row = nil
	}
	for _, b := range r.Buttons {
		id, err := chat.EncodeAction(b.Action)
		if err != nil {
			log.Warn("dropping a button", "label", b.Label, "err", err.Error())
			continue
		}
		row = append(row, Component{Type: ComponentButton, Style: buttonStyle(b.Style), Label: clip(b.Label, maxLabel), CustomID: id})
		if len(row) == maxButtonsPerRow {
			flush()
		}
	}
	flush()
	for _, s := range r.Selects {
		a := s.Action
		opts := map[string]string{selectOption: s.Option}
		for k, v := range a.Options {
			opts[k] = v
		}
		id, err := chat.EncodeAction(chat.Action{Command: a.Command, Options: opts})
		if err != nil || len(s.Choices) == 0 {
			log.Warn("dropping a select", "placeholder", s.Placeholder, "err", err)
			continue
		}
		sel := Component{Type: ComponentStringSelect, CustomID: id, Placeholder: clip(s.Placeholder, 150)}
		for i, c := range s.Choices {
			if i == maxSelectOptions {
				break
			}
			if len(c.Value) > maxChoiceName || c.Value == "" {
				continue
			}
			label := clip(c.Label, maxChoiceName)
			if label == "" {
				label = c.Value // Discord refuses an option without a label
			}
			sel.Options = append(sel.Options, SelectOption{Label: label, Value: c.Value})
		}
		if len(sel.Options) == 0 {
			log.Warn("dropping a select with no option Discord accepts", "placeholder", s.Placeholder)
			continue
		}
		// Discord refuses the whole message when max_values exceeds the
		// options, so the bounds follow the options rendered.
		if s.Multi() {
			sel.MinValues, sel.MaxValues = s.Bounds(len(sel.Options))
		}
		row = []Component{sel}
		flush()
	}
	// An empty list (not an absent one) removes an earlier message's
	// buttons when a reply updates it.
	d.Components = &comps
	return d
}

func buttonStyle(s string) int {
	switch s {
	case chat.StyleSecondary:
		return 2
	case chat.StyleSuccess:
		return 3
	case chat.StyleDanger:
		return 4
	default:
		return 1
	}
}

// choices renders autocomplete suggestions.
// choices are autocomplete suggestions for an option of type typ. A
// choice's value has its option's type (Discord refuses a string for an
// integer option, and the picker stays empty), so an integer or number
// option's values are sent as JSON numbers, and a suggestion that is not
// one is left out.
func choices(cs []chat.Choice, typ int) []AppChoice {
	out := []AppChoice{}
	for _, c := range cs {
		if c.Value == "" || len(c.Value) > maxChoiceName {
			continue
		}
		name := clip(c.Label, maxChoiceName)
		if name == "" {
			name = c.Value
		}
		var v any = c.Value
		switch typ {
		case OptInteger:
			n, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				continue
			}
			v = n
		case OptNumber:
			f, err := strconv.ParseFloat(c.Value, 64)
			if err != nil {
				continue
			}
			v = f
		}
		out = append(out, AppChoice{Name: name, Value: v})
	}
	return out
}
