package main

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/game"
	"croupier/internal/rulesets"
)

// Issue 24, acceptance 5: every argument that names a player (a declared
// game.FieldPlayer or game.FieldPlayers, read from the registry) resolves
// a display name and each mention form, on every surface, and a name two
// players share, or no player has, is refused with the candidates.
//
// Each ruleset's game has Ada (the admin), Grace and two players named
// Sam, on Discord (the CLI's and the API's identities too) and on Slack.
// For each player argument of each command the game's ruleset has:
//   - the API, the CLI and Slack name "Sam" (refused ambiguous_player,
//     naming both Sams) and "Zed" (refused unknown_player);
//   - Grace is named by display name, <@2>, <@!2> and discord:2 (the API and
//     the CLI), and by name, <@UGRACE>, <@UGRACE|grace> and slack:UGRACE
//     on Slack; Discord gives a user option's id, or the mention forms in a
//     list of players. Whatever the command then says, it is not that no
//     player, or several, have the name.
//
// The commands resolve their players before they read the game's state
// (the one resolver, game.Service.ResolvePlayer), so the refusals need no
// set-up: each case's other arguments only have to be well formed
// (playerArgBase). Where a command's own answer shows whom it named (a
// grant of each ruleset), the answer names Grace, by every form.

// playerArgBase are the other arguments each command with a player
// argument needs to be well formed, by payload member; a match move takes
// a well-formed match id.
var playerArgBase = map[string]map[string]string{
	"gift":              {},
	"grant":             {"reason": "a correction", "vertebrae": "1"},
	"revoke":            {"reason": "a correction", "vertebrae": "1"},
	"trade-offer":       {"give": `{"vertebrae":1}`, "take": `{}`},
	"duel-request":      {},
	"components-grant":  {"reason": "a correction", "herbs": "1"},
	"components-revoke": {"reason": "a correction", "herbs": "1"},
	"gathering-start":   {"ritual_type": "cut-the-obelisk"},
	"judgment-request":  {"statement": "Is this fair?"},
}

// playerArgAnswers are the commands whose answer names the player the
// argument named (checked for Grace by every form).
var playerArgAnswers = map[string]bool{"grant": true, "components-grant": true}

func baseOf(command string) (map[string]string, bool) {
	if strings.HasPrefix(command, "match-") {
		return map[string]string{"match": "m1"}, true
	}
	b, ok := playerArgBase[command]
	return b, ok
}

type playerArg struct {
	command string
	arg     game.Arg
}

