package chat_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store/bolt"
)

var start = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newRouter(t *testing.T) (*chat.Router, *game.Service) {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var seed [32]byte
	svc := rulesets.New(st, clock.NewManual(start), game.WithEntropy(rand.NewChaCha8(seed)),
		game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if _, err := svc.Create(context.Background(), game.Request{Actor: "slack:ADMIN", Key: "c"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	return chat.NewRouter(svc, slog.New(slog.NewTextHandler(io.Discard, nil))), svc
}

// The layer is not Discord-shaped: a Slack-like platform binds, joins and
// reads its status through the same table.
func TestRouterNeutralPlatform(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	inv := func(user, key, cmd string, opts map[string]string) *chat.Invocation {
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "Ada", Command: cmd, Options: opts, Key: key}
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k0", "join", nil)); !rep.Refusal || !strings.Contains(rep.Text, "not bound") {
		t.Fatalf("join before bind: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k1", "bind", map[string]string{"game": "hall"})); !rep.Refusal || !strings.Contains(rep.Text, "admins") {
		t.Fatalf("bind by a non-admin: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:ADMIN", "k2", "bind", map[string]string{"game": "hall", "announcements": "C9"})); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k3", "join", nil)); rep.Refusal || !strings.Contains(rep.Text, "Ada") {
		t.Fatalf("join: %+v", rep)
	}
	if p, err := gildedhall.On(svc).Player(ctx, "hall", "slack:U1"); err != nil || !p.Member || p.Name != "Ada" {
		t.Fatalf("after join: %+v %v", p, err)
	}
	rep := r.Handle(ctx, inv("slack:U1", "k4", "status", nil))
	if !rep.Ephemeral || rep.Refusal || len(rep.Fields) == 0 {
		t.Errorf("status: %+v, want a private view with fields", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k5", "roll", map[string]string{"dice": "banana"})); !rep.Refusal || !strings.Contains(rep.Text, "NdK") {
		t.Errorf("bad dice: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k6", "buy", map[string]string{"item": "chip", "quantity": "x"})); !rep.Refusal || !strings.Contains(rep.Text, "whole number") {
		t.Errorf("bad quantity: %+v", rep)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k7", "no such", nil)); !rep.Refusal {
		t.Errorf("unknown command: %+v", rep)
	}
}

func TestActionRoundTrip(t *testing.T) {
	a := chat.Action{Command: "trade accept", Options: map[string]string{"trade": "t0123456789", "x": "a&b=c"}}
	s, err := chat.EncodeAction(a)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chat.DecodeAction(s)
	if err != nil || got.Command != a.Command || got.Options["trade"] != "t0123456789" || got.Options["x"] != "a&b=c" {
		t.Fatalf("round trip of %+v: %q -> %+v %v", a, s, got, err)
	}
	for _, bad := range []string{"", "trade accept", "a1:", "a1:x?%zz", strings.Repeat("a1:x", 30)} {
		if _, err := chat.DecodeAction(bad); err == nil {
			t.Errorf("DecodeAction(%q) accepted", bad)
		}
	}
	if _, err := chat.EncodeAction(chat.Action{Command: strings.Repeat("x", 101)}); err == nil {
		t.Error("an action longer than a component id was encoded")
	}
}

// Every command the table offers has a description and a handler, and the
// context-menu commands of governance are there (as placeholders); a
// command declared in its catalogue alone (open, gift) is there by its
// chat path.
func TestTableCoversCommands(t *testing.T) {
	r, _ := newRouter(t)
	want := []string{"join", "leave", "status", "inventory", "players", "roll", "shop", "buy", "open", "gift",
		"trade offer", "trade accept", "trade withdraw", "trade list", "trade show", "grant", "revoke", "amend",
		"log", "seeds", "audit", "game", "bind", "help",
		"Submit as proposal", "Submit as request for justice", "Stand for Judge", "Player status"}
	for _, n := range want {
		c, ok := r.Lookup(n)
		if !ok || c.Description == "" {
			t.Errorf("command %q missing or without a description", n)
		}
	}
}

// A game of more players than a chat reply can hold lists the first page
// of them and says there are more.
func TestPlayersListOfALargeGame(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	for i := range 60 {
		if _, err := svc.Join(ctx, game.Request{Game: "hall", Actor: fmt.Sprintf("slack:U%03d", i), Key: "j"}, game.JoinGame{}); err != nil {
			t.Fatal(err)
		}
	}
	inv := &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: "slack:ADMIN", Command: "bind", Options: map[string]string{"game": "hall"}, Key: "b"}
	if rep := r.Handle(ctx, inv); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	rep := r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: "slack:U001", Command: "players", Key: "p"})
	if rep.Refusal || rep.Title != "Players of hall (the first 30)" || strings.Count(rep.Text, "slack:U") != 60 || !strings.Contains(rep.Text, "and more") {
		t.Fatalf("players of a game of 60: %q\n%s", rep.Title, rep.Text)
	}
}

// Issue 15 point 8: a player's status in chat says they engaged in this
// phase's battle, before it forms.
func TestStatusShowsBattleEngagement(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	inv := func(user, key, cmd string, opts map[string]string) *chat.Invocation {
		return &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "Ada", Command: cmd, Options: opts, Key: key}
	}
	if rep := r.Handle(ctx, inv("slack:ADMIN", "k1", "bind", map[string]string{"game": "hall"})); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	r.Handle(ctx, inv("slack:U1", "k2", "join", nil))
	if rep := r.Handle(ctx, inv("slack:ADMIN", "k3", "grant", map[string]string{"player": "slack:U1", "random_cards": "6", "reason": "deck"})); rep.Refusal {
		t.Fatalf("grant: %+v", rep)
	}
	battle := func(rep *chat.Reply) string {
		for _, f := range rep.Fields {
			if f.Name == "Battle" {
				return f.Value
			}
		}
		return ""
	}
	if got := battle(r.Handle(ctx, inv("slack:U1", "k4", "status", nil))); got != "" {
		t.Errorf("status before engaging shows the battle %q", got)
	}
	if rep := r.Handle(ctx, inv("slack:U1", "k5", "battle", nil)); rep.Refusal {
		t.Fatalf("battle: %+v", rep)
	}
	p, err := gildedhall.On(svc).Player(ctx, "hall", "slack:U1")
	if err != nil || p.Battle == "" {
		t.Fatalf("the player view after engaging: %+v %v", p, err)
	}
	if got := battle(r.Handle(ctx, inv("slack:U1", "k6", "status", nil))); got != "Engaged in "+p.Battle+" (it starts when this phase ends)" {
		t.Errorf("status after engaging: Battle %q", got)
	}
}
