// Package publish carries committed game log entries to whoever announces
// them. The game service calls a game.Publisher after every successful commit
// (commands and scheduled work alike); this package provides the two
// adapters: EventBridge PutEvents on AWS (the project bus, whose rule invokes
// functions/announce) and an in-process Bus for `croupier serve` and tests,
// which calls the same announcer code synchronously.
//
// Publishing is an echo of the log, never part of the command: a failure is
// logged by the service and the command still succeeds (the log is the
// record; DESIGN.md "Chat integrations").
package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"croupier/internal/game"
)

// Source is the EventBridge source of every event Croupier publishes; the
// announcement rule matches on it.
const Source = "croupier"

// Message is one published log entry: the EventBridge event's detail, and
// what Bus subscribers receive.
type Message struct {
	Game  string      `json:"game"`
	Entry *game.Entry `json:"entry"`
	// Truncated says the entry was too large for one event and was cut down
	// to its identity and event types (see shrink); a consumer that needs the
	// data reads the entry from the game log.
	Truncated bool `json:"truncated,omitempty"`
}

// DetailType is the EventBridge detail-type of an entry: the command that
// made it ("purchase", "period-end", ...), so rules can route by command
// without parsing the detail.
func DetailType(e *game.Entry) string {
	if e == nil || e.Command == "" {
		return "entry"
	}
	return e.Command
}

// Decode parses an event detail back into a Message, checking what every
// consumer relies on.
func Decode(detail []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(detail, &m); err != nil {
		return Message{}, fmt.Errorf("publish: the event detail is not a {game, entry} object: %w", err)
	}
	if !game.ValidGameID(m.Game) {
		return Message{}, fmt.Errorf("publish: the event detail names no valid game (%q)", m.Game)
	}
	if m.Entry == nil || m.Entry.ID == "" {
		return Message{}, errors.New("publish: the event detail has no entry with an id")
	}
	return m, nil
}

// Handler receives a published message.
type Handler func(ctx context.Context, m Message) error

// Bus is the in-process publisher: Publish calls every subscriber in turn,
// synchronously, before the command returns. That keeps local runs and tests
// deterministic (an announcement has been made when the command's response
// arrives). Subscribers must not run game commands (that would publish
// again, recursively, inside the first command's publish).
type Bus struct {
	mu   sync.RWMutex
	subs []Handler
}

// NewBus returns a bus without subscribers.
func NewBus() *Bus { return &Bus{} }

// Subscribe adds h; it receives every message published from then on.
func (b *Bus) Subscribe(h Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, h)
}

// Publish implements game.Publisher: every subscriber is called even if an
// earlier one failed; their errors are joined.
func (b *Bus) Publish(ctx context.Context, g string, e *game.Entry) error {
	b.mu.RLock()
	subs := b.subs
	b.mu.RUnlock()
	m := Message{Game: g, Entry: e}
	var errs []error
	for i, h := range subs {
		if err := h(ctx, m); err != nil {
			errs = append(errs, fmt.Errorf("subscriber %d: %w", i+1, err))
		}
	}
	return errors.Join(errs...)
}

var _ game.Publisher = (*Bus)(nil)
