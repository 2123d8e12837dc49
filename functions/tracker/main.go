// Command tracker is the public game tracker as its own Lambda (issue 7):
// API Gateway sends it the tracker's pages (GET /tracker/...) and the card
// images (GET /cards/{file}); template.yaml TrackerFunction lists the
// routes. Pages need no API key: they show only public state, read through
// the game service's views when requested (docs/tracker.md).
//
// It only wires: environment -> DynamoDB store -> game service (with the
// Discord reaction reader when DISCORD_BOT_TOKEN is set, so open proposals'
// live counts read Discord) -> tracker handler (with the card images of
// the default ruleset's card table) -> API Gateway adapter. It never
// writes.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/cardart"
	"croupier/internal/config"
	"croupier/internal/lambdahttp"
	"croupier/internal/ruleset"
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
	rs, err := ruleset.Load(ruleset.Default)
	if err != nil {
		config.Fatal(err)
	}
	cards, err := cardart.NewHandler(rs.Cards)
	if err != nil {
		config.Fatal(err)
	}
	lambda.Start(lambdahttp.New(tracker.New(svc, tracker.Options{Cards: cards, Logger: log}), log))
}
