// Command actions is the Lambda behind the HTTP API (API Gateway HTTP API,
// payload format 2.0): every route of internal/httpapi (join, leave, rolls,
// status...). It only wires: environment -> DynamoDB store -> game service ->
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
		log.Warn(config.EnvAPIKeys + " is empty: every authenticated route will answer invalid_api_key")
	}
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	api := httpapi.New(svc, httpapi.Config{APIKeys: cfg.APIKeys, Logger: log, Version: config.Version()})
	lambda.Start(lambdahttp.New(api, log))
}
