package tracker_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Issue 25, on the tracker: every page of a game reads ?at=<moment> and
// shows the game as it was then, under a banner in the game's zone with
// the way back to now, and every link of the page keeps the moment.

// chipsStory: Ada is granted 5 Chips at the start (Mon 30 Nov 12:00 UTC),
// then 7 more at 14:00. It returns the two grants' log entries.
func chipsStory(t *testing.T) (*played, *game.Entry, *game.Entry) {
	p := newGame(t)
	first := p.must(gildedhall.On(p.svc).Grant(p.ctx, p.req(admin), gildedhall.Grant{Player: ada, Chips: 5, Reason: "the first grant"})).Entry
	p.clk.Set(start.Add(2 * time.Hour))
	second := p.must(gildedhall.On(p.svc).Grant(p.ctx, p.req(admin), gildedhall.Grant{Player: ada, Chips: 7, Reason: "the second grant"})).Entry
	p.clk.Set(start.Add(3 * time.Hour))
	return p, first, second
}

// chipsOf is the Chips a players table shows for id.
func chipsOf(t *testing.T, body, id string) string {
	t.Helper()
	m := regexp.MustCompile(`<tr data-player="` + regexp.QuoteMeta(id) + `">.*?data-chips="(\d+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no Chips for %s on the page", id)
	}
	return m[1]
}

func TestPastGildedHallShowsChipsThen(t *testing.T) {
	p, first, second := chipsStory(t)
	players := gamePath("players")
	if got := chipsOf(t, p.page(players), ada); got != "12" {
		t.Fatalf("Ada has %s Chips now, want 12", got)
	}
	for _, tc := range []struct{ at, chips, banner string }{
		{"2026-11-30T13:00:00Z", "5", "Mon 30 Nov 2026, 13:00 UTC"},
		{"2026-11-30T07:00:00-06:00", "5", "Mon 30 Nov 2026, 13:00 UTC"},
		// The time picker's datetime-local, in the game's zone (UTC).
		{"2026-11-30T13:00", "5", "Mon 30 Nov 2026, 13:00 UTC"},
		{"2026-11-30T14:00:30", "12", "Mon 30 Nov 2026, 14:00:30 UTC"},
		{"after:" + first.ID, "5", ", just after log entry <code>" + first.ID + "</code>"},
		{"before:" + second.ID, "5", ", just before log entry <code>" + second.ID + "</code>"},
		{"after:" + second.ID, "12", "Mon 30 Nov 2026, 14:00 UTC"},
		{"before:" + first.ID, "0", "Mon 30 Nov 2026, 12:00 UTC"},
	} {
		body := p.page(players + "?at=" + url.QueryEscape(tc.at))
		if got := chipsOf(t, body, ada); got != tc.chips {
			t.Errorf("at %s: Ada has %s Chips on the players page, want %s", tc.at, got, tc.chips)
		}
		contains(t, "the banner at "+tc.at, body, `<p id="as-of"`, "You are looking at the game as of <time", tc.banner,
			`<a id="back-to-now" href="/tracker/games/hall/players">back to now</a>`)
		keepsMoment(t, tc.at, body)
	}
	// The player's own page, reached from the players table of the past.
	body := p.page(players + "?at=2026-11-30T13:00")
	m := regexp.MustCompile(`<a href="(/tracker/games/hall/players/discord:2\?at=[^"]+)">Ada`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the players table of the past has no link to Ada keeping the moment")
	}
	contains(t, "Ada's page then", p.page(html.UnescapeString(m[1])), `<dd id="chips">5</dd>`, "13:00 UTC")
	contains(t, "Ada's page now", p.page(gamePath("players", ada)), `<dd id="chips">12</dd>`)
	if strings.Contains(p.page(gamePath("players", ada)), `id="as-of"`) {
		t.Errorf("a live page has the banner of the past")
	}

	// The log's entries link to the game just after each; the log of a
	// moment ends with it.
	logBody := p.page(gamePath("log"))
	link := fmt.Sprintf(`<a class="at-entry" href="/tracker/games/hall?at=after%%3A%s" title="The game just after this entry">`, first.ID)
	contains(t, "the log", logBody, link)
	past := p.page(gamePath("log") + "?at=after:" + first.ID)
	if strings.Contains(past, `data-entry="`+second.ID+`"`) || !strings.Contains(past, `data-entry="`+first.ID+`"`) {
		t.Errorf("the log just after the first grant should show it and not the second")
	}
	contains(t, "the log's filters at a moment", past, `<input type="hidden" name="at" value="after:`+first.ID+`">`)
}

