package tracker

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"

	"croupier/internal/game"
	"croupier/internal/rules"
)

// The game at any past moment (issue 25): every game page takes
// ?at=<moment> and shows the game as it was then, read through
// game.Service.Past, which answers every query from the log's replay with
// the clock stopped at the moment. The same views then hide what they hid
// then (hands during selection; a seed until its period ended, which the
// past store withholds even where it is revealed now), so a page of the
// past shows nothing a live page did not show at that moment.
//
// The moment is what game.ParseMoment reads (an RFC 3339 time,
// before:<entry>, after:<entry>) or, from the time picker's
// <input type="datetime-local">, a wall-clock time such as
// 2026-12-01T12:00 in the game's own zone. Every link of a page of the
// past keeps the moment (atLink), in its canonical form (Moment.String).

// pastPage is what a page's frame shows of the moment it reads.
type pastPage struct {
	// AsOf is the moment read and the last entry it includes.
	AsOf game.AsOf
	// Moment is the moment as asked (its entry, if it names one).
	Moment game.Moment
}

// picker is the time picker's state: the page it reloads and what it
// shows.
type picker struct {
	// Path is the page the form reloads; Keep its query parameters that
	// hold at any moment (the log's filters), as hidden fields.
	Path string
	Keep [][2]string
	// Value is the moment shown, as datetime-local writes it in the
	// game's zone; Min and Max bound it (the game's creation, now).
	Value, Min, Max string
	// Zone names the zone of the value for people ("US Central time
	// (CST)", "UTC").
	Zone string
	// Now is the page as it is now (the "now" link).
	Now string
}

// atKey carries the moment a page reads (its canonical ?at= value) to the
// templates, so every link keeps it.
type atKey struct{}

func withAt(ctx context.Context, at string) context.Context {
	if at == "" {
		return ctx
	}
	return context.WithValue(ctx, atKey{}, at)
}

func atOf(ctx context.Context) string {
	s, _ := ctx.Value(atKey{}).(string)
	return s
}

// atLink is link(s) keeping the page's moment: a link to a game page, or
// to another page of this one (?page=2), carries ?at= unless it names a
// moment of its own (the log's "just after this entry"). A fragment, the
// start page and static files are the same at every moment.
func atLink(ctx context.Context, s string) templ.SafeURL {
	at := atOf(ctx)
	if at == "" || strings.HasPrefix(s, "#") {
		return link(s)
	}
	rest, frag, _ := strings.Cut(s, "#")
	path, raw, _ := strings.Cut(rest, "?")
	if path != "" && !strings.HasPrefix(path, Base+"/games/") {
		return link(s)
	}
	q, err := url.ParseQuery(raw)
	if err != nil || q.Has("at") {
		return link(s)
	}
	q.Set("at", at)
	out := path + "?" + q.Encode()
	if frag != "" {
		out += "#" + frag
	}
	return link(out)
}

// pickerLayouts are the forms of a datetime-local value: minutes, or
// seconds when the browser sends them.
var pickerLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999"}

// parseAt reads ?at=: a moment game.ParseMoment reads, or a wall-clock
// time of the game's zone as the time picker sends it. Only a moment
// neither reads is refused, with the sentence naming both forms.
func parseAt(s string, zone *time.Location) (game.Moment, error) {
	m, err := game.ParseMoment(s)
	if err == nil {
		return m, nil
	}
	s = strings.TrimSpace(s)
	for _, layout := range pickerLayouts {
		if t, perr := time.ParseInLocation(layout, s, zone); perr == nil {
			return game.Moment{At: t.UTC()}, nil
		}
	}
	var re *rules.Error
	if errors.As(err, &re) && (strings.HasPrefix(s, "before:") || strings.HasPrefix(s, "after:")) {
		return game.Moment{}, err
	}
	return game.Moment{}, rules.Refuse("bad_moment", "%q is not a moment: pick a date and time (such as 2026-12-01T12:00, in the game's zone), or give an RFC 3339 time such as 2026-12-01T18:00:00Z, or before:<entry> or after:<entry> for a log entry", s)
}

