package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// Issue 15 point 10 (acceptance 6): `croupier serve` is a Discord
// interactions endpoint too, with the Lambda's handler: signed requests
// over real HTTP get PONG, a slash command runs, a button confirms; a
// request signed with another key, and any request when no key is
// configured, is refused 401 with the reason, and changes nothing.
func TestServeAnswersSignedDiscordInteractions(t *testing.T) {
	h := newHarnessWith(t, "manual", func(c *serveConfig) { c.discordKey = discordtest.PublicKey(); c.discordApp = "4242" })
	h.must("play", "create-game", "hall", "--as", "discord:1")
	ctx := context.Background()
	if _, err := h.srv.svc.Bind(ctx, game.Request{Game: "hall", Actor: "discord:1", Key: "bind"}, game.Bind{Platform: "discord", Space: "900"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	interaction := func(user string, typ int, data any) []byte {
		n++
		d, _ := json.Marshal(data)
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprint(5000 + n), "application_id": "4242", "type": typ, "token": fmt.Sprint("tok-", n), "version": 1,
			"guild_id": "900", "channel_id": "700",
			"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": "Ada"}},
			"data":   json.RawMessage(d)})
		return b
	}
	send := h.discordPost
	text := replyText

	// PING: Discord's check of the endpoint.
	if code, r, raw := send([]byte(`{"id":"1","application_id":"4242","type":1,"token":"t","version":1}`), true); code != http.StatusOK || r.Type != discord.ResponsePong {
		t.Fatalf("PING: %d %s", code, raw)
	}
	// A slash command: /join.
	join := interaction("2", discord.InteractionCommand, map[string]any{"id": "c-join", "name": "join", "type": discord.CommandChatInput})
	if code, r, raw := send(join, true); code != http.StatusOK || !strings.Contains(text(r), "joined") {
		t.Fatalf("/join: %d %s", code, raw)
	}
	if v, err := gildedhall.On(h.srv.svc).Player(ctx, "hall", "discord:2"); err != nil || !v.Member {
		t.Fatalf("after /join: %+v %v", v, err)
	}
	// A button: /buy asks, its confirmation button buys.
	if _, err := gildedhall.On(h.srv.svc).Grant(ctx, game.Request{Game: "hall", Actor: "discord:1", Key: "grant"}, gildedhall.Grant{Player: "discord:2", Vertebrae: 10, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	buy := interaction("2", discord.InteractionCommand, map[string]any{"id": "c-buy", "name": "buy", "type": discord.CommandChatInput,
		"options": []any{map[string]any{"name": "item", "type": discord.OptString, "value": "random-card"}}})
	code, r, raw := send(buy, true)
	if code != http.StatusOK {
		t.Fatalf("/buy: %d %s", code, raw)
	}
	confirm := ""
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentButton && strings.HasPrefix(c.Label, "Buy for") {
					confirm = c.CustomID
				}
			}
		}
	}
	if confirm == "" {
		t.Fatalf("/buy offered no confirmation button: %s", raw)
	}
	press := interaction("2", discord.InteractionComponent, map[string]any{"custom_id": confirm, "component_type": discord.ComponentButton})
	if code, r, raw := send(press, true); code != http.StatusOK || !strings.Contains(text(r), "Bought 1 × Random Card") {
		t.Fatalf("confirm button: %d %s", code, raw)
	}
	if v, _ := gildedhall.On(h.srv.svc).Player(ctx, "hall", "discord:2"); v.Inventory.Vertebrae != 5 || len(v.Inventory.Cards) != 1 {
		t.Errorf("after the confirmation: %d Vertebrae, %d cards; want 5 and 1", v.Inventory.Vertebrae, len(v.Inventory.Cards))
	}

	// Refusals: unsigned, signed by another key; nothing runs.
	leave := interaction("2", discord.InteractionCommand, map[string]any{"id": "c-leave", "name": "leave", "type": discord.CommandChatInput})
	if code, _, raw := send(leave, false); code != http.StatusUnauthorized || !strings.Contains(raw, "invalid_signature") {
		t.Errorf("unsigned: %d %s", code, raw)
	}
	// A body other than the one signed: the signature of /leave on /leave's
	// body with one byte more.
	forged := bytes.Replace(leave, []byte(`"leave"`), []byte(`"leave" `), 1)
	if code, _, raw := h.discordPostSigned(forged, leave); code != http.StatusUnauthorized {
		t.Errorf("a body that is not the signed one: %d %s", code, raw)
	}
	if v, _ := gildedhall.On(h.srv.svc).Player(ctx, "hall", "discord:2"); !v.Member {
		t.Error("a refused /leave changed the game")
	}
}

// Without CROUPIER_DISCORD_PUBLIC_KEY the route exists and refuses every
// request, saying no key is configured.
func TestServeDiscordWithoutAKeyRefuses(t *testing.T) {
	h := newHarness(t, "manual")
	code, _, raw := h.discordPost([]byte(`{"id":"1","application_id":"4242","type":1,"token":"t","version":1}`), true)
	if code != http.StatusUnauthorized || !strings.Contains(raw, "no public key is configured") {
		t.Errorf("without a key: %d %s", code, raw)
	}
	if r := runCLI(map[string]string{"CROUPIER_DISCORD_PUBLIC_KEY": "zz"}, "serve", "--clock", "manual"); r.code != exitUsage || !strings.Contains(r.stderr, "CROUPIER_DISCORD_PUBLIC_KEY") {
		t.Errorf("a malformed key: %s", r)
	}
}

// discordPost POSTs body to the server's /discord/interactions, signed with
// the test key at the manual clock's time when sign is set, and returns the
// status, the decoded reply (on 200) and the raw body.
func (h *harness) discordPost(body []byte, sign bool) (int, discord.Response, string) {
	h.t.Helper()
	if !sign {
		return h.discordPostSigned(body, nil)
	}
	return h.discordPostSigned(body, body)
}

// discordPostSigned POSTs body with the signature of signed (nil: none).
func (h *harness) discordPostSigned(body, signed []byte) (int, discord.Response, string) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/discord/interactions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if signed != nil {
		sig, ts := discordtest.Sign(time.Now(), signed)
		req.Header.Set("X-Signature-Ed25519", sig)
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r discord.Response
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, &r); err != nil {
			h.t.Fatalf("not JSON: %s", raw)
		}
		// Every answer is one Discord accepts (its OpenAPI description
		// and documented limits).
		discordspec.NewRecorder(h.t).Response(body, raw)
	}
	return resp.StatusCode, r, string(raw)
}

// replyText is a Discord reply's text: content, embed titles, descriptions
// and fields.
func replyText(r discord.Response) string {
	if r.Data == nil {
		return ""
	}
	s := ""
	if r.Data.Content != nil {
		s = *r.Data.Content
	}
	for _, e := range r.Data.Embeds {
		s += "\n" + e.Title + "\n" + e.Description
		for _, f := range e.Fields {
			s += "\n" + f.Name + ": " + f.Value
		}
	}
	return s
}