// keepsMoment fails for every link of a page of the past that loses the
// moment: each link to a game page carries at (but "back to now", the
// picker's "now" and the log's links to the moment of an entry), and the
// log's filter form carries it as a field.
func keepsMoment(t *testing.T, at, body string) {
	t.Helper()
	for _, tag := range regexp.MustCompile(`<a [^>]*href="([^"]*)"[^>]*>`).FindAllStringSubmatch(body, -1) {
		if strings.Contains(tag[0], `id="back-to-now"`) || strings.Contains(tag[0], `id="at-now"`) || strings.Contains(tag[0], `class="at-entry"`) {
			continue
		}
		u, err := url.Parse(html.UnescapeString(tag[1]))
		if err != nil {
			t.Errorf("a link %q: %v", tag[1], err)
			continue
		}
		if strings.HasPrefix(tag[1], "#") || !strings.HasPrefix(u.Path, "/tracker/games/") && u.Path != "" {
			continue // a fragment, the start page: the same at every moment
		}
		if u.Query().Get("at") == "" {
			t.Errorf("at %s, a link loses the moment: %s", at, tag[0])
		}
	}
}

func TestPastMomentsRefusedAreFriendlyPages(t *testing.T) {
	p, _, _ := chipsStory(t)
	for _, tc := range []struct {
		at   string
		code int
		says string
	}{
		{"yesterday-ish", http.StatusBadRequest, `&#34;yesterday-ish&#34; is not a moment: pick a date and time`},
		{"after:nope", http.StatusBadRequest, "is not a log entry&#39;s id"},
		{"2026-11-29T12:00:00Z", http.StatusNotFound, "Sun 29 Nov 2026, 12:00 UTC is before the game began (Mon 30 Nov 2026, 12:00 UTC)"},
		{"2026-12-30T12:00", http.StatusNotFound, "Wed 30 Dec 2026, 12:00 UTC is in the future"},
		{"after:01JE5Z8X7Q3W00000000000000", http.StatusNotFound, "has no entry 01JE5Z8X7Q3W00000000000000"},
	} {
		for _, path := range []string{gamePath(), gamePath("players", ada), gamePath("log")} {
			code, body, h := p.get(path + "?at=" + url.QueryEscape(tc.at))
			if code != tc.code {
				t.Errorf("%s at %s: %d, want %d", path, tc.at, code, tc.code)
			}
			contains(t, path+" at "+tc.at, body, "<h1>No such moment</h1>", `<p id="moment-error">`, tc.says,
				`<form id="time-picker"`, `>see the game now</a>`, `<nav aria-label="Game">`)
			if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
				t.Errorf("%s at %s: %s, not a page", path, tc.at, h.Get("Content-Type"))
			}
		}
	}
	// A player who had not joined yet is not found then: the 404 keeps
	// the moment's banner and picker.
	p.clk.Set(start.Add(4 * time.Hour))
	p.must(p.svc.Join(p.ctx, p.req("discord:9"), game.JoinGame{Name: "Eve"}))
	code, body, _ := p.get(gamePath("players", "discord:9") + "?at=" + url.QueryEscape("2026-11-30T13:00"))
	if code != http.StatusNotFound {
		t.Errorf("Eve before she joined: %d, want 404", code)
	}
	contains(t, "Eve before she joined", body, "<h1>Not found</h1>", `<p id="not-found">`, `<p id="as-of"`, "Mon 30 Nov 2026, 13:00 UTC", `<form id="time-picker"`)
	contains(t, "Eve now", p.page(gamePath("players", "discord:9")), "Eve")
}

