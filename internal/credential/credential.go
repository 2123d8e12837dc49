// Package credential is what a bridge's credential may do: each JSON API key
// and each bridge signing secret names the identities it may act for and,
// optionally, the games it may touch. A key that names no scope is refused
// at start-up, so acting for anyone is always an explicit choice (as=*).
//
// The configuration syntax (CROUPIER_API_KEYS, API_KEYS, --api-key,
// CROUPIER_BRIDGE_SECRETS, BRIDGE_SECRETS; docs/operations.md "Credentials")
// is a list of entries separated by commas or newlines:
//
//	<key> as=<identities> [games=<games>]
//
//	key         sha256:<64 hex digits>, the SHA-256 of the bearer key (what
//	            a deployment should store), or the key itself; a bridge
//	            secret is always the secret itself (an HMAC needs it)
//	identities  one or more of, separated by |:
//	              *              anyone (an unscoped credential)
//	              discord:       every identity of the platform discord
//	              discord:1234   exactly discord:1234
//	              discord:12*    the discord identities whose id starts with 12
//	games       one or more of, separated by |: a game id (hall), a prefix
//	            (league-*), or * (every game, the default)
//
// For example
//
//	sha256:9f86d0…0f00a08 as=discord:|slack:T01* games=hall, sha256:3c9a…e1 as=*
//
// Several entries may hold the same scope under different keys: that is how
// a key is rotated without downtime (add the new one, move the bridge,
// remove the old one).
package credential

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Scope is what a credential may act for.
type Scope struct {
	actors []pattern
	games  []pattern // nil: every game
}

// pattern matches a value exactly or, with prefix, every value starting
// with s ("*" is the prefix "").
type pattern struct {
	s      string
	prefix bool
}

func (p pattern) match(v string) bool {
	if p.prefix {
		return strings.HasPrefix(v, p.s)
	}
	return v == p.s
}

func (p pattern) String() string {
	if p.prefix {
		return p.s + "*"
	}
	return p.s
}

// Everyone is the unscoped scope: any identity, any game (as=*).
var Everyone = Scope{actors: []pattern{{prefix: true}}}

var (
	platformRe     = regexp.MustCompile(`^[a-z][a-z0-9-]{1,15}$`)
	identityTailRe = regexp.MustCompile(`^[A-Za-z0-9._@-]{0,64}$`)
	gameRe         = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	gamePrefixRe   = regexp.MustCompile(`^[a-z0-9-]{0,62}$`)
)

// ParseScope reads the values of as= and games= ("" games: every game).
func ParseScope(as, games string) (Scope, error) {
	var s Scope
	if as == "" {
		return s, errors.New("as= names no identity: give *, a platform (discord:), an identity (discord:1234) or a prefix (discord:12*)")
	}
	for a := range strings.SplitSeq(as, "|") {
		p, err := actorPattern(a)
		if err != nil {
			return Scope{}, err
		}
		s.actors = append(s.actors, p)
	}
	if games == "" || games == "*" {
		return s, nil
	}
	for g := range strings.SplitSeq(games, "|") {
		p, err := gamePattern(g)
		if err != nil {
			return Scope{}, err
		}
		s.games = append(s.games, p)
	}
	return s, nil
}

func actorPattern(a string) (pattern, error) {
	if a == "*" {
		return pattern{prefix: true}, nil
	}
	platform, id, ok := strings.Cut(a, ":")
	if !ok || !platformRe.MatchString(platform) {
		return pattern{}, fmt.Errorf("as=%q is not *, a platform (discord:), an identity (discord:1234) or a prefix (discord:12*)", a)
	}
	id, prefix := strings.CutSuffix(id, "*")
	if id == "" {
		prefix = true // "discord:" is the whole platform
	}
	if !identityTailRe.MatchString(id) {
		return pattern{}, fmt.Errorf("as=%q: %q is not a platform user id (A-Z a-z 0-9 . _ @ -)", a, id)
	}
	return pattern{s: platform + ":" + id, prefix: prefix}, nil
}

func gamePattern(g string) (pattern, error) {
	if g == "*" {
		return pattern{prefix: true}, nil
	}
	if p, ok := strings.CutSuffix(g, "*"); ok && gamePrefixRe.MatchString(p) {
		return pattern{s: p, prefix: true}, nil
	}
	if !gameRe.MatchString(g) {
		return pattern{}, fmt.Errorf("games=%q is not a game id (lower-case letters, digits, -), a prefix (league-*) or *", g)
	}
	return pattern{s: g}, nil
}

// Actor reports whether the credential may act for identity id.
func (s Scope) Actor(id string) bool {
	for _, p := range s.actors {
		if p.match(id) {
			return true
		}
	}
	return false
}

// Platform reports whether the credential may act for some identity of
// platform: a bridge may only name a platform its secret is for.
func (s Scope) Platform(platform string) bool {
	for _, p := range s.actors {
		if p.s == "" && p.prefix || strings.HasPrefix(p.s, platform+":") {
			return true
		}
	}
	return false
}

