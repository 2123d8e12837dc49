// Command judge-election is the Lambda EventBridge Scheduler invokes every
// Monday at 00:00 UTC, when the UTC week ends (template.yaml
// JudgeElectionFunction). It runs the game service's due work (RunDue) and
// returns its report as JSON: each game with candidacies that week holds its
// Judge election (RULINGS G5). Elections are ordinary due work, so the
// minute tally would hold them too; this schedule keeps the weekly event on
// time on its own, should the tally schedule be disabled.
//
// As for phase-end, the payload is only logged: each piece of due work is
// applied as of its own due moment and is idempotent (RULINGS T4), so a
// late, retried or duplicated invocation gives the same single result as an
// on-time one.
//
// Reactions: with DISCORD_BOT_TOKEN set, votes read each message's 👍 and 👎
// from Discord's REST API at the deadline (internal/reactions.Discord, API
// root DISCORD_API_BASE or Discord's); without it they read the reactions
// bridges pushed, as they were at the deadline. Results are log entries
// (proposal_adopted, ruling_overturned, judge_elected...), published to the
// project bus when EVENT_BUS_NAME is set, for announcement.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/game"
	"croupier/internal/publish"
	"croupier/internal/reactions"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	ctx := context.Background()
	st, err := cfg.Store(ctx)
	if err != nil {
		config.Fatal(err)
	}
	opts := []game.Option{game.WithLogger(log)}
	if token := strings.TrimSpace(os.Getenv("DISCORD_BOT_TOKEN")); token != "" {
		opts = append(opts, game.WithReactions(&reactions.Discord{Token: token, BaseURL: strings.TrimSpace(os.Getenv("DISCORD_API_BASE")),
			UserAgent: "DiscordBot (https://github.com/croupier/croupier, " + config.Version() + ")"}))
	}
	pub, err := publish.FromEnv(ctx, os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	if pub != nil {
		opts = append(opts, game.WithPublisher(pub))
	}
	svc := game.New(st, clock.Real{}, opts...)
	lambda.Start(handler(svc, log))
}

// trigger is what the payload may say about why we run; it is only logged.
type trigger struct {
	Schedule      string `json:"schedule"`
	ScheduledTime string `json:"scheduled_time"`
	Attempt       string `json:"attempt"`
	DetailType    string `json:"detail-type"`
	Time          string `json:"time"`
}

// handler adapts RunDue to the Lambda signature. Work that failed (e.g.
// Discord could not be read) stays due; the invocation then fails so the
// Scheduler's RetryPolicy runs it again.
func handler(svc *game.Service, log *slog.Logger) func(context.Context, json.RawMessage) (game.DueReport, error) {
	return func(ctx context.Context, payload json.RawMessage) (game.DueReport, error) {
		var t trigger
		if err := json.Unmarshal(payload, &t); err != nil {
			log.WarnContext(ctx, "payload not recognised; running due work anyway", "err", err.Error())
		}
		log.InfoContext(ctx, "judge-election triggered", "schedule", t.Schedule, "scheduled_time", t.ScheduledTime,
			"attempt", t.Attempt, "detail_type", t.DetailType, "event_time", t.Time)
		rep, err := svc.RunDue(ctx)
		if err != nil {
			log.ErrorContext(ctx, "due work failed", "err", err.Error(), "done", rep.Done)
			return rep, fmt.Errorf("judge-election: %w", err)
		}
		if len(rep.Failed) > 0 {
			log.ErrorContext(ctx, "some due work failed; it stays due", "failed", rep.Failed, "done", rep.Done)
			return rep, fmt.Errorf("judge-election: %d piece(s) of due work failed and stay due: %v", len(rep.Failed), rep.Failed)
		}
		log.InfoContext(ctx, "due work done", "transitions", rep.Transitions, "done", rep.Done)
		return rep, nil
	}
}