// The time picker is a GET form in every game page, in the game's zone.
func TestTimePickerOnEveryPage(t *testing.T) {
	p := play(t)
	now := p.clk.Now().UTC().Format("2006-01-02T15:04")
	for _, path := range allPages(p)[1:] {
		body := p.page(path)
		contains(t, path, body, `<form id="time-picker" class="time-picker" method="get" action="`+strings.SplitN(path, "?", 2)[0]+`"`,
			`<input type="datetime-local" id="at-input" name="at" value="`+now+`" min="2026-11-30T12:00" max="`+now+`">`,
			`<span id="at-zone">UTC</span>`, `<a id="at-now" href="`+path+`">now</a>`)
	}
	body := p.page(gamePath("log") + "?player=" + ada + "&kind=purchase&at=2026-12-01T00:00")
	contains(t, "the picker of a filtered log", body, `<input type="hidden" name="player" value="discord:2">`, `<input type="hidden" name="kind" value="purchase">`,
		`value="2026-12-01T00:00"`, `<a id="at-now" href="/tracker/games/hall/log?kind=purchase&amp;player=discord%3A2">now</a>`)
}

// N2 at any moment: a page of the past shows a seed only if it was
// revealed then, and the hands of a match in selection stay hidden, though
// both are public now.
func TestPastRevealsNothingThenHidden(t *testing.T) {
	p := newGame(t)
	p.economy()
	p.playDuel()
	first := secrets(t, p)
	during := p.clk.Now()
	g, _ := p.svc.Game(p.ctx, gameID)
	p.runDue(g.Period.End)
	p.clk.Set(g.Period.End.Add(time.Hour))
	for period, r := range first {
		if !secrets(t, p)[period].Revealed() {
			t.Fatalf("%s not revealed after its end", period)
		}
		contains(t, "the audit now", p.page(gamePath("audit")), r.Secret)
		for _, path := range allPages(p)[1:] {
			body := p.page(path + "?at=" + url.QueryEscape(during.Format(time.RFC3339Nano)))
			if strings.Contains(body, r.Secret) {
				t.Errorf("%s as of the first period shows its secret seed", path)
			}
		}
	}
	// The moment just after the first hand was selected.
	var sel string
	for _, e := range logEntries(t, p) {
		if e.Command == "match-select" && sel == "" {
			sel = e.ID
		}
	}
	if sel == "" {
		t.Fatal("no selection in the log")
	}
	body := p.page(gamePath("matches", p.duel) + "?at=after:" + sel)
	contains(t, "the match during selection", body, `data-hidden="true">Selected; hidden until the hands are revealed`)
	if strings.Contains(body, `<ul class="hand"`) {
		t.Errorf("the match as of its selection shows a hand")
	}
	if !strings.Contains(p.page(gamePath("matches", p.duel)), `<ul class="hand"`) {
		t.Errorf("the ended match shows no hand now")
	}
}

// The Obelisk at a moment: Bo's resolve (⚡) before he gave one to the
// Gathering (he has none left now), and the Obelisk before its Cut.
func TestPastObeliskShowsResolveThen(t *testing.T) {
	p := newGame(t)
	p.obelisk()
	var contributed, completed string
	for _, e := range gameLog(t, p, obeliskID) {
		switch {
		case e.Command == "gathering-contribute" && e.Actor == bo:
			contributed = e.ID
		case e.Command == "gathering-complete":
			completed = e.ID
		}
	}
	if contributed == "" || completed == "" {
		t.Fatal("the Obelisk story's log lacks Bo's contribution or the completion")
	}
	base := "/tracker/games/" + obeliskID
	contains(t, "Bo now", p.page(base+"/players/"+bo), `<dd id="holds">nothing</dd>`)
	before := p.page(base + "/players/" + bo + "?at=before:" + contributed)
	contains(t, "Bo before his contribution", before, `<dd id="holds">2⚡</dd>`, "just before log entry")
	contains(t, "Bo just after it", p.page(base+"/players/"+bo+"?at=after:"+contributed), `<dd id="holds">1⚡</dd>`)
	keepsMoment(t, "before:"+contributed, before)
	o, _ := obelisk.On(p.svc).Obelisk(p.ctx, obeliskID)
	then := p.page(base + "?at=before:" + completed)
	contains(t, "the Obelisk before the ritual", then, "km from the Gates</a>, 0 Cuts</dd>", `<dd id="open-gatherings" data-count="1">`)
	contains(t, "the Obelisk now", p.page(base), fmt.Sprintf(`data-km="%d"`, o.Distance), "1 Cut</dd>")
	keepsMoment(t, "before:"+completed, then)
}