// Game reports whether the credential may touch game.
func (s Scope) Game(game string) bool {
	if s.games == nil {
		return true
	}
	for _, p := range s.games {
		if p.match(game) {
			return true
		}
	}
	return false
}

// EveryGame reports whether the credential may touch every game (what
// moving the dev clock, which moves every game, needs).
func (s Scope) EveryGame() bool { return s.games == nil }

// String is the scope in the configuration syntax.
func (s Scope) String() string {
	out := "as=" + join(s.actors)
	if s.games != nil {
		out += " games=" + join(s.games)
	}
	return out
}

func join(ps []pattern) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// Key is a bearer API key, kept only as its SHA-256, and its scope.
type Key struct {
	Hash  [32]byte
	Scope Scope
}

// ID names the key in logs without revealing it: the first 12 hex digits
// of its SHA-256 (what `printf %s "$KEY" | sha256sum` starts with).
func (k Key) ID() string { return hex.EncodeToString(k.Hash[:6]) }

// HashOf is the SHA-256 of a bearer key.
func HashOf(key string) [32]byte { return sha256.Sum256([]byte(key)) }

// AnyKey is key with the unscoped scope: "<key> as=*" in the syntax. Tests
// and the local development key use it.
func AnyKey(key string) Key { return Key{Hash: HashOf(key), Scope: Everyone} }

// Keys is a set of accepted keys.
type Keys []Key

// Find returns the key matching the presented token. It compares the
// token's SHA-256 with every key in constant time, so neither the answer's
// timing nor which key matched tells an attacker anything.
func (ks Keys) Find(token string) (Key, bool) {
	sum := HashOf(token)
	found := -1
	for i := range ks {
		if subtle.ConstantTimeCompare(sum[:], ks[i].Hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return Key{}, false
	}
	return ks[found], true
}

// Has reports whether key is one of ks.
func (ks Keys) Has(key string) bool {
	_, ok := ks.Find(key)
	return ok
}

// ParseKeys reads a list of API key entries. Every problem is reported,
// each naming its entry by position, never by its key.
func ParseKeys(list string) (Keys, error) {
	var out Keys
	err := parse(list, func(n int, key string, s Scope) error {
		var k Key
		if hexs, ok := strings.CutPrefix(key, "sha256:"); ok {
			b, err := hex.DecodeString(hexs)
			if err != nil || len(b) != 32 {
				return fmt.Errorf("entry %d: sha256: must be followed by the 64 hex digits of the key's SHA-256", n)
			}
			copy(k.Hash[:], b)
		} else {
			k.Hash = HashOf(key)
		}
		k.Scope = s
		out = append(out, k)
		return nil
	})
	return out, err
}

// Secret is a bridge's signing secret and its scope.
type Secret struct {
	Value []byte
	Scope Scope
}

// ParseSecrets reads a list of bridge secret entries (the same syntax as
// keys, but the secret itself: an HMAC cannot be checked against a hash).
func ParseSecrets(list string) ([]Secret, error) {
	var out []Secret
	err := parse(list, func(n int, key string, s Scope) error {
		if strings.HasPrefix(key, "sha256:") {
			return fmt.Errorf("entry %d: a bridge secret cannot be given as its sha256: the server needs the secret itself to check an HMAC", n)
		}
		out = append(out, Secret{Value: []byte(key), Scope: s})
		return nil
	})
	return out, err
}

// parse splits list into entries and each entry into key and scope.
func parse(list string, add func(n int, key string, s Scope) error) error {
	var errs []error
	n := 0
	for entry := range strings.FieldsFuncSeq(list, func(r rune) bool { return r == ',' || r == '\n' }) {
		fields := strings.Fields(entry)
		if len(fields) == 0 {
			continue
		}
		n++
		key, as, games := fields[0], "", ""
		var seen = map[string]bool{}
		bad := false
		for i, f := range fields[1:] {
			name, v, ok := strings.Cut(f, "=")
			if !ok || (name != "as" && name != "games") {
				// Not quoted: a key with a space in it would show its tail.
				errs = append(errs, fmt.Errorf("entry %d: word %d is not as=... or games=... (a key holds no spaces)", n, i+2))
				bad = true
				continue
			}
			if seen[name] {
				errs = append(errs, fmt.Errorf("entry %d: %s= is given twice; join the values with |", n, name))
				bad = true
				continue
			}
			seen[name] = true
			if name == "as" {
				as = v
			} else {
				games = v
				if v == "" {
					errs = append(errs, fmt.Errorf("entry %d: games= names no game; leave it out for every game", n))
					bad = true
				}
			}
		}
		if bad {
			continue
		}
		if !seen["as"] {
			errs = append(errs, fmt.Errorf("entry %d names no scope: append as=<identities> (as=* to act for anyone, as=discord: for every Discord user)", n))
			continue
		}
		s, err := ParseScope(as, games)
		if err != nil {
			errs = append(errs, fmt.Errorf("entry %d: %w", n, err))
			continue
		}
		if err := add(n, key, s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
