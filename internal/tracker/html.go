package tracker

import (
	"bytes"
	"html"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
)

// Pages are written by plain Go functions rather than html/template: its
// reflective method calls make the linker keep every exported method of
// every type in the binary, 2 MiB of the tracker's Lambda (issue 16).
//
// The one rule that keeps them safe: literal HTML is a markup, which only
// constants convert to, so every string from the game (a name, a
// proposal's text, a query parameter) can reach a page only through text
// (HTML-escaped, for element content and quoted attribute values alike)
// or the helpers built on it. URLs are built from escaped parts (gameURL,
// query) and then escaped as attribute values too.

// markup is literal HTML of this package. A string constant converts to it
// implicitly; a string variable does not, so data cannot pass as markup.
type markup string

// page is one page's HTML being written.
type page struct {
	b bytes.Buffer
	// zone is the game's own time zone, where its rules keep one (a turns
	// game's America/Chicago, RULINGS T3); nil: UTC.
	zone *time.Location
}

// raw writes literal markup.
func (p *page) raw(s markup) { p.b.WriteString(string(s)) }

// text writes s escaped: safe as element content and as a quoted
// attribute value.
func (p *page) text(s string) { p.b.WriteString(html.EscapeString(s)) }

// num writes a number.
func (p *page) num(n int) { p.b.WriteString(strconv.Itoa(n)) }

// bool writes true or false.
func (p *page) bool(b bool) { p.b.WriteString(strconv.FormatBool(b)) }

// join writes ss separated by commas, escaped.
func (p *page) join(ss []string) { p.text(strings.Join(ss, ", ")) }

// short writes s cut to at most n runes (the cut marked), escaped.
func (p *page) short(n int, s string) { p.text(short(n, s)) }

// el writes s escaped between open and close: p.el("<td>", s, "</td>").
func (p *page) el(open markup, s string, close markup) {
	p.raw(open)
	p.text(s)
	p.raw(close)
}

// when writes a moment as a <time> element in UTC (the game's calendar is
// UTC-based; the datetime attribute lets a browser or a test read it
// exactly). A zero time is a dash.
func (p *page) when(t time.Time) {
	if t.IsZero() {
		p.raw("—")
		return
	}
	t = t.UTC()
	p.raw(`<time datetime="`)
	p.text(t.Format(time.RFC3339))
	p.raw(`">`)
	if p.zone != nil {
		p.text(t.In(p.zone).Format("Mon 2 Jan 2006 15:04 MST"))
	} else {
		p.text(t.Format("2006-01-02 15:04 UTC"))
	}
	p.raw(`</time>`)
}

// whenp is when of an optional moment: nil is a dash.
func (p *page) whenp(t *time.Time) {
	if t == nil {
		p.raw("—")
		return
	}
	p.when(*t)
}

// player links a current player's id to their page, shown by name; other
// ids (the admin, the scheduler, former players) are plain text.
func (p *page) player(l *layout, id string) {
	if id == "" {
		p.raw("—")
		return
	}
	n, member := l.Names[id]
	if !member {
		p.text(id)
		return
	}
	label := id
	if n != "" && n != id {
		label = n + " (" + id + ")"
	}
	p.raw(`<a href="`)
	p.text(gameURL(l.Game.ID, "players", id))
	p.raw(`">`)
	p.text(label)
	p.raw(`</a>`)
}

// admins writes a game's admins: a player as a link by name, an admin who
// is no player (who has no name) as such, never by id.
func (p *page) admins(l *layout, ids []string) {
	others := 0
	n := 0
	for _, id := range ids {
		if _, member := l.Names[id]; !member {
			others++
			continue
		}
		if n > 0 {
			p.raw(", ")
		}
		p.player(l, id)
		n++
	}
	if others > 0 {
		if n > 0 {
			p.raw(" and ")
		}
		if others == 1 {
			p.text("an admin who is not a player")
		} else {
			p.text(strconv.Itoa(others) + " admins who are not players")
		}
	}
}

// componentAmount is an amount of a Ritual Component as the Obelisk's
// pages write it ("1🌿"), or "1 herbs" for an id the ruleset lacks.
func componentAmount(id string, n int) (s string) {
	defer func() {
		if recover() != nil {
			s = strconv.Itoa(n) + " " + id
		}
	}()
	var c ruleset.Components
	c.Add(id, n)
	return c.String()
}

// players writes player links separated by commas.
func (p *page) players(l *layout, ids []string) {
	for i, id := range ids {
		if i > 0 {
			p.raw(", ")
		}
		p.player(l, id)
	}
}

// who is player labelled with the name alone (the id is the link's
// title), for the long log table.
func (p *page) who(l *layout, id string) {
	n, member := l.Names[id]
	if !member || n == "" {
		p.player(l, id)
		return
	}
	p.raw(`<a href="`)
	p.text(gameURL(l.Game.ID, "players", id))
	p.raw(`" title="`)
	p.text(id)
	p.raw(`">`)
	p.text(n)
	p.raw(`</a>`)
}

// card writes a card's image: its SVG, and its name (and "holographic")
// as the alternative text; attrs are the img's other attributes.
func (p *page) card(name string, holo bool, attrs markup) {
	p.raw(`<img src="`)
	p.text(cardURL(name, holo))
	p.raw(`" alt="`)
	p.text(cardAlt(name, holo))
	p.raw(`" `)
	p.raw(attrs)
	p.raw(`>`)
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

// moveCards are the cards a move names: the hand selected, the card
// played, added or given, a Queen's chosen card.
func moveCards(mv *exoptosis.Move) []string {
	if mv.Card != "" {
		return append([]string{mv.Card}, mv.Cards...)
	}
	return mv.Cards
}