// A turns game at a moment, in its own zone (US Central), asked the way
// the time picker asks (a wall-clock time of Chicago): Bo's points before
// and after the deadline of the case he did not judge (U9) cost him the
// penalty. The deadline's work ran an hour late; the past has it at its
// due moment (RULINGS T6).
func TestPastTurnsShowsPointsThen(t *testing.T) {
	p := newGame(t)
	p.turns(t)
	deadline := time.Date(2026, 12, 7, 6, 0, 0, 0, calendar.Chicago())
	p.runDue(deadline.Add(time.Hour))
	base := "/tracker/games/" + turnsID
	pointsOf := func(body, id string) string {
		t.Helper()
		m := regexp.MustCompile(`<tr data-player="` + id + `">.*?</th><td>(-?\d+)</td>`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no points for %s on the turns page", id)
		}
		return m[1]
	}
	st, err := turns.TurnsStatus(p.ctx, p.svc, turnsID)
	if err != nil {
		t.Fatal(err)
	}
	now := ""
	for _, ps := range st.Players {
		if ps.Player == bo {
			now = fmt.Sprint(ps.Points)
		}
	}
	if now == "" || now == "0" {
		t.Fatalf("Bo should have lost points as a late Judge: %+v", st.Players)
	}
	if got := pointsOf(p.page(base+"/turns"), bo); got != now {
		t.Errorf("Bo's points now: %s, want %s", got, now)
	}
	for _, tc := range []struct{ at, points, shown, zone string }{
		{"2026-12-07T05:30", "0", "Mon 7 Dec 2026, 05:30 CST", "CST"},
		{"2026-12-07T11:30:00Z", "0", "Mon 7 Dec 2026, 05:30 CST", "CST"},
		{"2026-12-07T06:30", now, "Mon 7 Dec 2026, 06:30 CST", "CST"},
		{"2026-12-05T12:00", "0", "Sat 5 Dec 2026, 12:00 CST", "CST"},
	} {
		body := p.page(base + "/turns?at=" + url.QueryEscape(tc.at))
		if got := pointsOf(body, bo); got != tc.points {
			t.Errorf("at %s Bo has %s points on the turns page, want %s", tc.at, got, tc.points)
		}
		contains(t, "the turns banner at "+tc.at, body, "You are looking at the game as of <time", ">"+tc.shown+"</time>",
			`<span id="at-zone">US Central time (`+tc.zone+`)</span>`, `<a id="back-to-now" href="/tracker/games/nomic/turns">back to now</a>`)
		keepsMoment(t, tc.at, body)
	}
	// Every page of the turns game answers at a moment, in its zone.
	for _, page := range []string{"", "/players", "/players/" + bo, "/turns", "/cases", "/log", "/audit"} {
		body := p.page(base + page + "?at=2026-12-07T05:30")
		contains(t, page+" then", body, ">Mon 7 Dec 2026, 05:30 CST</time>", `<form id="time-picker"`)
		keepsMoment(t, "2026-12-07T05:30", body)
	}
	contains(t, "the case before its Judge's deadline", p.page(base+"/cases?at=2026-12-07T05:30"), `id="case-5301"`, "Bo")
	contains(t, "Bo's page before the deadline", p.page(base+"/players/"+bo+"?at=2026-12-07T05:59"), `<dd id="points">0</dd>`, `value="2026-12-07T05:59"`)
	contains(t, "Bo's page after it", p.page(base+"/players/"+bo+"?at=2026-12-07T06:00"), `<dd id="points">`+now+`</dd>`)
	code, body, _ := p.get(base + "/turns?at=2026-11-01T00:00")
	if code != http.StatusNotFound || !strings.Contains(body, "Sun 1 Nov 2026, 00:00 CDT is before the game began (Mon 30 Nov 2026, 06:00 CST)") {
		t.Errorf("a moment before the turns game: %d %s", code, section(body, "moment-error"))
	}
}

// gameLog is the whole log of game g.
func gameLog(t *testing.T, p *played, g string) []game.Entry {
	t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := p.svc.Log(p.ctx, g, cursor, 500)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Entries...)
		if page.Next == "" {
			return out
		}
		cursor = page.Next
	}
}
