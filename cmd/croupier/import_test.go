package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// holdingsOf is every current player's holdings, for comparing states.
func (h *harness) holdingsOf() map[string]string {
	var page struct{ Players []gildedhall.PlayerView }
	h.jsonOut(&page, "play", "players")
	out := map[string]string{}
	for _, p := range page.Players {
		inv := p.Inventory
		cards := make([]string, len(inv.Cards))
		for i, c := range inv.Cards {
			cards[i] = fmt.Sprintf("%s/%t", c.Name, c.Holo)
		}
		slices.Sort(cards)
		packs := make([]string, len(inv.Packs))
		for i, pk := range inv.Packs {
			packs[i] = pk.Kind
		}
		slices.Sort(packs)
		out[p.ID] = fmt.Sprintf("%s: %dV %dC %v %v", p.Name, inv.Vertebrae, inv.Chips, cards, packs)
	}
	return out
}

func (h *harness) logLen() int {
	var page game.LogPage
	h.jsonOut(&page, "play", "log", "--all")
	return len(page.Entries)
}

// Acceptance 4: a 30-player holdings table. The dry run lists every change
// and changes nothing; the import applies them all in one log entry,
// registering the 20 people who have not joined; a revocation of the import
// restores the state before it.
func TestImportThirtyPlayers(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.vars["CROUPIER_GAME"] = "hall"
	h.must("play", "create-game", "hall")
	names := map[string]string{}
	for i := 1; i <= 10; i++ {
		id, n := fmt.Sprintf("discord:%d", i), fmt.Sprintf("Player%02d", i)
		names[id] = n
		h.must("play", "--as", id, "join", "--name", n)
	}
	h.must("play", "grant", "Player03", "--vertebrae", "7", "--card", "King of Spades", "--reason", "before")

	var csv strings.Builder
	csv.WriteString("Player,Name,Vertebrae,Chips,Cards,Packs\n")
	want := map[string]string{} // row's player -> the dry run's line for it
	for i := 1; i <= 30; i++ {
		id := fmt.Sprintf("discord:%d", i)
		if i > 10 {
			id = fmt.Sprintf("discord:%d", 100+i)
			names[id] = fmt.Sprintf("Newcomer%02d", i)
		}
		ref := id
		if i%3 == 0 && i <= 10 {
			ref = names[id] // a current player by name
		}
		cards, packs := "", ""
		line := fmt.Sprintf("+%d Vertebrae", 10+i)
		if i%2 == 0 {
			cards = "2 7 of Hearts; holo Red Joker"
			line += ", 2 × 7 of Hearts, holo Red Joker"
		}
		if i%5 == 0 {
			packs = "handy-pack"
			line += ", 1 handy-pack"
		}
		chips := i % 4
		if chips > 0 {
			line = strings.Replace(line, " Vertebrae", " Vertebrae, +"+plural(chips, "Chip", "Chips"), 1)
		}
		name := ""
		if i > 10 {
			name = names[id]
			want[id] = fmt.Sprintf("  %s: not a player yet, registered as %q: %s", id, name, line)
		} else {
			want[id] = fmt.Sprintf("  %s: %s", names[id], line)
		}
		fmt.Fprintf(&csv, "%s,%s,%d,%d,%s,%s\n", ref, name, 10+i, chips, cards, packs)
	}
	file := filepath.Join(t.TempDir(), "holdings.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	before, entries := h.holdingsOf(), h.logLen()
	dry := h.must("play", "import", file, "--dry-run", "--reason", "carried over from the wiki")
	lines := strings.Split(strings.TrimSpace(dry), "\n")
	var changes []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") {
			changes = append(changes, l)
		}
	}
	if len(changes) != 30 {
		t.Fatalf("the dry run lists %d changes, want 30:\n%s", len(changes), dry)
	}
	for id, w := range want {
		if !slices.Contains(changes, w) {
			t.Errorf("the dry run lacks %q", w)
		}
		_ = id
	}
	contains(t, "dry run", dry, "Importing into hall (30 players", "20 people are registered", "Dry run: nothing was changed.")
	if after := h.holdingsOf(); !mapsEqual(after, before) || h.logLen() != entries {
		t.Fatalf("the dry run changed the game:\nbefore %v\nafter  %v", before, after)
	}

	out := h.must("play", "import", file, "--reason", "carried over from the wiki")
	contains(t, "import", out, "Imported the holdings of 30 players into hall in one correction (20 people registered before joining)")
	m := regexp.MustCompile(`; import (\S+) \(`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the import does not name itself: %s", out)
	}
	id := m[1]
	if n := h.logLen(); n != entries+1 {
		t.Errorf("the import wrote %d log entries, want 1", n-entries)
	}
	imported := h.holdingsOf()
	if len(imported) != 30 {
		t.Errorf("%d players after the import, want 30", len(imported))
	}
	// Row 3 (by name): +13 Vertebrae, 3 Chips, on top of what Player03 held.
	if got := imported["discord:3"]; got != "Player03: 20V 3C [King of Spades/false] []" {
		t.Errorf("Player03 after the import: %s", got)
	}
	if got := imported["discord:120"]; got != "Newcomer20: 30V 0C [7 of Hearts/false 7 of Hearts/false Red Joker/true] [handy-pack]" {
		t.Errorf("Newcomer20 after the import: %s", got)
	}
	contains(t, "the log", h.must("play", "log", "--all"), "Player01 imported the holdings of 30 players (20 registered before joining)")

	// A registered newcomer joins: the membership is theirs, holdings and all.
	contains(t, "a registered person joins", h.must("play", "--as", "discord:111", "join", "--name", "Eleven"), "Eleven joined hall. Vertebrae 21, Chips 3")

	out = h.must("play", "import-revoke", id, "--reason", "wrong table")
	contains(t, "revoke", out, "Revoked import "+id)
	after := h.holdingsOf()
	before["discord:111"] = "Eleven: 0V 0C [] []" // joined by themselves: still a player, the import's items gone
	if !mapsEqual(after, before) {
		for k := range before {
			if after[k] != before[k] {
				t.Errorf("after the revocation %s: %q, before the import %q", k, after[k], before[k])
			}
		}
		t.Errorf("%d players after the revocation, %d before (and the one who joined)", len(after), len(before))
	}
	if n := h.logLen(); n != entries+3 {
		t.Errorf("%d log entries after import, join and revocation, want %d", n, entries+3)
	}
	h.refused("already_revoked", "play", "import-revoke", id, "--reason", "again")
	// A person the revocation unregistered joins afresh.
	contains(t, "a first join after the revocation", h.must("play", "--as", "discord:112", "join", "--name", "Twelve"), "Twelve joined hall. Vertebrae 0, Chips 0")
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// An import in JSON, and the tables an import refuses, each with a clear
// message and nothing changed.
func TestImportFormatsAndRefusals(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.vars["CROUPIER_GAME"] = "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join", "--name", "Ada")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	js := write("h.json", `{"rows":[{"player":"Bob","chips":2,"cards":["3 King of Spades"]},{"player":"slack:U9","name":"Nine","packs":["2 deck-pack"]}]}`)
	contains(t, "json dry run", h.must("play", "import", js, "--dry-run", "--reason", "r"),
		"  Bob: +2 Chips, 3 × King of Spades", `  slack:U9: not a player yet, registered as "Nine": 2 deck-pack`)
	contains(t, "json import", h.must("play", "import", js, "--reason", "r"), "Imported the holdings of 2 players into hall in one correction (1 person registered before joining)")
	contains(t, "Nine", h.must("play", "status", "Nine"), "Nine in hall", "2 packs")
	before, entries := h.holdingsOf(), h.logLen()
	for _, c := range []struct{ file, want string }{
		{write("a.csv", "player,colour\ndiscord:2,red\n"), `unknown column "colour"`},
		{write("b.csv", "player,cards\nBob,Eight of Nothing\n"), `row 1: there is no card "Eight of Nothing"`},
		{write("c.csv", "player,vertebrae\nBob,3\ndiscord:2,4\n"), "discord:2 is row 1's player again"},
		{write("d.csv", "player,vertebrae\nBob,-3\n"), "an import only adds"},
		{write("f.csv", "player,vertebrae\nBob,three\n"), `vertebrae "three" is not a whole number`},
		{write("g.json", `[{"player":"Bob","colour":"red"}]`), `unknown field "colour"`},
		{write("h.csv", "player\n"), "the table has no rows"},
	} {
		r := h.cli("play", "import", c.file, "--reason", "r")
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("import %s: %s; want exit 2 and %q", filepath.Base(c.file), r, c.want)
		}
	}
	// A name nobody has is the server's refusal (its one resolver).
	if r := h.cli("play", "import", write("e.csv", "player,vertebrae\nZed,3\n"), "--reason", "r"); r.code != 1 ||
		!strings.Contains(r.stderr, `import row 1: No player of this game is named "Zed"`) {
		t.Errorf("import of Zed: %s", r)
	}
	h.refused("forbidden", "play", "--as", "discord:2", "import", js, "--reason", "r")
	if after := h.holdingsOf(); !mapsEqual(after, before) || h.logLen() != entries {
		t.Errorf("a refused import changed the game")
	}
}

