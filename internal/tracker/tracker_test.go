package tracker_test

import (
	"croupier/internal/institutions/trades"
	"croupier/internal/tracker"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// contains fails for each want missing from body.
func contains(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s lacks %q", what, w)
		}
	}
}

func TestPagesShowTheServiceViews(t *testing.T) {
	p := play(t)
	ctx := p.ctx
	g, err := p.svc.Game(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := p.svc.Judge(ctx, gameID)
	if js.Judge != dee {
		t.Fatalf("the story should have elected Dee: %+v", js)
	}

	t.Run("overview", func(t *testing.T) {
		body := p.page(gamePath())
		contains(t, "overview", body, "<h1>Tracker Test Hall</h1>",
			fmt.Sprintf(`data-period="%s"`, g.Period.ID),
			fmt.Sprintf(`data-countdown="%s"`, g.Period.End.UTC().Format("2006-01-02T15:04:05Z07:00")),
			fmt.Sprintf(`<time datetime="%s">`, g.Period.End.UTC().Format("2006-01-02T15:04:05Z07:00")),
			fmt.Sprintf(`data-version="%d"`, g.RulesetVersion), ">Dee (discord:5)</a>", "winChips", "None yet")
		if g.RulesetVersion < 2 {
			t.Errorf("the adopted proposal should have amended the ruleset: version %d", g.RulesetVersion)
		}
	})
	t.Run("players", func(t *testing.T) {
		body := p.page(gamePath("players"))
		ps, _ := gildedhall.On(p.svc).Players(ctx, gameID)
		if len(ps) != 4 {
			t.Fatalf("%d players", len(ps))
		}
		for _, v := range ps {
			contains(t, "players", body, fmt.Sprintf(`<tr data-player="%s"><th scope="row"><a href="/tracker/games/hall/players/%s">%s (%s)</a></th><td data-vertebrae="%d">`,
				v.ID, v.ID, v.Name, v.ID, v.Inventory.Vertebrae), fmt.Sprintf(`data-chips="%d"`, v.Inventory.Chips))
		}
	})
	t.Run("player deck", func(t *testing.T) {
		v, _ := gildedhall.On(p.svc).Player(ctx, gameID, ada)
		body := p.page(gamePath("players", ada))
		contains(t, "Ada's page", body, fmt.Sprintf(`<dd id="vertebrae">%d</dd>`, v.Inventory.Vertebrae), fmt.Sprintf(`<dd id="deck-size">%d</dd>`, v.DeckSize),
			`<li class="card holo" data-card="King of Spades" data-holo="true" data-count="1"><img src="/cards/king-of-spades-holo.svg" alt="King of Spades, holographic"`,
			`data-card="2 of Hearts" data-holo="true" data-count="1"`, `alt="2 of Hearts"`, "Holographic</span>")
		for _, e := range v.Deck {
			if n := e.Count - e.Holo; n > 0 {
				contains(t, "Ada's page", body, fmt.Sprintf(`data-card="%s" data-holo="false" data-count="%d"`, html.EscapeString(e.Card), n))
			}
		}
	})
	t.Run("matches", func(t *testing.T) {
		m, _ := gildedhall.On(p.svc).Match(ctx, gameID, p.duel, "")
		if m.Status != gildedhall.MatchEnded || m.Winner == "" {
			t.Fatalf("the duel should be over: %+v", m)
		}
		body := p.page(gamePath("matches"))
		contains(t, "matches", body, fmt.Sprintf(`<tr data-match="%s"><th scope="row"><a href="/tracker/games/hall/matches/%s">`, p.duel, p.duel), "No match is running")
		rp, _ := gildedhall.On(p.svc).Replay(ctx, gameID, p.duel, "")
		body = p.page(gamePath("matches", p.duel))
		contains(t, "match", body, `data-status="ended"`, fmt.Sprintf(`data-pile-size="%d"`, len(m.Pile)), `id="replay-controls"`, `<ol id="replay"`)
		if got := strings.Count(body, "<li id=\"step-"); got != len(rp.Log) || got == 0 {
			t.Errorf("%d replay steps, the replay has %d moves", got, len(rp.Log))
		}
		contains(t, "match", body, fmt.Sprintf(`data-step="%d"`, len(rp.Log)), fmt.Sprintf(`<a href="#step-%d" class="step-link">`, len(rp.Log)))
		contains(t, "match", body, `<dd id="match-winner"><a href="/tracker/games/hall/players/`+m.Winner+`">`)
		for _, pt := range m.Participants {
			contains(t, "match", body, fmt.Sprintf(`data-hand-size="%d"`, pt.HandSize))
		}
	})
	t.Run("trades", func(t *testing.T) {
		tr, _ := trades.On(p.svc).Trade(ctx, gameID, p.trade)
		body := p.page(gamePath("trades"))
		contains(t, "trades", body, fmt.Sprintf(`data-trade="%s" data-status="%s"`, tr.ID, tr.Status), "3 Vertebrae", "three for one")
	})
	t.Run("proposals", func(t *testing.T) {
		body := p.page(gamePath("proposals"))
		d, _ := p.svc.Proposal(ctx, gameID, p.decided)
		o, _ := p.svc.Proposal(ctx, gameID, p.open)
		if d.Status != governance.StatusAdopted || o.Live == nil {
			t.Fatalf("decided %+v open %+v", d.ProposalRecord, o)
		}
		contains(t, "proposals", body, fmt.Sprintf(`data-proposal="%s" data-status="adopted"`, d.ID), fmt.Sprintf(`data-proposal="%s" data-status="open"`, o.ID),
			fmt.Sprintf(`data-for="%d" data-against="%d"`, d.Result.For, d.Result.Against),
			fmt.Sprintf(`data-for="%d" data-against="%d"`, o.Live.For, o.Live.Against), "👍 2", "👎 1", "More gifts", "Cheaper packs")
	})
	t.Run("judge", func(t *testing.T) {
		body := p.page(gamePath("judge"))
		q, _ := p.svc.JudgeQueue(ctx, gameID)
		if len(q) != 1 {
			t.Fatalf("queue %+v", q)
		}
		contains(t, "judge", body, "The Judge is <a href=\"/tracker/games/hall/players/discord:5\">Dee (discord:5)</a>",
			fmt.Sprintf(`data-request="%s"`, q[0].Request.ID), "May Jokers be gifted?",
			fmt.Sprintf(`data-ruling="%s"`, p.ruling), `data-answer="TRUE"`, `data-confidence="open"`, "Kings are worth 13.")
	})
	t.Run("log", func(t *testing.T) {
		all := logEntries(t, p)
		body := p.page(gamePath("log"))
		if got := strings.Count(body, `data-entry="`); got != len(all) {
			t.Errorf("log shows %d entries, the game has %d", got, len(all))
		}
		body = p.page(gamePath("log") + "?player=" + bo + "&kind=trade_offered")
		want := 0
		for _, e := range all {
			for _, ev := range e.Events {
				if ev.Type == "trade_offered" {
					want++
					break
				}
			}
		}
		if got := strings.Count(body, `data-entry="`); got != want || want == 0 {
			t.Errorf("log filtered by Bo and trade_offered shows %d entries, want %d", got, want)
		}
		body = p.page(gamePath("log") + "?kind=purchase")
		for _, row := range regexp.MustCompile(`data-command="([^"]+)"`).FindAllStringSubmatch(body, -1) {
			if row[1] != "purchase" {
				t.Errorf("kind=purchase shows a %s entry", row[1])
			}
		}
	})
	t.Run("audit", func(t *testing.T) {
		body := p.page(gamePath("audit"))
		pl := auditPayload(t, body)
		var want []string
		for _, e := range logEntries(t, p) {
			for _, d := range e.Draws {
				want = append(want, fmt.Sprintf("%s/%s/%s/%d/%s/%d=%d", d.Game, d.Period, d.Command, d.Index, d.Purpose, d.N, d.Value))
			}
		}
		var got []string
		for _, d := range pl.Draws {
			got = append(got, fmt.Sprintf("%s/%s/%s/%d/%s/%s=%s", d.Game, d.Period, d.Command, d.Index, d.Purpose, d.N, d.Value))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 {
			t.Errorf("audit draws:\n%s\nthe log's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for i := range pl.Draws {
			contains(t, "audit", body, fmt.Sprintf(`<tr data-draw-index="%d">`, i))
		}
		rep, _ := p.svc.Audit(p.ctx, gameID)
		contains(t, "audit", body, `id="audit-run"`, `id="audit-result"`, fmt.Sprintf("%d draws checked, %d pending", rep.Checked, rep.Pending))
		if rep.Checked == 0 || rep.Pending == 0 {
			t.Errorf("the story should leave checked and pending draws: %+v", rep)
		}
	})
}

// payload mirrors the audit page's JSON.
type payload struct {
	Game  string `json:"game"`
	Seeds map[string]struct {
		Commitment string `json:"commitment"`
		Seed       string `json:"seed"`
	} `json:"seeds"`
	Draws []struct {
		Game, Period, Command, Purpose, N, Value, Entry string
		Index                                           int
	} `json:"draws"`
}

var auditJSON = regexp.MustCompile(`(?s)<script type="application/json" id="audit-data">(.*?)</script>`)

func auditPayload(t *testing.T, body string) payload {
	t.Helper()
	m := auditJSON.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no audit-data script on the audit page")
	}
	var pl payload
	if err := json.Unmarshal([]byte(m[1]), &pl); err != nil {
		t.Fatalf("audit-data: %v\n%s", err, m[1])
	}
	return pl
}

func logEntries(t *testing.T, p *played) []game.Entry {
	t.Helper()
	var out []game.Entry
	cursor := ""
	for {
		page, err := p.svc.Log(p.ctx, gameID, cursor, 500)
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

// secrets reads every period's secret seed straight from the store.
func secrets(t *testing.T, p *played) map[string]game.SeedRecord {
	t.Helper()
	out := map[string]game.SeedRecord{}
	page, err := p.st.Query(p.ctx, store.Query{PK: "GAME#" + gameID, Prefix: "SEED#"})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		var r game.SeedRecord
		if err := json.Unmarshal(it.Data, &r); err != nil {
			t.Fatal(err)
		}
		out[r.Period] = r
	}
	return out
}

// allPages is every page of the played game.
func allPages(p *played) []string {
	return []string{"/tracker", gamePath(), gamePath("players"), gamePath("players", ada), gamePath("matches"), gamePath("matches", p.duel),
		gamePath("trades"), gamePath("proposals"), gamePath("judge"), gamePath("log"), gamePath("audit")}
}

// TestN2_NoSeedBeforeItsPeriodEnds: a period's secret appears on no page
// while the period runs, and on the audit page once it has ended.
func TestN2_NoSeedBeforeItsPeriodEnds(t *testing.T) {
	p := newGame(t)
	p.economy()
	p.playDuel()
	first := secrets(t, p)
	if len(first) != 1 {
		t.Fatalf("seeds %v, want the first period's only", first)
	}
	check := func(when string) {
		for period, r := range secrets(t, p) {
			for _, path := range allPages(p) {
				body := p.page(path)
				if strings.Contains(body, r.Secret) && !r.Revealed() {
					t.Errorf("%s: %s shows the secret seed of %s, which has not ended", when, path, period)
				}
			}
			if r.Revealed() {
				contains(t, when+" audit", p.page(gamePath("audit")), `<code class="hex" data-seed>`+r.Secret+`</code>`)
			}
		}
	}
	check("during the first period")
	// Friday 00:00: Phase I ended; its seed is revealed, Phase II's is new.
	for period := range first {
		g, _ := p.svc.Game(p.ctx, gameID)
		p.runDue(g.Period.End)
		if r := secrets(t, p)[period]; !r.Revealed() {
			t.Fatalf("%s not revealed after its end", period)
		}
	}
	if len(secrets(t, p)) < 2 {
		t.Fatal("no seed for the next period")
	}
	p.must(gildedhall.On(p.svc).Purchase(p.ctx, p.req(ada), gildedhall.Purchase{Item: "random-card"}))
	check("after the first period")
}

func TestUnknownThingsAreFriendly404s(t *testing.T) {
	p := newGame(t)
	for _, path := range []string{
		"/tracker/games/nope", "/tracker/games/nope/players", "/tracker/games/nope/audit",
		"/tracker/games/NOT%20VALID", gamePath("players", "discord:999"), gamePath("players", "nobody"),
		gamePath("matches", "dnothere"), gamePath("matches", "bad%20id"), gamePath("nowhere"), "/tracker/elsewhere",
		"/tracker/static/none.js", "/tracker?game=Bad%20Id",
	} {
		code, body, h := p.get(path)
		if code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, code)
			continue
		}
		if path != "/tracker/static/none.js" {
			if !strings.Contains(body, "<h1>Not found</h1>") || !strings.Contains(h.Get("Content-Type"), "text/html") {
				t.Errorf("GET %s: not the friendly page: %.300s", path, body)
			}
		}
	}
	w := httptestDo(p, http.MethodPost, gamePath())
	if w != http.StatusMethodNotAllowed {
		t.Errorf("POST to a page: %d, want 405", w)
	}
	code, _, h := p.get("/tracker?game=" + gameID)
	if code != http.StatusSeeOther || h.Get("Location") != gamePath() {
		t.Errorf("the index form: %d to %q", code, h.Get("Location"))
	}
}

// The start page lists the deployment's games, a page at a time, each
// linked to its overview by name.
func TestStartPageListsTheGames(t *testing.T) {
	p := newGame(t)
	body := p.page("/tracker")
	contains(t, "start page", body, `<tr data-game="`+gameID+`">`, `href="`+gamePath()+`">Tracker Test Hall (`+gameID+`)</a>`, "gilded-hall")
	for i := range tracker.ListPageSize + 1 {
		id := fmt.Sprintf("g-%03d", i)
		if _, err := p.svc.Create(p.ctx, game.Request{Actor: admin, Key: "create-" + id}, game.CreateGame{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	body = p.page("/tracker")
	if n := strings.Count(body, `<tr data-game="`); n != tracker.ListPageSize {
		t.Errorf("the first page lists %d games, want %d", n, tracker.ListPageSize)
	}
	m := regexp.MustCompile(`id="games-next" href="([^"]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no link to the next page of %d games", tracker.ListPageSize+2)
	}
	next := p.page(html.UnescapeString(m[1]))
	if n := strings.Count(next, `<tr data-game="`); n != 2 || strings.Contains(next, `id="games-next"`) {
		t.Errorf("the second page lists %d games (want the last 2) and a next link: %v", n, strings.Contains(next, `id="games-next"`))
	}
	if code, _, _ := p.get("/tracker?after=nonsense"); code != http.StatusNotFound {
		t.Errorf("a made-up page of games: %d, want 404", code)
	}
}
