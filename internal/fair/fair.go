// Package fair is Croupier's verifiable random source (RULINGS N1, N2;
// DESIGN.md "Randomness"; the full spec with a Python reference and test
// vectors is docs/randomness.md).
//
// Each game and period has a secret 32-byte Seed. Its SHA-256 (Commitment) is
// published when the period starts and the seed itself is revealed when the
// period ends. Every draw is a pure function of the seed and the draw's public
// inputs (game, period, command id, draw index within the command, purpose,
// n), so anyone holding the revealed seed and the draw log can recompute every
// result with Verify, or by hand. Because the inputs already identify a draw
// uniquely, no shared counter is stored: concurrent commands never contend.
package fair

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Domain is the first field of every draw message. It versions the scheme:
// a future change to the derivation gets a new domain string, so old logs
// stay verifiable under the old rules.
const Domain = "croupier-draw-v1"

// SeedSize is the length of a seed in bytes.
const SeedSize = 32

// Seed is the secret key of one game period. It must stay secret until the
// period ends; String, GoString and LogValue redact it so an accidental
// fmt or slog call cannot leak it. Use Hex to reveal it deliberately.
type Seed [SeedSize]byte

// NewSeed reads a fresh seed from r: crypto/rand.Reader in production, a
// deterministic reader in tests. A short read is an error, never a
// partially-random seed.
func NewSeed(r io.Reader) (Seed, error) {
	var s Seed
	if r == nil {
		return Seed{}, errors.New("fair: NewSeed needs a random source, got nil reader")
	}
	if _, err := io.ReadFull(r, s[:]); err != nil {
		return Seed{}, fmt.Errorf("fair: reading %d seed bytes: %w", SeedSize, err)
	}
	return s, nil
}