func TestIssue24_EveryPlayerArgumentResolvesOnEverySurface(t *testing.T) {
	h := moduleHarness(t)
	reg := rulesets.Registry()
	var args []playerArg
	for _, c := range reg.Catalogue() {
		for _, a := range c.Arguments() {
			if a.Type == game.FieldPlayer || a.Type == game.FieldPlayers {
				args = append(args, playerArg{c.Name, a})
				if _, ok := baseOf(c.Name); !ok {
					t.Errorf("%s's player argument %s has no case here (playerArgBase)", c.Name, a.Name)
				}
			}
		}
	}
	if len(args) < 4 {
		t.Fatalf("only %d player arguments are declared: %v", len(args), args)
	}
	games := map[string]string{"gilded-hall": "pa-hall", "obelisk": "pa-ob", "turns": "pa-turns"}
	guilds := map[string]string{"gilded-hall": "960", "obelisk": "961", "turns": "962"}
	teams := map[string]string{"gilded-hall": "TPA0", "obelisk": "TPA1", "turns": "TPA2"}
	for _, id := range reg.Rulesets() {
		g, ok := games[id]
		if !ok {
			continue // Tally, this package's test module: no player arguments
		}
		if st, v := h.api("POST", "/v1/games", "discord:1", map[string]any{"id": g, "ruleset": id, "admins": []string{"discord:1", "slack:UADA"}}); st != http.StatusCreated {
			t.Fatalf("create %s: %d %v", g, st, v)
		}
		for _, p := range []struct{ id, name string }{{"discord:1", "Ada"}, {"discord:2", "Grace"}, {"discord:4", "Sam"}, {"discord:5", "Sam"}, {"slack:UADA", "Ada S"}, {"slack:UGRACE", "Grace S"}} {
			if st, v := h.api("POST", "/v1/games/"+g+"/join", p.id, map[string]any{"name": p.name}); st != http.StatusOK {
				t.Fatalf("join %s %s: %d %v", g, p.name, st, v)
			}
		}
		if s := h.slash(guilds[id], "1", "bind", map[string]any{"name": "game", "type": discord.OptString, "value": g}, map[string]any{"name": "announcements", "type": discord.OptChannel, "value": "709"}); !strings.Contains(s, "now plays the game "+g) {
			t.Fatalf("bind %s on Discord: %s", g, s)
		}
		if s := h.slackIn(teams[id], "UADA", "bind game="+g+" announcements=<#C0ANN|announcements>"); !strings.Contains(s, "now plays the game "+g) {
			t.Fatalf("bind %s on Slack: %s", g, s)
		}
	}

	ambiguous := func(where, got string) {
		t.Helper()
		if !strings.Contains(got, `2 players of this game are named "Sam"`) {
			t.Errorf("%s, naming Sam: %s; want the refusal naming both Sams", where, got)
		}
	}
	unknown := func(where, got string) {
		t.Helper()
		if !strings.Contains(got, `No player of this game is named "Zed"`) {
			t.Errorf("%s, naming Zed: %s; want the refusal that no player has the name", where, got)
		}
	}
	resolved := func(where, form, got string, named bool) {
		t.Helper()
		if strings.Contains(got, "No player of this game is named") || strings.Contains(got, "players of this game are named") ||
			strings.Contains(got, "unknown_player") || strings.Contains(got, "ambiguous_player") {
			t.Errorf("%s, naming Grace as %q: %s", where, form, got)
		}
		if named && !strings.Contains(got, "Grace") {
			t.Errorf("%s, naming Grace as %q: %s; the answer does not name her", where, form, got)
		}
	}
	value := func(a game.Arg, v string) any {
		if a.Type == game.FieldPlayers {
			return []string{v}
		}
		return v
	}

	for _, pa := range args {
		base, _ := baseOf(pa.command)
		for _, id := range reg.Rulesets() {
			g, ok := games[id]
			if !ok || !reg.Has(id, pa.command) {
				continue
			}
			c, _ := reg.CommandNamed(pa.command)
			where := fmt.Sprintf("%s %s --%s", g, pa.command, pa.arg.Name)

			// The API.
			api := func(v string) string {
				body := map[string]any{pa.arg.Name: value(pa.arg, v)}
				for k, s := range base {
					a, _ := c.Arg(k)
					body[k] = jsonValue(a, s)
				}
				_, out := h.api("POST", "/v1/games/"+g+"/commands/"+pa.command, "discord:1", body)
				return fmt.Sprint(out)
			}
			ambiguous("API "+where, api("Sam"))
			unknown("API "+where, api("Zed"))
			for _, form := range []string{"Grace", "<@2>", "<@!2>", "discord:2"} {
				got := api(form)
				resolved("API "+where, form, got, false)
				if playerArgAnswers[pa.command] && !strings.Contains(got, "player:discord:2") {
					t.Errorf("API %s, naming Grace as %q: %s; the answer is not about discord:2", where, form, got)
				}
			}

			// The CLI: the player by position where it is positional.
			cli := func(v string) string {
				argv := []string{"play", "--game", g, "--as", "discord:1", pa.command}
				if pa.arg.Positional {
					argv = append(argv, v)
				} else {
					argv = append(argv, "--"+pa.arg.Name+"="+v)
				}
				keys := make([]string, 0, len(base))
				for k := range base {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					argv = append(argv, "--"+k+"="+base[k])
				}
				r := h.cli(argv...)
				return r.stdout + r.stderr
			}
			ambiguous("CLI "+where, cli("Sam"))
			unknown("CLI "+where, cli("Zed"))
			for _, form := range []string{"Grace", "<@2>", "<@!2>", "discord:2"} {
				resolved("CLI "+where, form, cli(form), playerArgAnswers[pa.command])
			}

			// Chat: the command that runs it and its option for the player.
			cmd, opt, ok := chatPlayerOption(reg, id, pa)
			if !ok {
				t.Errorf("%s: no chat command runs %s with an option for %s", where, pa.command, pa.arg.Name)
				continue
			}
			chatBase := maps.Clone(base)
			if k, ok := strings.CutPrefix(pa.command, "match-"); ok {
				chatBase["kind"] = k // chat's one /match move takes the move's kind
				if k == "bet" {
					// /match move has no bet (a raise bets; a bet at the
					// level is the board's "match pick" menu, which names
					// no player): its players are /match move's, as a raise's.
					chatBase["kind"] = "raise"
				}
			}
			slack := func(v string) string {
				text := cmd.Name + " " + opt.Name + "=" + strconv.Quote(v)
				for k, s := range chatBase {
					if o, ok := cmd.Option(k); ok {
						text += " " + o.Name + "=" + s
					}
				}
				return strings.ReplaceAll(h.slackIn(teamOf(id), "UADA", text), `\"`, `"`)
			}
			ambiguous("Slack "+where, slack("Sam"))
			unknown("Slack "+where, slack("Zed"))
			for _, form := range []string{"Grace S", "<@UGRACE>", "<@UGRACE|grace>", "slack:UGRACE"} {
				got := slack(form)
				resolved("Slack "+where, form, got, false)
				if playerArgAnswers[pa.command] && !strings.Contains(got, "Grace S") {
					t.Errorf("Slack %s, naming Grace S as %q: %s", where, form, got)
				}
			}
			discordRun := func(v string, typ int) string {
				opts := []map[string]any{{"name": opt.Name, "type": typ, "value": v}}
				for k, s := range chatBase {
					if o, ok := cmd.Option(k); ok {
						var val any = s
						otyp := discord.OptString
						if o.Type == chat.Integer {
							otyp, val = discord.OptInteger, num(s)
						}
						opts = append(opts, map[string]any{"name": o.Name, "type": otyp, "value": val})
					}
				}
				path := strings.Fields(cmd.Name)
				if len(path) == 2 {
					opts = []map[string]any{{"name": path[1], "type": discord.OptSubCommand, "options": opts}}
				}
				return h.slashIn(guildOf(id), "1", path[0], opts...)
			}
			if opt.Type == chat.User {
				// Discord's user option is the platform's id: a mention.
				resolved("Discord "+where, "user 2", discordRun("2", discord.OptUser), playerArgAnswers[pa.command])
			} else {
				ambiguous("Discord "+where, discordRun("Sam", discord.OptString))
				unknown("Discord "+where, discordRun("Zed", discord.OptString))
				for _, form := range []string{"Grace", "<@2>", "<@!2>"} {
					resolved("Discord "+where, form, discordRun(form, discord.OptString), false)
				}
			}
		}
	}
}

