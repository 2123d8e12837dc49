package discord

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Deferrer finishes an interaction after the handler has answered
// "deferred": it must eventually call Handler.Finish with the verified body,
// outside the request.
type Deferrer interface {
	Defer(ctx context.Context, body []byte) error
}

// GoDeferrer finishes in a goroutine of this process: right for a
// long-lived server (croupier serve), wrong for Lambda, which freezes the
// process once the response is returned.
type GoDeferrer struct {
	Finish func(ctx context.Context, body []byte) error
	Log    *slog.Logger
	// Timeout bounds the finishing work (default 14 minutes: an interaction
	// token lives 15).
	Timeout time.Duration
}

// Defer implements Deferrer.
func (g GoDeferrer) Defer(ctx context.Context, body []byte) error {
	if g.Finish == nil {
		return errors.New("discord: GoDeferrer has no Finish function")
	}
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = 14 * time.Minute
	}
	go func() {
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
		defer cancel()
		if err := g.Finish(fctx, body); err != nil && g.Log != nil {
			g.Log.ErrorContext(fctx, "finishing a deferred discord interaction failed", "err", err.Error())
		}
	}()
	return nil
}

// DeferredEvent is the payload the Lambda deferrer sends to its own
// function: the verified interaction body. Only an IAM principal allowed to
// invoke the function can send one; API Gateway events never have this
// shape (their bodies are nested in "body").
type DeferredEvent struct {
	DiscordDeferred json.RawMessage `json:"croupier_discord_deferred"`
}

// IsDeferred reports whether a raw Lambda payload is a DeferredEvent and
// returns the interaction body it carries.
func IsDeferred(payload []byte) ([]byte, bool) {
	var ev DeferredEvent
	if json.Unmarshal(payload, &ev) != nil || len(ev.DiscordDeferred) == 0 {
		return nil, false
	}
	var body []byte
	if json.Unmarshal(ev.DiscordDeferred, &body) != nil {
		return nil, false
	}
	return body, true
}

// LambdaDeferrer finishes on AWS: it invokes its own function
// asynchronously (InvocationType Event) with a DeferredEvent, and the
// function's main hands such payloads to Handler.Finish. Lambda retries a
// failed asynchronous invocation twice; Finish is safe to repeat.
//
// The invocation is Lambda's Invoke API called directly, one SigV4-signed
// POST, rather than through the SDK's Lambda client: that client's
// package would add 0.6 MiB to the bootstrap for this one call.
type LambdaDeferrer struct {
	// Function is this function's name (AWS_LAMBDA_FUNCTION_NAME).
	Function string
	// Config gives the region and the credentials (the function's role).
	Config aws.Config
	// Endpoint is Lambda's API; empty means https://lambda.<region>.amazonaws.com.
	Endpoint string
	// HTTP sends the request (http.DefaultClient when nil).
	HTTP *http.Client
}

// Defer implements Deferrer.
func (d LambdaDeferrer) Defer(ctx context.Context, body []byte) error {
	payload, err := json.Marshal(DeferredEvent{DiscordDeferred: mustJSON(body)})
	if err != nil {
		return err
	}
	endpoint := d.Endpoint
	if endpoint == "" {
		endpoint = "https://lambda." + d.Config.Region + ".amazonaws.com"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		strings.TrimRight(endpoint, "/")+"/2015-03-31/functions/"+url.PathEscape(d.Function)+"/invocations", bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Amz-Invocation-Type", "Event")
	fail := func(err error) error {
		return fmt.Errorf("discord: invoking %s to finish an interaction: %w", d.Function, err)
	}
	if d.Config.Credentials == nil {
		return fail(errors.New("no AWS credentials"))
	}
	creds, err := d.Config.Credentials.Retrieve(ctx)
	if err != nil {
		return fail(err)
	}
	sum := sha256.Sum256(payload)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "lambda", d.Config.Region, time.Now()); err != nil {
		return fail(err)
	}
	client := d.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return fail(err)
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	if res.StatusCode != http.StatusAccepted {
		return fail(fmt.Errorf("status %d: %s", res.StatusCode, bytes.TrimSpace(msg)))
	}
	return nil
}

// mustJSON encodes the body as a JSON string (base64 of its bytes), so any
// body survives the trip unchanged.
func mustJSON(b []byte) json.RawMessage {
	out, _ := json.Marshal(b)
	return out
}
