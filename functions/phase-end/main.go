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
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/lambdadue"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	lambda.Start(lambdadue.Handler("phase-end", svc, log))
}
