package chat_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"croupier/internal/chat"
)

// help stays one chat message however many commands the areas register: a
// line per top-level name, and "help command:NAME" for the subcommands.
func TestHelpGroupsSubcommands(t *testing.T) {
	r, _ := newRouter(t)
	// In a game (a Gilded Hall one, "hall"), its commands described.
	ask := func(opts map[string]string) *chat.Reply {
		return r.Handle(context.Background(), &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Options: opts, Key: "h", Game: "hall"})
	}
	all := ask(nil)
	if all.Refusal || !strings.Contains(all.Text, "/trade accept · list · offer · show · withdraw") || !strings.Contains(all.Text, "/buy:") || strings.Contains(all.Text, "/observe") {
		t.Fatalf("help: %q", all.Text)
	}
	if n := utf8.RuneCountInString(all.Text); n > 1900 {
		t.Errorf("help is %d characters; a Discord message holds 2000", n)
	}
	// Outside any game: what every ruleset has, then each ruleset's names,
	// all in one message.
	unbound := r.Handle(context.Background(), &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Key: "h0"})
	for _, want := range []string{"/roll: ", "In Gilded Hall games: ", "/buy", "In Obelisk games: ", "/observe", "In turns games: ", "/turns", "/case"} {
		if !strings.Contains(unbound.Text, want) {
			t.Errorf("unbound help lacks %q: %q", want, unbound.Text)
		}
	}
	if strings.Contains(unbound.Text, "more") {
		t.Errorf("unbound help was cut: %q", unbound.Text)
	}
	if n := utf8.RuneCountInString(unbound.Text); n > 1900 {
		t.Errorf("unbound help is %d characters; a Discord message holds 2000", n)
	}
	one := ask(map[string]string{"command": "/trade"})
	if one.Refusal || !strings.Contains(one.Text, "/trade offer: ") || strings.Contains(one.Text, "/buy") {
		t.Errorf("help command:trade: %q", one.Text)
	}
	if none := ask(map[string]string{"command": "nope"}); !strings.Contains(none.Text, "no command /nope") {
		t.Errorf("help command:nope: %q", none.Text)
	}
}
