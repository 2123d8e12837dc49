package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"croupier/internal/clock"
	"croupier/internal/store"
)

// ReplyCache remembers the response a platform sent to an interaction, so a
// replayed interaction gets the first response byte for byte and changes
// nothing. A game command needs none of it: its log entry is its
// idempotency record and holds its response, so a replay answers from the
// entry (Reply.Logged) and the command costs one read and one write. The
// cache keeps the rest: reads (status, shop...), prompts and refusals.
// Items live outside every game partition (PK "REPLY#<platform>:<key>") and
// expire after TTL (DynamoDB TTL; bolt sweeps them).
//
// Nothing is looked up before an interaction runs (that would be a read on
// every command): a replay runs again, and Keep then answers with what the
// first run stored. (A refused command that would succeed when replayed,
// the state having changed meanwhile, runs then: platforms do not replay
// interactions minutes apart, and the signature window is five minutes.)
type ReplyCache struct {
	Store store.Store
	Clock clock.Clock
	// TTL is how long a response is kept (default DefaultReplyTTL).
	TTL time.Duration
}

// DefaultReplyTTL covers every retry a platform makes (Discord's interaction
// tokens live 15 minutes).
const DefaultReplyTTL = time.Hour

func replyKey(platform, key string) store.Key {
	return store.Key{PK: "REPLY#" + platform + ":" + key, SK: "REPLY"}
}

// Remember stores resp for (platform, key) and returns the response to send:
// resp, or the one a concurrent twin stored first.
func (c *ReplyCache) Remember(ctx context.Context, platform, key string, resp []byte) ([]byte, error) {
	ttl := c.TTL
	if ttl <= 0 {
		ttl = DefaultReplyTTL
	}
	k := replyKey(platform, key)
	err := c.Store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: resp, Expires: c.Clock.Now().Add(ttl)}}}, Idem: &k})
	var dup *store.DuplicateError
	switch {
	case err == nil:
		return resp, nil
	case errors.As(err, &dup):
		return dup.Item.Data, nil
	default:
		return nil, fmt.Errorf("chat: writing the reply cache: %w", err)
	}
}

// Keep returns the response to send for the interaction (platform, key)
// answered resp: resp itself when a game command's log entry holds the
// outcome (logged: Reply.Logged), and otherwise the response remembered
// first, resp unless a twin stored one before. A nil cache keeps nothing.
func (c *ReplyCache) Keep(ctx context.Context, platform, key string, logged bool, resp []byte) ([]byte, error) {
	if c == nil || logged {
		return resp, nil
	}
	return c.Remember(ctx, platform, key, resp)
}
