// Package slack serves Slack's slash command `/croupier <command> <args>`
// (and the buttons and selects of its replies) through the platform-neutral
// command table of internal/chat.
//
// Every request is verified with the app's signing secret (Slack's "v0"
// scheme): X-Slack-Signature must be "v0=" + hex(HMAC-SHA256(secret,
// "v0:" + X-Slack-Request-Timestamp + ":" + raw body)), and the timestamp
// must be within 5 minutes of now. Anything else is answered 401 before the
// body is even parsed, so it changes nothing.
package slack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Window is how far a request's timestamp may be from now (either way):
// Slack's recommendation, and what bounds a replayed request.
const Window = 5 * time.Minute

// MaxBody is the largest request body accepted (slash command forms are a
// few hundred bytes; interaction payloads a few KB).
const MaxBody = 64 << 10

// Verification failures (all answered 401).
var (
	ErrMissingSignature = errors.New("slack: X-Slack-Signature or X-Slack-Request-Timestamp is missing")
	ErrBadTimestamp     = errors.New("slack: X-Slack-Request-Timestamp is not a Unix time")
	ErrStale            = errors.New("slack: the request timestamp is more than 5 minutes from now")
	ErrBadSignature     = errors.New("slack: the signature does not match the body")
)

// Sign returns the X-Slack-Signature of body sent at ts (for tests and
// relays that replay Slack's scheme).
func Sign(secret []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("v0:" + ts + ":"))
	m.Write(body)
	return "v0=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a request's signature headers against its raw body.
func Verify(secret []byte, h http.Header, body []byte, now time.Time) error {
	sig, ts := h.Get("X-Slack-Signature"), h.Get("X-Slack-Request-Timestamp")
	if sig == "" || ts == "" {
		return ErrMissingSignature
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil {
		return ErrBadTimestamp
	}
	if d := now.Sub(time.Unix(sec, 0)); d > Window || d < -Window {
		return ErrStale
	}
	if len(secret) == 0 || !hmac.Equal([]byte(sig), []byte(Sign(secret, ts, body))) {
		return ErrBadSignature
	}
	return nil
}
