package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"croupier/internal/game"
)

// EventBridge limits of PutEvents (AWS documentation, "Amazon EventBridge
// quotas" and "Calculating PutEvents event entry size").
const (
	// MaxBatchEntries is the most entries one PutEvents request carries.
	MaxBatchEntries = 10
	// MaxBatchBytes is the most one request's entries may total.
	MaxBatchBytes = 256 * 1024
	// timeBytes is what a set Time adds to an entry's size.
	timeBytes = 14
)

// PutEventsAPI is the part of the EventBridge client the publisher uses
// (*eventbridge.Client implements it).
type PutEventsAPI interface {
	PutEvents(ctx context.Context, in *eventbridge.PutEventsInput, optFns ...func(*eventbridge.Options)) (*eventbridge.PutEventsOutput, error)
}

// EventBridge publishes messages to one event bus with PutEvents.
type EventBridge struct {
	client PutEventsAPI
	bus    string
	// Attempts bounds how often entries EventBridge reports as failed
	// (throttled, internal error) are sent again within one Send.
	Attempts int
	// Backoff is the pause before the second attempt; it doubles after.
	Backoff time.Duration
}

// NewEventBridge returns a publisher to bus (a name or ARN; "" or "default"
// is the account's default bus).
func NewEventBridge(client PutEventsAPI, bus string) *EventBridge {
	return &EventBridge{client: client, bus: bus, Attempts: 3, Backoff: 50 * time.Millisecond}
}

// Publish implements game.Publisher: one entry, one event.
func (p *EventBridge) Publish(ctx context.Context, g string, e *game.Entry) error {
	return p.Send(ctx, Message{Game: g, Entry: e})
}

var _ game.Publisher = (*EventBridge)(nil)

