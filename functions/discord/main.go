// Command discord is the Discord interactions endpoint as a Lambda (API
// Gateway HTTP API route POST /discord/interactions, or the function's own
// Function URL, which delivers the same event: template.yaml
// DiscordFunction, DiscordEndpoint). It only wires: environment -> DynamoDB store -> game
// service -> neutral chat router -> Discord handler -> API Gateway adapter.
//
// The same function also receives its own asynchronous invocations
// (discord.DeferredEvent): a command that outlives Discord's 3 seconds is
// answered "deferred" and finished by such an invocation, because Lambda
// freezes the process as soon as the response is returned.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/awsenv"
	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/clock"
	"croupier/internal/config"
	"croupier/internal/config/chatwiring"
	"croupier/internal/lambdahttp"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	denv, err := discord.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	ctx := context.Background()
	svc, st, err := cfg.Service(ctx, os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	router := chatwiring.Router(svc, os.Getenv, log)
	h := &discord.Handler{
		Router:        router,
		PublicKey:     denv.PublicKey,
		ApplicationID: denv.ApplicationID,
		Cache:         &chat.ReplyCache{Store: st, Clock: clock.Real{}},
		API:           &discord.Client{Base: denv.APIBase, Token: denv.BotToken},
		Clock:         clock.Real{},
		Window:        denv.Window,
		Log:           log,
	}
	// Asynchronous self-invocation finishes deferred commands. Loading the
	// AWS config reads the environment only (no network at cold start).
	if name := os.Getenv("AWS_LAMBDA_FUNCTION_NAME"); name != "" {
		awsCfg, err := awsenv.Config(os.Getenv)
		if err != nil {
			config.Fatal(err)
		}
		h.Deferrer = discord.LambdaDeferrer{Function: name, Config: awsCfg}
	}
	mux := http.NewServeMux()
	mux.Handle("/discord/interactions", h)
	serve := lambdahttp.New(mux, log)

	lambda.Start(func(ctx context.Context, payload json.RawMessage) (any, error) {
		if body, ok := discord.IsDeferred(payload); ok {
			// A failure is returned so Lambda retries the asynchronous
			// invocation; finishing twice is harmless.
			return nil, h.Finish(ctx, body)
		}
		var ev events.APIGatewayV2HTTPRequest
		if err := json.Unmarshal(payload, &ev); err != nil {
			return nil, fmt.Errorf("discord: the payload is neither an API Gateway event nor a deferred interaction: %w", err)
		}
		return serve(ctx, ev)
	})
}
