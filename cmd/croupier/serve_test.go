package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startServe runs `croupier serve args...` (the command's own entry, as
// main runs it) with the environment vars until the test ends, and returns
// the address it listens on and its log so far.
func startServe(t *testing.T, vars map[string]string, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	addrCh := make(chan string, 1)
	e := &env{ctx: ctx, stdout: io.Discard, stderr: logs, getenv: func(k string) string { return vars[k] },
		onListen: func(a string) { addrCh <- a }}
	done := make(chan int, 1)
	args = append([]string{"serve", "--data", filepath.Join(t.TempDir(), "s.db")}, args...)
	go func() { done <- e.run(args) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Errorf("serve did not stop within 15s of cancel:\n%s", logs)
		}
	})
	select {
	case addr := <-addrCh:
		return addr, logs
	case code := <-done:
		t.Fatalf("croupier %s exited %d, want it serving:\n%s", strings.Join(args, " "), code, logs)
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not listen within 10s:\n%s", logs)
	}
	return "", nil
}

// status is the status of an authenticated read with key on the server at
// addr: 404 (no such game) means the key was accepted, 401 refused.
func status(t *testing.T, addr, key string) int {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	req, _ := http.NewRequest("GET", "http://"+net.JoinHostPort(host, port)+"/v1/games/none", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestServeFailsClosed is issue 11's acceptance 5: `croupier serve` refuses
// every insecure combination of address, keys and clock with a message
// naming what to set, and changes nothing by refusing.
func TestServeFailsClosed(t *testing.T) {
	cases := []struct {
		name string
		vars map[string]string
		args []string
		code int
		want []string
	}{
		{"all interfaces without a key", nil, []string{"--addr", ":0"}, 1,
			[]string{"refusing to serve :0 without an API key", "reachable from other machines", "Set --api-key or CROUPIER_API_KEYS", "--addr 127.0.0.1:8080"}},
		{"a public address without a key", nil, []string{"--addr", "0.0.0.0:0"}, 1, []string{"refusing to serve 0.0.0.0:0 without an API key"}},
		{"--api-key given empty", nil, []string{"--api-key", ""}, 2, []string{"--api-key is set but holds no key (an unset shell variable?)"}},
		{"--api-key given blank", nil, []string{"--api-key", " , "}, 2, []string{"--api-key is set but holds no key"}},
		{"CROUPIER_API_KEYS blank", map[string]string{"CROUPIER_API_KEYS": " "}, nil, 2, []string{"CROUPIER_API_KEYS is set but holds no key"}},
		{"dev-key with the real clock", nil, []string{"--api-key", "dev-key as=*"}, 1,
			[]string{`refusing to accept the public development key "dev-key" with the real clock`, "--clock manual", "--insecure-dev-key"}},
		{"dev-key from the environment with the real clock", map[string]string{"CROUPIER_API_KEYS": "dev-key as=*"}, nil, 1,
			[]string{`public development key "dev-key" with the real clock`}},
		// dev-key is refused however it is written, its hash included.
		{"dev-key given as its hash", nil, []string{"--api-key", "sha256:" + hexSHA256(devAPIKey) + " as=discord:"}, 1,
			[]string{`public development key "dev-key" with the real clock`}},
		{"manual clock on a public address, no key", nil, []string{"--addr", "0.0.0.0:0", "--clock", "manual"}, 1,
			[]string{"refusing to serve 0.0.0.0:0 without an API key"}},
		{"--insecure-dev-key on a public address, no key", nil, []string{"--addr", "0.0.0.0:0", "--insecure-dev-key"}, 1,
			[]string{"refusing to serve 0.0.0.0:0 without an API key"}},
		{"dev-key beside a real key on a public address", nil, []string{"--addr", "0.0.0.0:0", "--clock", "manual", "--api-key", "a-real-key-0123456789 as=*, dev-key as=*"}, 1,
			[]string{`refusing to accept the public development key "dev-key" on 0.0.0.0:0`, "--insecure-dev-key"}},
		{"a key without a scope", nil, []string{"--api-key", "bare-key-0123456789"}, 2,
			[]string{"--api-key: entry 1 names no scope: append as=<identities> (as=* to act for anyone"}},
		{"a bridge secret without a scope", map[string]string{"CROUPIER_BRIDGE_SECRETS": "relay-secret"}, nil, 2,
			[]string{"CROUPIER_BRIDGE_SECRETS: entry 1 names no scope"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "s.db")
			r := runCLI(c.vars, append([]string{"serve", "--data", data}, c.args...)...)
			if r.code != c.code {
				t.Fatalf("croupier serve %s: exit %d, want %d\n%s", strings.Join(c.args, " "), r.code, c.code, r)
			}
			contains(t, "refusal", r.stderr, c.want...)
			for _, secret := range []string{"bare-key-0123456789", "a-real-key-0123456789", "relay-secret"} {
				if strings.Contains(r.stderr, secret) {
					t.Errorf("the refusal shows a secret: %s", r.stderr)
				}
			}
			if strings.Contains(r.stderr, "croupier listening") {
				t.Errorf("a refused server said it was listening:\n%s", r.stderr)
			}
		})
	}
}

// TestServeSafeDefaults: the safe combinations start and say what they
// accept; nothing configured means loopback only.
func TestServeSafeDefaults(t *testing.T) {
	cfg, err := (&env{getenv: func(string) string { return "" }, stderr: io.Discard}).serveConfig(nil)
	if err != nil || cfg.addr != "127.0.0.1:8080" {
		t.Errorf("the default address is %q (%v), want loopback 127.0.0.1:8080", cfg.addr, err)
	}

	t.Run("loopback, real clock, no key: a key for this run only", func(t *testing.T) {
		addr, logs := startServe(t, nil, "--addr", "127.0.0.1:0")
		contains(t, "serve log", logs.String(), "listening on loopback only: other machines cannot reach this server",
			"no API key configured: this run accepts the key")
		m := regexp.MustCompile(`accepts the key ([0-9a-f]{48}) only`).FindStringSubmatch(logs.String())
		if m == nil {
			t.Fatalf("no generated key in the log:\n%s", logs)
		}
		if s := status(t, addr, m[1]); s != http.StatusNotFound {
			t.Errorf("the generated key: %d, want it accepted (404 for the missing game)", s)
		}
		if s := status(t, addr, devAPIKey); s != http.StatusUnauthorized {
			t.Errorf("dev-key with the real clock: %d, want 401", s)
		}
	})
	t.Run("loopback, manual clock: dev-key", func(t *testing.T) {
		addr, logs := startServe(t, nil, "--addr", "127.0.0.1:0", "--clock", "manual")
		contains(t, "serve log", logs.String(), "listening on loopback only", `accepting the development key \"dev-key\"`)
		if s := status(t, addr, devAPIKey); s != http.StatusNotFound {
			t.Errorf("dev-key with the manual clock: %d, want accepted", s)
		}
	})
	t.Run("--insecure-dev-key: dev-key with the real clock", func(t *testing.T) {
		addr, logs := startServe(t, nil, "--addr", "127.0.0.1:0", "--insecure-dev-key")
		contains(t, "serve log", logs.String(), `accepting the development key \"dev-key\"`, "mode=real")
		if s := status(t, addr, devAPIKey); s != http.StatusNotFound {
			t.Errorf("dev-key with --insecure-dev-key: %d, want accepted", s)
		}
	})
	t.Run("all interfaces with a real key", func(t *testing.T) {
		key := "a-long-random-key-0123456789abcdef"
		addr, logs := startServe(t, map[string]string{"CROUPIER_API_KEYS": "sha256:" + hexSHA256(key) + " as=*"}, "--addr", ":0")
		contains(t, "serve log", logs.String(), "API keys configured", "count=1")
		if strings.Contains(logs.String(), "loopback only") {
			t.Errorf("a server on all interfaces says it is loopback only:\n%s", logs)
		}
		if s := status(t, addr, key); s != http.StatusNotFound {
			t.Errorf("the configured key: %d, want accepted", s)
		}
		if s := status(t, addr, devAPIKey); s != http.StatusUnauthorized {
			t.Errorf("dev-key: %d, want 401", s)
		}
	})
}

func hexSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
