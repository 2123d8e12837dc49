package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/announce"
	"croupier/internal/chat/bridge"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
	"croupier/internal/tracker"
)

// Issue 24, acceptance 6: every text a turns game shows gives its times in
// the game's zone (America/Chicago: CDT or CST, RULINGS T3) and its
// periods by their turns, on every surface. A turns game is played through
// two turn ends on one server, its commands run from the CLI, Discord,
// Slack and the bridge (each surface's own players), and every text each
// surface shows is collected: every command's answer, the status views,
// the log's narration, the tracker's pages of the game, the announcements
// the announcer posts, the clock's answers and the API's Croupier-Says.
// None may show a time in UTC or as RFC 3339, a calendar key
// ("2026-03-16T22:00-0500.1-first-half") or an internal term (first_half,
// turn-middle, nomic/turn-begin).

// shown is one text a surface showed.
type shown struct {
	surface, what, text string
}

func TestIssue24_TurnsTimesInTheGamesZoneOnEverySurface(t *testing.T) {
	const bridgeSecret = "bridge-turns-secret"
	h := newHarnessWith(t, "manual", func(c *serveConfig) {
		c.slackSecret, c.discordKey = slackSecret, discordtest.PublicKey()
		secrets, err := credential.ParseSecrets(bridgeSecret + " as=matrix:*")
		if err != nil {
			t.Fatal(err)
		}
		c.bridgeSecrets = secrets
	})
	ctx := context.Background()
	const g, guild, team, room = "nomic", "930", "T30", "room9"
	h.vars["CROUPIER_AS"] = "discord:21"
	h.vars["CROUPIER_GAME"] = g
	var texts []shown
	show := func(surface, what, text string) string {
		texts = append(texts, shown{surface, what, text})
		return text
	}
	cli := func(args ...string) string {
		t.Helper()
		return show("cli", strings.Join(args, " "), h.must(append([]string{"play"}, args...)...))
	}
	opt := func(name string, v any) map[string]any {
		typ := discord.OptString
		switch v.(type) {
		case int:
			typ = discord.OptInteger
		case bool:
			typ = discord.OptBoolean
		}
		return map[string]any{"name": name, "type": typ, "value": v}
	}
	// The Discord players are users 21 (Ada, the admin), 22 (Grace) and
	// 23 (Cy); Slack's is U24 (Dee); the bridge's is matrix:eve (Eve).
	slash := func(user, name string, opts ...map[string]any) string {
		t.Helper()
		what := "/" + name
		if sub, rest, ok := strings.Cut(name, " "); ok {
			opts = []map[string]any{{"name": rest, "type": discord.OptSubCommand, "options": opts}}
			name = sub
		}
		return show("discord", what, h.slashIn(guild, user, name, opts...))
	}
	slack := func(text string) string {
		t.Helper()
		return show("slack", text, slackTexts(t, h.slackIn(team, "U24", text)))
	}
	bridgeCmd := func(name string, opts map[string]string) string {
		t.Helper()
		return show("bridge", name, h.bridge(t, bridgeSecret, bridge.Command{Platform: "matrix", Space: room, Channel: "general",
			User: "eve", UserName: "Eve", Command: name, Options: opts}))
	}

	cli("create-game", g, "--ruleset", "turns", "--name", "Nomic")
	for _, b := range []game.Bind{{Platform: "discord", Space: guild, Channels: map[string]string{game.ChannelAnnouncements: "7009"}},
		{Platform: "slack", Space: team}, {Platform: "matrix", Space: room}} {
		h.keys++
		if _, err := h.srv.svc.Bind(ctx, game.Request{Game: g, Actor: "discord:21", Key: fmt.Sprintf("bind-%d", h.keys)}, b); err != nil {
			t.Fatal(err)
		}
	}
	cli("join", "--name", "Ada")
	slash("22", "join")
	slash("23", "join")
	slack(`join name="Dee"`)
	bridgeCmd("join", nil)

	// Every surface's reads, at each moment of the game.
	// Every surface's reads, at each moment of the game; where the round
	// is reads the same on each (turns.Where), in the CLI's turns and
	// status, chat's turns status and status and the tracker's overview
	// and turns page.
	reads := func() {
		t.Helper()
		st, err := turns.TurnsStatus(ctx, h.srv.svc, g)
		if err != nil {
			t.Fatal(err)
		}
		where := turns.Where(st.Turn)
		same := func(surface, what, text string) {
			t.Helper()
			if !strings.Contains(text, where) {
				t.Errorf("%s, %s does not say where the round is as every surface does (%q):\n%s", surface, what, where, text)
			}
		}
		for _, args := range [][]string{{"turns"}, {"turns-rules"}, {"turns-rules", "210"}, {"turns-proposals"}, {"turns-cases"},
			{"status"}, {"--as", "discord:22", "status"}, {"players"}, {"game"}, {"log", "--all"}, {"seeds"}, {"audit"}} {
			out := cli(args...)
			if args[0] == "turns" || args[0] == "status" || args[0] == "game" {
				same("cli", args[0], out)
			}
		}
		for _, name := range []string{"turns status", "status", "players", "game", "log", "seeds", "audit"} {
			texts := []string{slash("22", name), slack(name), bridgeCmd(name, nil)}
			if name == "turns status" || name == "status" || name == "game" {
				for i, text := range texts {
					same([]string{"discord", "slack", "bridge"}[i], name, text)
				}
			}
		}
		for _, page := range []string{"", "/turns"} {
			path := tracker.Base + "/games/" + g + page
			_, text := h.trackerPage(t, path)
			same("tracker", path, text)
		}
	}
	clock := func(set string) { cli("clock", "--set", set) }

	// Before turn 1-1: a proposal and its votes, a case judged and appealed.
	reads()
	cli("turns-propose", "amend", "210", "Rule 210, as amended by Ada.")
	slash("22", "turns vote", opt("proposal", "P1"), opt("vote", "for"))
	slack("turns vote proposal=P1 vote=for")
	bridgeCmd("turns vote", map[string]string{"proposal": "P1", "vote": "for"})
	slash("22", "pool-enter")
	cli("judgment-request", "Rule 213 lets a player vote twice.")
	slash("22", "case rule", opt("case", 5301), opt("ruling", "FALSE"), opt("reasons", "One vote each."))
	slash("23", "case appeal", opt("case", 5301), opt("ruling", "TRUE"), opt("reasons", "Rule 213 says so."))
	reads()

	// Turn 1-1 begins (Mon 9 Mar 22:00 CDT): the appeal is voted on; Cy
	// proposes, and votes against it himself.
	clock("2026-03-10T04:00:00Z")
	slack("case vote case=5301 vote=for")
	cli("appeal-vote", "5301", "for")
	bridgeCmd("case vote", map[string]string{"case": "5301", "vote": "against"})
	slash("23", "turns propose", opt("op", "enact"), opt("text", "Every player may vote twice."))
	slash("23", "turns vote", opt("proposal", "P2"), opt("vote", "against"))
	slash("23", "turns vote", opt("proposal", "P1"), opt("vote", "for"))
	reads()
	// Its latter half, then its end: P1 adopted, P2 defeated, the appeal
	// upheld; then turn 1-2 begins and Dee proposes.
	clock("2026-03-13T12:00:00Z")
	reads()
	clock("2026-03-15T03:00:01Z")
	reads()
	clock("2026-03-17T04:00:00Z")
	slack(`turns propose op=repeal rule=213`)
	cli("judgment-request", "Rule 210 is in force.")
	reads()

	// A refusal that gives a time: joining twice. (A turns game has no
	// wait to rejoin.) The CLI prints the problem's code for scripts.
	refused := func(code string, args ...string) {
		t.Helper()
		r := h.cli(append([]string{"play"}, args...)...)
		if r.code != exitRefused || !strings.Contains(r.stderr, "["+code+"]") {
			t.Fatalf("croupier play %s: want refused [%s], got %s", strings.Join(args, " "), code, r)
		}
		show("cli", strings.Join(args, " ")+" (refused)", strings.TrimSuffix(strings.TrimSpace(r.stderr), " ["+code+"]"))
	}
	refused("already_a_player", "join", "--name", "Ada")
	slash("22", "join")
	bridgeCmd("join", nil)

	// The API's sentence of a command's answer.
	says := func(command, actor string, body any) {
		t.Helper()
		b, _ := json.Marshal(body)
		r, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/v1/games/"+g+"/commands/"+command, bytes.NewReader(b))
		r.Header.Set("Authorization", "Bearer "+testKey)
		r.Header.Set("X-Croupier-Actor", actor)
		r.Header.Set("Content-Type", "application/json")
		h.keys++
		r.Header.Set("Idempotency-Key", fmt.Sprintf("says-%d", h.keys))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s, err := url.PathUnescape(resp.Header.Get("Croupier-Says"))
		if resp.StatusCode >= 300 || err != nil || s == "" {
			t.Fatalf("POST %s: %d %q %s", command, resp.StatusCode, s, raw)
		}
		show("api", "Croupier-Says of "+command, s)
	}
	says("turns-vote", "discord:22", map[string]any{"proposal": "P3", "vote": "for"})
	says("pool-enter", "discord:23", map[string]any{})
	says("turns-active", "discord:21", map[string]any{"active": false})

	// The tracker's pages of the game, every one its pages link to.
	for _, p := range h.trackerPages(t, tracker.Base+"/games/"+g) {
		show("tracker", p[0], p[1])
	}
	// The announcements of every log entry, on each platform.
	log, err := h.srv.svc.Log(ctx, g, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log.Entries {
		for _, platform := range []string{"discord", "slack"} {
			lines, _ := announce.Render(h.srv.svc, platform, &e)
			for _, l := range lines {
				show("announce", platform+" "+e.Command, l.Text)
			}
		}
	}

	surfaces := map[string]int{}
	for _, s := range texts {
		if testing.Verbose() {
			t.Logf("%s, %s:\n%s", s.surface, s.what, s.text)
		}
		surfaces[s.surface]++
		for _, bad := range notInTheGamesZone(s.text) {
			t.Errorf("%s, %s: %s:\n%s", s.surface, s.what, bad, s.text)
		}
	}
	// The collection reached every surface, and saw the times it checks.
	for _, want := range []string{"cli", "discord", "slack", "bridge", "api", "tracker", "announce"} {
		if surfaces[want] == 0 {
			t.Errorf("no text of the %s was collected", want)
		}
	}
	all := ""
	for _, s := range texts {
		all += s.text + "\n"
	}
	for _, want := range []string{"CST", "CDT", "turn 1-1", "turn 1-2"} {
		if !strings.Contains(all, want) {
			t.Errorf("no text shows %q", want)
		}
	}
	t.Logf("%d texts checked: %v", len(texts), surfaces)
}

// The marks of a time or a period not in a turns game's own terms.
var (
	// A time of day must be followed by the game's zone; the rules' own
	// words, which the rules pages quote, give weekly times ("22:00 on
	// Monday") and the zone's offset ("GMT -6:00").
	timeOfDay = regexp.MustCompile(`\b\d{1,2}:\d\d(:\d\d)?\b`)
	inZone    = regexp.MustCompile(`^(:\d\d)? (CDT|CST)\b|^ on (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b`)
	utcWord   = regexp.MustCompile(`\bUTC\b|\bZ\b`)
	goDur     = regexp.MustCompile(`\b\d+h\d+m\d+s\b|\b\d+h0m\b`)
	rfc3339   = regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d`)
	// A turns calendar key ("2026-03-16T22:00-0500.1-first-half"), or its
	// part's suffix alone.
	turnsKey = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d[-+]\d{4}|\b\d-(first-half|latter-half|interim)\b`)
	// The rules' and the schedule's terms: snake_case, the due kinds and
	// parts in kebab-case, a "game/kind" timer.
	snakeCase    = regexp.MustCompile(`\b[a-z]+(_[a-z]+)+\b`)
	internalTerm = regexp.MustCompile(`\b(turn-begin|turn-middle|turn-end|judge-deadline|turns-move|first-half|latter-half|chicago-turns)\b|\bnomic/`)
)

