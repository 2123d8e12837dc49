// Command phase-end is the Lambda EventBridge Scheduler invokes at every
// phase boundary (template.yaml: ScheduleV2 events). It runs the game
// service's due work (RunDue) and returns its report as JSON.
//
// The payload's time is deliberately ignored: each piece of due work is
// applied as of its own due moment and is a compare-and-set on the state it
// expects (RULINGS T4), so a late, retried or duplicated invocation is
// harmless, and any payload (the Scheduler input of template.yaml, an
// EventBridge scheduled event, {}) triggers the same run.
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
	// The Input template.yaml gives the Scheduler.
	Schedule      string `json:"schedule"`
	ScheduledTime string `json:"scheduled_time"`
	Attempt       string `json:"attempt"`
	// An EventBridge scheduled event (sam local generate-event cloudwatch scheduled-event).
	DetailType string `json:"detail-type"`
	Time       string `json:"time"`
}

// handler adapts RunDue to the Lambda signature. Work that failed stays due;
// the invocation then fails so the Scheduler's RetryPolicy runs it again
// rather than leaving it until the next boundary.
func handler(svc *game.Service, log *slog.Logger) func(context.Context, json.RawMessage) (game.DueReport, error) {
	return func(ctx context.Context, payload json.RawMessage) (game.DueReport, error) {
		var t trigger
		if err := json.Unmarshal(payload, &t); err != nil {
			log.WarnContext(ctx, "payload not recognised; running due work anyway", "err", err.Error())
		}
		log.InfoContext(ctx, "phase-end triggered", "schedule", t.Schedule, "scheduled_time", t.ScheduledTime,
			"attempt", t.Attempt, "detail_type", t.DetailType, "event_time", t.Time)
		rep, err := svc.RunDue(ctx)
		if err != nil {
			log.ErrorContext(ctx, "due work failed", "err", err.Error(), "transitions", rep.Transitions)
			return rep, fmt.Errorf("phase-end: %w", err)
		}
		if len(rep.Failed) > 0 {
			log.ErrorContext(ctx, "some due work failed; it stays due", "failed", rep.Failed, "transitions", rep.Transitions)
			return rep, fmt.Errorf("phase-end: %d piece(s) of due work failed and stay due: %v", len(rep.Failed), rep.Failed)
		}
		log.InfoContext(ctx, "due work done", "transitions", rep.Transitions)
		return rep, nil
	}
}
