package proving

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
)

// DiscordToken is the bot token the fake accepts.
const DiscordToken = "proving-bot-token"

// Discord is a loopback server speaking Discord's Create Message route
// (POST /api/v10/channels/{channel.id}/messages) with enforce_nonce, as
// internal/announce's tests do: it records every message created and every
// delivery attempt, by channel and nonce, so the checks can tell "posted
// once" from "delivered again and deduplicated by the nonce".
type Discord struct {
	srv *httptest.Server
	mu  sync.Mutex
	// created counts messages created per channel/nonce (must be 1);
	// requests counts deliveries per channel/nonce (at least 1).
	created, requests map[string]int
	byChannel         map[string][]string
}

// NewDiscord starts the fake on a loopback port; Close stops it.
func NewDiscord() *Discord {
	d := &Discord{created: map[string]int{}, requests: map[string]int{}, byChannel: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v10/channels/{channel}/messages", d.create)
	d.srv = httptest.NewServer(mux)
	return d
}

// URL is the API base to configure (announce.Discord.BaseURL,
// CROUPIER_DISCORD_API_BASE).
func (d *Discord) URL() string { return d.srv.URL + "/api/v10" }

// Close stops the server.
func (d *Discord) Close() { d.srv.Close() }

func (d *Discord) create(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+DiscordToken {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message": "401: Unauthorized", "code": 0}`)
		return
	}
	var m struct {
		Content      string `json:"content"`
		Nonce        string `json:"nonce"`
		EnforceNonce bool   `json:"enforce_nonce"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil || m.Content == "" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message": "Invalid Form Body", "code": 50035}`)
		return
	}
	ch := r.PathValue("channel")
	k := ch + "/" + m.Nonce
	d.mu.Lock()
	defer d.mu.Unlock()
	d.requests[k]++
	if d.created[k] > 0 && m.EnforceNonce && m.Nonce != "" {
		fmt.Fprintf(w, `{"id": "%d", "channel_id": "%s"}`, d.created[k], ch)
		return
	}
	d.created[k]++
	if d.created[k] == 1 {
		d.byChannel[ch] = append(d.byChannel[ch], m.Nonce)
	}
	fmt.Fprintf(w, `{"id": "%d", "channel_id": "%s"}`, len(d.byChannel[ch]), ch)
}

// Created is how many messages were created in channel with nonce.
func (d *Discord) Created(channel, nonce string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.created[channel+"/"+nonce]
}

// Nonces lists the nonces of the messages created in channel.
func (d *Discord) Nonces(channel string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := append([]string(nil), d.byChannel[channel]...)
	sort.Strings(out)
	return out
}

// Deliveries returns the messages created and the delivery requests
// answered, over every channel.
func (d *Discord) Deliveries() (created, requests int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range d.created {
		created += n
	}
	for _, n := range d.requests {
		requests += n
	}
	return created, requests
}