// notInTheGamesZone says what in s is not in a turns game's own terms.
func notInTheGamesZone(s string) []string {
	var out []string
	for _, m := range timeOfDay.FindAllStringIndex(s, -1) {
		if offset := m[0] > 0 && strings.ContainsRune("-+", rune(s[m[0]-1])); !offset && !inZone.MatchString(s[m[1]:]) {
			out = append(out, fmt.Sprintf("a time without the game's zone (%q)", s[m[0]:min(len(s), m[1]+6)]))
			break
		}
	}
	check := func(re *regexp.Regexp, what string) {
		if m := re.FindString(s); m != "" {
			out = append(out, fmt.Sprintf("%s (%q)", what, m))
		}
	}
	check(utcWord, "UTC")
	check(rfc3339, "an RFC 3339 time")
	check(turnsKey, "a calendar key")
	check(goDur, "a Go duration")
	check(snakeCase, "a snake_case term")
	check(internalTerm, "an internal term")
	return out
}

// TestNotInTheGamesZone: the check finds each mark, and passes the
// game's own words.
func TestNotInTheGamesZone(t *testing.T) {
	for s, want := range map[string]bool{
		"Turn 1-1 begins Mon 9 Mar 22:00 CDT.":                            false,
		"It is Thu 5 Mar 06:00 CST; turn 1-2, latter half.":               false,
		"The server's clock is now 2026-03-10T04:00:00Z (Tuesday).":       true,
		"Joined Thu 5 Mar 2026 12:00 UTC.":                                true,
		"Mar 5 12:00 · Ada joins.":                                        true,
		"Ended: nomic/2026-03-16T22:00-0500.1-first-half.":                true,
		"Round 1, turn 1-1 (its first_half).":                             true,
		"Timers (turns): nomic/turn-begin 1-1.":                           true,
		"Next: turn-middle of 1-1.":                                       true,
		"draws (period 2026-03-02T22:00-0600.1-first-half, command c-1)":  true,
		"Next: turn 1-1 begins (in 111h0m0s).":                            true,
		"Rule 202: Turns begin every week at 22:00 on Monday.":            false,
		"Rule 201: Central Time (GMT -6:00), observing daylight savings.": false,
	} {
		if got := len(notInTheGamesZone(s)) > 0; got != want {
			t.Errorf("%q: marked %v, want %v (%v)", s, got, want, notInTheGamesZone(s))
		}
	}
}

