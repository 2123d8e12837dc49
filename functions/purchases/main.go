// Command purchases is the Croupier (RULINGS C6) as its own Lambda: API
// Gateway sends it only POST /v1/games/{game}/purchases and GET
// /v1/games/{game}/shop (template.yaml PurchasesFunction); every other route
// goes to the actions function through $default. A separate function keeps
// the shop's traffic, logs, alarms and concurrency apart from the rest of
// the API; the handler is the same internal/httpapi, so a request means the
// same thing whichever function answers it. It only wires: environment ->
// DynamoDB store -> game service -> JSON API -> API Gateway adapter.
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
		log.Warn(config.EnvAPIKeys + " is empty: every purchase will answer invalid_api_key")
	}
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	api := httpapi.New(svc, httpapi.Config{APIKeys: cfg.APIKeys, Logger: log, Version: config.Version()})
	lambda.Start(lambdahttp.New(api, log))
}