func guildOf(id string) string {
	return map[string]string{"gilded-hall": "960", "obelisk": "961", "turns": "962"}[id]
}

func teamOf(id string) string {
	return map[string]string{"gilded-hall": "TPA0", "obelisk": "TPA1", "turns": "TPA2"}[id]
}

// jsonValue is text as the JSON value of argument a.
func jsonValue(a game.Arg, text string) any {
	switch a.Type {
	case game.FieldInteger:
		return num(text)
	case game.FieldJSON:
		return jsonRaw(text)
	}
	return text
}

type jsonRaw string

func (r jsonRaw) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// chatPlayerOption is the chat command of ruleset id that runs pa's
// command, and its option naming pa's player: the option of the argument's
// name, or the command's one player option.
func chatPlayerOption(reg *game.Registry, id string, pa playerArg) (chat.Command, chat.Option, bool) {
	for _, c := range chat.CommandsFor(reg, id) {
		if c.Kind != chat.Slash || c.Hidden || !slices.Contains(c.Runs, pa.command) {
			continue
		}
		if o, ok := c.Option(pa.arg.Name); ok {
			return c, o, true
		}
		// A chat form of its own names its first player "player" (duel
		// request's player, player2...; a match move's player, player2).
		if o, ok := c.Option("player"); ok && o.Type == chat.User {
			return c, o, true
		}
		var users []chat.Option
		for _, o := range c.Options {
			if o.Type == chat.User {
				users = append(users, o)
			}
		}
		if len(users) == 1 {
			return c, users[0], true
		}
	}
	return chat.Command{}, chat.Option{}, false
}

func num(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
