package config

import (
	"context"
	"log/slog"
	"strings"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/reactions"
	"croupier/internal/rulesets"
	"croupier/internal/store/dynamo"
)

// Environment of the game service's optional parts.
const (
	// EnvDiscordBotToken lets votes read reactions from Discord's REST API
	// at their deadlines (internal/reactions.Discord). Unset: votes read
	// the reactions bridges pushed.
	EnvDiscordBotToken = "DISCORD_BOT_TOKEN"
	// EnvDiscordAPIBase overrides Discord's API root (tests).
	EnvDiscordAPIBase = "DISCORD_API_BASE"
	// EnvSlackBotToken lets the announcer post to bound Slack channels.
	EnvSlackBotToken = "SLACK_BOT_TOKEN"
	// EnvSlackAPIBase overrides Slack's Web API root (tests).
	EnvSlackAPIBase = "SLACK_API_BASE"
	// EnvSlackResponseURLPrefix replaces https://hooks.slack.com/ as the
	// only prefix an interaction's response_url may have (tests: a
	// loopback server). Never set it in a deployment.
	EnvSlackResponseURLPrefix = "SLACK_RESPONSE_URL_PREFIX"
)

// Service builds the game service every function runs over: the DynamoDB
// store, the real clock, the logger, and the Discord reaction reader when
// DISCORD_BOT_TOKEN is set. One place, so no function can forget a part.
// Nothing is published beside a commit: announcements follow the table's
// stream (functions/announce, internal/publish).
func (c Config) Service(ctx context.Context, getenv func(string) string, log *slog.Logger) (*game.Service, *dynamo.Store, error) {
	st, err := c.Store(ctx)
	if err != nil {
		return nil, nil, err
	}
	opts := []game.Option{game.WithLogger(log)}
	if token := strings.TrimSpace(getenv(EnvDiscordBotToken)); token != "" {
		opts = append(opts, game.WithReactions(&reactions.Discord{Token: token, BaseURL: strings.TrimSpace(getenv(EnvDiscordAPIBase)),
			UserAgent: "DiscordBot (https://github.com/croupier/croupier, " + Version() + ")"}))
	}
	return rulesets.New(st, clock.Real{}, opts...), st, nil
}

// EnvPublicURL is where chat platforms reach the deployment (the API's
// https URL): replies about cards then show their pictures from /cards/.
const EnvPublicURL = "PUBLIC_URL"
