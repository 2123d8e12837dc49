package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	"croupier/internal/rules/governance"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Issue 25, "every read as of a moment": a game of each ruleset is played
// across time on the manual clock; at several moments every read route's
// answer is recorded as a client saw it live. Afterwards each is read again
// with ?at= naming the moment (as a time, as after:<entry>, as
// before:<entry>): with its as_of removed the answer is the recorded one
// byte for byte (a refusal then, such as a period not yet ended, is the
// same refusal), and as_of says the moment asked and the last entry shown.
// Every exchange is checked against openapi.yaml by the harness.

// seen is what the reads answered live at one moment.
type seen struct {
	// moments name the moment as a request may: its time, and the entry
	// just before or after it.
	moments []string
	at      time.Time
	entry   string // the last entry the state includes
	answers map[string]*apitest.Response
	order   []string
}

// pastGame drives one game and records its reads.
type pastGame struct {
	e     *env
	g     string
	paths func() []string
	seen  []seen
	n     int
}

func (p *pastGame) base() string { return "/v1/games/" + p.g }

// do runs a command a second after the last (log entries strictly
// ordered) and returns its answer, failing on a refusal.
func (p *pastGame) do(actor, path string, body any) *apitest.Response {
	p.e.T.Helper()
	p.e.clock.Advance(time.Second)
	return p.run(actor, path, body)
}

// run runs a command now.
func (p *pastGame) run(actor, path string, body any) *apitest.Response {
	p.e.T.Helper()
	p.n++
	r := p.e.Do(apitest.Call{Method: "POST", Path: p.base() + path, Actor: actor, Idem: fmt.Sprint("past-", p.n), Body: body})
	if r.Status != http.StatusOK && r.Status != http.StatusCreated {
		p.e.T.Fatalf("POST %s as %s: %d %s", path, actor, r.Status, r.Body)
	}
	return r
}

// lastEntry is the id of the newest log entry.
func (p *pastGame) lastEntry() string {
	p.e.T.Helper()
	all := p.e.logEntries(p.g)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1].ID
}

// read records every read now, the moment named by the given names.
func (p *pastGame) read(moments ...string) {
	p.e.T.Helper()
	s := seen{moments: moments, at: p.e.clock.Now(), entry: p.lastEntry(), answers: map[string]*apitest.Response{}}
	for _, path := range p.paths() {
		s.answers[path] = p.get(path)
		s.order = append(s.order, path)
	}
	p.seen = append(p.seen, s)
}

// get reads path: "viewer path" reads it as that player sees it.
func (p *pastGame) get(path string) *apitest.Response {
	p.e.T.Helper()
	if who, rest, ok := strings.Cut(path, " "); ok {
		return p.e.Do(apitest.Call{Method: "GET", Path: rest, Actor: who})
	}
	return p.e.Get(path)
}

// look records the reads now, named by the time and by after:<the last entry>.
func (p *pastGame) look() {
	p.e.T.Helper()
	now := p.e.clock.Now()
	all := p.e.logEntries(p.g)
	if last := all[len(all)-1]; last.At.Equal(now) {
		p.read(now.Format(time.RFC3339Nano), "after:"+last.ID)
		return
	}
	// The last entry is the work due before now (a period end): after it
	// is another moment, with another clock.
	p.read(now.Format(time.RFC3339Nano))
}

// before records the reads a second on, then runs the command then: that
// moment is before:<its entry> (the time itself includes the command).
func (p *pastGame) before(actor, path string, body any) *apitest.Response {
	p.e.T.Helper()
	p.e.clock.Advance(time.Second)
	p.read()
	i := len(p.seen) - 1
	r := p.run(actor, path, body)
	p.seen[i].moments = append(p.seen[i].moments, "before:"+p.lastEntry())
	return r
}

// setClock moves the clock and runs the work due, as the scheduler does.
func (p *pastGame) setClock(at time.Time) {
	p.e.T.Helper()
	p.e.clock.Set(at)
	if rep, err := p.e.svc.RunDue(p.e.T.Context()); err != nil || len(rep.Failed) > 0 {
		p.e.T.Fatalf("due work at %s: %v %v", at, err, rep.Failed)
	}
}

