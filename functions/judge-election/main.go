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
	lambda.Start(lambdadue.Handler("judge-election", svc, log))
}
