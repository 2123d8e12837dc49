package credential_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"croupier/internal/credential"
)

func TestScopeMatches(t *testing.T) {
	cases := []struct {
		as, games string
		actor     map[string]bool
		platform  map[string]bool
		game      map[string]bool
	}{
		{"*", "", map[string]bool{"discord:1": true, "slack:U1": true}, map[string]bool{"discord": true, "matrix": true},
			map[string]bool{"hall": true, "other": true}},
		{"slack:", "", map[string]bool{"slack:U1": true, "discord:1": false, "slacker:U1": false},
			map[string]bool{"slack": true, "discord": false, "slacker": false}, map[string]bool{"hall": true}},
		{"discord:1234", "hall", map[string]bool{"discord:1234": true, "discord:12345": false, "discord:123": false},
			map[string]bool{"discord": true, "slack": false}, map[string]bool{"hall": true, "hall-2": false, "other": false}},
		{"discord:12*|matrix:@bot.", "league-*|hall", map[string]bool{"discord:12": true, "discord:129": true, "discord:21": false,
			"matrix:@bot.": true, "matrix:@bot.x": false},
			map[string]bool{"discord": true, "matrix": true, "slack": false},
			map[string]bool{"league-": true, "league-7": true, "hall": true, "halls": false, "league": false}},
	}
	for _, c := range cases {
		s, err := credential.ParseScope(c.as, c.games)
		if err != nil {
			t.Fatalf("as=%s games=%s: %v", c.as, c.games, err)
		}
		for id, want := range c.actor {
			if s.Actor(id) != want {
				t.Errorf("as=%s: Actor(%s) = %v, want %v", c.as, id, !want, want)
			}
		}
		for p, want := range c.platform {
			if s.Platform(p) != want {
				t.Errorf("as=%s: Platform(%s) = %v, want %v", c.as, p, !want, want)
			}
		}
		for g, want := range c.game {
			if s.Game(g) != want {
				t.Errorf("games=%s: Game(%s) = %v, want %v", c.games, g, !want, want)
			}
		}
		if s.EveryGame() != (c.games == "") {
			t.Errorf("games=%q: EveryGame = %v", c.games, s.EveryGame())
		}
	}
}

func TestParseKeys(t *testing.T) {
	sum := sha256.Sum256([]byte("the-real-key"))
	list := "plain-key as=slack:, sha256:" + hex.EncodeToString(sum[:]) + " as=discord:1|discord:2* games=hall\n  ,\nopen as=*"
	ks, err := credential.ParseKeys(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(ks) != 3 {
		t.Fatalf("%d keys, want 3", len(ks))
	}
	for _, c := range []struct {
		token, scope string
		ok           bool
	}{
		{"plain-key", "as=slack:*", true},
		{"the-real-key", "as=discord:1|discord:2* games=hall", true},
		{"open", "as=*", true},
		{"sha256:" + hex.EncodeToString(sum[:]), "", false}, // the hash is not the key
		{"plain-key ", "", false},
		{"", "", false},
	} {
		k, ok := ks.Find(c.token)
		if ok != c.ok || (ok && k.Scope.String() != c.scope) {
			t.Errorf("Find(%q) = %v %q, want %v %q", c.token, ok, k.Scope, c.ok, c.scope)
		}
	}
	if got := ks[1].ID(); got != hex.EncodeToString(sum[:])[:12] {
		t.Errorf("ID = %s, want the hash's first 12 hex digits", got)
	}
	if ks, err := credential.ParseKeys(" , \n "); err != nil || len(ks) != 0 {
		t.Errorf("a blank list: %v %v, want no keys and no error", ks, err)
	}
}

// Every mistake is reported, by entry number, without the key.
func TestParseKeysRefuses(t *testing.T) {
	for list, want := range map[string]string{
		"secret-one":                         "entry 1 names no scope: append as=<identities> (as=* to act for anyone",
		"k as=* , secret-two":                "entry 2 names no scope",
		"k as=":                              "as= names no identity",
		"k as=discord":                       `as="discord" is not *, a platform`,
		"k as=Discord:1":                     `as="Discord:1" is not *`,
		"k as=discord:1/2":                   `is not a platform user id`,
		"k as=* games=":                      "games= names no game",
		"k as=* games=Hall":                  `games="Hall" is not a game id`,
		"k as=* as=slack:":                   "as= is given twice",
		"has tailword as=*":                  "word 2 is not as=... or games=...",
		"sha256:abcd as=*":                   "sha256: must be followed by the 64 hex digits",
		"k as=discord: games=hall extra=yes": "word 4 is not as=",
	} {
		_, err := credential.ParseKeys(list)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKeys(%q) = %v, want an error containing %q", list, err, want)
			continue
		}
		for _, secret := range []string{"secret-one", "secret-two", "tailword"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("ParseKeys(%q): error %q shows the key", list, err)
			}
		}
	}
}

func TestParseSecrets(t *testing.T) {
	ss, err := credential.ParseSecrets("relay-secret as=matrix:, old-secret as=matrix: games=hall")
	if err != nil || len(ss) != 2 || string(ss[0].Value) != "relay-secret" || !ss[1].Scope.Platform("matrix") || ss[1].Scope.Game("other") {
		t.Fatalf("ParseSecrets: %+v %v", ss, err)
	}
	if _, err := credential.ParseSecrets("sha256:" + strings.Repeat("0", 64) + " as=*"); err == nil || !strings.Contains(err.Error(), "needs the secret itself") {
		t.Errorf("a hashed bridge secret: %v, want a refusal", err)
	}
	if _, err := credential.ParseSecrets("bare-secret"); err == nil || !strings.Contains(err.Error(), "names no scope") {
		t.Errorf("an unscoped bridge secret: %v, want a refusal", err)
	}
}

// FuzzParseKeys: any list is parsed or refused without a panic, a refusal
// never shows an entry's key, and every scope accepted reads back the same
// from its own String.
func FuzzParseKeys(f *testing.F) {
	f.Add("k as=*")
	f.Add("sha256:" + strings.Repeat("ab", 32) + " as=discord:1|slack: games=hall|league-*")
	f.Add("k as=discord:12* games=*, other as=matrix:@a.b")
	f.Add("k as=|")
	f.Fuzz(func(t *testing.T, list string) {
		ks, err := credential.ParseKeys(list)
		if err != nil {
			return
		}
		for _, k := range ks {
			as, games, _ := strings.Cut(strings.TrimPrefix(k.Scope.String(), "as="), " games=")
			again, err := credential.ParseScope(as, games)
			if err != nil || again.String() != k.Scope.String() {
				t.Fatalf("scope %q reads back as %q (%v)", k.Scope, again, err)
			}
		}
	})
}

// BenchmarkKeysFind is the cost of authenticating one request against ten
// configured keys (every key is compared, in constant time).
func BenchmarkKeysFind(b *testing.B) {
	var list []string
	for i := range 10 {
		list = append(list, strings.Repeat(string(rune('a'+i)), 64)+" as=discord:")
	}
	ks, err := credential.ParseKeys(strings.Join(list, ","))
	if err != nil {
		b.Fatal(err)
	}
	token := strings.Repeat("j", 64)
	for b.Loop() {
		if _, ok := ks.Find(token); !ok {
			b.Fatal("not found")
		}
	}
}
