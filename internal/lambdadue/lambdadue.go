// Package lambdadue is the handler of every scheduled function (phase-end,
// timeouts, tally, judge-election): they differ only in their schedule. Each
// runs all due work (game.Service.RunDue): every piece is applied as of its
// own due moment and is idempotent (RULINGS T4), so a late, retried or
// duplicated invocation, or two functions running at once, give the same
// single result.
package lambdadue

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/game"
)

// Main is the whole main function of the scheduled function called name:
// it builds the service from the environment (config.FromEnv) and serves
// Handler to Lambda. A bad configuration ends the process (config.Fatal), so
// the failure shows in the function's log at its first invocation.
func Main(name string) {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	lambda.Start(Handler(name, svc, log))
}

// Trigger is what a payload may say about why we run; it is only logged.
type Trigger struct {
	// The Input template.yaml gives the Scheduler.
	Schedule      string `json:"schedule"`
	ScheduledTime string `json:"scheduled_time"`
	Attempt       string `json:"attempt"`
	// An EventBridge scheduled event (sam local generate-event cloudwatch scheduled-event).
	DetailType string `json:"detail-type"`
	Time       string `json:"time"`
}

// Handler adapts RunDue to the Lambda signature. Work that failed (e.g.
// Discord could not be read) stays due; the invocation then fails so the
// Scheduler's RetryPolicy runs it again.
func Handler(name string, svc *game.Service, log *slog.Logger) func(context.Context, json.RawMessage) (game.DueReport, error) {
	return func(ctx context.Context, payload json.RawMessage) (game.DueReport, error) {
		var t Trigger
		if err := json.Unmarshal(payload, &t); err != nil {
			log.WarnContext(ctx, "payload not recognised; running due work anyway", "err", err.Error())
		}
		log.InfoContext(ctx, name+" triggered", "schedule", t.Schedule, "scheduled_time", t.ScheduledTime,
			"attempt", t.Attempt, "detail_type", t.DetailType, "event_time", t.Time)
		rep, err := svc.RunDue(ctx)
		if err != nil {
			log.ErrorContext(ctx, "due work failed", "err", err.Error(), "transitions", rep.Transitions, "done", rep.Done)
			return rep, fmt.Errorf("%s: %w", name, err)
		}
		if len(rep.Failed) > 0 {
			log.ErrorContext(ctx, "some due work failed; it stays due", "failed", rep.Failed, "transitions", rep.Transitions, "done", rep.Done)
			return rep, fmt.Errorf("%s: %d piece(s) of due work failed and stay due: %v", name, len(rep.Failed), rep.Failed)
		}
		log.InfoContext(ctx, "due work done", "transitions", rep.Transitions, "expired", rep.Expired, "done", rep.Done)
		return rep, nil
	}
}