// withAt is path asking for moment m.
func withAt(path, m string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "at=" + url.QueryEscape(m)
}

// withoutAsOf is a past answer without its as_of member, and the as_of.
func withoutAsOf(t *testing.T, body []byte) ([]byte, game.AsOf) {
	t.Helper()
	var v struct {
		AsOf *game.AsOf `json:"as_of"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.AsOf == nil {
		t.Fatalf("a read at a moment has no as_of: %v %s", err, body)
	}
	i := bytes.LastIndex(body, []byte(`"as_of":`))
	cut := body[:i]
	cut = bytes.TrimSuffix(cut, []byte(","))
	return append(cut, '}', '\n'), *v.AsOf
}

// tail is b from about i.
func tail(b []byte, i int) string {
	i = max(0, i-80)
	return string(b[i:min(len(b), i+400)])
}

// check reads every recorded answer again at each of its moments.
func (p *pastGame) check(t *testing.T) {
	t.Helper()
	if len(p.seen) < 3 {
		t.Fatalf("only %d moments recorded", len(p.seen))
	}
	compared := 0
	for _, s := range p.seen {
		for _, m := range s.moments {
			for _, path := range s.order {
				live := s.answers[path]
				past := p.get(withAt(path, m))
				if live.Status != http.StatusOK {
					if past.Status != live.Status || !bytes.Equal(past.Body, live.Body) {
						t.Errorf("GET %s at %s: %d %s\nwhere it answered then %d %s", path, m, past.Status, past.Body, live.Status, live.Body)
					}
					continue
				}
				if past.Status != http.StatusOK {
					t.Errorf("GET %s at %s: %d %s; it answered then %s", path, m, past.Status, past.Body, live.Body)
					continue
				}
				body, asOf := withoutAsOf(t, past.Body)
				if !bytes.Equal(body, live.Body) {
					i := 0
					for i < len(body) && i < len(live.Body) && body[i] == live.Body[i] {
						i++
					}
					t.Errorf("GET %s at %s reads (from byte %d)\n%s\nwhere it read then\n%s", path, m, i, tail(body, i), tail(live.Body, i))
				}
				if asOf.Asked != m || !asOf.At.Equal(s.at) || asOf.Entry != s.entry {
					t.Errorf("GET %s at %s: as_of %+v, want asked %s at %s after entry %s", path, m, asOf, m, s.at.Format(time.RFC3339Nano), s.entry)
				}
				compared++
			}
		}
	}
	t.Logf("%d reads at %d moments compared with what they read then", compared, len(p.seen))
}

// logAt checks the log at moment m: only the entries up to it, the last
// being as_of's, and the same read a page of two at a time.
func (p *pastGame) logAt(t *testing.T, m string, want int) {
	t.Helper()
	var all game.LogPage
	r := p.e.mustStatus(p.e.Get(withAt(p.base()+"/log", m)), http.StatusOK)
	r.Decode(t, &all)
	_, asOf := withoutAsOf(t, r.Body)
	if len(all.Entries) != want || all.Next != "" {
		t.Fatalf("the log at %s has %d entries (next %q), want %d", m, len(all.Entries), all.Next, want)
	}
	if last := all.Entries[len(all.Entries)-1]; last.ID != asOf.Entry || last.At.After(asOf.At) {
		t.Errorf("the log at %s ends with %s at %s; as_of is %+v", m, last.ID, last.At, asOf)
	}
	var paged []string
	cursor := ""
	for range 100 {
		path := p.base() + "/log?limit=2"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var page game.LogPage
		p.e.mustStatus(p.e.Get(withAt(path, m)), http.StatusOK).Decode(t, &page)
		for _, e := range page.Entries {
			paged = append(paged, e.ID)
		}
		if page.Next == "" {
			break
		}
		if len(page.Entries) == 0 {
			t.Fatalf("the log at %s has an empty page with a next cursor", m)
		}
		cursor = page.Next
	}
	if len(paged) != want {
		t.Fatalf("the log at %s read two at a time has %d entries, want %d", m, len(paged), want)
	}
	for i, e := range all.Entries {
		if paged[i] != e.ID {
			t.Fatalf("the log at %s read two at a time differs at entry %d: %s, not %s", m, i, paged[i], e.ID)
		}
	}
}

// playersPagedAt checks that the players at moment m, read one a page,
// are the players read at once then.
func (p *pastGame) playersPagedAt(t *testing.T, m string) {
	t.Helper()
	type page struct {
		Players []json.RawMessage `json:"players"`
		Next    string            `json:"next_cursor"`
	}
	var all page
	p.e.mustStatus(p.e.Get(withAt(p.base()+"/players", m)), http.StatusOK).Decode(t, &all)
	var paged []json.RawMessage
	cursor := ""
	for range 100 {
		path := p.base() + "/players?limit=1"
		if cursor != "" {
			path += "&cursor=" + url.QueryEscape(cursor)
		}
		var pg page
		p.e.mustStatus(p.e.Get(withAt(path, m)), http.StatusOK).Decode(t, &pg)
		paged = append(paged, pg.Players...)
		if pg.Next == "" {
			break
		}
		cursor = pg.Next
	}
	if len(all.Players) < 2 || len(paged) != len(all.Players) {
		t.Fatalf("the players at %s: %d at once, %d one a page", m, len(all.Players), len(paged))
	}
	for i := range paged {
		if !bytes.Equal(paged[i], all.Players[i]) {
			t.Errorf("player %d at %s one a page is %s, at once %s", i, m, paged[i], all.Players[i])
		}
	}
}

func TestPastReadsOfTheGildedHall(t *testing.T) {
	e := withPlayers(t)
	p := &pastGame{e: e, g: gameID}
	b := p.base()
	var tradeID, matchID, proposalID, requestID string
	p.paths = func() []string {
		out := []string{b, b + "/players", b + "/players/" + ada, b + "/players/Bob", b + "/me", b + "/ruleset", b + "/shop",
			b + "/trades", b + "/matches", b + "/proposals", b + "/justice", b + "/rulings", b + "/judge", b + "/candidacies",
			b + "/log", b + "/log?limit=3", b + "/seeds", b + "/periods/2026-W49-I/activity", b + "/audit", b + "/commands"}
		for _, rec := range []struct{ id, path string }{{tradeID, "/trades/"}, {matchID, "/matches/"}, {proposalID, "/proposals/"}, {requestID, "/justice/"}} {
			if rec.id != "" {
				out = append(out, b+rec.path+rec.id)
			}
		}
		if matchID != "" {
			// The match as each player sees it: their own hand, the
			// other's hidden until the reveal, their legal moves.
			out = append(out, b+"/matches/"+matchID+"/replay", ada+" "+b+"/matches/"+matchID, bob+" "+b+"/matches/"+matchID,
				ada+" "+b+"/me", bob+" "+b+"/matches/"+matchID+"/replay")
		}
		return out
	}
	p.look()
	grant := gildedhall.Grant{Player: ada, Vertebrae: 40, Chips: 5, Reason: "state from the wiki"}
	for _, c := range suitCards("Hearts", 2, 10) {
		grant.Cards = append(grant.Cards, gildedhall.CardGrant{Name: c})
	}
	p.do(admin, "/grants", grant)
	bobGrant := gildedhall.Grant{Player: bob, Chips: 5, Reason: "state from the wiki"}
	for _, c := range suitCards("Clubs", 2, 10) {
		bobGrant.Cards = append(bobGrant.Cards, gildedhall.CardGrant{Name: c})
	}
	p.do(admin, "/grants", bobGrant)
	p.do(ada, "/purchases", gildedhall.Purchase{Item: "handy-pack"})
	p.look()
	var opened economy.Opened
	p.do(ada, "/packs/open", gildedhall.OpenPack{Pack: "handy-pack"}).Decode(t, &opened)
	p.do(ada, "/gifts", gildedhall.Gift{To: bob})
	var tr trades.Trade
	bobs := e.player(gameID, bob)
	p.do(ada, "/trades", trades.OfferTrade{To: bob, Give: economy.Items{Vertebrae: 10}, Take: economy.Items{Cards: []string{bobs.Inventory.Cards[0].ID}}, Note: "a fair swap"}).Decode(t, &tr)
	tradeID = tr.ID
	var pv game.ProposalView
	p.do(ada, "/proposals", game.SubmitProposal{Message: msg("5001"), Title: "More gifts", Text: "Everyone gets two gifts a period."}).Decode(t, &pv)
	proposalID = pv.ID
	p.look()
	p.before(bob, "/trades/"+tradeID+"/accept", nil)
	var rec game.JusticeRecord
	p.do(bob, "/justice", game.RequestJustice{Kind: governance.KindStatement, Text: "Gifts may be given to oneself.", Message: msg("5002")}).Decode(t, &rec)
	requestID = rec.Request.ID
	p.do(ada, "/candidacies", game.StandForJudge{Message: msg("5003")})
	p.do(admin, "/reactions", game.PushReactions{Message: msg("5001"), Up: []string{bob}})
	var d gildedhall.MatchView
	p.do(ada, "/duels", gildedhall.RequestDuel{Invitees: []string{bob}}).Decode(t, &d)
	matchID = d.ID
	p.look()
	p.before(bob, "/duels/"+matchID+"/answer", map[string]bool{"accept": true})
	p.look()
	p.do(ada, "/matches/"+matchID+"/moves", map[string]any{"kind": "select", "cards": suitCards("Hearts", 2, 7)})
	p.look()
	p.do(bob, "/matches/"+matchID+"/moves", map[string]any{"kind": "select", "cards": suitCards("Clubs", 3, 7)})
	p.look()
	// Through the end of Phase I (Friday 4 December 00:00): the period's
	// activity is recorded and its seed revealed; then into the next week.
	p.setClock(time.Date(2026, 12, 4, 0, 0, 1, 0, time.UTC))
	p.look()
	p.setClock(time.Date(2026, 12, 8, 9, 0, 0, 0, time.UTC))
	p.look()
	p.check(t)

	p.logAt(t, p.seen[1].moments[0], len(p.e.logEntries(gameID))-countAfter(p.e.logEntries(gameID), p.seen[1].at))
	p.playersPagedAt(t, p.seen[2].moments[0])
}

// countAfter counts the entries after t.
func countAfter(all []game.Entry, t time.Time) int {
	n := 0
	for _, e := range all {
		if e.At.After(t) {
			n++
		}
	}
	return n
}

func TestPastReadsOfTheObelisk(t *testing.T) {
	e := newEnv(t)
	const g = "ob"
	e.mustStatus(e.Post("/v1/games", "create-ob", game.CreateGame{ID: g, Name: "The Obelisk", Ruleset: obelisk.ID}), http.StatusCreated)
	p := &pastGame{e: e, g: g}
	b := p.base()
	p.do(ada, "/join", game.JoinGame{Name: "Ada"})
	p.do(bob, "/join", game.JoinGame{Name: "Bob"})
	var gatherings []string
	p.paths = func() []string {
		out := []string{b, b + "/players", b + "/players/Ada", b + "/players/" + bob, b + "/me", b + "/ruleset", b + "/shop",
			b + "/obelisk", b + "/gatherings", b + "/log", b + "/seeds", b + "/audit", b + "/commands"}
		for _, id := range gatherings {
			out = append(out, b+"/gatherings/"+id)
		}
		return out
	}
	p.look()
	boon := `{"id":"boon","name":"Boon","cost":{"herbs":1},"effects":[{"kind":"grant","target":"every-player","components":{"resolve":1,"crystals":1}}]}`
	p.do(admin, "/amendments", game.Amend{Patch: json.RawMessage(`[{"op":"add","path":"/obelisk/ritualTypes/boon","value":` + boon + `}]`), Reason: "a ritual to read"})
	p.do(admin, "/commands/components-grant", map[string]any{"player": "Ada", "crystals": 2, "herbs": 3, "reason": "ruling 4"})
	p.do(bob, "/commands/task", map[string]any{"task": "herbalism"})
	p.look()
	p.before(ada, "/commands/observe", map[string]any{})
	p.do(ada, "/commands/gathering-start", map[string]any{"ritual_type": "boon", "message": "m-boon"})
	gatherings = append(gatherings, "m-boon")
	p.look()
	p.do(ada, "/commands/gathering-contribute", map[string]any{"gathering": "m-boon", "component": "🌿"})
	p.look()
	p.setClock(time.Date(2026, 12, 4, 0, 0, 1, 0, time.UTC))
	p.look()
	p.check(t)
	p.playersPagedAt(t, p.seen[1].moments[1])
}

func TestPastReadsOfATurnsGame(t *testing.T) {
	e := newEnv(t)
	const g = "nomic"
	e.mustStatus(e.Post("/v1/games", "create-nomic", game.CreateGame{ID: g, Name: "Nomic", Ruleset: turns.ID}), http.StatusCreated)
	p := &pastGame{e: e, g: g}
	b := p.base()
	p.paths = func() []string {
		return []string{b, b + "/players", b + "/players/Ada", b + "/me", b + "/ruleset", b + "/turns", b + "/turns/rules",
			b + "/turns/proposals", b + "/turns/cases", b + "/turns/rounds", b + "/trades", b + "/log", b + "/seeds", b + "/commands"}
	}
	p.do(ada, "/join", game.JoinGame{Name: "Ada"})
	p.do(bob, "/join", game.JoinGame{Name: "Bob"})
	p.look()
	p.do(ada, "/commands/turns-propose", turns.Propose{Op: "amend", Rule: 210, Text: "Rule 210, as amended by Ada."})
	p.before(bob, "/commands/turns-vote", map[string]string{"proposal": "P1", "vote": "for"})
	p.do(ada, "/commands/judgment-request", turns.Judgment{Statement: "Rule 213 lets a player vote twice."})
	p.look()
	// Turn 1-1 begins Monday 7 December 22:00 CST; its end (Saturday 22:00)
	// adopts P1; then turn 1-2 begins and Bob proposes.
	p.setClock(time.Date(2026, 12, 8, 5, 0, 0, 0, time.UTC))
	p.do(ada, "/commands/turns-vote", map[string]string{"proposal": "P1", "vote": "for"})
	p.look()
	p.setClock(time.Date(2026, 12, 13, 5, 0, 0, 0, time.UTC))
	p.look()
	p.setClock(time.Date(2026, 12, 15, 5, 0, 0, 0, time.UTC))
	p.do(bob, "/commands/turns-propose", turns.Propose{Op: "repeal", Rule: 213})
	p.look()
	p.check(t)
	// Seed 003's Judge reads the rules in effect then: rule 210 as it was
	// before the turn end that adopted P1, and as amended after it.
	rule210 := func(m string) string {
		t.Helper()
		var rules struct {
			Rules []nomic.Rule `json:"rules"`
		}
		p.e.mustStatus(p.e.Get(withAt(b+"/turns/rules", m)), http.StatusOK).Decode(t, &rules)
		for _, r := range rules.Rules {
			if r.Number == 210 {
				return r.Text
			}
		}
		t.Fatalf("no rule 210 at %s", m)
		return ""
	}
	if got := rule210(p.seen[3].moments[0]); got != "Each active player always has exactly one vote on each proposal." {
		t.Errorf("rule 210 before its amendment was adopted reads %q", got)
	}
	if got := rule210(p.seen[4].moments[0]); got != "Rule 210, as amended by Ada." {
		t.Errorf("rule 210 after its amendment was adopted reads %q", got)
	}
}

// The refusals of a read at a moment: each a problem with its code and a
// sentence, the key's scope checked first, and a command with at refused
// with the game unchanged.
func TestPastRefusals(t *testing.T) {
	e := newEnv(t)
	e.mustStatus(e.Post("/v1/games", "create-1", game.CreateGame{ID: gameID, Name: "The Gilded Hall"}), http.StatusCreated)
	p := &pastGame{e: e, g: gameID}
	p.do(ada, "/join", game.JoinGame{Name: "Ada"})
	p.do(bob, "/join", game.JoinGame{Name: "Bob"})
	b := p.base()
	e.clock.Advance(time.Hour)
	entries := e.logEntries(gameID)
	for _, tc := range []struct {
		what, at string
		status   int
		code     string
	}{
		{"no moment", "yesterday-ish", http.StatusBadRequest, "bad_moment"},
		{"a time without its zone", "2026-12-01T12:30:00", http.StatusBadRequest, "bad_moment"},
		{"no entry id", "after:42", http.StatusBadRequest, "bad_moment"},
		{"before the game", "2026-11-30T12:00:00Z", http.StatusBadRequest, "before_game"},
		{"the future", "2026-12-02T12:00:00Z", http.StatusBadRequest, "moment_in_future"},
		{"an entry of no game", "after:01JE5Z8X7Q3W0000000000000A", http.StatusNotFound, "entry_not_found"},
	} {
		r := e.Get(withAt(b+"/players", tc.at))
		pr := r.Problem(t)
		if r.Status != tc.status || pr.Code != tc.code || !strings.HasSuffix(pr.Detail, ".") {
			t.Errorf("%s (%s): %d %s %q, want %d %s", tc.what, tc.at, r.Status, pr.Code, pr.Detail, tc.status, tc.code)
		}
	}
	// An entry of the log, read as a moment, works; twice is no moment.
	e.mustStatus(e.Get(withAt(b+"/players", "after:"+entries[0].ID)), http.StatusOK)
	e.wantCode(e.Get(b+"/players?at=after:"+entries[0].ID+"&at=before:"+entries[0].ID), http.StatusBadRequest, "bad_moment")
	// Just before the game's first entry there was no game yet.
	e.wantCode(e.Get(withAt(b, "before:"+entries[0].ID)), http.StatusBadRequest, "before_game")
	// A page's cursor is the cursor of its list at its moment: a live one
	// at a moment is refused, not read as some other place.
	var live struct {
		Next string `json:"next_cursor"`
	}
	e.mustStatus(e.Get(b+"/players?limit=1"), http.StatusOK).Decode(t, &live)
	e.wantCode(e.Get(withAt(b+"/players?limit=1&cursor="+url.QueryEscape(live.Next), "after:"+entries[2].ID)), http.StatusBadRequest, "invalid_cursor")
	// A player who had not joined yet is no player then.
	e.wantCode(e.Get(withAt(b+"/players/"+bob, "after:"+entries[1].ID)), http.StatusNotFound, "player_not_found")

	// The key's scope first: no key, another game's key.
	r := e.Do(apitest.Call{Method: "GET", Path: withAt(b+"/players", "2020-01-01T00:00:00Z"), Omit: []string{"Authorization"}, Bad: true})
	if r.Status != http.StatusUnauthorized || r.Problem(t).Code != "missing_api_key" {
		t.Errorf("without a key: %d %s", r.Status, r.Body)
	}
	other := newEnvWithKeys(t, credential.Keys{mustKey(t, "other-key as=* games=elsewhere")})
	other.wantCode(other.Do(apitest.Call{Method: "GET", Path: withAt(b, "garbage"), Key: "other-key"}), http.StatusForbidden, "game_out_of_scope")

	// A command at a moment is refused, and changes nothing.
	before := len(e.logEntries(gameID))
	r = e.Do(apitest.Call{Method: "POST", Path: withAt(b+"/gifts", entries[0].At.Format(time.RFC3339)), Actor: ada, Idem: "gift-past", Body: gildedhall.Gift{To: bob}})
	if pr := r.Problem(t); r.Status != http.StatusBadRequest || pr.Code != "past_read_only" || !strings.Contains(pr.Detail, "read-only") {
		t.Errorf("a gift at a moment: %d %s", r.Status, r.Body)
	}
	if after := len(e.logEntries(gameID)); after != before {
		t.Errorf("a refused command at a moment logged %d entries", after-before)
	}
	// A route with no past says so.
	e.wantCode(e.Get(withAt("/v1/bindings/discord/1", "after:"+entries[0].ID)), http.StatusBadRequest, "at_not_supported")
}

func mustKey(t *testing.T, spec string) credential.Key {
	t.Helper()
	ks, err := credential.ParseKeys(spec)
	if err != nil || len(ks) != 1 {
		t.Fatalf("key %q: %v", spec, err)
	}
	return ks[0]
}

func newEnvWithKeys(t *testing.T, keys credential.Keys) *env {
	t.Helper()
	svc, clk := newService(t)
	api := httpapi.New(svc, httpapi.Config{Keys: keys, ManualClock: clk, Logger: quiet(), Version: "test"})
	c := apitest.NewServer(t, httpapi.OpenAPI, api)
	c.Actor = admin
	return &env{Client: c, clock: clk, svc: svc}
}
