// Package lambdaapi is the main of every function that serves the JSON API
// (actions, purchases, duels, votes). They run the same internal/httpapi
// handler and differ only in which routes API Gateway sends them
// (template.yaml), so a request means the same thing whichever function
// answers it, while each keeps its own logs, alarms and concurrency.
package lambdaapi

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/httpapi"
	"croupier/internal/lambdahttp"
)

// Main wires environment -> DynamoDB store -> game service -> JSON API ->
// API Gateway adapter and serves. name is the function's, for its logs.
func Main(name string) {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr).With("function", name)
	if len(cfg.APIKeys) == 0 {
		log.Warn(config.EnvAPIKeys + " is empty: every authenticated route will answer invalid_api_key")
	}
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	api := httpapi.New(svc, httpapi.Config{Keys: cfg.APIKeys, Logger: log, Version: config.Version()})
	lambda.Start(lambdahttp.New(api, log))
}
