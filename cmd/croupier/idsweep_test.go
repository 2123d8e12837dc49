package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"croupier/internal/announce"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
)

// Issue 24, points 3 and 5: beyond each command's answer (answers_test.go),
// everything else a person reads names people and reads as sentences:
// the views (status, players, the match board, trades, proposals, the
// Obelisk and its Gatherings, the turns views, the game's own view with its
// admins), the refusals, the log's narration and the announcements. A
// short game of each ruleset is played through the CLI, Discord and Slack,
// with refusals provoked on purpose; every text is collected and none may
// hold a platform id where the name is known, Go's formatting, doubled
// punctuation or a wrong plural.

// sweepScripts are a short game of each ruleset, a line a step: who runs
// what, where.
//
//	cli ID ARGS...        croupier play --as ID ARGS... (in the script's game)
//	slack USER TEXT...    /croupier TEXT as Slack user USER (team T1; Cy is U0CY)
//	discord USER NAME [SUB] [opt=value...]   a slash command as Discord user USER (guild 901);
//	                      a value "@N" is a user option (Discord user N)
//
// A line starting with "!" must be refused (on the CLI: a non-zero exit; in
// chat: any answer).
var sweepScripts = []struct {
	game   string
	script string
}{
	{"hall", `
cli discord:1 create-game hall --name "Gilded Hall"
cli discord:1 join --name Ada
cli discord:2 join --name Bob
slack U0CY join name=Cy
cli discord:1 grant Bob --vertebrae 30 --chips 2 --reason "from the wiki"
cli discord:1 grant Ada --vertebrae 30 --chips 6 --card "holo Red Joker" --random-cards 8 --reason "from the wiki"
cli discord:1 grant Bob --random-cards 8 --chips 5 --reason "for a duel"
cli discord:1 status Bob
cli discord:1 players
cli discord:1 me
cli discord:1 shop
cli discord:2 buy handy-pack
! cli slack:U0CY buy handy-pack
cli discord:2 open handy-pack
cli discord:1 gift Bob
! cli discord:1 gift Cy
cli discord:2 gift Cy
! slack U0CY buy item=legendary-pack
slack U0CY status
slack U0CY players
slack U0CY game
! cli discord:1 trade offer Bob --give "30 chips"
cli discord:1 trade offer Bob --give "holo Red Joker" --take "1 chip" --note "for your Chip"
cli discord:1 trades --status open
slack U0CY trade list
cli discord:2 trade accept
cli discord:1 trades
cli discord:1 duel Bob
! cli slack:U0CY duel accept
cli discord:2 duel accept
cli discord:1 match
cli discord:2 match
cli discord:1 matches
cli discord:1 propose --channel proposals --message m1 --title "Cheaper cards" --price random-card=4
cli discord:1 react --channel proposals --message m1 --up discord:1 --up discord:2
cli discord:1 proposals
slack U0CY proposals
discord 2 status
discord 2 players
discord 2 game
discord 1 status player=@2
discord 2 proposals
cli discord:1 trade offer Cy --give "1 chip" --note "for luck"
discord 1 trade list
slack U0CY trade list
cli slack:U0CY trades
! cli slack:U0CY trade accept --as discord:2
discord 2 match status
`},
	{"stone", `
cli discord:1 create-game stone --name "The Obelisk" --ruleset obelisk --season Winter
cli discord:1 amend --patch '[{"op":"replace","path":"/thresholds/joinEnergy","value":9}]' --reason "a faster game"
cli discord:1 join --name Ada
cli discord:2 join --name Bob
slack U0CY join name=Cy
cli discord:1 observe
! cli discord:2 observe
cli discord:1 obelisk
cli discord:1 task herbalism
cli discord:2 task herbalism
cli discord:1 amend --patch '[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":2,"resolve":1},"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"blood":1}}]}}]' --reason "a ritual"
cli discord:1 gathering-start cut-the-obelisk --message rituals-1
cli discord:2 gathering-contribute rituals-1 🌿
! cli slack:U0CY gathering-contribute rituals-1 💎
cli discord:2 gathering-withdraw rituals-1 🌿
cli discord:2 gathering-contribute rituals-1 🌿
! cli discord:1 gathering-complete rituals-1
cli discord:1 gathering-contribute rituals-1 🌿
cli discord:1 gathering-contribute rituals-1 ⚡
cli discord:1 gatherings
slack U0CY gatherings
slack U0CY obelisk
cli discord:1 gathering-complete rituals-1
! cli discord:1 task alchemy
! cli discord:1 trade offer Bob --give "9 crystals"
cli discord:1 propose --channel proposals --message ban-1 --banish Cy --for 168h
slack U0CY proposals
cli discord:1 proposals
cli discord:1 react --channel proposals --message ban-1 --up discord:1 --up discord:2
cli discord:1 clock --to-period-end
cli discord:1 clock --to-period-end
cli discord:1 status Cy
slack U0CY status
! cli slack:U0CY banishment-end
cli discord:1 proposals
discord 2 game
discord 2 players
discord 2 proposals
discord 1 obelisk
discord 1 gatherings
discord 1 status player=@2
discord 1 banishment propose player=@2 duration=36h message=700/9301
discord 1 proposals
`},
	{"nomic", `
cli discord:1 create-game nomic --ruleset turns --name "Nomic"
cli discord:1 join --name Ada
cli discord:2 join --name Bob
slack U0CY join name=Cy
cli discord:1 turns
cli discord:1 turns-propose amend 210 "Rule 210, amended."
cli discord:2 turns-vote P1 for
! cli discord:2 turns-vote P9 for
cli discord:2 pool-enter
cli slack:U0CY pool-enter
cli discord:1 judgment-request "Rule 213 lets a player vote twice."
cli discord:1 turns-cases
cli discord:1 turns-proposals
slack U0CY turns status
cli discord:1 clock --advance 24h
cli discord:1 turns
cli discord:1 status Bob
cli discord:1 turns-cases
cli discord:1 turns-proposals
discord 2 game
discord 2 players
discord 2 turns status
`},
}