// bridge sends c, signed with secret, to the bridge's commands route and
// returns its reply's texts: title, text, fields.
func (h *harness) bridge(t *testing.T, secret string, c bridge.Command) string {
	t.Helper()
	h.keys++
	c.ID = fmt.Sprintf("bridge-%d", h.keys)
	body, _ := json.Marshal(c)
	r, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/bridge/v1/commands", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(bridge.Header, bridge.Sign([]byte(secret), time.Now(), body))
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct{ Reply bridge.Reply }
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw, &out) != nil {
		t.Fatalf("bridge %s: %d %s", c.Command, resp.StatusCode, raw)
	}
	s := strings.TrimSpace(out.Reply.Title + "\n" + out.Reply.Text)
	for _, f := range out.Reply.Fields {
		s += "\n" + f.Name + ": " + f.Value
	}
	return s
}

var (
	hrefRe   = regexp.MustCompile(`href="([^"#?]+)`)
	scriptRe = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>`)
	tagRe    = regexp.MustCompile(`<[^>]*>`)
)

// trackerPages returns each tracker page under prefix, from prefix and
// the pages it links to, as [path, visible text].
func (h *harness) trackerPages(t *testing.T, prefix string) [][2]string {
	t.Helper()
	var out [][2]string
	seen := map[string]bool{prefix: true}
	queue := []string{prefix}
	for len(queue) > 0 && len(out) < 200 {
		path := queue[0]
		queue = queue[1:]
		body, text := h.trackerPage(t, path)
		for _, m := range hrefRe.FindAllStringSubmatch(body, -1) {
			if p := html.UnescapeString(m[1]); strings.HasPrefix(p, prefix) && !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
		out = append(out, [2]string{path, text})
	}
	if !slices.ContainsFunc(out, func(p [2]string) bool { return strings.HasSuffix(p[0], "/turns") }) {
		t.Errorf("the tracker's pages of the game do not include its turns page: %v", out)
	}
	return out
}

// trackerPage returns the tracker page at path: its HTML, and its text as
// a reader sees it (no tags, scripts or styles).
func (h *harness) trackerPage(t *testing.T, path string) (body, text string) {
	t.Helper()
	res, err := http.Get(h.ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %d", path, res.StatusCode)
	}
	text = tagRe.ReplaceAllString(scriptRe.ReplaceAllString(string(b), ""), " ")
	return string(b), strings.Join(strings.Fields(html.UnescapeString(text)), " ")
}