// Send publishes messages in as few PutEvents requests as the limits allow
// (10 entries and 256 KB per request, in order). An entry too large for an
// event on its own is shrunk (see shrink) rather than dropped.
func (p *EventBridge) Send(ctx context.Context, msgs ...Message) error {
	entries := make([]types.PutEventsRequestEntry, 0, len(msgs))
	for _, m := range msgs {
		ent, err := p.entry(m)
		if err != nil {
			return err
		}
		entries = append(entries, ent)
	}
	var errs []error
	for _, batch := range Batches(entries) {
		if err := p.put(ctx, batch); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// entry builds one PutEvents entry, shrinking a message that would not fit.
func (p *EventBridge) entry(m Message) (types.PutEventsRequestEntry, error) {
	if m.Entry == nil {
		return types.PutEventsRequestEntry{}, fmt.Errorf("publish: message for game %q has no entry", m.Game)
	}
	detail, err := json.Marshal(slim(m))
	if err != nil {
		return types.PutEventsRequestEntry{}, fmt.Errorf("publish: encoding entry %s: %w", m.Entry.ID, err)
	}
	ent := types.PutEventsRequestEntry{
		Source:     aws.String(Source),
		DetailType: aws.String(DetailType(m.Entry)),
		Detail:     aws.String(string(detail)),
	}
	if !m.Entry.At.IsZero() {
		ent.Time = aws.Time(m.Entry.At)
	}
	if p.bus != "" {
		ent.EventBusName = aws.String(p.bus)
	}
	if EntrySize(ent) > MaxBatchBytes {
		if detail, err = json.Marshal(shrink(m)); err != nil {
			return ent, fmt.Errorf("publish: encoding entry %s: %w", m.Entry.ID, err)
		}
		ent.Detail = aws.String(string(detail))
	}
	return ent, nil
}

// slim drops what no consumer of an announcement needs and what can make an
// entry large: the stored response (a copy of what the caller already got)
// and the request hash.
func slim(m Message) Message {
	e := *m.Entry
	e.Response, e.RequestHash = nil, ""
	m.Entry = &e
	return m
}

// shrink keeps an entry's identity and its event types only. The full entry
// stays in the game log (GET /v1/games/{game}/log) for a consumer that
// needs it.
func shrink(m Message) Message {
	e := *m.Entry
	e.Response, e.RequestHash, e.Draws = nil, "", nil
	e.Events = make([]game.Event, len(m.Entry.Events))
	for i, ev := range m.Entry.Events {
		e.Events[i] = game.Event{Type: ev.Type, Player: ev.Player}
	}
	return Message{Game: m.Game, Entry: &e, Truncated: true}
}

// EntrySize is an entry's size as EventBridge counts it against the
// request limit: source, detail-type, detail, resources, and 14 bytes for a
// time.
func EntrySize(e types.PutEventsRequestEntry) int {
	n := len(aws.ToString(e.Source)) + len(aws.ToString(e.DetailType)) + len(aws.ToString(e.Detail))
	for _, r := range e.Resources {
		n += len(r)
	}
	if e.Time != nil {
		n += timeBytes
	}
	return n
}

// Batches splits entries, in order, into requests of at most
// MaxBatchEntries entries and MaxBatchBytes bytes.
func Batches(entries []types.PutEventsRequestEntry) [][]types.PutEventsRequestEntry {
	var out [][]types.PutEventsRequestEntry
	var cur []types.PutEventsRequestEntry
	size := 0
	for _, e := range entries {
		n := EntrySize(e)
		if len(cur) > 0 && (len(cur) == MaxBatchEntries || size+n > MaxBatchBytes) {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, e)
		size += n
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// put sends one batch. PutEvents succeeds as a request even when some
// entries fail (FailedEntryCount); those are sent again, bounded, and any
// still failing are reported with EventBridge's error codes.
func (p *EventBridge) put(ctx context.Context, batch []types.PutEventsRequestEntry) error {
	pause := p.Backoff
	for attempt := 1; ; attempt++ {
		out, err := p.client.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: batch})
		if err != nil {
			return fmt.Errorf("publish: PutEvents: %w", err)
		}
		if out.FailedEntryCount == 0 {
			return nil
		}
		var failed []types.PutEventsRequestEntry
		var reasons []string
		for i, r := range out.Entries {
			if r.ErrorCode != nil && i < len(batch) {
				failed = append(failed, batch[i])
				reasons = append(reasons, aws.ToString(r.ErrorCode)+": "+aws.ToString(r.ErrorMessage))
			}
		}
		if len(failed) == 0 || attempt >= max(p.Attempts, 1) {
			return fmt.Errorf("publish: EventBridge refused %d of %d event(s) after %d attempt(s): %s",
				out.FailedEntryCount, len(batch), attempt, strings.Join(reasons, "; "))
		}
		batch = failed
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// NewClient returns an EventBridge client: AWS's default configuration
// when endpoint is "", otherwise one pointed at endpoint. A non-AWS
// endpoint (a test server, a local emulator) gets a fixed region and dummy
// static credentials, so nothing is looked up on the machine.
func NewClient(ctx context.Context, endpoint string) (*eventbridge.Client, error) {
	if endpoint == "" {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, fmt.Errorf("publish: load AWS config: %w", err)
		}
		return eventbridge.NewFromConfig(cfg), nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("publish: endpoint %q is not a URL like http://127.0.0.1:4010", endpoint)
	}
	host := strings.ToLower(u.Hostname())
	if strings.HasSuffix(host, ".amazonaws.com") || strings.HasSuffix(host, ".amazonaws.com.cn") {
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, fmt.Errorf("publish: load AWS config: %w", err)
		}
		return eventbridge.NewFromConfig(cfg, func(o *eventbridge.Options) { o.BaseEndpoint = aws.String(endpoint) }), nil
	}
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")}
	return eventbridge.NewFromConfig(cfg, func(o *eventbridge.Options) { o.BaseEndpoint = aws.String(endpoint) }), nil
}

// Environment variables FromEnv reads (template.yaml sets EVENT_BUS_NAME).
const (
	// EnvBus names the event bus; unset means "do not publish".
	EnvBus = "EVENT_BUS_NAME"
	// EnvEndpoint points the EventBridge client elsewhere (tests).
	EnvEndpoint = "EVENTBRIDGE_ENDPOINT"
)

// FromEnv returns the EventBridge publisher the environment configures, or
// nil (no publishing) when EVENT_BUS_NAME is unset. Functions that run
// commands pass it to game.WithPublisher when it is not nil.
func FromEnv(ctx context.Context, getenv func(string) string) (*EventBridge, error) {
	bus := strings.TrimSpace(getenv(EnvBus))
	if bus == "" {
		return nil, nil
	}
	client, err := NewClient(ctx, strings.TrimSpace(getenv(EnvEndpoint)))
	if err != nil {
		return nil, err
	}
	return NewEventBridge(client, bus), nil
}
