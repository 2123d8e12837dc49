package announce

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"croupier/internal/game"
)

// Line is one announcement line rendered from one log event.
type Line struct {
	Text string
	// Ping lists the identities this line should notify (a your-turn
	// notice pings its player); every other mention renders as a name only.
	Ping []string
}

// Context is what a renderer may use besides its event.
type Context struct {
	Game  string
	Entry *game.Entry
}

// Renderer turns one event into a line; false means "nothing to announce"
// (a purchase not of note). Renderers must tolerate data of any shape: the
// log is read long after the code that wrote it changed, and a renderer
// that cannot read its event should say something plain, never fail.
type Renderer func(ev game.Event, c Context) (Line, bool)

// The mapping from event type to renderer, listed here once (no init()
// adds to it; Register is for a test's own types); unknown types are not
// announced.
var (
	mu        sync.RWMutex
	renderers = map[string]Renderer{
		// Calendar and economy (internal/game).
		"period_ended":   periodEnded,
		"season_changed": seasonChanged,
		"purchased":      purchased,
		"pack_opened":    packOpened,
		"trade_executed": tradeExecuted,
		"game_won":       gameWon,
		// Exoptosis matches (internal/game/match.go: match_<engine kind>).
		"duel_requested":     duelRequested,
		"match_turn_started": yourTurn,
		"match_turn_skipped": turnSkipped,
		"match_settled":      matchEnded,
		// Governance (internal/game/proposal.go, judge.go, election.go).
		"proposal_adopted":         proposal("adopted"),
		"proposal_failed":          proposal("failed"),
		"ruling_made":              ruling("⚖️ Ruling"),
		"ruling_overturned":        ruling("↩️ Ruling overturned"),
		"ruling_affirmed":          ruling("✅ Ruling affirmed"),
		"judge_elected":            election,
		"judge_election_no_winner": election,
		"judge_removed":            judgeLeft("was removed as Judge"),
		"judge_resigned":           judgeLeft("resigned as Judge"),
	}
)

// Register sets the renderer of an event type (replacing any before it).
func Register(eventType string, r Renderer) {
	mu.Lock()
	defer mu.Unlock()
	renderers[eventType] = r
}

// Types lists the event types that can produce an announcement, sorted.
func Types() []string {
	mu.RLock()
	defer mu.RUnlock()
	ts := make([]string, 0, len(renderers))
	for t := range renderers {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	return ts
}

// Render returns the lines an entry announces, in event order. Events of
// unknown types are skipped (and returned in skipped, for the log).
func Render(g string, e *game.Entry) (lines []Line, skipped []string) {
	if e == nil {
		return nil, nil
	}
	c := Context{Game: g, Entry: e}
	mu.RLock()
	defer mu.RUnlock()
	for _, ev := range e.Events {
		r, ok := renderers[ev.Type]
		if !ok {
			skipped = append(skipped, ev.Type)
			continue
		}
		if l, ok := r(ev, c); ok && l.Text != "" {
			lines = append(lines, l)
		}
	}
	return lines, skipped
}

// Who renders an identity for chat: a Discord mention for discord:<id>
// (shown as the member's name), the bare id otherwise.
func Who(id string) string {
	if rest, ok := strings.CutPrefix(id, "discord:"); ok && rest != "" {
		return "<@" + rest + ">"
	}
	if id == "" {
		return "someone"
	}
	return "`" + id + "`"
}

func whoList(ids []string) string {
	if len(ids) == 0 {
		return "nobody"
	}
	ws := make([]string, len(ids))
	for i, id := range ids {
		ws[i] = Who(id)
	}
	return strings.Join(ws, ", ")
}

// data decodes an event's data into v; false if it does not fit.
func data(ev game.Event, v any) bool {
	return len(ev.Data) > 0 && json.Unmarshal(ev.Data, v) == nil
}

// fields decodes an event's data as an object of any shape.
func fields(ev game.Event) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(ev.Data, &m)
	return m
}

// str returns the first of keys that is a non-empty string in m.
func str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

func periodEnded(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		Ended   string `json:"ended"`
		Started string `json:"started"`
		Kind    string `json:"kind"`
		// Active and Inactive are samples of at most game.ActivitySample
		// names; the counts say how many there are.
		Active        []string `json:"active"`
		Inactive      []string `json:"inactive"`
		ActiveCount   *int     `json:"active_count"`
		InactiveCount *int     `json:"inactive_count"`
	}
	if !data(ev, &d) {
		return Line{Text: "**A period ended.**"}, true
	}
	t := fmt.Sprintf("**%s ended.** Now: %s", d.Ended, d.Started)
	if d.Kind != "" {
		t += " (" + d.Kind + ")"
	}
	t += fmt.Sprintf(".\nActive (%d): %s.\nInactive (%d): %s.", count(d.ActiveCount, d.Active), sampleList(d.Active, d.ActiveCount),
		count(d.InactiveCount, d.Inactive), sampleList(d.Inactive, d.InactiveCount))
	return Line{Text: t}, true
}

