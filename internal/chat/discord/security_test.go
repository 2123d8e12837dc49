package discord_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

func TestPing(t *testing.T) {
	hs := newHarness(t)
	r := hs.send(map[string]any{"id": "1", "application_id": app, "type": discord.InteractionPing, "token": "t", "version": 1})
	if string(bytes.TrimSpace(r.Raw)) != `{"type":1}` {
		t.Errorf("PING answered %s, want {\"type\":1}", r.Raw)
	}
}

// snapshot is every stored item, to prove a refused request changed nothing.
func snapshot(t *testing.T, st store.Store) string {
	t.Helper()
	var b strings.Builder
	for _, pk := range []string{"GAME#hall", "BIND#discord:" + guild} {
		page, err := st.Query(context.Background(), store.Query{PK: pk, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			b.WriteString(it.Key.String() + string(it.Data) + "\n")
		}
	}
	return b.String()
}

// Acceptance 2: an invalid, missing or mismatched signature, or a stale
// timestamp, gets 401 and changes nothing.
func TestSignatureRefusedChangesNothing(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	body, _ := json.Marshal(slash("5001", ada, "join"))
	other, _ := json.Marshal(slash("5002", ada, "join", opt("name", "Mallory")))
	_, wrongKey, _ := ed25519.GenerateKey(nil)
	now := hs.clk.Now()
	before := snapshot(t, hs.st)

	for _, tc := range []struct {
		name   string
		body   []byte
		at     time.Time
		mutate func(h http.Header)
	}{
		{"missing signature", body, now, func(h http.Header) { h.Del("X-Signature-Ed25519") }},
		{"missing timestamp", body, now, func(h http.Header) { h.Del("X-Signature-Timestamp") }},
		{"no headers", body, now, func(h http.Header) { h.Del("X-Signature-Ed25519"); h.Del("X-Signature-Timestamp") }},
		{"signature not hex", body, now, func(h http.Header) { h.Set("X-Signature-Ed25519", "zz") }},
		{"signature flipped", body, now, func(h http.Header) {
			s := []byte(h.Get("X-Signature-Ed25519"))
			if s[10] == '0' {
				s[10] = '1'
			} else {
				s[10] = '0'
			}
			h.Set("X-Signature-Ed25519", string(s))
		}},
		{"signature of another body", body, now, func(h http.Header) {
			sig, _ := discordtest.Sign(now, other)
			h.Set("X-Signature-Ed25519", sig)
		}},
		{"timestamp changed after signing", body, now, func(h http.Header) {
			h.Set("X-Signature-Timestamp", h.Get("X-Signature-Timestamp")+"1")
		}},
		{"another key", body, now, func(h http.Header) {
			ts := h.Get("X-Signature-Timestamp")
			h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(wrongKey, append([]byte(ts), body...))))
		}},
		{"stale timestamp", body, now.Add(-5*time.Minute - time.Second), nil},
		{"far-future timestamp", body, now.Add(5*time.Minute + time.Second), nil},
	} {
		r := hs.sendRaw(tc.body, tc.at, tc.mutate)
		if r.Status != http.StatusUnauthorized {
			t.Errorf("%s: status %d, want 401 (%s)", tc.name, r.Status, r.Raw)
		}
	}
	if after := snapshot(t, hs.st); after != before {
		t.Errorf("refused requests changed the store:\nbefore %s\nafter %s", before, after)
	}
	if _, err := gildedhall.On(hs.svc).Player(context.Background(), "hall", "discord:"+ada); err == nil {
		t.Error("a refused join made a player")
	}
	// Just inside the window is fine.
	if r := hs.sendRaw(body, now.Add(-4*time.Minute), nil); r.Status != 200 {
		t.Errorf("a 4-minute-old request: %d %s", r.Status, r.Raw)
	}
}

