package discord_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

// Monday 2026-11-30 12:00 UTC: Phase I of ISO week 49.
var start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	admin = "1"
	ada   = "2"
	grace = "3"
	guild = "900"
	app   = "4242"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// harness is the handler over a bolt store with a manual clock and a game
// "hall" created by discord:1.
type harness struct {
	t   testing.TB
	h   *discord.Handler
	svc *game.Service
	st  store.Store
	clk *clock.Manual
	ids atomic.Int64
	// sent notes every command path sent (slash commands and menus).
	sent map[string]bool
	// wire checks every response and every REST call body against
	// Discord's OpenAPI description and documented limits (issue 23
	// point 5): every test through the harness checks what it sends.
	wire *discordspec.Recorder
}

func newHarness(t testing.TB) *harness { t.Helper(); return newHarnessOn(t, nil) }

// newHarnessOn is newHarness over wrap(the store), when wrap is not nil.
func newHarnessOn(t testing.TB, wrap func(store.Store) store.Store) *harness {
	t.Helper()
	var st store.Store
	st, err := bolt.Open(filepath.Join(t.TempDir(), "d.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if wrap != nil {
		st = wrap(st)
	}
	clk := clock.NewManual(start)
	var seed [32]byte
	svc := rulesets.New(st, clk, game.WithEntropy(rand.NewChaCha8(seed)), game.WithLogger(quiet))
	if _, err := svc.Create(context.Background(), game.Request{Actor: "discord:" + admin, Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	h := &discord.Handler{Router: chat.NewRouter(svc, quiet), PublicKey: discordtest.PublicKey(),
		Cache: &chat.ReplyCache{Store: st, Clock: clk}, Clock: clk, Budget: 10 * time.Second, Log: quiet}
	hs := &harness{t: t, h: h, svc: svc, st: st, clk: clk, sent: map[string]bool{}, wire: discordspec.NewRecorder(t)}
	hs.ids.Store(1000)
	return hs
}

// nextID is a fresh interaction id.
func (hs *harness) nextID() string { return fmt.Sprint(hs.ids.Add(1)) }

// interaction builds an interaction of type typ by user in the guild.
func interaction(id, user string, typ int, data any) map[string]any {
	d, _ := json.Marshal(data)
	return map[string]any{
		"id": id, "application_id": app, "type": typ, "token": "tok-" + id, "version": 1,
		"guild_id": guild, "channel_id": "700",
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": "User " + user}},
		"data":   json.RawMessage(d),
	}
}

func opt(name string, value any) map[string]any {
	typ := discord.OptString
	switch value.(type) {
	case int:
		typ = discord.OptInteger
	case bool:
		typ = discord.OptBoolean
	}
	return map[string]any{"name": name, "type": typ, "value": value}
}

func userOpt(name, id string) map[string]any {
	return map[string]any{"name": name, "type": discord.OptUser, "value": id}
}

func sub(name string, opts ...map[string]any) map[string]any {
	return map[string]any{"name": name, "type": discord.OptSubCommand, "options": opts}
}

// slash is a slash command interaction.
func slash(id, user, name string, opts ...map[string]any) map[string]any {
	return interaction(id, user, discord.InteractionCommand, map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput, "options": opts})
}

// result is a decoded response.
type result struct {
	Status int
	Raw    []byte
	discord.Response
}

func (r result) content() string {
	if r.Data == nil || r.Data.Content == nil {
		return ""
	}
	return *r.Data.Content
}

// all is the response's text: content, embed titles and fields.
func (r result) all() string {
	s := r.content()
	if r.Data != nil {
		for _, e := range r.Data.Embeds {
			s += "\n" + e.Title
			for _, f := range e.Fields {
				s += "\n" + f.Name + ": " + f.Value
			}
		}
	}
	return s
}

func (r result) ephemeral() bool { return r.Data != nil && r.Data.Flags&discord.FlagEphemeral != 0 }

// button returns the custom_id of the button labelled label.
func (r result) button(t *testing.T, label string) string {
	t.Helper()
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentButton && strings.HasPrefix(c.Label, label) {
					return c.CustomID
				}
			}
		}
	}
	t.Fatalf("no button %q in %s", label, r.Raw)
	return ""
}

// sendRaw posts body signed at ts with the test key.
func (hs *harness) sendRaw(body []byte, ts time.Time, mutate func(h http.Header)) result {
	hs.t.Helper()
	sig, stamp := discordtest.Sign(ts, body)
	r := httptest.NewRequest(http.MethodPost, "/discord/interactions", bytes.NewReader(body))
	r.Header.Set("X-Signature-Ed25519", sig)
	r.Header.Set("X-Signature-Timestamp", stamp)
	r.Header.Set("Content-Type", "application/json")
	if mutate != nil {
		mutate(r.Header)
	}
	w := httptest.NewRecorder()
	hs.wire.Handler(hs.h).ServeHTTP(w, r)
	res := result{Status: w.Code, Raw: w.Body.Bytes()}
	if w.Code == http.StatusOK {
		if err := json.Unmarshal(w.Body.Bytes(), &res.Response); err != nil {
			hs.t.Fatalf("response is not JSON: %s", w.Body.Bytes())
		}
	}
	return res
}

// send posts an interaction signed now; it expects 200.
func (hs *harness) send(in map[string]any) result {
	hs.t.Helper()
	body, _ := json.Marshal(in)
	hs.note(body)
	res := hs.sendRaw(body, hs.clk.Now(), nil)
	if res.Status != http.StatusOK {
		hs.t.Fatalf("status %d: %s", res.Status, res.Raw)
	}
	return res
}

// press presses a button (custom_id) as user.
func (hs *harness) press(user, customID string) result {
	hs.t.Helper()
	return hs.send(interaction(hs.nextID(), user, discord.InteractionComponent, map[string]any{"custom_id": customID, "component_type": discord.ComponentButton}))
}

// cmd runs a slash command as user with a fresh interaction id.
func (hs *harness) cmd(user, name string, opts ...map[string]any) result {
	hs.t.Helper()
	return hs.send(slash(hs.nextID(), user, name, opts...))
}

func (hs *harness) player(id string) gildedhall.PlayerView {
	hs.t.Helper()
	p, err := gildedhall.On(hs.svc).Player(context.Background(), "hall", "discord:"+id)
	if err != nil {
		hs.t.Fatalf("player %s: %v", id, err)
	}
	return p
}

// bind binds the test guild to hall as the admin.
func (hs *harness) bind() {
	hs.t.Helper()
	if r := hs.cmd(admin, "bind", opt("game", "hall"), map[string]any{"name": "announcements", "type": discord.OptChannel, "value": "701"}); !strings.Contains(r.all(), "now plays the game hall") {
		hs.t.Fatalf("bind: %s", r.Raw)
	}
}

func contains(t *testing.T, what string, r result, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(r.all(), s) {
			t.Errorf("%s: reply %q does not contain %q", what, r.all(), s)
		}
	}
}

// note records the command path of a command interaction.
func (hs *harness) note(body []byte) {
	var in struct {
		Type int
		Data discord.CommandData
	}
	if json.Unmarshal(body, &in) != nil || in.Type != discord.InteractionCommand {
		return
	}
	name := in.Data.Name
	if len(in.Data.Options) == 1 && in.Data.Options[0].Type == discord.OptSubCommand {
		name += " " + in.Data.Options[0].Name
	}
	hs.sent[name] = true
}
