package tracker

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
)

// funcs are the helpers page templates use.
var funcs = template.FuncMap{
	"when":     when,
	"gameURL":  gameURL,
	"cardURL":  cardURL,
	"cardAlt":  cardAlt,
	"player":   playerLink,
	"moveText": moveText,
	"short":    short,
	"jsonText": jsonText,
	"join":     strings.Join,
	"add":      func(a, b int) int { return a + b },
	"sub":      func(a, b int) int { return a - b },
	"query":    query,
	"dictm": func(l *layout, rows []game.MatchSummary, id string) any {
		return struct {
			L    *layout
			Rows []game.MatchSummary
			ID   string
		}{l, rows, id}
	},
	"proposalArgs": func(l *layout, p game.ProposalView) any {
		return struct {
			L *layout
			P game.ProposalView
		}{l, p}
	},
	"pagerArgs": func(p pager, label string) any {
		return struct {
			P     pager
			Label string
		}{p, label}
	},
}

// when renders a moment as a <time> element in UTC (the game's calendar is
// UTC-based; the datetime attribute lets a browser or a test read it
// exactly). A nil or zero time renders as a dash.
func when(v any) template.HTML {
	var t time.Time
	switch x := v.(type) {
	case time.Time:
		t = x
	case *time.Time:
		if x != nil {
			t = *x
		}
	}
	if t.IsZero() {
		return "—"
	}
	t = t.UTC()
	return template.HTML(fmt.Sprintf(`<time datetime="%s">%s</time>`, t.Format(time.RFC3339), t.Format("2006-01-02 15:04 UTC")))
}

// Slug is a card image's file name stem: the card's name in lower case with
// every run of other characters as one dash ("Ace of Hearts" ->
// "ace-of-hearts"), as internal/cardart names its images.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

// cardURL is the SVG image of a card, holographic or not.
func cardURL(name string, holo bool) string {
	s := Slug(name)
	if holo {
		s += "-holo"
	}
	return CardsBase + "/" + s + ".svg"
}

// cardAlt is a card image's alternative text: its name, and "holographic"
// when it is.
func cardAlt(name string, holo bool) string {
	if holo {
		return name + ", holographic"
	}
	return name
}

// playerLink links a player id to their page, shown by name when the game
// knows it.
func playerLink(l *layout, id string) template.HTML {
	if id == "" {
		return "—"
	}
	label := id
	if n := l.Names[id]; n != "" && n != id {
		label = n + " (" + id + ")"
	}
	href := gameURL(l.Game.ID, "players", id)
	return template.HTML(fmt.Sprintf(`<a href="%s">%s</a>`, template.HTMLEscapeString(href), template.HTMLEscapeString(label)))
}

// moveText describes one step of a match in words.
func moveText(e exoptosis.LogEntry) string {
	if e.Timeout {
		return "The deadline passed: the match acted for the absent player."
	}
	mv := e.Move
	if mv == nil {
		return "(no move)"
	}
	switch mv.Kind {
	case exoptosis.MoveSelect:
		if len(mv.Cards) == 0 {
			return mv.Actor + " selected a hand (hidden until the hands are revealed)."
		}
		return fmt.Sprintf("%s selected %s.", mv.Actor, strings.Join(mv.Cards, ", "))
	}
	var parts []string
	parts = append(parts, mv.Actor, mv.Kind)
	if mv.Card != "" {
		parts = append(parts, mv.Card)
	}
	if len(mv.Cards) > 0 {
		parts = append(parts, strings.Join(mv.Cards, ", "))
	}
	if mv.Amount != 0 {
		parts = append(parts, fmt.Sprint(mv.Amount), "Chips")
	}
	if mv.Target != "" {
		parts = append(parts, "→", mv.Target)
	}
	if len(mv.Targets) > 0 {
		parts = append(parts, "→", strings.Join(mv.Targets, ", "))
	}
	return strings.Join(parts, " ") + "."
}

// short cuts s to at most n runes, marking the cut.
func short(n int, s string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// jsonText is raw JSON as compact text ("" for none).
func jsonText(b json.RawMessage) string {
	if len(b) == 0 || string(b) == "null" {
		return ""
	}
	return string(b)
}

// query builds "?k=v&..." from pairs, leaving out empty values.
func query(kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}
