// Package config reads a Lambda function's configuration from its
// environment once, at cold start, and builds what every function shares:
// the JSON logger and the DynamoDB store. It makes no network calls: the AWS
// SDK resolves credentials lazily on the first request, so a cold start costs
// only reading the environment.
package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"croupier/internal/credential"
	"croupier/internal/lambdahttp"
	"croupier/internal/store/dynamo"
)

// The environment variables a function reads (template.yaml sets them).
const (
	// EnvTable names the DynamoDB table. Required.
	EnvTable = "TABLE_NAME"
	// EnvEndpoint points the DynamoDB client at another endpoint, such as
	// DynamoDB Local (http://127.0.0.1:8000). Empty means AWS.
	EnvEndpoint = "DYNAMODB_ENDPOINT"
	// EnvAPIKeys holds the bearer keys bridges authenticate with, each
	// with its scope: "sha256:<hex> as=discord: games=hall, ..." (the
	// syntax is internal/credential's; docs/operations.md "Credentials").
	EnvAPIKeys = "API_KEYS"
	// EnvBridgeSecrets holds the signed bridge's HMAC secrets, each with
	// its scope, in the same syntax (the secret itself, not its hash).
	EnvBridgeSecrets = "BRIDGE_SECRETS"
	// EnvLogLevel is debug, info (the default), warn or error.
	EnvLogLevel = "LOG_LEVEL"
)

// Config is a function's configuration.
type Config struct {
	Table          string
	DynamoEndpoint string
	// APIKeys are the accepted keys (their hashes) and scopes.
	APIKeys credential.Keys
	// BridgeSecrets are secrets: never log them.
	BridgeSecrets []credential.Secret
	LogLevel      slog.Level
}

// tableRe is DynamoDB's rule for table names. A table ARN is accepted too.
var tableRe = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,255}$`)

// FromEnv reads the configuration through getenv (os.Getenv in main, a map
// in tests). Every problem is reported at once, each naming its variable.
func FromEnv(getenv func(string) string) (Config, error) {
	var c Config
	var errs []error
	c.Table = strings.TrimSpace(getenv(EnvTable))
	switch {
	case c.Table == "":
		errs = append(errs, fmt.Errorf("%s is not set: it must name the DynamoDB table (template.yaml sets it)", EnvTable))
	case strings.HasPrefix(c.Table, "arn:"):
	case !tableRe.MatchString(c.Table):
		errs = append(errs, fmt.Errorf("%s=%q is not a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -) or table ARN", EnvTable, c.Table))
	}
	if ep := strings.TrimSpace(getenv(EnvEndpoint)); ep != "" {
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s=%q is not an http(s) URL such as http://127.0.0.1:8000", EnvEndpoint, ep))
		}
		c.DynamoEndpoint = ep
	}
	// The errors name entries by position: an entry holds a secret.
	var err error
	if c.APIKeys, err = credential.ParseKeys(getenv(EnvAPIKeys)); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", EnvAPIKeys, err))
	}
	if c.BridgeSecrets, err = credential.ParseSecrets(getenv(EnvBridgeSecrets)); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", EnvBridgeSecrets, err))
	}
	if lv := strings.TrimSpace(getenv(EnvLogLevel)); lv != "" {
		if err := c.LogLevel.UnmarshalText([]byte(lv)); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q is not a log level: use debug, info, warn or error", EnvLogLevel, lv))
		}
	}
	if len(errs) > 0 {
		return Config{}, fmt.Errorf("config: %w", errors.Join(errs...))
	}
	return c, nil
}

// Logger returns a JSON logger at the configured level that adds the
// Lambda request id (aws_request_id) and the API Gateway request id
// (request_id) of the context to every line logged with a context.
func (c Config) Logger(w io.Writer) *slog.Logger {
	return slog.New(requestIDs{slog.NewJSONHandler(w, &slog.HandlerOptions{Level: c.LogLevel})})
}

// Store returns the DynamoDB store of the configured table, on AWS or on the
// configured endpoint.
func (c Config) Store(ctx context.Context) (*dynamo.Store, error) {
	client, err := dynamo.NewClient(ctx, c.DynamoEndpoint)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return dynamo.New(client, c.Table), nil
}

// Version is the build's VCS revision (12 hex digits, "+dirty" when built
// from a modified tree) or "dev" when the build recorded none.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "dev"
	}
	return rev[:min(12, len(rev))] + dirty
}

// Fatal reports a start-up error as one JSON log line on stderr and exits;
// Lambda then reports the init failure with that line in the function's log.
func Fatal(err error) {
	slog.New(slog.NewJSONHandler(os.Stderr, nil)).Error("start-up failed", "err", err.Error())
	os.Exit(1)
}

// requestIDs adds the request ids found in the context to each record.
type requestIDs struct{ slog.Handler }

func (h requestIDs) Handle(ctx context.Context, r slog.Record) error {
	if lc, ok := lambdacontext.FromContext(ctx); ok && lc.AwsRequestID != "" {
		r.AddAttrs(slog.String("aws_request_id", lc.AwsRequestID))
	}
	if id := lambdahttp.RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDs) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDs{h.Handler.WithAttrs(as)}
}

func (h requestIDs) WithGroup(name string) slog.Handler {
	return requestIDs{h.Handler.WithGroup(name)}
}
