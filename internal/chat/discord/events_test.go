package discord_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
)

var updateEvents = flag.Bool("update-events", false, "rewrite events/discord/*.json")

// sampleAt is when the sample events were signed (their timestamp header).
// The e2e test runs the function with a DISCORD_TIMESTAMP_WINDOW that
// reaches back to it.
var sampleAt = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// sampleEvents are the API Gateway events in events/discord, in the order
// internal/e2e invokes them (after the actions events, so the game
// sample-hall exists, discord:1001 is its admin and discord:1002 a player
// holding 30 Vertebrae).
func sampleEvents() map[string]struct {
	body   any
	base64 bool
	url    bool
} {
	member := func(id string) map[string]any {
		return map[string]any{"user": map[string]any{"id": id, "username": "sample" + id}, "nick": "Sample " + id}
	}
	return map[string]struct {
		body   any
		base64 bool
		url    bool
	}{
		"ping.json": {body: map[string]any{"id": "1100000000000000001", "application_id": "1100000000000000000", "type": 1, "token": "sample-ping-token", "version": 1}},
		// The same, as a Lambda Function URL delivers it (template.yaml
		// DiscordEndpoint=FunctionUrl): the payload of an HTTP API, with
		// the URL's own route key and domain.
		"function-url-ping.json": {url: true, body: map[string]any{"id": "1100000000000000004", "application_id": "1100000000000000000", "type": 1, "token": "sample-url-ping-token", "version": 1}},
		// API Gateway marks some bodies base64: the adapter decodes before
		// the signature is checked over the raw bytes.
		"bind.json": {base64: true, body: map[string]any{
			"id": "1100000000000000002", "application_id": "1100000000000000000", "type": 2, "token": "sample-bind-token", "version": 1,
			"guild_id": "1100", "channel_id": "1101", "member": member("1001"),
			"data": map[string]any{"id": "1100000000000000100", "name": "bind", "type": 1, "options": []any{
				map[string]any{"name": "game", "type": 3, "value": "sample-hall"},
				map[string]any{"name": "announcements", "type": 7, "value": "1102"},
			}},
		}},
		"status.json": {body: map[string]any{
			"id": "1100000000000000003", "application_id": "1100000000000000000", "type": 2, "token": "sample-status-token", "version": 1,
			"guild_id": "1100", "channel_id": "1101", "member": member("1002"),
			"data": map[string]any{"id": "1100000000000000101", "name": "status", "type": 1},
		}},
	}
}

func apiEvent(name string, body []byte, b64, url bool) events.APIGatewayV2HTTPRequest {
	sig, ts := discordtest.Sign(sampleAt, body)
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: "POST /discord/interactions", RawPath: "/discord/interactions",
		Headers: map[string]string{
			"content-type": "application/json", "content-length": itoa(len(body)),
			"host":                  "croupier.example.execute-api.us-east-1.amazonaws.com",
			"user-agent":            "Discord-Interactions/1.0 (+https://discord.com)",
			"x-signature-ed25519":   sig,
			"x-signature-timestamp": ts,
			"x-forwarded-proto":     "https",
		},
		Body: string(body), IsBase64Encoded: b64,
	}
	if b64 {
		ev.Body = base64.StdEncoding.EncodeToString(body)
	}
	ev.RequestContext.AccountID, ev.RequestContext.APIID = "123456789012", "croupier"
	ev.RequestContext.DomainName = "croupier.example.execute-api.us-east-1.amazonaws.com"
	ev.RequestContext.HTTP.Method, ev.RequestContext.HTTP.Path = "POST", "/discord/interactions"
	ev.RequestContext.HTTP.Protocol, ev.RequestContext.HTTP.SourceIP = "HTTP/1.1", "192.0.2.7"
	ev.RequestContext.RequestID, ev.RequestContext.RouteKey, ev.RequestContext.Stage = "sample-discord-"+name, "POST /discord/interactions", "$default"
	ev.RequestContext.TimeEpoch = sampleAt.UnixMilli()
	if url {
		const id = "abcdefghijklmnopqrstuvwxyz012345"
		host := id + ".lambda-url.us-east-1.on.aws"
		ev.RouteKey, ev.RequestContext.RouteKey = "$default", "$default"
		ev.Headers["host"], ev.RequestContext.DomainName = host, host
		ev.RequestContext.APIID, ev.RequestContext.DomainPrefix = id, id
	}
	return ev
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSampleEvents keeps events/discord in step with the test key: each file
// is what this generator writes (go test -run TestSampleEvents
// -update-events rewrites them), and each signature verifies.
func TestSampleEvents(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "events", "discord")
	for name, s := range sampleEvents() {
		body, _ := json.Marshal(s.body)
		ev := apiEvent(name[:len(name)-len(".json")], body, s.base64, s.url)
		want, _ := json.MarshalIndent(ev, "", "  ")
		want = append(want, '\n')
		path := filepath.Join(dir, name)
		if *updateEvents {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./internal/chat/discord -run TestSampleEvents -update-events writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the generator writes: run with -update-events", path)
		}
		if err := discord.Verify(discordtest.PublicKey(), ev.Headers["x-signature-ed25519"], ev.Headers["x-signature-timestamp"], body, sampleAt, time.Minute); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
