package chat_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
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
	if one.Refusal || !strings.Contains(one.Text, "/trade offer player:… [give_cards:…]") || !strings.Contains(one.Text, ": Offer a trade to a player") || strings.Contains(one.Text, "/buy") {
		t.Errorf("help command:trade: %q", one.Text)
	}
	// One command: its usage, and each option with what it takes.
	offer := ask(map[string]string{"command": "trade offer"})
	for _, want := range []string{"/trade offer player:… ", "• player: ", "(a player: a mention or a display name; required)", "• note: "} {
		if !strings.Contains(offer.Text, want) {
			t.Errorf("help command:trade offer lacks %q: %q", want, offer.Text)
		}
	}
	if strings.Contains(offer.Text, "/trade accept") {
		t.Errorf("help command:trade offer describes the other /trade commands: %q", offer.Text)
	}
	if none := ask(map[string]string{"command": "nope"}); !strings.Contains(none.Text, "no command /nope") {
		t.Errorf("help command:nope: %q", none.Text)
	}
}

// Issue 24 acceptance 2 in chat: /help in a game lists exactly its
// ruleset's commands (every top-level name, none of another ruleset's),
// and a misspelt one is answered with the closest names.
func TestHelpInAGameListsItsRulesetsCommands(t *testing.T) {
	r, svc := newRouter(t)
	ctx := context.Background()
	for _, g := range []struct{ id, ruleset string }{{"stone", "obelisk"}, {"nomic", "turns"}} {
		if _, err := svc.Create(ctx, game.Request{Actor: "slack:ADMIN", Key: "c-" + g.id}, game.CreateGame{ID: g.id, Ruleset: g.ruleset}); err != nil {
			t.Fatal(err)
		}
	}
	tops := func(cmds []chat.Command) map[string]bool {
		out := map[string]bool{}
		for _, c := range cmds {
			if c.Kind == chat.Slash && !c.Hidden { // menus and button-only commands are not in /help
				out[strings.Fields(c.Name)[0]] = true
			}
		}
		return out
	}
	all := tops(chat.Commands())
	for _, g := range []struct{ id, ruleset string }{{"hall", "gilded-hall"}, {"stone", "obelisk"}, {"nomic", "turns"}} {
		text := r.Handle(ctx, &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Key: "h-" + g.id, Game: g.id}).Text
		own := tops(chat.CommandsFor(svc.Registry, g.ruleset))
		for top := range all {
			if listed := strings.Contains(text, "/"+top+":") || strings.Contains(text, "/"+top+" "); listed != own[top] {
				t.Errorf("%s (%s): /help lists /%s: %v; the ruleset has it: %v", g.id, g.ruleset, top, listed, own[top])
			}
		}
	}
	vote := r.Handle(ctx, &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Key: "h-vote", Game: "nomic", Options: map[string]string{"command": "turns vote"}})
	if !strings.Contains(vote.Text, "/turns vote proposal:… vote:for|against") || !strings.Contains(vote.Text, "(for or against; required)") {
		t.Errorf("help command:turns vote: %q", vote.Text)
	}
	near := r.Handle(ctx, &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Key: "h-near", Game: "nomic", Options: map[string]string{"command": "turn"}})
	if !strings.Contains(near.Text, "did you mean /turns") {
		t.Errorf("help command:turn: %q", near.Text)
	}
}

// Issue 24: in a space bound to an Obelisk game, /help lists the Obelisk's
// commands at their declared chat paths with their declared descriptions
// (game.Command.Summary), a group's under help command:/GROUP: every
// command of the Obelisk's own institutions is there, as its module's
// catalogue declares it.
func TestHelpInAnObeliskGameGivesItsCommandsDeclaredDescriptions(t *testing.T) {
	r, svc := newRouter(t)
	ctx := context.Background()
	if _, err := svc.Create(ctx, game.Request{Actor: "slack:ADMIN", Key: "c-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	ask := func(key string, opts map[string]string) string {
		rep := r.Handle(ctx, &chat.Invocation{Platform: "slack", User: "slack:U1", Command: "help", Options: opts, Key: key, Game: "stone"})
		if rep.Refusal {
			t.Fatalf("help %v refused: %q", opts, rep.Text)
		}
		return rep.Text
	}
	all := ask("h", nil)
	n := 0
	for _, comp := range []game.Component{obelisk.Obelisk(), obelisk.Rituals(), obelisk.Banishment()} {
		for _, c := range comp.Commands {
			if c.Call == nil || c.Scheduled {
				continue
			}
			n++
			path := c.ChatName()
			text := all
			if group, _, sub := strings.Cut(path, " "); sub {
				text = ask("h-"+group, map[string]string{"command": "/" + group})
			}
			// A group's help gives each subcommand's usage, then its
			// description.
			re := regexp.MustCompile("(?m)^/" + regexp.QuoteMeta(path) + "( [^\n]*)?: " + regexp.QuoteMeta(c.Summary))
			if !re.MatchString(text) {
				t.Errorf("%s: /help lacks /%s with %q:\n%s", c.Name, path, c.Summary, text)
			}
		}
	}
	if n < 9 {
		t.Fatalf("only %d Obelisk commands checked", n)
	}
}
