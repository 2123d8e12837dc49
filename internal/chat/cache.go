package chat

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
// Every record names its owner (Owner: the credential scope that sent the
// interaction and the actor it acted for) and answers only that owner: an
// interaction id is no secret (a Matrix event id is visible to the whole
// room), so another relay secret or another user sending the same id gets
// ErrReused, never the first owner's private reply.
//
// Discord's and Slack's interaction ids are unforgeable (they come signed
// by the platform), so those integrations look nothing up before an
// interaction runs (that would be a write or a read on every command): a
// replay runs again, and Keep then answers with what the first run stored.
// (A refused command that would succeed when replayed, the state having
// changed meanwhile, runs then: platforms do not replay interactions
// minutes apart, and the signature window is five minutes.) A relay's
// request id is whatever the relay sends, so the bridge claims it first
// (Claim: one conditional write), before anything runs under it, and Fill
// stores the reply.
type ReplyCache struct {
	Store store.Store
	Clock clock.Clock
	// TTL is how long a response is kept (default DefaultReplyTTL).
	TTL time.Duration
}

// DefaultReplyTTL covers every retry a platform makes (Discord's interaction
// tokens live 15 minutes).
const DefaultReplyTTL = time.Hour

// ErrReused is the answer to an interaction whose id another owner (another
// credential scope or another actor) used first.
var ErrReused = errors.New("chat: the interaction id was already used by someone else")

// Owner names who may read a cached reply: the credential scope the
// interaction came with (a bridge secret's scope, or the platform for
// Discord and Slack, whose signature is the platform's) and the actor's
// identity. It is a digest, so a record holds no scope text.
func Owner(scope, actor string) string {
	h := sha256.Sum256([]byte(scope + "\x00" + actor))
	return hex.EncodeToString(h[:16])
}

func replyKey(platform, key string) store.Key {
	return store.Key{PK: "REPLY#" + platform + ":" + key, SK: "REPLY"}
}

// A record's Data is its owner, a newline, then the reply (empty while a
// claim waits for it). An owner is hex, so it holds no newline.
func record(owner string, resp []byte) []byte {
	return append(append([]byte(owner), '\n'), resp...)
}

// parseRecord splits a record; one without an owner (kept before records
// named theirs, for an hour at most) is no one's, so it answers no one.
func parseRecord(data []byte) (owner string, resp []byte) {
	o, r, ok := bytes.Cut(data, []byte{'\n'})
	if !ok {
		return "", nil
	}
	return string(o), r
}

func (c *ReplyCache) item(k store.Key, owner string, resp []byte) store.Item {
	ttl := c.TTL
	if ttl <= 0 {
		ttl = DefaultReplyTTL
	}
	return store.Item{Key: k, Data: record(owner, resp), Expires: c.Clock.Now().Add(ttl)}
}

// create writes (platform, key)'s record as owner's with resp, unless one
// exists: then it returns that record's reply (nil for a bare claim) and
// version, or ErrReused when it is another owner's.
func (c *ReplyCache) create(ctx context.Context, platform, key, owner string, resp []byte) (first []byte, version int64, err error) {
	k := replyKey(platform, key)
	err = c.Store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: c.item(k, owner, resp)}}, Idem: &k})
	var dup *store.DuplicateError
	switch {
	case err == nil:
		return nil, 0, nil
	case errors.As(err, &dup):
		return theirs(dup.Item, owner)
	default:
		return nil, 0, fmt.Errorf("chat: writing the reply cache: %w", err)
	}
}

// theirs is the reply of an existing record for owner.
func theirs(it store.Item, owner string) ([]byte, int64, error) {
	o, r := parseRecord(it.Data)
	if o == "" || o != owner {
		return nil, 0, ErrReused
	}
	if len(r) == 0 {
		r = nil
	}
	return r, it.Version, nil
}

// Claimed is an interaction bound to its owner (Claim).
type Claimed struct {
	// Reply is what the owner's earlier run of the interaction stored:
	// send it and run nothing. Nil: run the interaction (the first time,
	// or a replay whose first run stored no reply: a game command,
	// answered from its log entry, or a run cut short).
	Reply []byte

	platform, key, owner string
	version              int64
}

// Claim binds the interaction (platform, key) to owner before it runs, or
// returns ErrReused when the id is another owner's: then nothing may run
// under it. A nil cache claims nothing.
func (c *ReplyCache) Claim(ctx context.Context, platform, key, owner string) (*Claimed, error) {
	cl := &Claimed{platform: platform, key: key, owner: owner}
	if c == nil {
		return cl, nil
	}
	first, v, err := c.create(ctx, platform, key, owner, nil)
	if err != nil {
		return nil, err
	}
	cl.Reply, cl.version = first, max(v, 1)
	return cl, nil
}

// Fill stores resp as the reply of the claimed interaction and returns the
// reply to send: resp, or the one a concurrent twin stored first. logged
// (Reply.Logged) stores nothing: the log entry holds the outcome.
func (c *ReplyCache) Fill(ctx context.Context, cl *Claimed, logged bool, resp []byte) ([]byte, error) {
	if c == nil || logged {
		return resp, nil
	}
	k := replyKey(cl.platform, cl.key)
	err := c.Store.Commit(ctx, store.Tx{Puts: []store.Put{{Item: c.item(k, cl.owner, resp), Expect: cl.version}}})
	if !errors.Is(err, store.ErrConflict) {
		if err != nil {
			return nil, fmt.Errorf("chat: writing the reply cache: %w", err)
		}
		return resp, nil
	}
	// A twin filled the claim first, or the claim expired meanwhile.
	it, err := c.Store.Get(ctx, k)
	if err != nil {
		return nil, fmt.Errorf("chat: reading the reply cache: %w", err)
	}
	if !it.Exists() {
		return c.Keep(ctx, cl.platform, cl.key, cl.owner, false, resp)
	}
	first, _, err := theirs(it, cl.owner)
	if err != nil || first != nil {
		return first, err
	}
	return resp, nil
}

// Keep returns the response to send for the interaction (platform, key),
// run for owner, that answered resp: resp itself when a game command's log
// entry holds the outcome (logged: Reply.Logged), and otherwise the
// response remembered first, resp unless a twin stored one before. Another
// owner's record is ErrReused (the caller sends its own resp: never theirs).
// A nil cache keeps nothing.
func (c *ReplyCache) Keep(ctx context.Context, platform, key, owner string, logged bool, resp []byte) ([]byte, error) {
	if c == nil || logged {
		return resp, nil
	}
	first, _, err := c.create(ctx, platform, key, owner, resp)
	if err != nil {
		return nil, err
	}
	if first == nil {
		// Stored now, or a bare claim of owner's was there (the bridge's,
		// which Fill fills): send resp.
		return resp, nil
	}
	return first, nil
}
