// Package announcetest is a loopback server speaking Discord's Create
// Message route, for tests of announcements in process and under the Lambda
// emulator (Discord cannot be reached from the test machines).
package announcetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// MaxContent is the most characters the fake accepts in one message
// (Discord's 2000, with room for multi-byte runes counted as bytes here).
const MaxContent = 4 * 2000

// Discord serves POST /api/v10/channels/{channel.id}/messages: bot
// authorization, a JSON body, enforce_nonce (a repeated nonce returns the
// message already created, as Discord does within its window), 429s with
// retry_after and scripted failures.
type Discord struct {
	t     testing.TB
	token string
	srv   *httptest.Server
	mu    sync.Mutex
	msgs  map[string][]Message // by channel
	// nonces maps channel/nonce to the message created with it.
	nonces map[string]int
	// limits are queued 429s: each request pops one (retry_after seconds).
	limits []float64
	// status, when set for a channel, is answered instead of creating.
	status map[string]int
	// fails, when set for a channel, is how many requests are answered 500.
	fails    map[string]int
	requests int
	// ok counts the requests answered 2xx, by channel: a post repeated
	// with the same nonce counts again, though it creates nothing.
	ok map[string]int
}

// Message is one created message as the fake received it.
type Message struct {
	Content         string `json:"content"`
	Nonce           string `json:"nonce"`
	EnforceNonce    bool   `json:"enforce_nonce"`
	AllowedMentions struct {
		Parse []string `json:"parse"`
		Users []string `json:"users"`
	} `json:"allowed_mentions"`
}

// New starts a fake that accepts the bot token; it stops with the test.
// Each wrap wraps its handler (a check of every request, such as
// discordspec.Recorder.Server), outermost first.
func New(t testing.TB, token string, wrap ...func(http.Handler) http.Handler) *Discord {
	f := &Discord{t: t, token: token, msgs: map[string][]Message{}, nonces: map[string]int{}, status: map[string]int{}, fails: map[string]int{}, ok: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v10/channels/{channel}/messages", f.create)
	var h http.Handler = mux
	for i := len(wrap) - 1; i >= 0; i-- {
		h = wrap[i](h)
	}
	f.srv = httptest.NewServer(h)
	t.Cleanup(f.srv.Close)
	return f
}

// APIBase is the root to give announce.Discord (DISCORD_API_BASE).
func (f *Discord) APIBase() string { return f.srv.URL + "/api/v10" }

// Sent returns the messages created in a channel, oldest first.
func (f *Discord) Sent(channel string) []Message {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Message(nil), f.msgs[channel]...)
}

// Accepted is how many posts to channel were answered 2xx, repeats of a
// nonce included: a test that claims "posted once" without relying on
// Discord's nonce window checks this too.
func (f *Discord) Accepted(channel string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ok[channel]
}

// Requests is how many Create Message requests arrived.
func (f *Discord) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// Limit queues 429 answers, one per request, with these retry_after seconds.
func (f *Discord) Limit(retryAfter ...float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits = append(f.limits, retryAfter...)
}

// Refuse answers every request for channel with status (403: missing
// access, a permanent refusal).
func (f *Discord) Refuse(channel string, status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status[channel] = status
}

// Fail answers the next n requests for channel with 500 (an outage).
func (f *Discord) Fail(channel string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails[channel] = n
}

func (f *Discord) create(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message": "401: Unauthorized", "code": 0}`)
		return
	}
	if !strings.HasPrefix(r.Header.Get("User-Agent"), "DiscordBot (") {
		f.t.Errorf("User-Agent %q is not DiscordBot (url, version)", r.Header.Get("User-Agent"))
	}
	if len(f.limits) > 0 {
		ra := f.limits[0]
		f.limits = f.limits[1:]
		w.Header().Set("Retry-After", fmt.Sprint(int(ra)+1))
		w.Header().Set("X-RateLimit-Scope", "user")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, `{"message": "You are being rate limited.", "retry_after": %g, "global": false}`, ra)
		return
	}
	ch := r.PathValue("channel")
	if s := f.status[ch]; s != 0 {
		w.WriteHeader(s)
		_, _ = io.WriteString(w, `{"message": "Missing Access", "code": 50001}`)
		return
	}
	if f.fails[ch] > 0 {
		f.fails[ch]--
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"message": "500: Internal Server Error", "code": 0}`)
		return
	}
	var m Message
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.Content == "" || len(m.Content) > MaxContent {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message": "Invalid Form Body", "code": 50035}`)
		return
	}
	if len(m.Nonce) > 25 {
		f.t.Errorf("nonce %q longer than Discord's 25 characters", m.Nonce)
	}
	f.ok[ch]++
	if i, ok := f.nonces[ch+"/"+m.Nonce]; ok && m.EnforceNonce {
		fmt.Fprintf(w, `{"id": "%d", "channel_id": "%s"}`, i, ch)
		return
	}
	f.msgs[ch] = append(f.msgs[ch], m)
	f.nonces[ch+"/"+m.Nonce] = len(f.msgs[ch])
	fmt.Fprintf(w, `{"id": "%d", "channel_id": "%s"}`, len(f.msgs[ch]), ch)
}
