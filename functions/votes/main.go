// Command votes is governance as its own Lambda (issue 5): API Gateway
// sends it the governance routes of internal/httpapi — proposals, requests
// for justice, rulings, votes of confidence, the Judge's office,
// candidacies, and the reactions and message events bridges push
// (template.yaml VotesFunction lists them); every other route still goes to
// the actions function through $default. The handler is the same
// internal/httpapi, so a request means the same whichever function answers.
//
// It only wires: environment -> DynamoDB store -> game service (with the
// Discord reaction reader when DISCORD_BOT_TOKEN is set, so open proposals'
// live counts read Discord; otherwise the pushed reactions) -> JSON API ->
// API Gateway adapter. Commands publish their log entries to the project
// bus when EVENT_BUS_NAME is set, so proposals and rulings are announced.
package main

import (
	"context"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/game"
	"croupier/internal/httpapi"
	"croupier/internal/lambdahttp"
	"croupier/internal/publish"
	"croupier/internal/reactions"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	if len(cfg.APIKeys) == 0 {
		log.Warn(config.EnvAPIKeys + " is empty: every governance request will answer invalid_api_key")
	}
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
	api := httpapi.New(svc, httpapi.Config{APIKeys: cfg.APIKeys, Logger: log, Version: config.Version()})
	lambda.Start(lambdahttp.New(api, log))
}