// The README's `croupier play import holdings.csv --dry-run` works as
// written (issue 24 point 6): a dry run changes and logs nothing, so it needs
// no --reason; the import itself still does.
func TestImportDryRunNeedsNoReason(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.vars["CROUPIER_GAME"] = "hall"
	h.must("play", "create-game", "hall")
	h.must("play", "join", "--name", "Ada")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	file := filepath.Join(t.TempDir(), "holdings.csv")
	if err := os.WriteFile(file, []byte("player,vertebrae,cards\nBob,30,holo Red Joker\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, entries := h.holdingsOf(), h.logLen()
	dry := h.must("play", "import", file, "--dry-run")
	want := "Importing into hall (1 player), in one log entry:\n  Bob: +30 Vertebrae, holo Red Joker\nDry run: nothing was changed. Run it without --dry-run to apply it.\n"
	if dry != want {
		t.Errorf("import --dry-run without a reason prints\n%s\nwant\n%s", dry, want)
	}
	if r := h.cli("play", "import", file); r.code != exitUsage || !strings.Contains(r.stderr, "say why with --reason") {
		t.Errorf("import without --reason nor --dry-run: %s; want a usage error asking for the reason", r)
	}
	if after := h.holdingsOf(); !mapsEqual(after, before) || h.logLen() != entries {
		t.Errorf("the dry run or the refused import changed the game: log %d entries, was %d", h.logLen(), entries)
	}
	contains(t, "the import with a reason", h.must("play", "import", file, "--reason", "carried over from the wiki"),
		"Imported the holdings of 1 player into hall in one correction")
}
