package main

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/bridge"
	"croupier/internal/chat/discord/discordtest"
	slackchat "croupier/internal/chat/slack"
	"croupier/internal/credential"
)

// Issue 23 point 2 (acceptance 2): signatures are fresh by the wall clock,
// whatever the game's clock. A server whose manual clock starts a year
// away answers a Discord PING, a Slack command and a bridge command signed
// now, and refuses each signed six minutes ago (their windows are 5
// minutes), saying how old it is.
func TestServeChecksSignaturesAgainstTheWallClock(t *testing.T) {
	const bridgeSecret = "bridge-secret"
	h := newHarnessWith(t, "manual", func(c *serveConfig) {
		c.start = time.Now().UTC().AddDate(1, 0, 0).Truncate(time.Hour)
		c.discordKey, c.discordApp, c.slackSecret = discordtest.PublicKey(), "4242", slackSecret
		secrets, err := credential.ParseSecrets(bridgeSecret + " as=matrix:*")
		if err != nil {
			t.Fatal(err)
		}
		c.bridgeSecrets = secrets
	})
	if d := h.srv.manual.Now().Sub(time.Now()); d < 300*24*time.Hour {
		t.Fatalf("the game clock is %s from now; the test wants it a year away", d)
	}
	post := func(path, ctype string, body []byte, headers map[string]string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.ts.URL+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(raw)
	}
	stale := time.Now().Add(-6 * time.Minute)

	t.Run("discord", func(t *testing.T) {
		ping := []byte(`{"id":"1","application_id":"4242","type":1,"token":"t","version":1}`)
		for _, tc := range []struct {
			at   time.Time
			code int
			want string
		}{{time.Now(), http.StatusOK, `"type":1`}, {stale, http.StatusUnauthorized, "timestamp is 6m"}} {
			sig, ts := discordtest.Sign(tc.at, ping)
			code, raw := post("/discord/interactions", "application/json", ping, map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts})
			if code != tc.code || !strings.Contains(raw, tc.want) {
				t.Errorf("a PING signed %s ago: %d %s; want %d with %q", time.Since(tc.at).Round(time.Second), code, raw, tc.code, tc.want)
			}
		}
	})
	t.Run("slack", func(t *testing.T) {
		for i, tc := range []struct {
			at   time.Time
			code int
			want string
		}{{time.Now(), http.StatusOK, "croupier"}, {stale, http.StatusUnauthorized, "not signed by Slack"}} {
			form := url.Values{"team_id": {"T1"}, "channel_id": {"C0PLAY"}, "user_id": {"U1"}, "user_name": {"ada"},
				"command": {"/croupier"}, "text": {"help"}, "trigger_id": {"trig-wall-" + strconv.Itoa(i)}}.Encode()
			stamp := strconv.FormatInt(tc.at.Unix(), 10)
			code, raw := post("/slack/commands", "application/x-www-form-urlencoded", []byte(form), map[string]string{
				"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": slackchat.Sign([]byte(slackSecret), stamp, []byte(form))})
			if code != tc.code || !strings.Contains(strings.ToLower(raw), strings.ToLower(tc.want)) {
				t.Errorf("/croupier help signed %s ago: %d %s; want %d with %q", time.Since(tc.at).Round(time.Second), code, raw, tc.code, tc.want)
			}
		}
	})
	t.Run("bridge", func(t *testing.T) {
		for i, tc := range []struct {
			at   time.Time
			code int
		}{{time.Now(), http.StatusOK}, {stale, http.StatusUnauthorized}} {
			body := []byte(`{"id":"wall-` + strconv.Itoa(i) + `","platform":"matrix","space":"room1","user":"@ada","command":"help"}`)
			code, raw := post("/bridge/v1/commands", "application/json", body, map[string]string{bridge.Header: bridge.Sign([]byte(bridgeSecret), tc.at, body)})
			if code != tc.code {
				t.Errorf("a bridge help signed %s ago: %d %s; want %d", time.Since(tc.at).Round(time.Second), code, raw, tc.code)
			}
		}
	})
}
