package tracker_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
)

// Issue 25 in a browser: a reader opens a page, picks a past moment in the
// time picker (in the game's zone), submits the form, and sees the game as
// it was then; the links of that page keep the moment, and "back to now"
// returns to the game now. For a Gilded Hall game (UTC) and a turns game
// (US Central). Full-page screenshots of each step go to
// testenv.ScreenshotDir/time-picker, as TestBrowserShowsThePlayedGame's do.
func TestBrowserTimePicker(t *testing.T) {
	p, first, _ := chipsStory(t)
	// The turns game begins at 15:00 UTC (09:00 CST), its case with it:
	// Bo's deadline to rule is seven days later, Mon 7 Dec 09:00 CST.
	p.turns(t)
	p.runDue(time.Date(2026, 12, 7, 12, 0, 0, 0, calendar.Chicago()))
	u := newUI(t, p)
	// Its own folder: the played game's test numbers its screenshots from
	// 01 in the folder above.
	u.shots = filepath.Join(u.shots, "time-picker")
	if err := os.MkdirAll(u.shots, 0o755); err != nil {
		t.Fatal(err)
	}
	adaChips := fmt.Sprintf(`tr[data-player=%q] td[data-chips]`, ada)

	// pick types a moment into the picker as datetime-local holds it and
	// submits the form: a plain GET, no script.
	pick := func(value string) {
		u.t.Helper()
		u.eq("the picker's value set", u.js(fmt.Sprintf(`(() => { const e = %s; e.value = %q; return e.value; })()`, find("#at-input"), value)), value)
		u.clickAndLoad("#at-go")
	}

	t.Run("gilded hall", func(t *testing.T) {
		u.t = t
		u.open(gamePath("players"))
		u.eq("Ada's Chips now", u.text(adaChips), "12")
		u.eq("the picker's zone", u.text("#at-zone"), "UTC")
		u.eq("the picker's type", u.attr("#at-input", "type"), "datetime-local")
		u.eq("no banner now", u.count("#as-of"), 0)
		u.shot("now")

		pick("2026-11-30T13:00")
		u.eq("the page's moment", u.js(`new URLSearchParams(location.search).get("at")`), "2026-11-30T13:00")
		u.eq("Ada's Chips at 13:00", u.text(adaChips), "5")
		u.eq("the banner", u.text("#as-of"), "You are looking at the game as of Mon 30 Nov 2026, 13:00 UTC — back to now")
		u.eq("the picker keeps the moment", u.js(find("#at-input")+".value"), "2026-11-30T13:00")
		u.shot("past-players")

		// A link of the past keeps the moment.
		u.clickAndLoad(fmt.Sprintf(`tr[data-player=%q] th a`, ada))
		u.eq("Ada's page", u.js(`location.pathname`), gamePath("players", ada))
		u.eq("Ada's page's moment", u.js(`new URLSearchParams(location.search).get("at")`), "2026-11-30T13:00:00Z")
		u.eq("Ada's Chips on her page then", u.text("#chips"), "5")
		u.has("her page's banner", u.text("#as-of"), "13:00 UTC")
		u.shot("past-player")

		u.clickAndLoad("#back-to-now")
		u.eq("back to now", u.js(`location.search`), "")
		u.eq("Ada's Chips now, again", u.text("#chips"), "12")
		u.eq("no banner now", u.count("#as-of"), 0)

		// The log's entries link to the game just after each.
		u.open(gamePath("log"))
		u.clickAndLoad(fmt.Sprintf(`tr[data-entry=%q] a.at-entry`, first.ID))
		u.has("the game just after the first grant", u.text("#as-of"), "just after log entry "+first.ID)
		u.clickAndLoad(`nav[aria-label=Game] a[href*="/players?"]`)
		u.eq("Ada's Chips just after the first grant", u.text(adaChips), "5")
		u.shot("after-entry")
	})

	t.Run("turns", func(t *testing.T) {
		u.t = t
		boPoints := fmt.Sprintf(`#points tr[data-player=%q] td`, bo)
		u.open("/tracker/games/" + turnsID + "/turns")
		u.eq("Bo's points now", u.text(boPoints), "-25")
		u.has("the picker's zone", u.text("#at-zone"), "US Central time")
		pick("2026-12-07T08:30")
		u.eq("Bo's points before his deadline", u.text(boPoints), "0")
		u.eq("the banner", u.text("#as-of"), "You are looking at the game as of Mon 7 Dec 2026, 08:30 CST — back to now")
		u.shot("past-turns")
		pick("2026-12-07T09:30")
		u.eq("Bo's points after his deadline", u.text(boPoints), "-25")
		if !strings.Contains(u.text("#as-of"), "09:30 CST") {
			t.Errorf("the banner: %s", u.text("#as-of"))
		}
	})
	u.checkConsole()
}
