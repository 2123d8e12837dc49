package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Acceptance 4: `croupier discord register` against a loopback server
// speaking Discord's commands routes; the second run sends nothing.
func TestDiscordRegisterIdempotent(t *testing.T) {
	var mu sync.Mutex
	var stored []byte
	var puts int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/applications/4242/guilds/900/commands" || r.Header.Get("Authorization") != "Bot tok" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		switch r.Method {
		case http.MethodGet:
			if stored == nil {
				_, _ = w.Write([]byte("[]"))
				return
			}
			_, _ = w.Write(stored)
		case http.MethodPut:
			puts++
			stored, _ = io.ReadAll(r.Body)
			_, _ = w.Write(stored)
		}
	}))
	defer srv.Close()
	run := func() (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(k string) string {
			return map[string]string{"DISCORD_BOT_TOKEN": "tok"}[k]
		}}
		code := e.run([]string{"discord", "register", "--app-id", "4242", "--guild", "900", "--api-base", srv.URL})
		return code, out.String(), errb.String()
	}
	code, out, errs := run()
	if code != 0 || !strings.Contains(out, "registered") || !strings.Contains(out, "in server 900") {
		t.Fatalf("first run: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, errs = run()
	if code != 0 || !strings.Contains(out, "already up to date: nothing sent") {
		t.Fatalf("second run: exit %d, out %q, err %q", code, out, errs)
	}
	if puts != 1 {
		t.Errorf("%d overwrites, want 1", puts)
	}
	if !bytes.Contains(stored, []byte(`"name":"trade"`)) || !bytes.Contains(stored, []byte(`"Submit as proposal"`)) {
		t.Errorf("registered %s", stored)
	}
	var errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: io.Discard, stderr: &errb, getenv: func(string) string { return "" }}
	if code := e.run([]string{"discord", "register"}); code != exitUsage || !strings.Contains(errb.String(), "DISCORD_BOT_TOKEN") {
		t.Errorf("without credentials: exit %d, %q", code, errb.String())
	}
}