// ParseSeed decodes a revealed seed from 64 hexadecimal characters (either
// case). Anything else is rejected with an error saying what is wrong.
func ParseSeed(hexStr string) (Seed, error) {
	if len(hexStr) != 2*SeedSize {
		return Seed{}, fmt.Errorf("fair: seed must be %d hex characters (%d bytes), got %d characters",
			2*SeedSize, SeedSize, len(hexStr))
	}
	for i := 0; i < len(hexStr); i++ {
		if !isHex(hexStr[i]) {
			return Seed{}, fmt.Errorf("fair: seed is not hexadecimal: byte %q at position %d", hexStr[i], i)
		}
	}
	var s Seed
	if _, err := hex.Decode(s[:], []byte(hexStr)); err != nil { // unreachable after the checks above
		return Seed{}, fmt.Errorf("fair: decoding seed: %w", err)
	}
	return s, nil
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// Hex reveals the seed as 64 lowercase hex characters, the form players use
// to verify draws. Only call it when the period has ended (or to store it).
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment is the lowercase hex SHA-256 of the 32 raw seed bytes. It is
// published before any draw uses the seed, so the operator cannot later swap
// the seed for one that gives results it prefers.
func (s Seed) Commitment() string {
	sum := sha256.Sum256(s[:])
	return hex.EncodeToString(sum[:])
}

// String redacts the seed; it shows only the public commitment.
func (s Seed) String() string { return "fair.Seed(commitment " + s.Commitment()[:16] + "…)" }

// GoString redacts the seed for %#v as well.
func (s Seed) GoString() string { return s.String() }

// LogValue redacts the seed in slog output (JSON handlers would otherwise
// print the raw bytes).
func (s Seed) LogValue() slog.Value { return slog.StringValue(s.String()) }

// Input identifies one draw. Together with the period's seed it determines
// the result completely.
type Input struct {
	Game    string `json:"game"`
	Period  string `json:"period"`
	Command string `json:"command"`
	// Index counts the draws made by one command, from 0.
	Index int `json:"index"`
	// Purpose names what the draw decides ("pack-card", "holographic"...),
	// so a log reader can tell draws apart and a draw cannot be reused for
	// a different decision.
	Purpose string `json:"purpose"`
	// N is the number of equally likely outcomes; the result is in [0, N).
	N int `json:"n"`
}

// Draw returns the unbiased result in [0, in.N) determined by seed and in.
// It returns an error, and no result, if any input is invalid (see
// validate): the same inputs always give the same result.
func Draw(seed Seed, in Input) (int, error) {
	if err := in.validate(); err != nil {
		return 0, err
	}
	v, _ := drawUint64(seed, in.Game, in.Period, in.Command, uint64(in.Index), in.Purpose, uint64(in.N))
	return int(v), nil // v < in.N, which fits in an int
}

// validate checks the rules that keep the message encoding unambiguous and
// the log round-trippable: text fields are non-empty valid UTF-8 without NUL
// (NUL is the field separator; invalid UTF-8 would not survive JSON), the
// index is not negative and n is at least 1.
func (in Input) validate() error {
	for _, f := range []struct{ name, v string }{
		{"game", in.Game}, {"period", in.Period}, {"command", in.Command}, {"purpose", in.Purpose},
	} {
		if err := checkField(f.name, f.v); err != nil {
			return err
		}
	}
	if in.Index < 0 {
		return fmt.Errorf("fair: draw index must be >= 0, got %d", in.Index)
	}
	if in.N < 1 {
		return fmt.Errorf("fair: n must be >= 1 (number of outcomes), got %d", in.N)
	}
	return nil
}

func checkField(name, v string) error {
	switch {
	case v == "":
		return fmt.Errorf("fair: %s must not be empty", name)
	case strings.IndexByte(v, 0) >= 0:
		return fmt.Errorf("fair: %s must not contain a NUL byte (it separates message fields): %q", name, v)
	case !utf8.ValidString(v):
		return fmt.Errorf("fair: %s must be valid UTF-8 (it is logged as JSON): %q", name, v)
	}
	return nil
}

// message builds the HMAC input of the spec:
//
//	"croupier-draw-v1" 0x00 game 0x00 period 0x00 command 0x00 decimal(index)
//	0x00 purpose 0x00 decimal(n) 0x00 decimal(attempt)
func message(game, period, command string, index uint64, purpose string, n uint64, attempt int) []byte {
	b := make([]byte, 0, len(Domain)+len(game)+len(period)+len(command)+len(purpose)+64)
	b = append(b, Domain...)
	b = append(b, 0)
	b = append(b, game...)
	b = append(b, 0)
	b = append(b, period...)
	b = append(b, 0)
	b = append(b, command...)
	b = append(b, 0)
	b = strconv.AppendUint(b, index, 10)
	b = append(b, 0)
	b = append(b, purpose...)
	b = append(b, 0)
	b = strconv.AppendUint(b, n, 10)
	b = append(b, 0)
	b = strconv.AppendUint(b, uint64(attempt), 10)
	return b
}

// drawUint64 is the spec over the full uint64 range of n (n >= 1, fields
// already validated). It also returns the accepted attempt, which the test
// vectors publish. Rejection sampling: of the 2^64 possible x, only the first
// limit = 2^64 - (2^64 mod n) are used, so every residue mod n is hit by
// exactly limit/n values of x. Each attempt is rejected with probability
// below 1/2, so the loop ends after a couple of attempts in practice.
func drawUint64(seed Seed, game, period, command string, index uint64, purpose string, n uint64) (value uint64, attempt int) {
	// 2^64 mod n, computed without 128-bit arithmetic: (2^64 - n) mod n.
	rem := (-n) % n
	for attempt = 0; ; attempt++ {
		mac := hmac.New(sha256.New, seed[:])
		mac.Write(message(game, period, command, index, purpose, n, attempt))
		x := binary.BigEndian.Uint64(mac.Sum(nil)[:8])
		// x < limit  <=>  x < 2^64 - rem; with rem == 0 every x is accepted.
		if rem == 0 || x < -rem {
			return x % n, attempt
		}
	}
}
