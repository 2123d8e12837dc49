// Package bridge is Croupier's generic chat webhook: any chat platform, or
// a gateway relay for one (a bot that holds Discord's gateway connection
// and so sees reactions), submits commands and pushes reaction, edit and
// delete events for messages, as signed JSON:
//
//	POST /bridge/v1/commands  a command through internal/chat's table
//	POST /bridge/v1/events    reactions added/removed/set, messages edited/deleted
//
// Every request carries X-Croupier-Signature: t=<unix seconds>,v1=<hex
// HMAC-SHA256(secret, t + "." + raw body)> (several v1= values may be sent
// while a secret is rotated). The timestamp must be within 5 minutes of
// now; the body is at most 64 KiB. Anything else is 401 (413 for the size)
// and changes nothing. Each request has a unique id from the relay: the
// idempotency key, so a retried request answers as the first did.
//
// Each secret is bound to the identities (and optionally the games) it may
// act for (internal/credential): a request naming a platform, a user, a
// voter or a game outside the scope of the secret that signed it is 403
// (platform_out_of_scope, actor_out_of_scope, game_out_of_scope) and
// changes nothing, so one relay's secret cannot speak for another
// platform's users.
// docs/api.md ("Bridge webhook") is the guide for relay authors.
package bridge

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"croupier/internal/credential"
)

// Header carries the signature.
const Header = "X-Croupier-Signature"

// Window is how far the signed timestamp may be from now, either way.
const Window = 5 * time.Minute

// MaxBody is the largest body accepted.
const MaxBody = 64 << 10

// Verification failures (all answered 401).
var (
	ErrMissing      = errors.New("bridge: the X-Croupier-Signature header is missing")
	ErrMalformed    = errors.New("bridge: X-Croupier-Signature is not t=<unix seconds>,v1=<hex>")
	ErrStale        = errors.New("bridge: the signed timestamp is more than 5 minutes from now")
	ErrBadSignature = errors.New("bridge: no v1 signature matches the body")
)

// Sign returns the X-Croupier-Signature value for body at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

func mac(secret []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts + "."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks the signature header against the raw body with any of
// secrets (current and previous, during a rotation) and returns the scope of
// the secret that signed it.
func Verify(secrets []credential.Secret, h http.Header, body []byte, now time.Time) (credential.Scope, error) {
	v := h.Get(Header)
	if v == "" {
		return credential.Scope{}, ErrMissing
	}
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(v, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return credential.Scope{}, ErrMalformed
		}
		switch k {
		case "t":
			if ts != "" {
				return credential.Scope{}, ErrMalformed
			}
			ts = val
		case "v1":
			sigs = append(sigs, strings.ToLower(val))
		}
		// Other schemes (v0, future vN) are ignored, as Stripe-style
		// headers do, so a relay can send a newer one alongside.
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 || len(sigs) > 8 {
		return credential.Scope{}, ErrMalformed
	}
	if d := now.Sub(time.Unix(sec, 0)); d > Window || d < -Window {
		return credential.Scope{}, ErrStale
	}
	for _, s := range secrets {
		if len(s.Value) == 0 {
			continue
		}
		want := mac(s.Value, ts, body)
		for _, got := range sigs {
			if hmac.Equal([]byte(got), []byte(want)) {
				return s.Scope, nil
			}
		}
	}
	return credential.Scope{}, ErrBadSignature
}
