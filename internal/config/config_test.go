package config_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"croupier/internal/config"
	"croupier/internal/lambdahttp"
	"croupier/internal/store"
	"croupier/internal/testenv"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		want    config.Config
		wantErr []string // substrings of the error, each naming a variable
	}{
		{"minimal: table only",
			map[string]string{"TABLE_NAME": "croupier-GameTable-1X2Y"},
			config.Config{Table: "croupier-GameTable-1X2Y"}, nil},
		{"everything",
			map[string]string{"TABLE_NAME": "games", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000",
				"API_KEYS": " dev-key as=* , , other-key as=slack: games=hall ", "BRIDGE_SECRETS": "relay as=matrix:", "LOG_LEVEL": "DEBUG"},
			config.Config{Table: "games", DynamoEndpoint: "http://127.0.0.1:8000", LogLevel: slog.LevelDebug}, nil},
		{"table ARN",
			map[string]string{"TABLE_NAME": "arn:aws:dynamodb:eu-west-1:123456789012:table/games", "LOG_LEVEL": "warn"},
			config.Config{Table: "arn:aws:dynamodb:eu-west-1:123456789012:table/games", LogLevel: slog.LevelWarn}, nil},
		{"missing table", map[string]string{}, config.Config{}, []string{"TABLE_NAME is not set"}},
		{"bad table name", map[string]string{"TABLE_NAME": "a b"}, config.Config{}, []string{`TABLE_NAME="a b"`}},
		{"every problem at once",
			map[string]string{"DYNAMODB_ENDPOINT": "localhost:8000", "API_KEYS": "good as=*,mykey xyzzy as=*", "BRIDGE_SECRETS": "unscoped-secret", "LOG_LEVEL": "loud"},
			config.Config{}, []string{"TABLE_NAME is not set", `DYNAMODB_ENDPOINT="localhost:8000"`, "API_KEYS: entry 2: word 2 is not as=",
				"BRIDGE_SECRETS: entry 1 names no scope", `LOG_LEVEL="loud"`}},
		// A key without a scope is not read as "anyone": that must be said (as=*).
		{"unscoped key", map[string]string{"TABLE_NAME": "games", "API_KEYS": "old-style-key"}, config.Config{},
			[]string{"API_KEYS: entry 1 names no scope: append as=<identities> (as=* to act for anyone"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := config.FromEnv(env(c.env))
			if len(c.wantErr) > 0 {
				if err == nil {
					t.Fatalf("no error, want one mentioning %q", c.wantErr)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
				for _, secret := range []string{"mykey", "xyzzy", "unscoped-secret", "old-style-key"} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("error %q leaks a key or secret", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Table != c.want.Table || got.DynamoEndpoint != c.want.DynamoEndpoint || got.LogLevel != c.want.LogLevel {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if c.env["API_KEYS"] != "" {
				dev, devOK := got.APIKeys.Find("dev-key")
				other, otherOK := got.APIKeys.Find("other-key")
				if len(got.APIKeys) != 2 || !devOK || !otherOK || dev.Scope.String() != "as=*" || other.Scope.String() != "as=slack:* games=hall" {
					t.Errorf("API keys %+v, want dev-key as=* and other-key as=slack: games=hall", got.APIKeys)
				}
			}
			if c.env["BRIDGE_SECRETS"] != "" && (len(got.BridgeSecrets) != 1 || string(got.BridgeSecrets[0].Value) != "relay" || !got.BridgeSecrets[0].Scope.Platform("matrix")) {
				t.Errorf("bridge secrets %+v, want relay as=matrix:", got.BridgeSecrets)
			}
		})
	}
}

func TestLoggerAddsRequestIDsAndHonoursLevel(t *testing.T) {
	var buf bytes.Buffer
	log := config.Config{LogLevel: slog.LevelInfo}.Logger(&buf)
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "aws-1"})
	ctx = lambdahttp.WithRequestID(ctx, "api-2")
	log.DebugContext(ctx, "hidden")
	log.With("game", "hall").InfoContext(ctx, "shown")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("want only the info line, got %q", buf.String())
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatalf("not JSON: %q", lines[0])
	}
	for k, v := range map[string]string{"msg": "shown", "game": "hall", "aws_request_id": "aws-1", "request_id": "api-2"} {
		if rec[k] != v {
			t.Errorf("%s = %v, want %q (line %s)", k, rec[k], v, lines[0])
		}
	}
}

// TestStoreReachesTheConfiguredEndpoint wires the store exactly as a
// function does and reads through it from DynamoDB Local.
func TestStoreReachesTheConfiguredEndpoint(t *testing.T) {
	_, table := testenv.DynamoTable(t, "config")
	cfg, err := config.FromEnv(env(map[string]string{"TABLE_NAME": table, "DYNAMODB_ENDPOINT": testenv.DynamoEndpoint(t)}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := cfg.Store(ctx)
	if err != nil {
		t.Fatal(err)
	}
	it, err := st.Get(ctx, store.Key{PK: "GAME#none", SK: "META"})
	if err != nil {
		t.Fatalf("Get through the configured store: %v", err)
	}
	if it.Exists() {
		t.Errorf("fresh table has %v", it.Key)
	}
}
