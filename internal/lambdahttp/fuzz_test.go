package lambdahttp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// FuzzEvent: any API Gateway event (as the Lambda runtime would decode it
// from JSON) becomes a response with a real status, never a panic or an
// error that API Gateway would show as its generic 500.
func FuzzEvent(f *testing.F) {
	f.Add(`{"rawPath":"/healthz","requestContext":{"http":{"method":"GET"}}}`)
	f.Add(`{"rawPath":"/v1/games/x/join","rawQueryString":"a=1&a=2","body":"e30=","isBase64Encoded":true,"headers":{"content-type":"application/json"},"requestContext":{"http":{"method":"POST"}}}`)
	f.Add(`{"rawPath":"%zz","requestContext":{"http":{"method":"GET"}}}`)
	f.Add(`{"body":"!!!","isBase64Encoded":true,"requestContext":{"http":{"method":"POST"}}}`)
	f.Add(`{}`)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(b)
	})
	h := New(echo, slog.New(slog.NewTextHandler(io.Discard, nil)))
	f.Fuzz(func(t *testing.T, raw string) {
		var ev events.APIGatewayV2HTTPRequest
		if json.Unmarshal([]byte(raw), &ev) != nil {
			return // the Lambda runtime would not call us with it
		}
		resp, err := h(context.Background(), ev)
		if err != nil {
			t.Fatalf("handler returned an error: %v", err)
		}
		if resp.StatusCode < 200 || resp.StatusCode > 599 {
			t.Fatalf("status %d for %s", resp.StatusCode, raw)
		}
	})
}
