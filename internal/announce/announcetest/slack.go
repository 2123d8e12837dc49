package announcetest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Slack serves Slack's Web API chat.postMessage and chat.update on
// loopback: bearer authorization, a JSON body, {"ok":false,"error":
// "channel_not_found"} for a channel it was not told about, 429s with
// Retry-After.
type Slack struct {
	token    string
	srv      *httptest.Server
	mu       sync.Mutex
	channels map[string]bool
	msgs     map[string][]SlackMessage
	updates  []SlackUpdate
	limits   int
}

// SlackUpdate is one chat.update as the fake received it.
type SlackUpdate struct {
	Channel string           `json:"channel"`
	TS      string           `json:"ts"`
	Text    string           `json:"text"`
	Blocks  []map[string]any `json:"blocks"`
}

// Updates returns the updates of the message at ts in channel, oldest first.
func (f *Slack) Updates(channel, ts string) []SlackUpdate {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []SlackUpdate
	for _, u := range f.updates {
		if u.Channel == channel && u.TS == ts {
			out = append(out, u)
		}
	}
	return out
}

// AllUpdates returns every update received, oldest first.
func (f *Slack) AllUpdates() []SlackUpdate {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]SlackUpdate(nil), f.updates...)
}

func (f *Slack) update(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		_, _ = io.WriteString(w, `{"ok":false,"error":"invalid_auth"}`)
		return
	}
	var u SlackUpdate
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&u); err != nil || u.TS == "" || u.Text == "" && len(u.Blocks) == 0 {
		_, _ = io.WriteString(w, `{"ok":false,"error":"invalid_arguments"}`)
		return
	}
	if !f.channels[u.Channel] {
		_, _ = io.WriteString(w, `{"ok":false,"error":"channel_not_found"}`)
		return
	}
	f.updates = append(f.updates, u)
	_, _ = io.WriteString(w, `{"ok":true,"channel":"`+u.Channel+`","ts":"`+u.TS+`","text":""}`)
}

// SlackMessage is one posted message as the fake received it.
type SlackMessage struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// NewSlack starts a fake that accepts the bot token and posts to the
// channels named; it stops with the test.
func NewSlack(t testing.TB, token string, channels ...string) *Slack {
	f := &Slack{token: token, channels: map[string]bool{}, msgs: map[string][]SlackMessage{}}
	for _, c := range channels {
		f.channels[c] = true
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/chat.postMessage", f.post)
	mux.HandleFunc("POST /api/chat.update", f.update)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// APIBase is the root to give announce.Slack (SLACK_API_BASE).
func (f *Slack) APIBase() string { return f.srv.URL + "/api" }

// Sent returns the messages posted to a channel, oldest first.
func (f *Slack) Sent(channel string) []SlackMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]SlackMessage(nil), f.msgs[channel]...)
}

// Limit answers the next n requests with 429 (Retry-After: 0).
func (f *Slack) Limit(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits += n
}

func (f *Slack) post(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if f.limits > 0 {
		f.limits--
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"ok":false,"error":"ratelimited"}`)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		_, _ = io.WriteString(w, `{"ok":false,"error":"invalid_auth"}`)
		return
	}
	var m SlackMessage
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&m); err != nil || m.Text == "" {
		_, _ = io.WriteString(w, `{"ok":false,"error":"invalid_arguments"}`)
		return
	}
	if !f.channels[m.Channel] {
		_, _ = io.WriteString(w, `{"ok":false,"error":"channel_not_found"}`)
		return
	}
	f.msgs[m.Channel] = append(f.msgs[m.Channel], m)
	_, _ = io.WriteString(w, `{"ok":true,"channel":"`+m.Channel+`","ts":"1.000`+"1"+`"}`)
}