// sweep marks: the ways a text fails people.
var (
	sweepID       = regexp.MustCompile(`\b(discord:\d+|slack:U\w+)`)
	sweepNamedID  = regexp.MustCompile(`\w+ \((discord:\d+|slack:U\w+)\)`) // "Ada (discord:1)": the name, then its id
	sweepGoList   = regexp.MustCompile(`\[[^\]\s\[-]+( [^\]\s]+)+\]`)      // not a usage's [--flag N]
	sweepDuration = regexp.MustCompile(`\b\d+h\d+m\d+s\b|\b\d+h0m\b|\b\d+h\b`)
	sweepDoubled  = regexp.MustCompile(`(^|[^.])\.\.([^.]|$)|\s\.(\s|$)|[!?][.!?]|\.[!?]|[.!?]["”]\.`) // an ellipsis is no doubling
	sweepPlural   = regexp.MustCompile(`\b1 (Chips|cards|herbs|points|days|hours|minutes|players|votes|changes)\b|\(s\)`)
)

// A mention that is none on the platform showing it: Discord's are
// numbers, Slack's U... or W....
var (
	sweepMention      = regexp.MustCompile(`<@!?([^>|]+)`)
	sweepMentionOf    = map[string]*regexp.Regexp{"discord": regexp.MustCompile(`^\d+$`), "slack": regexp.MustCompile(`^[UW][A-Z0-9]+$`)}
	sweepPlatformOfID = map[string]string{"cli": "", "discord": "discord", "slack": "slack"}
)

// sweepFaults lists what is wrong with text s, shown on platform ("" for
// the CLI, where a mention is none).
func sweepFaults(s, platform string) []string {
	var out []string
	for _, m := range sweepMention.FindAllStringSubmatch(s, -1) {
		if re := sweepMentionOf[platform]; re == nil || !re.MatchString(m[1]) {
			out = append(out, fmt.Sprintf("a mention that is none here (%q)", m[0]+">"))
		}
	}
	// An id right after the name it is, in parentheses, is allowed (the
	// CLI's "Ada (discord:1)", where the id is what --as takes).
	bare := sweepNamedID.ReplaceAllString(s, "NAME")
	if m := sweepID.FindString(bare); m != "" {
		out = append(out, fmt.Sprintf("a platform id (%q)", m))
	}
	for _, c := range []struct {
		re   *regexp.Regexp
		what string
	}{{sweepGoList, "a Go list"}, {sweepDuration, "a Go duration"}, {sweepDoubled, "doubled punctuation"}, {sweepPlural, "a wrong plural"}} {
		if m := c.re.FindString(s); m != "" {
			out = append(out, fmt.Sprintf("%s (%q)", c.what, m))
		}
	}
	for _, w := range []string{"map[", "%!", "<nil>"} {
		if strings.Contains(s, w) {
			out = append(out, fmt.Sprintf("Go formatting (%q)", w))
		}
	}
	return out
}

