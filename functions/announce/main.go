// Command announce is the Lambda the table's stream invokes (an event
// source mapping that passes only created log entries, SK beginning LOG#)
// with batches of committed entries, in commit order. It posts each
// entry's announcement to every bound Discord server's announcement channel
// (internal/announce), once per entry however often a record is delivered,
// and reports the records it could not post as batch item failures, so
// Lambda retries them.
//
// Environment: TABLE_NAME, DISCORD_BOT_TOKEN (without it the announcement
// is only logged), DISCORD_API_BASE (tests point it at a loopback server).
package main

import (
	"context"
	"log/slog"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/announce"
	"croupier/internal/clock"
	"croupier/internal/config"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	svc, st, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	an := &announce.Announcer{Store: st, Bindings: svc, Narrator: svc, Clock: clock.Real{}, Log: log, Discord: poster(os.Getenv, log), Slack: slackPoster(os.Getenv)}
	lambda.Start(an.HandleStream)
}

// poster is Discord's REST API with the bot token, or the log without one.
func poster(getenv func(string) string, log *slog.Logger) announce.Poster {
	token := strings.TrimSpace(getenv(config.EnvDiscordBotToken))
	if token == "" {
		log.Warn("DISCORD_BOT_TOKEN is empty: announcements are logged, not posted")
		return announce.LogPoster{Log: log}
	}
	return &announce.Discord{BaseURL: strings.TrimSpace(getenv(config.EnvDiscordAPIBase)), Token: token, UserAgent: "DiscordBot (https://github.com/croupier/croupier, " + config.Version() + ")"}
}

// slackPoster is Slack's Web API with the bot token; without one, Slack
// bindings are not announced.
func slackPoster(getenv func(string) string) announce.Poster {
	token := strings.TrimSpace(getenv(config.EnvSlackBotToken))
	if token == "" {
		return nil
	}
	return &announce.Slack{BaseURL: strings.TrimSpace(getenv(config.EnvSlackAPIBase)), Token: token}
}
