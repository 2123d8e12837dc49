// Command tracker is the public game tracker as its own Lambda (issue 7):
// API Gateway sends it the tracker's pages (GET /tracker/...);
// template.yaml TrackerFunction lists the routes. Pages need no API key:
// they show only public state, read through the game service's views when
// requested (docs/tracker.md). The card images the pages show are the
// cards function's (functions/cards).
//
// It only wires: environment -> DynamoDB store -> game service (with the
// Discord reaction reader when DISCORD_BOT_TOKEN is set, so open proposals'
// live counts read Discord) -> tracker handler -> API Gateway adapter. It
// never writes.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/lambdahttp"
	"croupier/internal/tracker"
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
	lambda.Start(lambdahttp.New(tracker.New(svc, tracker.Options{Logger: log}), log))
}