// count is a list's count: the one recorded, or (entries written before
// counts were) the list's length.
func count(n *int, ids []string) int {
	if n != nil {
		return *n
	}
	return len(ids)
}

// sampleList names a sample of a longer list, saying how many more there are.
func sampleList(ids []string, n *int) string {
	s := whoList(ids)
	if more := count(n, ids) - len(ids); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

func seasonChanged(ev game.Event, _ Context) (Line, bool) {
	var d struct{ From, To string }
	if !data(ev, &d) || d.To == "" {
		return Line{}, false
	}
	return Line{Text: fmt.Sprintf("The season turns: **%s** begins (%s is over).", d.To, d.From)}, true
}

// noteworthyItems are the purchases announced: the Chips that bring a
// player toward victory and the priciest pack.
var noteworthyItems = map[string]bool{"chip": true, "legendary-pack": true}

func purchased(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		Item        string `json:"item"`
		Name        string `json:"name"`
		Quantity    int    `json:"quantity"`
		ChipsBought int    `json:"chips_bought"`
	}
	if !data(ev, &d) || !noteworthyItems[d.Item] {
		return Line{}, false
	}
	name := d.Name
	if name == "" {
		name = d.Item
	}
	if d.Quantity > 1 {
		name = fmt.Sprintf("%d × %s", d.Quantity, name)
	}
	return Line{Text: fmt.Sprintf("%s bought from the Croupier: %s.", Who(ev.Player), name)}, true
}

func packOpened(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		Pack  struct{ Kind string } `json:"pack"`
		Name  string                `json:"name"`
		Cards []struct {
			Name string `json:"name"`
			Holo bool   `json:"holo"`
		} `json:"cards"`
	}
	if !data(ev, &d) || !noteworthyItems[d.Pack.Kind] {
		return Line{}, false
	}
	names := make([]string, len(d.Cards))
	for i, c := range d.Cards {
		names[i] = c.Name
		if c.Holo {
			names[i] += " (holo)"
		}
	}
	return Line{Text: fmt.Sprintf("%s opened a %s: %s.", Who(ev.Player), d.Name, strings.Join(names, ", "))}, true
}

func tradeExecuted(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		ID   string         `json:"id"`
		From string         `json:"from"`
		To   string         `json:"to"`
		Give map[string]any `json:"give"`
		Take map[string]any `json:"take"`
	}
	if !data(ev, &d) {
		return Line{Text: "A trade was executed."}, true
	}
	return Line{Text: fmt.Sprintf("Trade %s executed: %s gave %s; %s gave %s.", d.ID, Who(d.From), items(d.Give), Who(d.To), items(d.Take))}, true
}

