package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
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
			contains(t, "verify --state", r.stdout, "not compared, as the public log does not carry them: the period seeds")

			a := alterations[sg.game]
			entry := h.lastChange(sg.game, a.sk)
			h.alter(sg.game, a.sk, a.path, a.value)
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

			h.stop()
			r = runCLI(nil, "verify", "--state", "--game", sg.game, "--store", h.data)
			if r.code != 1 {
				t.Fatalf("verify --state --store after %s was altered: %s; want exit 1", a.sk, r)
			}
			t.Logf("from the store:\n%s", r.stdout)
			field := strings.Join(a.path, ".")
			contains(t, "verify --state --store", r.stdout, "game "+sg.game+": the state differs from what its log says: 1 difference in 1 item", head,
				fmt.Sprintf("  field %s: the store holds %v, the log says ", field, a.value))
			if !since.MatchString(r.stdout) {
				t.Errorf("verify --state --store does not name entry %s:\n%s", entry.ID, r.stdout)
			}
		})
	}
}
