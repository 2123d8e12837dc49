// Package discordtest signs interactions the way Discord does, with a fixed
// test key pair, for tests and for the sample events in events/discord
// (internal/e2e runs the function with PublicKeyHex as DISCORD_PUBLIC_KEY).
// The private key is public knowledge: never configure PublicKeyHex in a
// deployment.
package discordtest

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// key is derived from a fixed phrase so every run signs identically.
var key = ed25519.NewKeyFromSeed(func() []byte {
	s := sha256.Sum256([]byte("croupier discord test key; never deploy"))
	return s[:]
}())

// PrivateKey is the test signing key.
func PrivateKey() ed25519.PrivateKey { return key }

// PublicKey is the test key's public half.
func PublicKey() ed25519.PublicKey { return key.Public().(ed25519.PublicKey) }

// PublicKeyHex is PublicKey as the developer portal shows a key.
func PublicKeyHex() string { return hex.EncodeToString(PublicKey()) }

// Sign returns the X-Signature-Ed25519 value for a request sent at ts.
func Sign(ts time.Time, body []byte) (signature, timestamp string) {
	timestamp = strconv.FormatInt(ts.Unix(), 10)
	return hex.EncodeToString(ed25519.Sign(key, append([]byte(timestamp), body...))), timestamp
}
