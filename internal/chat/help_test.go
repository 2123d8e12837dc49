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
	ask := func(opts map[string]string) *chat.Reply {
		return r.Handle(context.Background(), &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Options: opts, Key: "h"})
	}
	all := ask(nil)
	if all.Refusal || !strings.Contains(all.Text, "/trade accept · list · offer · show · withdraw") || !strings.Contains(all.Text, "/buy:") {
		t.Fatalf("help: %q", all.Text)
	}
	if n := utf8.RuneCountInString(all.Text); n > 1900 {
		t.Errorf("help is %d characters; a Discord message holds 2000", n)
	}
	one := ask(map[string]string{"command": "/trade"})
	if one.Refusal || !strings.Contains(one.Text, "/trade offer: ") || strings.Contains(one.Text, "/buy") {
		t.Errorf("help command:trade: %q", one.Text)
	}
	if none := ask(map[string]string{"command": "nope"}); !strings.Contains(none.Text, "no command /nope") {
		t.Errorf("help command:nope: %q", none.Text)
	}
}
