package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/client"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets"
)

const discordHelp = `Usage: croupier discord register [--app-id ID] [--token T] [--guild G [--bound | --ruleset R]] [--api-base URL]

Makes the Discord application's commands equal to Croupier's command table
(every slash command and the "Submit as proposal", "Submit as request for
justice", "Stand for Judge" and "Player status" context-menu commands):
the commands of every ruleset, each once (global commands show in every
server, whatever game it plays; one that the bound game's ruleset lacks is
refused "not_in_ruleset"). It lists the registered commands first and
sends one bulk overwrite (PUT /applications/{id}/commands) only when they
differ, so running it again is a no-op. With --guild the commands are registered in that server
only, where changes show at once (global commands may take a while to
appear everywhere). With --ruleset (and --guild) the server gets only the
commands of that ruleset, the one of the game bound there (/bind says
which): the common ones and those of the ruleset's institutions, as the
command catalogue declares them. With --bound (and --guild) the ruleset is
read from the Croupier server (--url, --key): the ruleset of the game the
server is bound to, so that the server offers exactly that game's commands.

  --app-id    the application id (DISCORD_APPLICATION_ID)
  --token     the bot token (DISCORD_BOT_TOKEN; prefer the variable: flags
              show up in the process list and shell history)
  --guild     a server id, for server-only commands
  --ruleset   only that ruleset's commands (gilded-hall, obelisk, turns);
              needs --guild: global commands are every server's
  --bound     only the commands of the ruleset of the game bound to --guild,
              asked of the Croupier server
  --url       that Croupier server (CROUPIER_URL, default ` + defaultURL + `)
  --key       its API key (CROUPIER_KEY)
  --api-base  Discord's REST API base (default https://discord.com/api/v10)

See docs/discord.md for creating the application and binding a game.
`

func (e *env) discord(args []string) error {
	if len(args) == 0 || args[0] != "register" {
		if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(e.stdout, discordHelp)
			return nil
		}
		return usagef("croupier discord register [flags]: the only discord command is register (croupier discord help)")
	}
	fs := e.newFlagSet("discord register", discordHelp)
	appID := fs.String("app-id", e.envOr(discord.EnvApplicationID, ""), "application `id` (DISCORD_APPLICATION_ID)")
	token := fs.String("token", e.envOr(discord.EnvBotToken, ""), "bot `token` (DISCORD_BOT_TOKEN)")
	guild := fs.String("guild", "", "register in this server `id` only")
	rulesetID := fs.String("ruleset", "", "register only this `ruleset`'s commands (with --guild)")
	bound := fs.Bool("bound", false, "register only the commands of the game bound to --guild (asks the Croupier server)")
	serverURL := fs.String("url", e.envOr("CROUPIER_URL", defaultURL), "Croupier server `URL` for --bound (CROUPIER_URL)")
	apiKey := fs.String("key", e.envOr("CROUPIER_KEY", devAPIKey), "Croupier API `key` for --bound (CROUPIER_KEY)")
	base := fs.String("api-base", e.envOr(discord.EnvAPIBase, discord.DefaultAPIBase), "Discord REST API base `URL`")
	timeout := fs.Duration("timeout", time.Minute, "give up after this `duration`")
	rest, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("discord register takes no arguments, got %q", strings.Join(rest, " "))
	}
	if *appID == "" || *token == "" {
		return usagef("discord register needs the application id and the bot token: --app-id and --token, or DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN")
	}
	ctx, cancel := context.WithTimeout(e.ctx, *timeout)
	defer cancel()
	via := ""
	if *bound {
		if *rulesetID != "" {
			return usagef("discord register: --bound reads the ruleset from the binding; leave --ruleset out")
		}
		if *guild == "" {
			return usagef("discord register --bound needs --guild: the server whose binding says the ruleset")
		}
		c, err := client.New(*serverURL, *apiKey, "")
		if err != nil {
			return usagef("%v", err)
		}
		sp, _, err := c.Binding(ctx, "discord", *guild)
		if err != nil {
			var prob *client.Problem
			if errors.As(err, &prob) {
				return fmt.Errorf("reading the binding of server %s from %s: %s [%s]", *guild, *serverURL, prob.Detail, prob.Code)
			}
			return fmt.Errorf("reading the binding of server %s from %s: %w", *guild, *serverURL, err)
		}
		*rulesetID, via = sp.Ruleset, " (the ruleset of the bound game "+sp.Game+")"
	}
	// Global commands show in every server, whatever game it is bound to:
	// they are every ruleset's, each once, and a command the bound game's
	// ruleset lacks is refused not_in_ruleset when it runs.
	table := chat.AllCommands(rulesets.Registry())
	if *rulesetID != "" {
		if *guild == "" {
			return usagef("discord register --ruleset needs --guild: global commands are every server's, whatever game it plays")
		}
		reg := rulesets.Registry()
		if _, ok := reg.Shape(*rulesetID); !ok {
			return usagef("discord register: there is no ruleset %q (%s)", *rulesetID, strings.Join(ruleset.IDs(), ", "))
		}
		table = chat.CommandsFor(reg, *rulesetID)
	}
	cmds, err := discord.AppCommands(table)
	if err != nil {
		return err
	}
	reg, err := discord.Register(ctx, &discord.Client{Base: *base, Token: *token}, *appID, *guild, cmds)
	if err != nil {
		return err
	}
	scope := "globally"
	if *guild != "" {
		scope = "in server " + *guild
	}
	if *rulesetID != "" {
		scope += " for the ruleset " + *rulesetID + via
	}
	if reg.Changed {
		fmt.Fprintf(e.stdout, "registered %d commands %s\n", reg.Commands, scope)
	} else {
		fmt.Fprintf(e.stdout, "the %d commands registered %s are already up to date: nothing sent\n", reg.Commands, scope)
	}
	return nil
}
