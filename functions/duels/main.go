// Command duels is Exoptosis (RULINGS X1-X11) as its own Lambda: API Gateway
// sends it only the duel, battle and match routes (template.yaml
// DuelsFunction: explicit HttpApi routes); every other route goes to the
// actions function through $default. Matches are the chattiest traffic of a
// game (a move every few seconds while one runs), so their function keeps
// its own logs, alarms and concurrency; the handler is the same
// internal/httpapi, so a request means the same thing whichever function
// answers it. It only wires: environment -> DynamoDB store -> game service ->
// JSON API -> API Gateway adapter.
package main

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/httpapi"
	"croupier/internal/lambdahttp"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	if len(cfg.APIKeys) == 0 {
		log.Warn(config.EnvAPIKeys + " is empty: every duel and move will answer invalid_api_key")
	}
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	api := httpapi.New(svc, httpapi.Config{APIKeys: cfg.APIKeys, Logger: log, Version: config.Version()})
	lambda.Start(lambdahttp.New(api, log))
}
