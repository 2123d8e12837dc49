// Package publish carries committed game log entries to whoever announces
// them. The log is the outbox: nothing is sent beside a commit (a crash or
// an outage between a commit and a send would lose the message); the
// announcer reads what was committed, in commit order, after the fact.
//
//   - On AWS the table's stream (DynamoDB Streams, NEW_IMAGE) feeds
//     functions/announce through an event source mapping that keeps only
//     log entries (SK beginning LOG#); FromStream turns each record into a
//     Message.
//   - Locally (`croupier serve`) a Tail reads the bolt store's feed of
//     created log entries (store.Change) after a durable cursor and moves
//     the cursor only once the handler has announced an entry, so a process
//     killed right after a commit announces the entry when it starts again.
//
// Both deliver at least once; internal/announce's delivery record per entry
// keeps posts single.
package publish

import (
	"context"
	"fmt"

	"croupier/internal/game"
	"croupier/internal/store"
)

// Message is one committed log entry and its game.
type Message struct {
	Game  string      `json:"game"`
	Entry *game.Entry `json:"entry"`
}

// Handler receives a committed entry. An error means "not done, deliver it
// again".
type Handler func(ctx context.Context, m Message) error

// FromItem is the message of a stored log entry; ok is false for any other
// item.
func FromItem(it store.Item) (m Message, ok bool, err error) {
	g, e, ok, err := game.LogEntry(it)
	if !ok || err != nil {
		return Message{}, ok, err
	}
	if !game.ValidGameID(g) {
		return Message{}, true, fmt.Errorf("publish: log entry %s names no valid game", it.Key)
	}
	return Message{Game: g, Entry: e}, true, nil
}