// items renders one side of a trade.
func items(m map[string]any) string {
	var parts []string
	for _, k := range [][2]string{{"vertebrae", "Vertebrae"}, {"chips", "Chips"}} {
		if n, ok := m[k[0]].(float64); ok && n > 0 {
			parts = append(parts, fmt.Sprintf("%g %s", n, k[1]))
		}
	}
	for _, k := range []string{"cards", "packs"} {
		if l, ok := m[k].([]any); ok && len(l) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", len(l), strings.TrimSuffix(k, "s")+plural(len(l))))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func gameWon(ev game.Event, _ Context) (Line, bool) {
	var d struct{ Chips int }
	_ = data(ev, &d)
	t := fmt.Sprintf("🏆 **%s has won the game!**", Who(ev.Player))
	if d.Chips > 0 {
		t += fmt.Sprintf(" (%d Chips)", d.Chips)
	}
	return Line{Text: t, Ping: []string{ev.Player}}, true
}

func turnSkipped(ev game.Event, _ Context) (Line, bool) {
	f := fields(ev)
	who := ev.Player
	if who == "" {
		who = str(f, "participant", "player")
	}
	t := fmt.Sprintf("%s's turn was skipped", Who(who))
	if r := str(f, "reason"); r != "" {
		t += " (" + r + ")"
	}
	if m := str(f, "match"); m != "" {
		t += " in match " + m
	}
	return Line{Text: t + "."}, true
}

func yourTurn(ev game.Event, _ Context) (Line, bool) {
	f := fields(ev)
	who := ev.Player
	if who == "" {
		who = str(f, "participant", "player")
	}
	if who == "" {
		return Line{}, false
	}
	t := fmt.Sprintf("%s, it is your turn", Who(who))
	if m := str(f, "match"); m != "" {
		t += " in match " + m
	}
	if d := str(f, "deadline", "due", "until"); d != "" {
		t += "; play before " + d
	}
	return Line{Text: t + ".", Ping: []string{who}}, true
}

func matchEnded(ev game.Event, _ Context) (Line, bool) {
	f := fields(ev)
	winner := str(f, "winner", "participant")
	if winner == "" {
		winner = ev.Player
	}
	m := str(f, "match", "id")
	t := "Match"
	if k := str(f, "kind"); k != "" {
		t = strings.ToUpper(k[:1]) + k[1:]
	}
	if m != "" {
		t += " " + m
	}
	if winner != "" {
		t += fmt.Sprintf(" won by %s", Who(winner))
	} else {
		t += " ended without a winner"
	}
	if r := str(f, "end_reason", "reason"); r != "" {
		t += " (" + strings.ReplaceAll(r, "_", " ") + ")"
	}
	if pool, ok := f["pool"].(float64); ok && pool > 0 && winner != "" {
		t += fmt.Sprintf("; the pool of %g Chips goes to the winner", pool)
	}
	return Line{Text: t + "."}, true
}

func proposal(outcome string) Renderer {
	return func(ev game.Event, _ Context) (Line, bool) {
		var d struct {
			ID     string `json:"id"`
			Author string `json:"author"`
			Text   string `json:"text"`
			Result *struct {
				For     int `json:"for"`
				Against int `json:"against"`
			} `json:"result"`
			AmendmentError string `json:"amendment_error"`
		}
		_ = data(ev, &d)
		t := "Proposal"
		if d.ID != "" {
			t += " " + d.ID
		}
		author := d.Author
		if author == "" {
			author = ev.Player
		}
		if author != "" {
			t += " by " + Who(author)
		}
		t += " **" + outcome + "**"
		if d.Result != nil {
			t += fmt.Sprintf(", %d for and %d against", d.Result.For, d.Result.Against)
		}
		t += "."
		if d.Text != "" {
			t += "\n> " + clip(strings.ReplaceAll(d.Text, "\n", " "), 300)
		}
		if d.AmendmentError != "" {
			t += "\nIts ruleset change could not be applied: " + d.AmendmentError
		}
		return Line{Text: t}, true
	}
}

func ruling(title string) Renderer {
	return func(ev game.Event, _ Context) (Line, bool) {
		f := fields(ev)
		t := title
		if id := str(f, "request"); id != "" {
			t += " on " + id
		}
		if j := str(f, "judge"); j != "" {
			t += " by " + Who(j)
		}
		if q := str(f, "text"); q != "" {
			t += " (“" + clip(q, 200) + "”)"
		}
		if a := str(f, "answer"); a != "" {
			t += ": " + clip(a, 800)
		}
		return Line{Text: t}, true
	}
}

func judgeLeft(what string) Renderer {
	return func(ev game.Event, _ Context) (Line, bool) {
		j := str(fields(ev), "judge")
		if j == "" {
			j = ev.Player
		}
		return Line{Text: fmt.Sprintf("%s %s.", Who(j), what)}, true
	}
}

func duelRequested(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		Match    string   `json:"match"`
		Invitees []string `json:"invitees"`
	}
	if !data(ev, &d) || len(d.Invitees) == 0 {
		return Line{}, false
	}
	return Line{Text: fmt.Sprintf("%s challenges %s to a duel (%s).", Who(ev.Player), whoList(d.Invitees), d.Match), Ping: d.Invitees}, true
}

// clip shortens s to n characters.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func election(ev game.Event, _ Context) (Line, bool) {
	var d struct {
		Week     string `json:"week"`
		Previous string `json:"previous"`
		Judge    string `json:"judge"`
		Changed  bool   `json:"changed"`
	}
	_ = data(ev, &d)
	if d.Judge == "" {
		d.Judge = ev.Player
	}
	week := ""
	if d.Week != "" {
		week = " of " + d.Week
	}
	switch {
	case d.Judge == "":
		return Line{Text: "The Judge election" + week + " ended without a winner."}, true
	case !d.Changed && d.Previous == d.Judge:
		return Line{Text: fmt.Sprintf("%s remains Judge after the election%s.", Who(d.Judge), week)}, true
	default:
		return Line{Text: fmt.Sprintf("%s was elected Judge%s.", Who(d.Judge), week), Ping: []string{d.Judge}}, true
	}
}
