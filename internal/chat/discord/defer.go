package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/lambda/types"
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

// LambdaInvoker is the part of the Lambda client the deferrer uses.
type LambdaInvoker interface {
	Invoke(ctx context.Context, in *lambda.InvokeInput, opts ...func(*lambda.Options)) (*lambda.InvokeOutput, error)
}

// LambdaDeferrer finishes on AWS: it invokes its own function
// asynchronously (InvocationType Event) with a DeferredEvent, and the
// function's main hands such payloads to Handler.Finish. Lambda retries a
// failed asynchronous invocation twice; Finish is safe to repeat.
type LambdaDeferrer struct {
	Client LambdaInvoker
	// Function is this function's name (AWS_LAMBDA_FUNCTION_NAME).
	Function string
}

// Defer implements Deferrer.
func (d LambdaDeferrer) Defer(ctx context.Context, body []byte) error {
	payload, err := json.Marshal(DeferredEvent{DiscordDeferred: mustJSON(body)})
	if err != nil {
		return err
	}
	out, err := d.Client.Invoke(ctx, &lambda.InvokeInput{
		FunctionName:   aws.String(d.Function),
		InvocationType: types.InvocationTypeEvent,
		Payload:        payload,
	})
	if err != nil {
		return fmt.Errorf("discord: invoking %s to finish an interaction: %w", d.Function, err)
	}
	if out.StatusCode != 202 {
		return fmt.Errorf("discord: invoking %s to finish an interaction: status %d", d.Function, out.StatusCode)
	}
	return nil
}

// mustJSON encodes the body as a JSON string (base64 of its bytes), so any
// body survives the trip unchanged.
func mustJSON(b []byte) json.RawMessage {
	out, _ := json.Marshal(b)
	return out
}
