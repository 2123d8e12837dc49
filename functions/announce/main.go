// Command announce is the Lambda the project bus's rule invokes with every
// event Croupier publishes (source "croupier", detail {game, entry}: see
// internal/publish). It posts the entry's announcement to each bound
// Discord server's announcement channel (internal/announce), once per
// entry however often the event is delivered.
//
// Environment: TABLE_NAME, DISCORD_BOT_TOKEN (without it the announcement
// is only logged), DISCORD_API_BASE (tests point it at a loopback server).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/announce"
	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/publish"
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
	an := &announce.Announcer{Store: st, Bindings: svc, Clock: clock.Real{}, Log: log, Discord: poster(os.Getenv, log)}
	lambda.Start(handler(an, log))
}

// poster is Discord's REST API with the bot token, or the log without one.
func poster(getenv func(string) string, log *slog.Logger) announce.Poster {
	token := strings.TrimSpace(getenv("DISCORD_BOT_TOKEN"))
	if token == "" {
		log.Warn("DISCORD_BOT_TOKEN is empty: announcements are logged, not posted")
		return announce.LogPoster{Log: log}
	}
	return &announce.Discord{BaseURL: strings.TrimSpace(getenv("DISCORD_API_BASE")), Token: token, UserAgent: "DiscordBot (https://github.com/croupier/croupier, " + config.Version() + ")"}
}

// handler announces one event. An error makes Lambda retry the
// asynchronous invocation: a transient Discord failure, or another delivery
// of the same entry still holding its lease. An event that is not
// Croupier's is logged and dropped (a retry cannot fix it).
func handler(an *announce.Announcer, log *slog.Logger) func(context.Context, events.EventBridgeEvent) (announce.Report, error) {
	return func(ctx context.Context, ev events.EventBridgeEvent) (announce.Report, error) {
		if ev.Source != publish.Source {
			log.WarnContext(ctx, "not a Croupier event; ignored", "source", ev.Source, "detail_type", ev.DetailType, "id", ev.ID)
			return announce.Report{}, nil
		}
		m, err := publish.Decode(ev.Detail)
		if err != nil {
			log.ErrorContext(ctx, "undecodable event; ignored", "err", err.Error(), "id", ev.ID, "detail", truncate(ev.Detail))
			return announce.Report{}, nil
		}
		rep, err := an.Announce(ctx, m)
		if errors.Is(err, announce.ErrInProgress) {
			log.InfoContext(ctx, "another delivery is announcing this entry; retry later", "game", m.Game, "entry", m.Entry.ID)
			return rep, err
		}
		if err != nil {
			return rep, fmt.Errorf("announce: %w", err)
		}
		return rep, nil
	}
}

func truncate(b json.RawMessage) string {
	if len(b) > 500 {
		return string(b[:500]) + "…"
	}
	return string(b)
}
