package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// stateGames are a game of each ruleset, played through the CLI: a line a
// command (`croupier play --game G --as ID ARGS...`; "!" must be refused).
var stateGames = []struct {
	game, script string
}{
	{"hall", `
discord:1 create-game hall --name "Gilded Hall"
discord:1 join --name Ada
discord:2 join --name Bob
discord:3 join --name Cy
discord:1 grant Bob --vertebrae 30 --chips 2 --reason "from the wiki"
discord:1 grant Ada --vertebrae 30 --chips 6 --card "holo Red Joker" --random-cards 8 --reason "from the wiki"
discord:1 grant Bob --random-cards 8 --chips 5 --reason "for a duel"
discord:2 buy handy-pack
discord:2 open handy-pack
discord:1 gift Bob
discord:1 trade offer Bob --give "holo Red Joker" --take "1 chip" --note "for your Chip"
discord:2 trade accept
discord:2 trade offer Ada --give "1 vertebrae"
discord:1 duel Bob
discord:2 duel accept
discord:1 propose --channel proposals --message m1 --title "Cheaper cards" --price random-card=4
discord:1 react --channel proposals --message m1 --up discord:1 --up discord:2
discord:1 stand --channel judge --message cand-1
discord:1 react --channel judge --message cand-1 --up discord:2 --up discord:3
discord:1 clock --advance 36h
discord:3 leave
`},
	{"stone", `
discord:1 create-game stone --name "The Obelisk" --ruleset obelisk --season Winter
discord:1 amend --patch '[{"op":"replace","path":"/thresholds/joinEnergy","value":9}]' --reason "a faster game"
discord:1 join --name Ada
discord:2 join --name Bob
discord:3 join --name Cy
discord:1 observe
discord:1 task herbalism
discord:2 task herbalism
discord:1 amend --patch '[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":2,"resolve":1},"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"blood":1}}]}}]' --reason "a ritual"
discord:1 gathering-start cut-the-obelisk --message rituals-1
discord:2 gathering-contribute rituals-1 🌿
discord:2 gathering-withdraw rituals-1 🌿
discord:2 gathering-contribute rituals-1 🌿
discord:1 gathering-contribute rituals-1 🌿
discord:1 gathering-contribute rituals-1 ⚡
discord:1 gathering-complete rituals-1
discord:1 propose --channel proposals --message ban-1 --banish Cy --for 168h
discord:1 react --channel proposals --message ban-1 --up discord:1 --up discord:2
discord:1 clock --to-period-end
discord:1 clock --to-period-end
`},
	{"nomic", `
discord:1 create-game nomic --ruleset turns --name "Nomic"
discord:1 join --name Ada
discord:2 join --name Bob
discord:3 join --name Cy
discord:1 clock --advance 112h
discord:1 turns-propose amend 210 "Rule 210, amended."
discord:2 turns-vote P1 for
discord:2 pool-enter
discord:3 pool-enter
discord:1 judgment-request "Rule 213 lets a player vote twice."
discord:2 judgment-request "Ada proposed too early." --at 2026-03-10T03:00:00Z
discord:1 clock --advance 120h
`},
}

// play runs a script of stateGames.
func (h *harness) play(g, script string) {
	h.t.Helper()
	for _, raw := range strings.Split(strings.TrimSpace(script), "\n") {
		line := strings.TrimSpace(raw)
		refuse := strings.HasPrefix(line, "!")
		words, err := shellWords(strings.TrimSpace(strings.TrimPrefix(line, "!")))
		if err != nil || len(words) < 2 {
			h.t.Fatalf("script line %q: %v", line, err)
		}
		r := h.cli(append([]string{"play", "--game", g, "--as", words[0]}, words[1:]...)...)
		if refuse != (r.code != 0) {
			h.t.Fatalf("%s: %s", line, r)
		}
	}
}

// alter rewrites one stored item as an outsider would: straight into the
// store, past the engine, so no log entry records it. It sets the member at
// path to value and returns what it held.
func (h *harness) alter(g, sk string, path []string, value any) any {
	h.t.Helper()
	ctx := context.Background()
	k := store.Key{PK: game.GamePK(g), SK: sk}
	it, err := h.srv.store.Get(ctx, k)
	if err != nil || !it.Exists() {
		h.t.Fatalf("reading %s: %v (exists %v)", k, err, it.Exists())
	}
	var doc map[string]any
	if err := json.Unmarshal(it.Data, &doc); err != nil {
		h.t.Fatal(err)
	}
	m := doc
	for _, p := range path[:len(path)-1] {
		m = m[p].(map[string]any)
	}
	old := m[path[len(path)-1]]
	m[path[len(path)-1]] = value
	it.Data, _ = json.Marshal(doc)
	if err := h.srv.store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: it, Expect: it.Version}}}); err != nil {
		h.t.Fatalf("altering %s: %v", k, err)
	}
	return old
}

