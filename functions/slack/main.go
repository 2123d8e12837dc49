// Command slack is the Lambda behind the chat webhooks other than
// Discord's, on the HTTP API (payload format 2.0):
//
//	POST /slack/commands, POST /slack/interactions  Slack (internal/chat/slack)
//	POST /bridge/v1/commands, POST /bridge/v1/events  the signed bridge (internal/chat/bridge)
//
// Both verify an HMAC of the raw body with their own secret and run commands
// through internal/chat's table. Their log entries are announced from the
// table's stream (functions/announce).
//
// Environment: TABLE_NAME, SLACK_SIGNING_SECRET, BRIDGE_SECRETS (each
// secret with the identities and games it may act for, internal/credential;
// current and previous during a rotation), SLACK_BOT_TOKEN (chat.update of
// the shared messages buttons are pressed on; SLACK_API_BASE moves its
// root, SLACK_RESPONSE_URL_PREFIX the accepted response_url prefix, both
// for tests only). Without a secret its routes
// answer 401 to everything.
package main

import (
	"context"
	"net/http"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/chat"
	"croupier/internal/chat/bridge"
	"croupier/internal/chat/slack"
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
	log := cfg.Logger(os.Stderr)
	ctx := context.Background()
	svc, st, err := cfg.Service(ctx, os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	router := chatwiring.Router(svc, os.Getenv, log)
	cache := &chat.ReplyCache{Store: st, Clock: clock.Real{}}

	secret := strings.TrimSpace(os.Getenv("SLACK_SIGNING_SECRET"))
	if secret == "" {
		log.Warn("SLACK_SIGNING_SECRET is empty: every Slack request will be refused (401)")
	}
	if len(cfg.BridgeSecrets) == 0 {
		log.Warn(config.EnvBridgeSecrets + " is empty: every bridge request will be refused (401)")
	}
	mux := http.NewServeMux()
	// The bot token updates the shared messages buttons are pressed on
	// (a proposal's tally, a Gathering's contributions: chat.update).
	api := &slack.API{Base: strings.TrimSpace(os.Getenv(config.EnvSlackAPIBase)), Token: strings.TrimSpace(os.Getenv(config.EnvSlackBotToken))}
	if api.Token == "" {
		log.Warn(config.EnvSlackBotToken + " is empty: shared messages keep their first state when buttons are pressed on them")
	}
	(&slack.Handler{Router: router, Cache: cache, Secret: []byte(secret), Clock: clock.Real{}, Log: log, API: api,
		ResponseURLPrefix: strings.TrimSpace(os.Getenv(config.EnvSlackResponseURLPrefix))}).Routes(mux)
	(&bridge.Handler{Router: router, Game: svc, Cache: cache, Secrets: cfg.BridgeSecrets, Clock: clock.Real{}, Log: log}).Routes(mux)
	lambda.Start(lambdahttp.New(mux, log))
}
