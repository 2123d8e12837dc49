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
// nothing. Game commands are already idempotent by key; the cache makes
// reads (status, shop...) and prompts replay too, and saves the work.
// Items live outside every game partition (PK "REPLY#<platform>:<key>") and
// expire after TTL (DynamoDB TTL; bolt sweeps them).
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

// Recall returns the response remembered for (platform, key).
func (c *ReplyCache) Recall(ctx context.Context, platform, key string) ([]byte, bool, error) {
	it, err := c.Store.Get(ctx, replyKey(platform, key))
	if err != nil {
		return nil, false, fmt.Errorf("chat: reading the reply cache: %w", err)
	}
	if !it.Exists() || (!it.Expires.IsZero() && !it.Expires.After(c.Clock.Now())) {
		return nil, false, nil
	}
	return it.Data, true, nil
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