func TestIssue24_NoIdsOrGoFormattingInAnyText(t *testing.T) {
	h := newHarnessWith(t, "manual", func(c *serveConfig) {
		c.slackSecret, c.discordKey = slackSecret, discordtest.PublicKey()
	})
	ctx := context.Background()
	checked := map[string]int{}
	check := func(where, platform, text string) {
		t.Helper()
		checked[platform]++
		if fs := sweepFaults(text, platform); fs != nil {
			t.Errorf("%s: %s:\n%s", where, strings.Join(fs, "; "), text)
		}
	}
	for _, sc := range sweepScripts {
		for _, raw := range strings.Split(strings.TrimSpace(sc.script), "\n") {
			line := strings.TrimSpace(raw)
			refuse := strings.HasPrefix(line, "!")
			line = strings.TrimSpace(strings.TrimPrefix(line, "!"))
			words, err := shellWords(line)
			if err != nil || len(words) < 3 {
				t.Fatalf("script line %q: %v", line, err)
			}
			var got string
			switch words[0] {
			case "cli":
				args := append([]string{"play", "--game", sc.game, "--as", words[1]}, words[2:]...)
				r := h.cli(args...)
				switch {
				case refuse && r.code == 0:
					t.Errorf("%s: want a refusal, got %s", line, r)
				case !refuse && r.code != 0:
					t.Fatalf("%s: %s", line, r)
				}
				got = r.stdout + r.stderr
				if words[2] == "create-game" {
					// The chat spaces play the same game.
					for _, b := range []game.Bind{{Platform: "discord", Space: "901"}, {Platform: "slack", Space: "T1"}} {
						if _, err := h.srv.svc.Bind(ctx, game.Request{Game: sc.game, Actor: words[1], Key: "bind-" + sc.game + b.Platform}, b); err != nil {
							t.Fatal(err)
						}
					}
				}
			case "slack":
				got = slackTexts(t, h.slack(words[1], strings.Join(words[2:], " ")))
			case "discord":
				got = h.sweepSlash(words[1], words[2:])
			default:
				t.Fatalf("script line %q: cli, slack or discord", line)
			}
			t.Logf("%s:\n%s", line, got)
			check(sc.game+": "+line, sweepPlatformOfID[words[0]], got)
		}
		// The log as the CLI prints it, and the announcements of every
		// entry on both platforms.
		log := h.must("play", "--game", sc.game, "--as", "discord:1", "log", "--limit", "500")
		check(sc.game+": play log", "", log)
		page, err := h.srv.svc.Log(ctx, sc.game, "", 500)
		if err != nil {
			t.Fatal(err)
		}
		// The tracker's pages, as a browser shows their text.
		for _, page := range []string{"", "/players", "/matches", "/trades", "/proposals", "/log", "/obelisk", "/turns", "/cases"} {
			resp, err := http.Get(h.ts.URL + "/tracker/games/" + sc.game + page)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				continue // a page of another ruleset
			}
			check(sc.game+": the tracker's page "+page, "", pageText(string(body)))
		}
		names := h.srv.svc.Names(ctx, sc.game)
		for _, e := range page.Entries {
			for _, platform := range []string{"discord", "slack"} {
				// As the announcer renders them: a mention of the
				// platform's own member shows as the member's name.
				lines, _ := announce.RenderNamed(h.srv.svc, platform, &e, names)
				for _, l := range lines {
					check(fmt.Sprintf("%s: the %s announcement of %s", sc.game, platform, e.Command), platform, l.Text)
				}
			}
		}
	}
	// The sweep read what it says it read: every script line, three logs
	// and the announcements on both platforms.
	t.Logf("texts checked: %v", checked)
	if checked[""] < 95 || checked["slack"] < 25 || checked["discord"] < 28 {
		t.Errorf("the sweep checked too few texts: %v", checked)
	}
}

// sweepSlash runs a slash command as Discord user words[0] in guild 901:
// NAME [SUB] [opt=value...].
func (h *harness) sweepSlash(user string, words []string) string {
	h.t.Helper()
	name, rest := words[0], words[1:]
	var opts []map[string]any
	var sub string
	for _, w := range rest {
		k, v, ok := strings.Cut(w, "=")
		if !ok {
			sub = w
			continue
		}
		if id, ok := strings.CutPrefix(v, "@"); ok {
			opts = append(opts, map[string]any{"name": k, "type": discord.OptUser, "value": id})
			continue
		}
		opts = append(opts, map[string]any{"name": k, "type": discord.OptString, "value": v})
	}
	if sub != "" {
		opts = []map[string]any{{"name": sub, "type": discord.OptSubCommand, "options": opts}}
	}
	return h.slash("901", user, name, opts...)
}

// slackTexts is what a Slack reply shows: its texts (fallback, header,
// sections, fields), one a line.
func slackTexts(t *testing.T, raw string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("a Slack reply that is not JSON: %s", raw)
	}
	var texts []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if s, ok := v[k].(string); ok && k == "text" {
					texts = append(texts, s)
				} else {
					walk(v[k])
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return strings.Join(texts, "\n")
}

var (
	htmlHidden = regexp.MustCompile(`(?s)<(script|style|head)[^>]*>.*?</(script|style|head)>`)
	htmlBlock  = regexp.MustCompile(`(?i)</?(p|div|li|ul|ol|tr|td|th|dt|dd|dl|h\d|section|table|thead|tbody|header|footer|nav|main|br)\b[^>]*>`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
	htmlBlanks = regexp.MustCompile(`[ \t]*\n\s*`)
)

// pageText is an HTML page's text, as a browser shows it: a block's
// text on a line of its own, inline elements within their sentence,
// entities decoded.
func pageText(page string) string {
	s := htmlHidden.ReplaceAllString(page, "")
	s = htmlBlock.ReplaceAllString(s, "\n")
	s = html.UnescapeString(htmlTag.ReplaceAllString(s, ""))
	return htmlBlanks.ReplaceAllString(s, "\n")
}