// momentText is a moment as the banner says it, in the game's zone: to the
// minute, or to the second when it has seconds (a log entry's moment).
func momentText(ctx context.Context, t time.Time) string {
	z := zoneOf(ctx)
	if z == nil {
		z = time.UTC
	}
	t = t.In(z)
	if t.Truncate(time.Minute).Equal(t) {
		return t.Format("Mon 2 Jan 2006, 15:04 MST")
	}
	return t.Format("Mon 2 Jan 2006, 15:04:05 MST")
}

// newPicker is the time picker of the page r asks for, showing shown (the
// moment the page reads, or now).
func (h *Handler) newPicker(r *http.Request, g *game.GameView, shown time.Time) *picker {
	z := h.svc.Zone(g.Ruleset)
	const local = "2006-01-02T15:04"
	now := h.svc.Clock().Now()
	created := g.CreatedAt.In(z)
	// The earliest minute the picker offers is the first one of the game
	// (a game created at 12:00:30 did not exist at 12:00).
	first := created.Truncate(time.Minute)
	if first.Before(created) {
		first = first.Add(time.Minute)
	}
	p := &picker{Path: r.URL.Path, Value: shown.In(z).Format(local), Min: first.Format(local), Max: now.In(z).Format(local)}
	if first.After(now) {
		p.Min = p.Max
	}
	p.Zone = "UTC"
	if z != time.UTC {
		p.Zone = "US Central time (" + shown.In(z).Format("MST") + ")"
	}
	q := r.URL.Query()
	for _, k := range []string{"player", "kind"} {
		if v := q.Get(k); v != "" {
			p.Keep = append(p.Keep, [2]string{k, v})
		}
	}
	p.Now = r.URL.Path + nowQuery(q)
	return p
}

// nowQuery is the page's query without its moment, and without the page
// and cursor, which name a place in the list at that moment.
func nowQuery(q url.Values) string {
	out := url.Values{}
	for k, vs := range q {
		switch k {
		case "at", "page", "after":
		default:
			out[k] = vs
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "?" + out.Encode()
}

// momentStatus is the status of a page whose moment is refused: a moment
// the tracker cannot read is a bad request; a moment it reads at which
// there is no game (before it, in the future, a log entry it does not
// have) is not found.
func momentStatus(code string) int {
	if code == "bad_moment" {
		return http.StatusBadRequest
	}
	return http.StatusNotFound
}

// momentMessage says why a moment is refused in the game's zone, where it
// is a time; for an entry, the service's own sentence.
func (h *Handler) momentMessage(g *game.GameView, m game.Moment, re *rules.Error) string {
	if m.Entry != "" || m.At.IsZero() {
		return re.Message
	}
	ctx := withZone(context.Background(), h.zone(g.Ruleset))
	switch re.Code {
	case "moment_in_future":
		return momentText(ctx, m.At) + " is in the future: the tracker shows the game as it is now or as it was, never as it will be."
	case "before_game":
		return momentText(ctx, m.At) + " is before the game began (" + momentText(ctx, g.CreatedAt) + "): there was no game then."
	}
	return re.Message
}

// momentError is the page of a moment the tracker refuses: the game's
// frame with its live nav, the sentence, and the time picker to choose
// another moment.
func (h *Handler) momentError(w http.ResponseWriter, r *http.Request, g *game.GameView, m game.Moment, re *rules.Error) {
	shown := m.At
	if shown.IsZero() || m.Entry != "" {
		shown = h.svc.Clock().Now()
	}
	l := &layout{Title: "No such moment", Game: g, Shows: h.shows(g.Ruleset), Names: map[string]string{}, Picker: h.newPicker(r, g, shown)}
	h.render(w, r, momentStatus(re.Code), momentContent(h.momentMessage(g, m, re), l.Picker.Now), l)
}