func TestBodyTooLargeAndMethod(t *testing.T) {
	hs := newHarness(t)
	big := bytes.Repeat([]byte("x"), discord.MaxBody+1)
	if r := hs.sendRaw(big, hs.clk.Now(), nil); r.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: %d, want 413", r.Status)
	}
	w := httptest.NewRecorder()
	hs.h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/discord/interactions", nil))
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", w.Code)
	}
	// Signed but not JSON, or of an unknown type: 400, not 500.
	for _, b := range []string{"not json", `{"type":99,"id":"1"}`, `{"type":2,"id":"1","data":{"name":""},"member":{"user":{"id":"2"}}}`} {
		if r := hs.sendRaw([]byte(b), hs.clk.Now(), nil); r.Status != http.StatusBadRequest {
			t.Errorf("signed %q: %d, want 400", b, r.Status)
		}
	}
}

// Acceptance 2: a replayed interaction id returns the first reply, byte for
// byte, and changes nothing: for a purchase, and for a read whose answer
// would differ now.
func TestReplayReturnsFirstReply(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(ada, "join")
	hs.cmd(admin, "grant", userOpt("player", ada), opt("reason", "t"), opt("vertebrae", 20))

	status := slash("6001", ada, "status")
	first := hs.send(status)
	confirm := hs.cmd(ada, "buy", opt("item", "random-card")).button(t, "Buy for")
	press := interaction("6002", ada, discord.InteractionComponent, map[string]any{"custom_id": confirm, "component_type": 2})
	bought := hs.send(press)
	before := snapshot(t, hs.st)

	again := hs.send(press)
	if !bytes.Equal(again.Raw, bought.Raw) {
		t.Errorf("replayed purchase answered\n%s\nfirst\n%s", again.Raw, bought.Raw)
	}
	if v := hs.player(ada).Inventory.Vertebrae; v != 15 {
		t.Errorf("after a replayed purchase: %d Vertebrae, want 15 (one purchase)", v)
	}
	if after := snapshot(t, hs.st); after != before {
		t.Error("the replay changed the game")
	}
	if r := hs.send(status); !bytes.Equal(r.Raw, first.Raw) || !strings.Contains(r.all(), "Vertebrae: 20") {
		t.Errorf("replayed status answered %s, want the first answer (20 Vertebrae)", r.Raw)
	}
}

// FuzzInteractions: arbitrary headers and bodies never panic and never get
// a 500; unsigned ones are 401; signed ones are answered or refused 4xx.
func FuzzInteractions(f *testing.F) {
	seed, _ := json.Marshal(slash("7001", ada, "trade", sub("offer", userOpt("player", grace), opt("give_vertebrae", 1))))
	f.Add(seed, "", "", true)
	f.Add([]byte(`{"type":1}`), "00", "1", false)
	f.Add([]byte(`{"type":4,"id":"1","member":{"user":{"id":"2"}},"data":{"name":"buy","options":[{"name":"item","type":3,"value":"x","focused":true}]}}`), "", "", true)
	f.Add([]byte(`{"type":3,"id":"1","user":{"id":"2"},"data":{"custom_id":"a1:buy confirm?item=chip&quantity=99999"}}`), "", "", true)
	f.Add([]byte(`{"type":2,"id":"1","user":{"id":"2"},"data":{"name":"x","options":[{"type":1,"name":"y","options":[{"type":2,"name":"z","options":[{"type":1,"name":"w"}]}]}]}}`), "", "", true)
	hs := newHarness(f)
	hs.bind()
	f.Fuzz(func(t *testing.T, body []byte, sig, ts string, sign bool) {
		hs.t = t
		r := httptest.NewRequest(http.MethodPost, "/discord/interactions", bytes.NewReader(body))
		if sign {
			sig, ts = discordtest.Sign(hs.clk.Now(), body)
		}
		r.Header.Set("X-Signature-Ed25519", sig)
		r.Header.Set("X-Signature-Timestamp", ts)
		w := httptest.NewRecorder()
		hs.h.ServeHTTP(w, r)
		switch {
		case w.Code >= 500:
			t.Fatalf("status %d for body %q: %s", w.Code, body, w.Body)
		case !sign && w.Code != http.StatusUnauthorized && w.Code != http.StatusRequestEntityTooLarge:
			// A random signature can only match with negligible probability.
			t.Fatalf("unsigned request got %d", w.Code)
		case w.Code == 200 && !json.Valid(w.Body.Bytes()):
			t.Fatalf("200 with a non-JSON body %q", w.Body)
		}
	})
}
