package tracker

import (
	"fmt"
	"html/template"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// funcs are the helpers page templates use.
var funcs = template.FuncMap{
	"when":      when,
	"gameURL":   gameURL,
	"cardURL":   cardURL,
	"cardAlt":   cardAlt,
	"player":    playerLink,
	"who":       whoLink,
	"moveText":  moveText,
	"moveCards": moveCards,
	"short":     short,
	"join":      strings.Join,
	"add":       func(a, b int) int { return a + b },
	"sub":       func(a, b int) int { return a - b },
	"query":     query,
	"dictm": func(l *layout, rows []gildedhall.MatchSummary, id string) any {
		return struct {
			L    *layout
			Rows []gildedhall.MatchSummary
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

// cardURL is the SVG image of a card, holographic or not, as
// internal/cardart serves it.
func cardURL(name string, holo bool) string {
	s := ruleset.CardSlug(name)
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

// playerLink links a current player's id to their page, shown by name;
// other ids (the admin, the scheduler, former players) are plain text.
func playerLink(l *layout, id string) template.HTML {
	if id == "" {
		return "—"
	}
	n, member := l.Names[id]
	if !member {
		// The admin, the scheduler, a former player: no page to link to.
		return template.HTML(template.HTMLEscapeString(id))
	}
	label := id
	if n != "" && n != id {
		label = n + " (" + id + ")"
	}
	href := gameURL(l.Game.ID, "players", id)
	return template.HTML(fmt.Sprintf(`<a href="%s">%s</a>`, template.HTMLEscapeString(href), template.HTMLEscapeString(label)))
}

// name is a player's display name (the id when they have none, or are
// no longer a player).
func (l *layout) name(id string) string {
	if n := l.Names[id]; n != "" {
		return n
	}
	return id
}

// whoLink is playerLink labelled with the name alone (the id is the
// link's title), for the long log table.
func whoLink(l *layout, id string) template.HTML {
	n, member := l.Names[id]
	if !member || n == "" {
		return playerLink(l, id)
	}
	href := gameURL(l.Game.ID, "players", id)
	return template.HTML(fmt.Sprintf(`<a href="%s" title="%s">%s</a>`, template.HTMLEscapeString(href),
		template.HTMLEscapeString(id), template.HTMLEscapeString(n)))
}

// pastTense words each move kind for the replay ("Ada played 2 of Hearts").
var pastTense = map[string]string{
	exoptosis.MoveRaise: "raised", exoptosis.MoveBet: "bet", exoptosis.MoveMatch: "matched the bet",
	exoptosis.MoveDecline: "declined the bet", exoptosis.MovePass: "passed", exoptosis.MovePlay: "played",
	exoptosis.MoveAdd: "added", exoptosis.MoveGiver: "asked for a card from", exoptosis.MoveGive: "gave",
	exoptosis.MoveTarget: "chose", exoptosis.MoveForfeit: "forfeited", exoptosis.MoveTerminate: "consented to end the match",
}

// moveText describes one step of a match in words.
func moveText(l *layout, e exoptosis.LogEntry) string {
	name := func(id string) string {
		if n := l.Names[id]; n != "" {
			return n
		}
		return id
	}
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
			return name(mv.Actor) + " selected a hand (hidden until the hands are revealed)."
		}
		return fmt.Sprintf("%s selected %s.", name(mv.Actor), strings.Join(mv.Cards, ", "))
	}
	verb, ok := pastTense[mv.Kind]
	if !ok {
		verb = mv.Kind
	}
	parts := []string{name(mv.Actor), verb}
	if mv.Card != "" {
		parts = append(parts, mv.Card)
	}
	if len(mv.Cards) > 0 {
		parts = append(parts, strings.Join(mv.Cards, ", "))
	}
	if mv.Amount != 0 {
		parts = append(parts, "to", fmt.Sprint(mv.Amount), "Chips")
	}
	if mv.Target != "" {
		parts = append(parts, "→", name(mv.Target))
	}
	if len(mv.Targets) > 0 {
		names := make([]string, len(mv.Targets))
		for i, id := range mv.Targets {
			names[i] = name(id)
		}
		parts = append(parts, "→", strings.Join(names, ", "))
	}
	return strings.Join(parts, " ") + "."
}

// moveCards are the cards a move names: the hand selected, the card
// played, added or given, a Queen's chosen card.
func moveCards(mv *exoptosis.Move) []string {
	if mv.Card != "" {
		return append([]string{mv.Card}, mv.Cards...)
	}
	return mv.Cards
}

// short cuts s to at most n runes, marking the cut.
func short(n int, s string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
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
