package discordtest

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

// API is a loopback Discord speaking the REST routes an interaction's
// answer and the commands' registration use, as Discord documents them:
//
//	GET, PUT /api/v10/applications/{application.id}[/guilds/{guild.id}]/commands   (bot token)
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
	// commands holds each commands route's last overwrite, as Discord
	// lists it back.
	commands map[string][]byte
	puts     int
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
// Each wrap wraps its handler (a check of every request, such as
// discordspec.Recorder.Server), outermost first.
func NewAPI(t testing.TB, token string, wrap ...func(http.Handler) http.Handler) *API {
	f := &API{t: t, token: token, commands: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("PATCH /api/v10/channels/{channel}/messages/{message}", f.editMessage)
	mux.HandleFunc("PATCH /api/v10/webhooks/{app}/{token}/messages/{message}", f.editWebhook)
	mux.HandleFunc("GET /api/v10/applications/{app}/commands", f.listCommands)
	mux.HandleFunc("PUT /api/v10/applications/{app}/commands", f.putCommands)
	mux.HandleFunc("GET /api/v10/applications/{app}/guilds/{guild}/commands", f.listCommands)
	mux.HandleFunc("PUT /api/v10/applications/{app}/guilds/{guild}/commands", f.putCommands)
	var h http.Handler = mux
	for i := len(wrap) - 1; i >= 0; i-- {
		h = wrap[i](h)
	}
	f.srv = httptest.NewServer(h)
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

// Overwrites is how many bulk overwrites of commands were accepted.
func (f *API) Overwrites() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.puts
}

// Registered returns the commands last registered on a route ("" for the
// global commands, else the guild id), as Discord lists them, nil when
// none were.
func (f *API) Registered(guild string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, ok := f.commands[guild]
	if !ok {
		return nil
	}
	var out []map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

func (f *API) listCommands(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	f.mu.Lock()
	b, ok := f.commands[r.PathValue("guild")]
	f.mu.Unlock()
	if !ok {
		b = []byte("[]")
	}
	_, _ = w.Write(b)
}

// putCommands keeps an overwrite as Discord answers it: each command with
// an id, an application id and a version, and default_member_permissions
// as the decimal string Discord writes, whatever it was sent as.
func (f *API) putCommands(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Header.Get("Authorization") != "Bot "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var cmds []map[string]any
	body, _ := io.ReadAll(r.Body)
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	if d.Decode(&cmds) != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message": "Invalid Form Body", "code": 50035}`)
		return
	}
	for i, c := range cmds {
		c["id"], c["application_id"], c["version"] = fmt.Sprint(9000+i), r.PathValue("app"), "1"
		if p, ok := c["default_member_permissions"]; ok && p != nil {
			c["default_member_permissions"] = fmt.Sprint(p)
		}
	}
	out, _ := json.Marshal(cmds)
	f.mu.Lock()
	f.commands[r.PathValue("guild")] = out
	f.puts++
	f.mu.Unlock()
	_, _ = w.Write(out)
}