// lastChange is the log's last entry that changed the item sk, read from
// the log as anyone reads it: what the audit must name.
func (h *harness) lastChange(g, sk string) game.Entry {
	h.t.Helper()
	var last game.Entry
	cursor := ""
	for {
		page, err := h.srv.svc.Log(context.Background(), g, cursor, 500)
		if err != nil {
			h.t.Fatal(err)
		}
		for _, e := range page.Entries {
			for _, c := range e.Changes {
				if c.SK == sk {
					last = e
				}
			}
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	if last.ID == "" {
		h.t.Fatalf("no entry of %s changed %s", g, sk)
	}
	return last
}

// Issue 25, acceptance 3: `croupier verify --state` on a game of each
// ruleset, played through the CLI, says everything matches, over the API
// and from the store file. Then one stored item is altered as an outsider
// would (a Gilded Hall player's Chips, a turns player's points, the
// Obelisk's distance): the audit names the item (and its player by name),
// the field, both values and the log's last change to the item, over the
// API (in every view that shows it) and from the store file, and exits 1.
func TestIssue25_VerifyStateFindsAnAlteredItem(t *testing.T) {
	alterations := map[string]struct {
		sk, who string
		path    []string
		value   any
		// views are the views that show the field, and the field there.
		views []string
	}{
		"hall":  {"PLAYER#discord:2", "Bob (discord:2)", []string{"inventory", "chips"}, 99, []string{"view players/discord:2, field inventory.chips: the server shows 99, the log says 6", "view players, field players[discord:2].inventory.chips: the server shows 99, the log says 6"}},
		"stone": {"OBELISK", "", []string{"distance"}, 4, []string{"view obelisk, field distance: the server shows 4, the log says 9"}},
		"nomic": {"TPLAYER#discord:2", "Bob (discord:2)", []string{"points"}, 50, []string{"view players/discord:2, field points: the server shows 50, the log says 0", "view players, field players[discord:2].points: the server shows 50, the log says 0", "view turns, field players[discord:2].points: the server shows 50, the log says 0"}},
	}
	for _, sg := range stateGames {
		t.Run(sg.game, func(t *testing.T) {
			h := newHarness(t, "manual")
			h.play(sg.game, sg.script)
			r := h.cli("verify", "--state", "--game", sg.game)
			if r.code != 0 {
				t.Fatalf("verify --state of an honest game: %s; want exit 0", r)
			}
			matches(t, "verify --state of an honest game", r.stdout, `^game `+sg.game+`: everything matches: \d+ entries, \d+ items, \d+ views compared\n`)
			contains(t, "verify --state", r.stdout, "not compared (the public log does not carry them): the seeds (croupier verify checks the draws)")

			a := alterations[sg.game]
			entry := h.lastChange(sg.game, a.sk)
			was := h.alter(sg.game, a.sk, a.path, a.value)
			head := "item " + a.sk + "\n"
			if a.who != "" {
				head = a.who + ": " + head
			}
			since := regexp.MustCompile(fmt.Sprintf(`(?m)^  the log's last change to it is entry %s \(%s by \w+\), at %s: they diverge after it$`, entry.ID, entry.CommandWords(), regexp.QuoteMeta(entry.At.Format(time.RFC3339))))
			r = h.cli("verify", "--state", "--game", sg.game)
			if r.code != 1 {
				t.Fatalf("verify --state after %s was altered: %s; want exit 1", a.sk, r)
			}
			t.Logf("over the API:\n%s", r.stdout)
			matches(t, "verify --state over the API", r.stdout, `^game `+sg.game+`: the state differs from what its log says: \d+ differences? in 1 item `)
			contains(t, "verify --state over the API", r.stdout, append([]string{head}, a.views...)...)
			if !since.MatchString(r.stdout) {
				t.Errorf("verify --state over the API does not name entry %s:\n%s", entry.ID, r.stdout)
			}

			// The same as JSON, for a script: every difference with its
			// item, field, both values and entry.
			var rep stateReport
			r = h.cli("verify", "--state", "--game", sg.game, "--json")
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 1 {
				t.Fatalf("verify --state --json: %v\n%s", err, r)
			}
			for _, d := range rep.Differences {
				if d.Item != a.sk || d.Who != a.who || d.Entry != entry.ID || d.EntryAt == nil || !d.EntryAt.Equal(entry.At) || string(d.Shown) != fmt.Sprint(a.value) || d.View == "" {
					t.Errorf("verify --state --json: a difference %+v; want item %s of %q, entry %s at %s, shown %v", d, a.sk, a.who, entry.ID, entry.At, a.value)
				}
			}

			h.stop()
			r = runCLI(nil, "verify", "--state", "--game", sg.game, "--store", h.data)
			if r.code != 1 {
				t.Fatalf("verify --state --store after %s was altered: %s; want exit 1", a.sk, r)
			}
			t.Logf("from the store:\n%s", r.stdout)
			field := strings.Join(a.path, ".")
			contains(t, "verify --state --store", r.stdout, "game "+sg.game+": the state differs from what its log says: 1 difference in 1 item", head,
				fmt.Sprintf("  field %s: the store holds %v, the log says %v\n", field, a.value, was))
			if !since.MatchString(r.stdout) {
				t.Errorf("verify --state --store does not name entry %s:\n%s", entry.ID, r.stdout)
			}
		})
	}
}

// Items the public log hides are skipped by the audit over the API, not
// reported as differences: while the hands of an Exoptosis duel are being
// selected the match is secret (X1; Tx.MarkSecret), and the public log
// shows that it changed, not how. Once the hands are revealed the change
// that reveals them holds the whole match, and the audit compares it like
// any other item to the duel's end.
func TestIssue25_VerifyStateSkipsWhatThePublicLogHides(t *testing.T) {
	h := newHarness(t, "manual")
	// The Gilded Hall's game, up to the duel's acceptance.
	script := stateGames[0].script
	h.play("hall", script[:strings.Index(script, "discord:2 duel accept")+len("discord:2 duel accept")])
	h.vars["CROUPIER_GAME"] = "hall"
	page, err := h.srv.store.Query(context.Background(), store.Query{PK: "GAME#hall", Prefix: "MATCH#"})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("the duel's match: %v, %d items", err, len(page.Items))
	}
	match := page.Items[0].SK
	r := h.cli("verify", "--state", "--game", "hall")
	if r.code != 0 {
		t.Fatalf("verify --state while the duel's hands are selected: %s; want exit 0", r)
	}
	matches(t, "verify --state while the hands are selected", r.stdout, `^game hall: everything matches: \d+ entries, \d+ items, \d+ views compared\n`)
	contains(t, "verify --state while the hands are selected", r.stdout, "skipped 1 item the public log hides (not differences):\n  item "+match+": the public log hides its changes until a later change reveals them\n")

	var rep stateReport
	r = h.cli("verify", "--state", "--game", "hall", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 {
		t.Fatalf("verify --state --json: %v\n%s", err, r)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Item != match || len(rep.Differences) != 0 || rep.Entries == 0 || rep.Views == 0 {
		t.Errorf("verify --state --json: %+v; want one skipped item %s, no differences", rep, match)
	}

	// The duel, played to its end: every view of it matches the log.
	if v, _ := h.playOut(strings.TrimPrefix(match, "MATCH#"), rand.New(rand.NewPCG(25, 3)), 0); v.Status == gildedhall.MatchPlaying {
		t.Fatalf("the duel did not end: %+v", v)
	}
	r = h.cli("verify", "--state", "--game", "hall")
	if r.code != 0 || strings.Contains(r.stdout, "skipped") {
		t.Fatalf("verify --state after the duel: %s; want exit 0 and nothing skipped", r)
	}
	matches(t, "verify --state after the duel", r.stdout, `^game hall: everything matches: \d+ entries, \d+ items, \d+ views compared\n`)
	h.stop()
	if r = runCLI(nil, "verify", "--state", "--game", "hall", "--store", h.data); r.code != 0 {
		t.Fatalf("verify --state --store after the duel: %s; want exit 0", r)
	}
}

// The audit's field differences read as a person checks them: a list of
// things with ids compares element by element whatever its order (a score
// that reorders a ranking is one difference), a missing element is named
// by its id, the same elements in another order is a difference of its
// own, and a list of plain values says what each side holds.
func TestStateFieldDifferences(t *testing.T) {
	for _, c := range []struct {
		name, log, shown string
		want             []string
	}{
		{"a reordered ranking", `{"players":[{"player":"a","points":5},{"player":"b","points":3}]}`, `{"players":[{"player":"b","points":9},{"player":"a","points":5}]}`,
			[]string{"players[b].points: 9 / 3"}},
		{"a missing element", `{"cards":[{"id":"c1","name":"7 of Hearts"},{"id":"c2","name":"Red Joker"}]}`, `{"cards":[{"id":"c1","name":"7 of Hearts"}]}`,
			[]string{`cards[c2]: nothing / {"id":"c2","name":"Red Joker"}`}},
		{"another order only", `{"rules":[{"id":101},{"id":102}]}`, `{"rules":[{"id":102},{"id":101}]}`,
			[]string{`rules: ["102","101"] / ["101","102"] (the same elements in another order)`}},
		{"plain values", `{"voters":["a"],"n":1}`, `{"voters":["a","b"],"n":1}`,
			[]string{`voters: ["b"] / [] (the list from element 1 on)`}},
		{"a new member", `{"a":1}`, `{"a":1,"b":{"c":2}}`, []string{`b: {"c":2} / nothing`}},
	} {
		var got []string
		for _, f := range diffFields([]byte(c.log), []byte(c.shown)) {
			s := fmt.Sprintf("%s: %s / %s", f.field, valueWords(f.shown), valueWords(f.log))
			if f.why != "" {
				s += " (" + f.why + ")"
			}
			got = append(got, s)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// Refusals of verify --state are sentences: a game the server does not
// have, a store file that is missing or in use by the server.
func TestVerifyStateRefusals(t *testing.T) {
	h := newHarness(t, "manual")
	h.play("hall", "discord:1 create-game hall")
	r := h.cli("verify", "--state", "--game", "nope")
	if r.code != 1 || !strings.Contains(r.stderr, `There is no game "nope". [game_not_found]`) {
		t.Errorf("verify --state of a game the server lacks: %s; want exit 1 and game_not_found", r)
	}
	r = runCLI(nil, "verify", "--state", "--game", "hall", "--store", h.data)
	if r.code != 1 || !strings.Contains(r.stderr, "cannot open the store (if croupier serve is using it, verify over HTTP with --url instead)") {
		t.Errorf("verify --state --store while the server holds the file: %s", r)
	}
	missing := h.data + ".missing"
	r = runCLI(nil, "verify", "--state", "--game", "hall", "--store", missing)
	if r.code != 1 || !strings.Contains(r.stderr, "no store at "+missing) {
		t.Errorf("verify --state --store of a missing file: %s", r)
	}
	r = runCLI(nil, "verify", "--state")
	if r.code != 2 || !strings.Contains(r.stderr, "say which game to verify") {
		t.Errorf("verify --state without a game: %s", r)
	}
	h.stop()
	r = runCLI(nil, "verify", "--state", "--game", "nope", "--store", h.data)
	if r.code != 1 || !strings.Contains(r.stderr, "auditing the state of game nope:") {
		t.Errorf("verify --state --store of a game the file lacks: %s", r)
	}
}

// On a real clock the server reads its views a moment after the audit
// took its time: a view's reading of the clock (the turns status's now) is
// no difference of state.
func TestVerifyStateOnARealClock(t *testing.T) {
	h := newHarness(t, "real")
	h.play("nomic", `
discord:1 create-game nomic --ruleset turns --name "Nomic"
discord:1 join --name Ada
discord:2 join --name Bob
discord:2 pool-enter`)
	r := h.cli("verify", "--state", "--game", "nomic")
	if r.code != 0 {
		t.Fatalf("verify --state on a real clock: %s; want exit 0", r)
	}
	contains(t, "verify --state on a real clock", r.stdout, "game nomic: everything matches: ", "not compared (the public log does not carry them): ", "the clock's reading in a view.")
}

// The README's three tours are games of each ruleset (grants, a roll, a
// pack, a gift and a trade; observations, tasks, Gatherings and a
// banishment; turns with adoptions, a case through an appeal, a round won
// and the next begun): at the end of each, the state audit finds every
// view of the server to be what the public log says.
func TestIssue25_VerifyStateAfterEachREADMETour(t *testing.T) {
	for _, tr := range tours {
		t.Run(strings.TrimPrefix(tr.start, "## "), func(t *testing.T) {
			section := readSection(t, tr) + "\n```sh\ncroupier verify --state\n```\n"
			runs, _ := runTour(t, section, readmeEntropy)
			got := runs[len(runs)-1].got
			if !regexp.MustCompile(`^game \S+: everything matches: \d+ entries, \d+ items, \d+ views compared\n`).MatchString(got) {
				t.Errorf("verify --state at the end of the tour:\n%s", got)
			}
			t.Logf("%s", got)
		})
	}
}

// An item no logged change wrote (a player slipped into the store) and an
// item the log wrote that the store lost (a trade deleted) are named too,
// over the API and from the store file.
func TestIssue25_VerifyStateFindsAddedAndDeletedItems(t *testing.T) {
	h := newHarness(t, "manual")
	h.play(stateGames[0].game, stateGames[0].script)
	ctx := context.Background()
	st := h.srv.store
	bob, err := st.Get(ctx, store.Key{PK: "GAME#hall", SK: "PLAYER#discord:2"})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	_ = json.Unmarshal(bob.Data, &doc)
	doc["id"], doc["name"] = "discord:9", "Zed"
	zed, _ := json.Marshal(doc)
	page, err := st.Query(ctx, store.Query{PK: "GAME#hall", Prefix: "TRADE#"})
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("the game has no trade: %v", err)
	}
	trade := page.Items[0]
	tradeEntry := h.lastChange("hall", trade.SK)
	err = st.Commit(ctx, store.Tx{
		Puts:    []store.Put{{Item: store.Item{Key: store.Key{PK: "GAME#hall", SK: "PLAYER#discord:9"}, Data: zed}}},
		Deletes: []store.Check{{Key: trade.Key, Version: trade.Version}},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(trade.SK, "TRADE#")
	r := h.cli("verify", "--state", "--game", "hall")
	t.Logf("over the API:\n%s", r.stdout)
	if r.code != 1 {
		t.Fatalf("verify --state: %s; want exit 1", r)
	}
	contains(t, "verify --state over the API", r.stdout,
		"Zed (discord:9): item PLAYER#discord:9\n  no logged change ever wrote it\n  view players, field players[discord:9]: the server shows {",
		"item "+trade.SK+"\n  the log's last change to it is entry "+tradeEntry.ID+" (",
		"view trades, field trades["+id+"]: the server shows nothing, the log says {",
		"view trades/"+id+", field (the whole view): the server shows nothing, the log says {")
	h.stop()
	r = runCLI(nil, "verify", "--state", "--game", "hall", "--store", h.data)
	t.Logf("from the store:\n%s", r.stdout)
	if r.code != 1 {
		t.Fatalf("verify --state --store: %s; want exit 1", r)
	}
	contains(t, "verify --state --store", r.stdout,
		"Zed (discord:9): item PLAYER#discord:9\n  no logged change ever wrote it\n  field (the whole item): the store holds {",
		"(the store holds an item no logged change wrote)",
		"item "+trade.SK+"\n  the log's last change to it is entry "+tradeEntry.ID+" (",
		"the store holds nothing, the log says {")
}

// A log with an entry taken out (Cy's join, erased from the store) cannot
// be replayed: the change that follows it is a defect of the log, and the
// audit says so and exits 1, over the API (where Cy's view, who has left,
// is still compared) and from the store file.
func TestIssue25_VerifyStateFindsADefectOfTheLog(t *testing.T) {
	h := newHarness(t, "manual")
	h.play(stateGames[0].game, stateGames[0].script)
	ctx := context.Background()
	st := h.srv.store
	page, err := st.Query(ctx, store.Query{PK: "GAME#hall", Prefix: "LOG#", Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	erased := 0
	for _, it := range page.Items {
		if e, err := game.DecodeEntry(it.Data); err == nil && e.Command == "join" && e.Actor == "discord:3" {
			if err := st.Commit(ctx, store.Tx{Deletes: []store.Check{{Key: it.Key, Version: it.Version}}}); err != nil {
				t.Fatal(err)
			}
			erased++
		}
	}
	if erased != 1 {
		t.Fatalf("erased %d join entries of Cy, want 1", erased)
	}
	leave := h.lastChange("hall", "PLAYER#discord:3")
	defect := "  the log itself has a defect: PLAYER#discord:3: entry " + leave.ID + " changes version 2 of an item the log never created\n"
	r := h.cli("verify", "--state", "--game", "hall")
	t.Logf("over the API:\n%s", r.stdout)
	if r.code != 1 {
		t.Fatalf("verify --state: %s; want exit 1", r)
	}
	contains(t, "verify --state over the API", r.stdout, "its log has 1 defect: changes that cannot be replayed", defect,
		"Cy (discord:3): item PLAYER#discord:3\n  no logged change ever wrote it\n  view players/discord:3, field (the whole view): the server shows {")
	h.stop()
	r = runCLI(nil, "verify", "--state", "--game", "hall", "--store", h.data)
	t.Logf("from the store:\n%s", r.stdout)
	if r.code != 1 {
		t.Fatalf("verify --state --store: %s; want exit 1", r)
	}
	contains(t, "verify --state --store", r.stdout, "its log has 1 defect: changes that cannot be replayed", defect, "Cy (discord:3): item PLAYER#discord:3\n")
}
