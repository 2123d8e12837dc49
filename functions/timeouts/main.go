// Command timeouts is the Lambda EventBridge Scheduler invokes every minute
// (template.yaml TimeoutsFunction) so that Exoptosis deadlines are met within
// a minute: a turn nobody took for 24 hours is skipped, an expired choice is
// made at random (RULINGS X7), and a battle whose phase ended is set up
// (X10). It runs the game service's due work (RunDue), like phase-end: every
// scheduled function runs all kinds of due work, which differ only in how
// often they are looked for, so no kind can starve behind another.
//
// The payload is only logged: each timer is applied as of its own deadline
// under an idempotency key naming the match and the deadline (RULINGS T4),
// so a late, retried, duplicated or concurrent invocation acts once.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/game"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	st, err := cfg.Store(context.Background())
	if err != nil {
		config.Fatal(err)
	}
	svc := game.New(st, clock.Real{}, game.WithLogger(log))
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

// handler adapts RunDue to the Lambda signature. Work that failed stays
// due; the invocation then fails so the Scheduler's RetryPolicy retries it
// (the next minute's run would too).
func handler(svc *game.Service, log *slog.Logger) func(context.Context, json.RawMessage) (game.DueReport, error) {
	return func(ctx context.Context, payload json.RawMessage) (game.DueReport, error) {
		var t trigger
		if err := json.Unmarshal(payload, &t); err != nil {
			log.WarnContext(ctx, "payload not recognised; running due work anyway", "err", err.Error())
		}
		log.InfoContext(ctx, "timeouts triggered", "schedule", t.Schedule, "scheduled_time", t.ScheduledTime,
			"attempt", t.Attempt, "detail_type", t.DetailType, "event_time", t.Time)
		rep, err := svc.RunDue(ctx)
		if err != nil {
			log.ErrorContext(ctx, "due work failed", "err", err.Error(), "done", rep.Done)
			return rep, fmt.Errorf("timeouts: %w", err)
		}
		if len(rep.Failed) > 0 {
			log.ErrorContext(ctx, "some due work failed; it stays due", "failed", rep.Failed, "done", rep.Done)
			return rep, fmt.Errorf("timeouts: %d piece(s) of due work failed and stay due: %v", len(rep.Failed), rep.Failed)
		}
		log.InfoContext(ctx, "due work done", "done", rep.Done, "transitions", rep.Transitions, "expired", rep.Expired)
		return rep, nil
	}
}
