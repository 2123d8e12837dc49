package tracker

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a-h/templ"

	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
)

// Pages are templ templates (*.templ, compiled by `go generate` into the
// *_templ.go files beside them) rather than html/template: templ writes
// plain Go, with no reflective method calls to make the linker keep every
// exported method of every type in the binary (2 MiB of the tracker's
// Lambda when its pages were html/template, issue 16).
//
// templ escapes every { expression } as text or as an attribute value, so
// a string from the game (a name, a proposal's text, a query parameter)
// reaches a page only escaped; the one unescaped writer is jsonScript,
// whose JSON escapes <, > and &. URLs are built from escaped parts
// (gameURL, query) and then escaped as attribute values too (href={
// link(...) }).

// content is a page's main element's content.
type content = templ.Component

// zoneKey carries the game's own time zone to the templates (a turns
// game's America/Chicago, RULINGS T3); none: UTC.
type zoneKey struct{}

func withZone(ctx context.Context, z *time.Location) context.Context {
	if z == nil {
		return ctx
	}
	return context.WithValue(ctx, zoneKey{}, z)
}

func zoneOf(ctx context.Context) *time.Location {
	z, _ := ctx.Value(zoneKey{}).(*time.Location)
	return z
}

// whenText is a moment as people read it: in the game's zone where its
// rules keep one, else in UTC.
func whenText(ctx context.Context, t time.Time) string {
	if z := zoneOf(ctx); z != nil {
		return t.In(z).Format("Mon 2 Jan 2006 15:04 MST")
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// link is a URL of this package's making (gameURL, query, a fragment),
// its parts escaped already.
func link(s string) templ.SafeURL { return templ.SafeURL(s) }

// jsonScript is v as JSON in a <script type="application/json"> element:
// json.Marshal escapes <, > and &, so no "</script" can end it early.
func jsonScript(id string, v any) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		b, err := json.Marshal(v)
		if err != nil {
			// Only plain data reaches here: a failure is a programming
			// error the page shows as an empty payload rather than half
			// a document.
			b = []byte("null")
		}
		_, err = io.WriteString(w, `<script type="application/json" id="`+templ.EscapeString(id)+`">`+string(b)+"</script>")
		return err
	})
}

// yesNo words a flag for a table cell.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// playerLabel is how a current player is shown: "Ada (discord:2)", or the
// id alone when it is their name.
func playerLabel(l *layout, id string) string {
	if n := l.Names[id]; n != "" && n != id {
		return n + " (" + id + ")"
	}
	return id
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

// itoa is a number as text.
func itoa(n int) string { return strconv.Itoa(n) }

// join is ss separated by commas.
func join(ss []string) string { return strings.Join(ss, ", ") }

// moveCards are the cards a move names: the hand selected, the card
// played, added or given, a Queen's chosen card.
func moveCards(mv *exoptosis.Move) []string {
	if mv.Card != "" {
		return append([]string{mv.Card}, mv.Cards...)
	}
	return mv.Cards
}

// memberIDs are the ids of ids who are players.
func memberIDs(l *layout, ids []string) []string {
	var out []string
	for _, id := range ids {
		if l.member(id) {
			out = append(out, id)
		}
	}
	return out
}

// otherAdmins says the admins who are no players, after the n who are.
func otherAdmins(n, others int) string {
	var s string
	switch {
	case others == 0:
		return ""
	case others == 1:
		s = "an admin who is not a player"
	default:
		s = strconv.Itoa(others) + " admins who are not players"
	}
	if n > 0 {
		return " and " + s
	}
	return s
}

// componentAmount is an amount of a Ritual Component as the Obelisk's
// pages write it ("1🌿"), or "1 herbs" for an id the ruleset lacks.
func componentAmount(id string, n int) string {
	for _, c := range ruleset.ComponentList {
		if c.ID == id {
			return strconv.Itoa(n) + c.Emoji
		}
	}
	return strconv.Itoa(n) + " " + id
}
