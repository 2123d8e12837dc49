package tracker_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"croupier/internal/cardart"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
	"croupier/internal/store"
	"croupier/internal/testenv"
	"croupier/internal/tracker"

	"github.com/chromedp/chromedp"
)

// TestBrowserShowsThePlayedGame drives Debian's Chromium (headless, through
// chromedp) over the tracker of the game the suite plays: every page loads
// with the service's values, the replay steps forward and back, the audit
// button recomputes every draw and finds them all matching, and after one
// stored draw is altered it flags exactly that draw. A full-page screenshot
// of each page goes to testenv.ScreenshotDir (build/screenshots by default).
// Any console error or uncaught exception on any page fails the test: that
// is how a broken script, a missing image or a Content-Security-Policy
// violation shows.
func TestBrowserShowsThePlayedGame(t *testing.T) {
	p := play(t)
	u := newUI(t, p)
	ctx := p.ctx

	t.Run("index", func(t *testing.T) {
		u.t = t
		u.open("/tracker")
		u.eq("the game id field", u.count(`form input[name=game]`), 1)
		u.shot("index")
	})

	t.Run("overview", func(t *testing.T) {
		u.t = t
		g, _ := p.svc.Game(ctx, gameID)
		ps, _ := gildedhall.On(p.svc).Players(ctx, gameID)
		u.open(gamePath())
		u.eq("period", u.attr("#period", "data-period"), g.Period.ID)
		u.eq("ruleset version", u.attr("#ruleset", "data-version"), strconv.Itoa(g.RulesetVersion))
		u.eq("players", u.text("#player-count"), strconv.Itoa(len(ps)))
		u.eq("winner", u.text("#winner-value"), "None yet")
		u.eq("season", u.text("#season"), g.Season)
		u.has("judge", u.text("#judge"), "Dee ("+dee+")")
		// tracker.js ran: the countdown has its text.
		u.wait(`document.querySelector("[data-countdown]").textContent.trim() !== ""`)
		u.eq("current section", u.text(`nav[aria-label=Game] a[aria-current=page]`), "Overview")
		u.shot("overview")
	})

	t.Run("players", func(t *testing.T) {
		u.t = t
		ps, _ := gildedhall.On(p.svc).Players(ctx, gameID)
		u.open(gamePath("players"))
		u.eq("rows", u.count("tr[data-player]"), len(ps))
		for _, v := range ps {
			row := fmt.Sprintf(`tr[data-player=%q] `, v.ID)
			u.eq(v.Name+"'s Vertebrae", u.text(row+"td[data-vertebrae]"), strconv.Itoa(v.Inventory.Vertebrae))
			u.eq(v.Name+"'s Chips", u.text(row+"td[data-chips]"), strconv.Itoa(v.Inventory.Chips))
			u.eq(v.Name+"'s deck", u.text(row+"td[data-deck-size]"), strconv.Itoa(v.DeckSize))
		}
		u.shot("players")
	})

	t.Run("player", func(t *testing.T) {
		u.t = t
		v, _ := gildedhall.On(p.svc).Player(ctx, gameID, ada)
		// Reached the way a reader does: from the players table.
		u.clickAndLoad(fmt.Sprintf(`tr[data-player=%q] th a`, ada))
		u.eq("page", u.js(`location.pathname`), gamePath("players", ada))
		u.eq("Vertebrae", u.text("#vertebrae"), strconv.Itoa(v.Inventory.Vertebrae))
		u.eq("Chips", u.text("#chips"), strconv.Itoa(v.Inventory.Chips))
		u.eq("deck size", u.text("#deck-size"), strconv.Itoa(v.DeckSize))
		holo, kinds := 0, 0
		for _, e := range v.Deck {
			if e.Holo > 0 {
				holo++
			}
			if e.Count > e.Holo {
				kinds++
			}
		}
		u.eq("holographic cards shown", u.count(`li.card.holo[data-holo=true]`), holo)
		u.eq("plain cards shown", u.count(`li.card[data-holo=false]`), kinds)
		u.eq("cards counted", u.js(`String([...document.querySelectorAll("li.card")].reduce((n, li) => n + Number(li.dataset.count), 0))`), strconv.Itoa(v.DeckSize))
		u.eq("holo alt text", u.attr(`li.card[data-card="King of Spades"][data-holo=true] img`, "alt"), "King of Spades, holographic")
		// The card images are real SVGs from internal/cardart, and they load.
		u.scrollAll()
		u.wait(`[...document.querySelectorAll("li.card img")].every(i => i.complete && i.naturalWidth > 0)`)
		u.shot("player-ada")
	})

	t.Run("matches and replay", func(t *testing.T) {
		u.t = t
		m, _ := gildedhall.On(p.svc).Match(ctx, gameID, p.duel, "")
		rp, _ := gildedhall.On(p.svc).Replay(ctx, gameID, p.duel, "")
		winner, _ := gildedhall.On(p.svc).Player(ctx, gameID, m.Winner)
		u.open(gamePath("matches"))
		u.eq("the duel is listed", u.count(fmt.Sprintf(`tr[data-match=%q]`, p.duel)), 1)
		u.shot("matches")
		u.clickAndLoad(fmt.Sprintf(`tr[data-match=%q] a`, p.duel))
		u.eq("status", u.attr("#match-status", "data-status"), m.Status)
		u.has("winner", u.text("#match-winner"), winner.Name+" ("+m.Winner+")")
		u.eq("pile", u.attr("#pile", "data-pile-size"), strconv.Itoa(len(m.Pile)))
		u.eq("participants", u.count("tr[data-participant]"), len(m.Participants))
		steps := len(rp.Log)
		if steps < 3 {
			t.Fatalf("a replay of %d moves is too short to step through", steps)
		}
		u.eq("replay steps", u.count("ol#replay > li[data-step]"), steps)
		current := func() string { return u.attr("[data-step][aria-current=step]", "data-step") }
		u.eq("first step", current(), "1")
		u.eq("prev at the start", u.js(`String(document.getElementById("replay-prev").disabled)`), "true")
		u.shot("match")
		for want := 2; want <= 3; want++ {
			u.click("#replay-next")
			u.eq("after next", current(), strconv.Itoa(want))
		}
		u.click("#replay-prev")
		u.eq("after prev", current(), "2")
		u.eq("position", u.text("#replay-position"), fmt.Sprintf("Step 2 of %d", steps))
		u.eq("one current step", u.count("[aria-current=step]"), 1)
		// The keyboard moves it too, and a link to the last step starts there.
		u.key("#replay", "ArrowRight")
		u.eq("after →", current(), "3")
		u.do(chromedp.Navigate("about:blank")) // else only the fragment changes and nothing loads
		u.open(gamePath("matches", p.duel) + fmt.Sprintf("#step-%d", steps))
		u.eq("from the fragment", current(), strconv.Itoa(steps))
		u.eq("next at the end", u.js(`String(document.getElementById("replay-next").disabled)`), "true")

		// The board rebuilds the hands and the pile at every step, with the
		// card images (issue 15, acceptance 5): the last step's is the
		// match's end, and stepping over a play changes both.
		if !rp.Consistent || len(rp.States) != steps {
			t.Fatalf("the replay does not rebuild the duel: %d states for %d steps; %s", len(rp.States), steps, rp.Problem)
		}
		drawn := func() string {
			return u.js(`JSON.stringify([...document.querySelectorAll("#board-hands .board-hand")].map(d =>
				[d.dataset.participant, d.dataset.hidden ? null : [...d.querySelectorAll("li[data-card]")].map(l => l.dataset.card)]))`)
		}
		u.eq("the board at the end", drawn(), boardJSON(rp.States[steps-1]))
		u.eq("the pile at the end", u.attr("#board-pile", "data-pile-size"), strconv.Itoa(len(m.Pile)))
		if len(m.Pile) > 0 {
			u.eq("the top at the end", u.attr("#board-pile figure", "data-top"), m.Top)
		}
		play := slices.IndexFunc(rp.Log, func(e exoptosis.LogEntry) bool {
			return e.Move != nil && e.Move.Kind == exoptosis.MovePlay
		})
		if play < 1 {
			t.Fatalf("the duel has no play to step over: %+v", rp.Log)
		}
		u.do(chromedp.Navigate("about:blank"))
		u.open(gamePath("matches", p.duel) + fmt.Sprintf("#step-%d", play)) // the step before the play
		before, pileBefore := drawn(), u.attr("#board-pile", "data-pile-size")
		u.eq("the board before the play", before, boardJSON(rp.States[play-1]))
		u.eq("the pile before the play", pileBefore, strconv.Itoa(rp.States[play-1].Pile))
		u.wait(`[...document.querySelectorAll("#replay-board img")].every(i => i.complete && i.naturalWidth > 0)`)
		u.shot(fmt.Sprintf("replay-step-%d", play))
		u.click("#replay-next")
		after := drawn()
		u.eq("the board after the play", after, boardJSON(rp.States[play]))
		u.eq("the pile after the play", u.attr("#board-pile", "data-pile-size"), strconv.Itoa(rp.States[play].Pile))
		u.eq("the played card on top", u.attr("#board-pile figure", "data-top"), rp.Log[play].Move.Card)
		if after == before {
			t.Errorf("stepping over %s's play of %s leaves the hands as they were: %s", rp.Log[play].Move.Actor, rp.Log[play].Move.Card, after)
		}
		u.eq("the move shows its card", u.attr(fmt.Sprintf("#step-%d img.move-card", play+1), "alt"), rp.Log[play].Move.Card)
		u.wait(`[...document.querySelectorAll("#replay-board img")].every(i => i.complete && i.naturalWidth > 0)`)
		u.shot(fmt.Sprintf("replay-step-%d", play+1))
		if rp.States[0].Phase == string(exoptosis.PhaseSelection) {
			u.do(chromedp.Navigate("about:blank"))
			u.open(gamePath("matches", p.duel) + "#step-1")
			u.eq("selections hidden at step 1", u.count("#board-hands [data-hidden=true]"), len(rp.States[0].Hands))
			u.shot("replay-step-1")
		}
	})

	t.Run("obelisk", func(t *testing.T) {
		u.t = t
		o, _ := obelisk.On(p.svc).Obelisk(ctx, obeliskID)
		gs, _ := obelisk.On(p.svc).Gatherings(ctx, obeliskID)
		ps, _ := gildedhall.On(p.svc).Players(ctx, obeliskID)
		u.open(tracker.Base + "/games/" + obeliskID)
		u.clickAndLoad(`nav[aria-label=Game] a[href$="/obelisk"]`)
		u.eq("distance", u.attr("#distance", "data-km"), strconv.Itoa(o.Distance))
		u.eq("cuts", u.text("#cuts"), strconv.Itoa(o.Cuts))
		u.eq("season", u.text("#season"), o.Season)
		u.eq("grebes", u.count("#grebes li[data-grebe]"), len(o.Grebes))
		u.eq("ritual types", u.count("#ritual-types li[data-ritual]"), len(o.RitualTypes))
		u.eq("player rows", u.count("#obelisk-players tr[data-player]"), len(ps))
		for _, v := range ps {
			st, _ := obelisk.StateOf(v.PlayerView)
			row := fmt.Sprintf(`#obelisk-players tr[data-player=%q] `, v.ID)
			u.eq(v.Name+"'s ⚡", u.text(row+`td[data-component=resolve]`), strconv.Itoa(st.Components.Resolve))
			u.eq(v.Name+"'s 🌿", u.text(row+`td[data-component=herbs]`), strconv.Itoa(st.Components.Herbs))
			u.eq(v.Name+" banished", u.attr(row+"td[data-banished]", "data-banished"), strconv.FormatBool(st.Banishment != nil))
		}
		u.eq("gathering rows", u.count("#gatherings tr[data-gathering]"), len(gs))
		for _, g := range gs {
			row := fmt.Sprintf(`#gatherings tr[data-gathering=%q]`, g.ID)
			u.eq(g.ID+" status", u.attr(row, "data-status"), g.Status)
			u.eq(g.ID+" ledger", u.count(row+" li[data-entry]"), len(g.Ledger))
		}
		u.shot("obelisk")
	})

	t.Run("trades", func(t *testing.T) {
		u.t = t
		tr, _ := trades.On(p.svc).Trade(ctx, gameID, p.trade)
		u.open(gamePath("trades"))
		u.eq("trade status", u.attr(fmt.Sprintf(`tr[data-trade=%q]`, tr.ID), "data-status"), tr.Status)
		u.shot("trades")
	})

	t.Run("proposals", func(t *testing.T) {
		u.t = t
		d, _ := p.svc.Proposal(ctx, gameID, p.decided)
		o, _ := p.svc.Proposal(ctx, gameID, p.open)
		if d.Result == nil || o.Live == nil {
			t.Fatalf("the story should leave a decided and an open proposal: %+v %+v", d.ProposalRecord, o)
		}
		u.open(gamePath("proposals"))
		for _, c := range []struct {
			id, status string
			up, down   int
		}{{d.ID, string(d.Status), d.Result.For, d.Result.Against}, {o.ID, string(o.Status), o.Live.For, o.Live.Against}} {
			art := fmt.Sprintf(`article[data-proposal=%q]`, c.id)
			u.eq(c.id+" status", u.attr(art, "data-status"), c.status)
			u.eq(c.id+" 👍", u.attr(art+" .votes", "data-for"), strconv.Itoa(c.up))
			u.eq(c.id+" 👎", u.attr(art+" .votes", "data-against"), strconv.Itoa(c.down))
		}
		u.eq("the open one", u.attr(fmt.Sprintf(`article[data-proposal=%q]`, o.ID), "data-status"), "open")
		u.shot("proposals")
	})

	t.Run("judge", func(t *testing.T) {
		u.t = t
		q, _ := p.svc.JudgeQueue(ctx, gameID)
		ru, _ := p.svc.Rulings(ctx, gameID)
		u.open(gamePath("judge"))
		u.has("judge", u.text("#judge"), "Dee ("+dee+")")
		u.eq("queue", u.count("tr[data-request]"), len(q))
		u.eq("rulings", u.count("tr[data-ruling]"), len(ru))
		u.eq("the ruling's answer", u.text(fmt.Sprintf(`tr[data-ruling=%q] td[data-answer]`, p.ruling)), "TRUE")
		u.shot("judge")
	})

	t.Run("log", func(t *testing.T) {
		u.t = t
		all := logEntries(t, p)
		u.open(gamePath("log"))
		u.eq("entries", u.count("tr[data-entry]"), len(all))
		u.shot("log")
		// The filter form: Bo's purchases (none) and Ada's.
		purchases := 0
		for _, e := range all {
			if e.Command == "purchase" && e.Actor == ada {
				purchases++
			}
		}
		u.do(chromedp.SetValue(chromedp.CSS("#f-player"), ada), chromedp.SetValue(chromedp.CSS("#f-kind"), "purchase"))
		u.clickAndLoad(`form[role=search] button[type=submit]`)
		u.eq("filtered URL", u.js(`location.search`), "?player="+strings.ReplaceAll(ada, ":", "%3A")+"&kind=purchase")
		u.eq("Ada's purchases", u.count(`tr[data-entry][data-command=purchase]`), purchases)
		u.eq("only purchases", u.count(`tr[data-entry]`), purchases)
		u.shot("log-filtered")
	})

	t.Run("audit", func(t *testing.T) {
		u.t = t
		// Seeds are revealed only once their period ends: move the clock
		// past the end of the current one so every draw can be checked.
		g, _ := p.svc.Game(ctx, gameID)
		p.runDue(g.Period.End)
		rep, _ := p.svc.Audit(ctx, gameID)
		if rep.Pending != 0 || rep.Checked == 0 || len(rep.Mismatches) != 0 {
			t.Fatalf("after the period, the server's audit: %+v", rep)
		}
		u.open(gamePath("audit"))
		if u.count("#audit-next") != 0 {
			t.Fatal("the story's draws should fit one audit page")
		}
		draws := u.count("tr[data-draw-index]")
		u.eq("draws", draws, rep.Checked)
		u.eq("server report", u.attr("#server-report", "data-ok"), "true")
		u.runAudit()
		u.has("result", u.text("#audit-result"), fmt.Sprintf("all draws match: %d recomputed.", draws))
		u.eq("rows matching", u.count(`tr[data-draw-index][data-status=match]`), draws)
		u.shot("audit-all-match")

		// Alter one stored draw (a draw with n > 1, so another value is
		// possible) straight in the store, as a tampering operator would.
		pl := auditPayload(t, u.js(`document.documentElement.outerHTML`))
		bad := -1
		for i, d := range pl.Draws {
			if d.N != "1" {
				bad = i
				break
			}
		}
		if bad < 0 {
			t.Fatal("no draw with n > 1")
		}
		alterDraw(t, p, pl.Draws[bad].Command, pl.Draws[bad].Index)
		u.open(gamePath("audit"))
		u.eq("server report after tampering", u.attr("#server-report", "data-ok"), "false")
		u.runAudit()
		u.has("result after tampering", u.text("#audit-result"), "mismatch: 1 of")
		row := fmt.Sprintf(`tr[data-draw-index="%d"]`, bad)
		u.eq("the altered draw", u.attr(row, "data-status"), "mismatch")
		u.has("its check", u.text(row+" td.check"), "mismatch")
		u.eq("the others", u.count(`tr[data-draw-index][data-status=match]`), draws-1)
		u.js(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "center"}), ""`, row))
		u.shot("audit-mismatch")
	})

	t.Run("not found", func(t *testing.T) {
		u.t = t
		resp, err := chromedp.Run(u.timeout(), chromedp.NavigateResponse(u.base+gamePath("players", "discord:999")))
		if err != nil || resp.Status != http.StatusNotFound {
			t.Fatalf("an unknown player: %v %v", resp, err)
		}
		u.has("the reason", u.text("#not-found"), "discord:999")
		u.shot("not-found")
	})

	// Issue 24 point 8: each ruleset's overview shows its own state.
	t.Run("obelisk overview", func(t *testing.T) {
		u.t = t
		o, _ := obelisk.On(p.svc).Obelisk(ctx, obeliskID)
		gs, _ := obelisk.On(p.svc).Gatherings(ctx, obeliskID)
		open := 0
		for _, g := range gs {
			if g.Status == "open" {
				open++
			}
		}
		u.open(tracker.Base + "/games/" + obeliskID)
		u.eq("the Obelisk's distance", u.attr("#obelisk-distance", "data-km"), strconv.Itoa(o.Distance))
		u.has("its Cuts", u.text("#obelisk-distance"), fmt.Sprintf("%d km from the Gates", o.Distance))
		u.eq("open Gatherings", u.attr("#open-gatherings", "data-count"), strconv.Itoa(open))
		u.eq("holographic chances", u.js(`String(document.body.innerText.includes("holo"))`), "false")
		u.shot("obelisk-overview")
	})

	// Last: playing the turns game runs the due work of every game.
	t.Run("turns overview", func(t *testing.T) {
		u.t = t
		call := p.turns(t)
		u.open(tracker.Base + "/games/" + turnsID)
		u.eq("the round", u.attr("#round", "data-round"), "1")
		st, _ := turns.TurnsStatus(ctx, p.svc, turnsID)
		leaders := 0
		if len(st.Players) > 0 && st.Players[0].Points > 0 {
			leaders = min(3, len(st.Players))
		}
		u.eq("the leaders", u.count("#leaders a"), leaders)
		u.has("the game's zone", u.text("#next-phase"), "CST")
		u.eq("no Judge row", u.count("#judge"), 0)
		u.eq("no season row", u.count("#season"), 0)
		u.has("no past round", u.text("#rounds-none"), "No round has been won yet.")
		u.shot("turns-overview")
		winByParadox(t, call)
		u.open(tracker.Base + "/games/" + turnsID)
		u.eq("the round is over", u.attr("#round", "data-over"), "yes")
		u.has("its winner", u.text("#round-winner"), "Cy")
		u.has("how it was won", u.text("#round"), "with a paradox ruled TRUE (case 5302)")
		u.eq("the past rounds", u.count("#rounds tbody tr"), 1)
		u.has("round 1's winner", u.text("#round-1 td"), "Cy (discord:4)")
		u.has("how round 1 was won", u.text("#round-1"), "by a paradox ruled TRUE (case 5302)")
		u.shot("turns-overview-won")
	})

	u.t = t
	u.checkConsole()
}

// ui is one browser tab on the tracker served from p over HTTP on 127.0.0.1.
type ui struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string
	n     int

	mu      sync.Mutex
	console []string // errors and exceptions, with the page they came from
}

func newUI(t *testing.T, p *played) *ui {
	t.Helper()
	// The real card images, as `croupier serve` mounts them, so the
	// screenshots show the deck as a reader sees it.
	rs, err := ruleset.Load(ruleset.Default)
	if err != nil {
		t.Fatal(err)
	}
	cards, err := cardart.NewHandler(rs.Cards)
	if err != nil {
		t.Fatal(err)
	}
	// httptest listens on 127.0.0.1: a secure context, so WebCrypto works.
	srv := httptest.NewServer(tracker.New(p.svc, tracker.Options{Cards: cards}))
	t.Cleanup(srv.Close)
	u := &ui{t: t, ctx: testenv.Browser(t), base: srv.URL, shots: testenv.ScreenshotDir(t)}
	msgs := chromedp.Console(u.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			// Two 404s are expected, not errors of a page: the favicon the
			// browser asks for by itself (the tracker has none), and the
			// not-found page's own document.
			expected := strings.HasSuffix(m.URL, "/favicon.ico") || strings.HasSuffix(m.URL, "/discord:999")
			if (m.Type == chromedp.ConsoleError || m.IsException()) && !expected {
				u.mu.Lock()
				u.console = append(u.console, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				u.mu.Unlock()
			}
		}
	}()
	return u
}

// timeout bounds one step: a page that never gets there fails in seconds,
// not at the test binary's deadline.
func (u *ui) timeout() context.Context {
	ctx, cancel := context.WithTimeout(u.ctx, 15*time.Second)
	u.t.Cleanup(cancel)
	return ctx
}

func (u *ui) do(steps ...chromedp.Action[chromedp.Void]) {
	u.t.Helper()
	if err := chromedp.Do(u.timeout(), steps...); err != nil {
		u.t.Fatalf("browser: %v", err)
	}
}

// open loads a path and requires a 200 and the main landmark.
func (u *ui) open(path string) {
	u.t.Helper()
	resp, err := chromedp.Run(u.timeout(), chromedp.NavigateResponse(u.base+path))
	if err != nil {
		u.t.Fatalf("opening %s: %v", path, err)
	}
	if resp == nil { // a same-document navigation (only the fragment changed) loads nothing
		u.t.Fatalf("opening %s: no page was loaded", path)
	}
	if resp.Status != http.StatusOK {
		u.t.Fatalf("opening %s: HTTP %d", path, resp.Status)
	}
	u.do(chromedp.WaitReady(chromedp.CSS("#main")))
}

// clickAndLoad follows the link or submits the form under sel, waiting for
// the new page.
func (u *ui) clickAndLoad(sel string) {
	u.t.Helper()
	resp, err := chromedp.RunResponse(u.timeout(), chromedp.Click(chromedp.CSS(sel)))
	if err != nil {
		u.t.Fatalf("clicking %s: %v", sel, err)
	}
	if resp.Status != http.StatusOK {
		u.t.Fatalf("clicking %s: HTTP %d at %s", sel, resp.Status, resp.URL)
	}
	u.do(chromedp.WaitReady(chromedp.CSS("#main")))
}

func (u *ui) click(sel string) {
	u.t.Helper()
	u.do(chromedp.Click(chromedp.CSS(sel)))
}

// key sends one key (a name of the DOM's KeyboardEvent.key) to the element.
func (u *ui) key(sel, key string) {
	u.t.Helper()
	u.js(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.focus();
		e.dispatchEvent(new KeyboardEvent("keydown", {key: %q, bubbles: true})); return ""; })()`, sel, key))
}

