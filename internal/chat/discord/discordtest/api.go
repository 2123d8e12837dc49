package discordtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// API is a loopback Discord speaking the REST routes an interaction's
// answer uses, as Discord documents them:
//
//	PATCH /api/v10/channels/{channel.id}/messages/{message.id}   Edit Message (bot token)
//	PATCH /api/v10/webhooks/{application.id}/{token}/messages/@original   Edit Original Interaction Response (no auth)
//
// A message edit without "Authorization: Bot <token>" is answered 401, one
// whose body is not a JSON message 400, as Discord does; every accepted
// edit is recorded with its decoded message.
type API struct {
	t     testing.TB
	token string
	srv   *httptest.Server
	mu    sync.Mutex
	edits []Edit
	// refused counts the message edits answered 401.
	refused int
}

// Edit is one accepted edit: Channel and Message for Edit Message, Path
// for an interaction webhook's.
type Edit struct {
	Channel, Message string
	Path             string
	Msg              Msg
}

// Msg is a message body as the fake decoded it.
type Msg struct {
	Content    string  `json:"content"`
	Flags      int     `json:"flags"`
	Embeds     []Embed `json:"embeds"`
	Components []struct {
		Type       int      `json:"type"`
		Components []Button `json:"components"`
	} `json:"components"`
}

// Embed is a message embed's text.
type Embed struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Fields      []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"fields"`
}

// Button is a component of an action row.
type Button struct {
	Type     int    `json:"type"`
	Label    string `json:"label"`
	CustomID string `json:"custom_id"`
}

// Text is the message's content, embed titles, descriptions and fields.
func (m Msg) Text() string {
	s := m.Content
	for _, e := range m.Embeds {
		s += "\n" + e.Title + "\n" + e.Description
		for _, f := range e.Fields {
			s += "\n" + f.Name + ": " + f.Value
		}
	}
	return s
}

// Buttons are the labels of the message's buttons, in order.
func (m Msg) Buttons() []string {
	var out []string
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Type == 2 {
				out = append(out, c.Label)
			}
		}
	}
	return out
}

// Button returns the custom_id of the first button whose label starts
// with label ("" when none).
func (m Msg) Button(label string) string {
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.Type == 2 && strings.HasPrefix(c.Label, label) {
				return c.CustomID
			}
		}
	}
	return ""
}

// NewAPI starts a fake that accepts the bot token; it stops with the test.
func NewAPI(t testing.TB, token string) *API {
	f := &API{t: t, token: token}
	mux := http.NewServeMux()
	mux.HandleFunc("PATCH /api/v10/channels/{channel}/messages/{message}", f.editMessage)
	mux.HandleFunc("PATCH /api/v10/webhooks/{app}/{token}/messages/{message}", f.editWebhook)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

// Base is the root to give discord.Client (DISCORD_API_BASE).
func (f *API) Base() string { return f.srv.URL + "/api/v10" }

// Edits returns the accepted edits of a channel message, oldest first.
func (f *API) Edits(channel, message string) []Msg {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Msg
	for _, e := range f.edits {
		if e.Channel == channel && e.Message == message {
			out = append(out, e.Msg)
		}
	}
	return out
}

// All returns every accepted edit, oldest first.
func (f *API) All() []Edit {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Edit(nil), f.edits...)
}

// Originals returns the edits of an interaction's original response
// (its token), oldest first.
func (f *API) Originals(app, token string) []Msg {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Msg
	for _, e := range f.edits {
		if e.Path == "/webhooks/"+app+"/"+token+"/messages/@original" {
			out = append(out, e.Msg)
		}
	}
	return out
}

// Refused is how many message edits lacked the bot token.
func (f *API) Refused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.refused
}

func (f *API) decode(w http.ResponseWriter, r *http.Request) (Msg, bool) {
	var m Msg
	body, err := io.ReadAll(r.Body)
	if err != nil || r.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &m) != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message": "Cannot send an empty message", "code": 50006}`)
		return m, false
	}
	if !strings.HasPrefix(r.Header.Get("User-Agent"), "DiscordBot (") {
		f.t.Errorf("User-Agent %q is not DiscordBot (url, version)", r.Header.Get("User-Agent"))
	}
	return m, true
}

func (f *API) editMessage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+f.token {
		f.mu.Lock()
		f.refused++
		f.mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message": "401: Unauthorized", "code": 0}`)
		return
	}
	m, ok := f.decode(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	f.edits = append(f.edits, Edit{Channel: r.PathValue("channel"), Message: r.PathValue("message"), Msg: m})
	f.mu.Unlock()
	_ = json.NewEncoder(w).Encode(map[string]any{"id": r.PathValue("message"), "channel_id": r.PathValue("channel"), "content": m.Content})
}

func (f *API) editWebhook(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	m, ok := f.decode(w, r)
	if !ok {
		return
	}
	f.mu.Lock()
	f.edits = append(f.edits, Edit{Path: strings.TrimPrefix(r.URL.Path, "/api/v10"), Msg: m})
	f.mu.Unlock()
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "1", "content": m.Content})
}