// js evaluates a JavaScript expression whose value is a string.
func (u *ui) js(expr string) string {
	u.t.Helper()
	v, err := chromedp.Run(u.timeout(), chromedp.Evaluate[string](expr))
	if err != nil {
		u.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// find is a JavaScript expression for the element sel; it throws, naming
// the selector, when there is none.
func find(sel string) string {
	return fmt.Sprintf(`((s) => { const e = document.querySelector(s); if (!e) throw new Error("no element " + s); return e; })(%q)`, sel)
}

func (u *ui) text(sel string) string {
	u.t.Helper()
	return strings.Join(strings.Fields(u.js(find(sel)+".textContent")), " ")
}

func (u *ui) attr(sel, name string) string {
	u.t.Helper()
	return u.js(fmt.Sprintf(`%s.getAttribute(%q) ?? "(no %s)"`, find(sel), name, name))
}

func (u *ui) count(sel string) int {
	u.t.Helper()
	n, err := strconv.Atoi(u.js(fmt.Sprintf(`String(document.querySelectorAll(%q).length)`, sel)))
	if err != nil {
		u.t.Fatal(err)
	}
	return n
}

// wait polls a JavaScript condition until it holds (10 s at most).
func (u *ui) wait(cond string) {
	u.t.Helper()
	_, err := chromedp.Run(u.timeout(), chromedp.Poll[chromedp.Void](cond,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		u.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// scrollAll scrolls to the bottom so lazy images load.
func (u *ui) scrollAll() {
	u.t.Helper()
	u.js(`window.scrollTo(0, document.body.scrollHeight), ""`)
	u.js(`window.scrollTo(0, 0), ""`)
}

// runAudit presses the audit button once the script has enabled it, and
// waits for its verdict.
func (u *ui) runAudit() {
	u.t.Helper()
	u.wait(`!document.getElementById("audit-run").disabled`)
	u.click("#audit-run")
	u.wait(`/all draws match|mismatch/.test(document.getElementById("audit-result").textContent)`)
}

func (u *ui) eq(what string, got, want any) {
	u.t.Helper()
	if got != want {
		u.t.Errorf("%s: the page shows %v, the service says %v", what, got, want)
	}
}

func (u *ui) has(what, got, want string) {
	u.t.Helper()
	if !strings.Contains(got, want) {
		u.t.Errorf("%s: the page shows %q, without %q", what, got, want)
	}
}

// shot saves a full-page PNG of the current page as NN-name.png.
func (u *ui) shot(name string) {
	u.t.Helper()
	png, err := chromedp.Run(u.timeout(), chromedp.FullScreenshot(100))
	if err != nil {
		u.t.Fatalf("screenshot %s: %v", name, err)
	}
	u.n++
	path := filepath.Join(u.shots, fmt.Sprintf("%02d-%s.png", u.n, name))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		u.t.Fatal(err)
	}
	u.t.Logf("screenshot %s", path)
}

// checkConsole fails on every console error and uncaught exception seen.
func (u *ui) checkConsole() {
	u.t.Helper()
	time.Sleep(100 * time.Millisecond) // the last page's messages arrive asynchronously
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, m := range u.console {
		u.t.Errorf("browser console: %s", m)
	}
}

// alterDraw changes the value of one recorded draw in the stored log entry
// of command, as a new version of the item (the store's version semantics
// hold: the write expects the version it read).
func alterDraw(t *testing.T, p *played, command string, index int) {
	t.Helper()
	key := store.Key{PK: "GAME#" + gameID, SK: "LOG#" + command}
	it, err := p.st.Get(p.ctx, key)
	if err != nil || !it.Exists() {
		t.Fatalf("reading %s: %v (exists %v)", key, err, it.Exists())
	}
	// Edit the JSON generically so every other field stays as stored (an
	// entry stored deflated is edited as the whole entry it holds).
	whole, err := game.DecodeEntry(it.Data)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := json.Marshal(whole)
	var entry map[string]json.RawMessage
	if err := json.Unmarshal(plain, &entry); err != nil {
		t.Fatal(err)
	}
	var draws []map[string]any
	if err := json.Unmarshal(entry["draws"], &draws); err != nil {
		t.Fatal(err)
	}
	changed := false
	for _, d := range draws {
		if int(d["index"].(float64)) == index {
			n, v := int(d["n"].(float64)), int(d["value"].(float64))
			d["value"] = (v + 1) % n
			changed = true
		}
	}
	if !changed {
		t.Fatalf("%s has no draw %d", key, index)
	}
	entry["draws"], _ = json.Marshal(draws)
	it.Data, _ = json.Marshal(entry)
	if err := p.st.Commit(p.ctx, store.Tx{Puts: []store.Put{{Item: it, Expect: it.Version}}}); err != nil {
		t.Fatalf("altering %s: %v", key, err)
	}
}

// TestPagesAreValidHTML crawls every page of the played game from the
// start page (as TestLinksResolve does, which checks the links) and runs
// the Nu Html Checker (vnu.jar, the W3C's validator) over all of them, and
// over the style sheet: any error fails the test; warnings are reported.
func TestPagesAreValidHTML(t *testing.T) {
	java, jar := testenv.VNU(t)
	p := play(t)
	pages := crawl(t, p)
	// The friendly 404 page is a page too.
	code, notFound, _ := p.get(gamePath("players", "discord:999"))
	if code != http.StatusNotFound {
		t.Fatalf("an unknown player: %d", code)
	}
	pages[gamePath("players", "discord:999")+" (404)"] = notFound
	// So are the pages of a moment refused, and the game at a moment.
	for _, at := range []string{"not-a-moment", "2020-01-01T00:00"} {
		code, body, _ := p.get(gamePath("players") + "?at=" + at)
		if code != http.StatusBadRequest && code != http.StatusNotFound {
			t.Fatalf("a refused moment %s: %d", at, code)
		}
		pages[gamePath("players")+"?at="+at+" (refused)"] = body
	}
	code, body, _ := p.get(atMoment(gamePath("players", "discord:999"), pastMoment(t, p)))
	if code != http.StatusNotFound {
		t.Fatalf("an unknown player at a moment: %d", code)
	}
	pages[gamePath("players", "discord:999")+" at a moment (404)"] = body
	for _, want := range allPages(p) {
		if _, ok := pages[want]; !ok {
			t.Errorf("the crawl never reached %s", want)
		}
		if _, ok := pages[atMoment(want, pastMoment(t, p))]; !ok && want != "/tracker" {
			t.Errorf("the crawl never reached %s", atMoment(want, pastMoment(t, p)))
		}
	}

	dir := t.TempDir()
	var files []string
	names := map[string]string{} // file URL -> page path
	write := func(name, path, body string) {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		names["file:"+f] = path
	}
	paths := make([]string, 0, len(pages))
	for path := range pages {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for i, path := range paths {
		write(fmt.Sprintf("page-%03d.html", i), path, pages[path])
	}
	write("tracker.css", "/tracker/static/tracker.css", p.page("/tracker/static/tracker.css"))
	// A control page with a known error proves the checker runs and that
	// its report is read: it must be flagged, and only it is excused.
	const control = "(control page)"
	write("control.html", control, `<!DOCTYPE html><html lang="en"><head><title>Control</title></head><body><p><img src="x.png"></p></body></html>`)

	args := append([]string{"-jar", jar, "--format", "json", "--also-check-css", "--exit-zero-always"}, files...)
	cmd := exec.Command(java, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", cmd, err, stdout.String(), stderr.String())
	}
	var out struct {
		Messages []struct {
			Type, SubType, URL, Message, Extract string
			LastLine                             int
		}
	}
	if err := json.Unmarshal(stderr.Bytes(), &out); err != nil {
		t.Fatalf("the checker's output: %v\n%s", err, stderr.String())
	}
	errors, warnings, controlled := 0, 0, 0
	for _, m := range out.Messages {
		where := fmt.Sprintf("%s line %d", cmp.Or(names[m.URL], m.URL), m.LastLine)
		switch {
		case names[m.URL] == control:
			if m.Type == "error" && strings.Contains(m.Message, "alt") {
				controlled++
			}
		case m.Type == "error" || m.Type == "non-document-error":
			errors++
			t.Errorf("%s: %s: %s\n\t%s", where, m.Type, m.Message, strings.TrimSpace(m.Extract))
		case m.SubType == "warning":
			warnings++
			t.Logf("%s: warning: %s", where, m.Message)
		}
	}
	if controlled != 1 {
		t.Errorf("the checker found %d missing-alt errors on the control page, want 1: its report was not read\n%s", controlled, stderr.String())
	}
	t.Logf("the Nu Html Checker read %d pages and the style sheet: %d errors, %d warnings", len(pages), errors, warnings)
}

// crawl returns the body of every same-site HTML page reachable from the
// start page and the game's overview.
func crawl(t *testing.T, p *played) map[string]string {
	t.Helper()
	pages := map[string]string{}
	seen := map[string]bool{}
	// Now and at one past moment (as TestLinksResolve crawls).
	moment := pastMoment(t, p)
	queue := []string{"/tracker", gamePath(), atMoment(gamePath(), moment)}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] {
			continue
		}
		seen[path] = true
		code, body, h := p.get(path)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d", path, code)
			continue
		}
		if !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			continue
		}
		pages[path] = body
		base, _ := url.Parse(path)
		for _, m := range hrefRe.FindAllStringSubmatch(body, -1) {
			ref, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
			if err != nil || ref.Host != "" {
				continue // TestLinksResolve reports these
			}
			u := base.ResolveReference(ref)
			if at := u.Query().Get("at"); at != "" && at != moment {
				continue
			}
			target := u.Path
			if u.RawQuery != "" {
				target += "?" + u.RawQuery
			}
			queue = append(queue, target)
		}
	}
	return pages
}

// boardJSON is what the replay board should show for st: each hand as
// [id, cards], or [id, null] while hidden, as the page's script draws them.
func boardJSON(st gildedhall.ReplayState) string {
	rows := make([][2]any, 0, len(st.Hands))
	for _, h := range st.Hands {
		var cards any
		if !h.Hidden {
			cards = append([]string{}, h.Hand...)
		}
		rows = append(rows, [2]any{h.ID, cards})
	}
	b, _ := json.Marshal(rows)
	return string(b)
}
