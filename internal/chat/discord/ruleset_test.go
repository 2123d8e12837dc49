package discord_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rulesets"
	"croupier/internal/store/storetest"
)

// chatCalls is the slash command that reaches each command of the
// catalogue (game.Catalogue), with options that pass the chat layer's own
// checks, so that what refuses a command its ruleset lacks is the ruleset.
func chatCalls() map[string]map[string]any {
	match := func(kind string, opts ...map[string]any) map[string]any {
		return map[string]any{"name": "match", "sub": sub("move", append([]map[string]any{opt("match", "m-1"), opt("kind", kind)}, opts...)...)}
	}
	calls := map[string]map[string]any{
		"join":                 {"name": "join"},
		"roll":                 {"name": "roll", "opts": []map[string]any{opt("dice", "1d6")}},
		"amend":                {"name": "amend", "opts": []map[string]any{opt("patch", `{"durations":{"rejoinWait":"168h"}}`), opt("reason", "test")}},
		"purchase":             {"name": "buy", "opts": []map[string]any{opt("item", "random-card")}},
		"open":                 {"name": "open", "opts": []map[string]any{opt("pack", "handy-pack")}},
		"gift":                 {"name": "gift", "opts": []map[string]any{userOpt("player", ada)}},
		"grant":                {"name": "grant", "opts": []map[string]any{userOpt("player", ada), opt("vertebrae", 5), opt("reason", "test")}},
		"revoke":               {"name": "revoke", "opts": []map[string]any{userOpt("player", ada), opt("vertebrae", 5), opt("reason", "test")}},
		"duel-request":         {"name": "duel", "sub": sub("request", userOpt("player", grace))},
		"duel-accept":          {"name": "duel", "sub": sub("answer", opt("accept", true), opt("match", "d-1"))},
		"duel-decline":         {"name": "duel", "sub": sub("answer", opt("accept", false), opt("match", "d-1"))},
		"battle-engage":        {"name": "battle"},
		"trade-offer":          {"name": "trade", "sub": sub("offer", userOpt("player", grace), opt("give_vertebrae", 1))},
		"trade-accept":         {"name": "trade", "sub": sub("accept", opt("trade", "t-1"))},
		"trade-withdraw":       {"name": "trade", "sub": sub("withdraw", opt("trade", "t-1"))},
		"proposal-submit":      {"name": "propose", "opts": []map[string]any{opt("message", "1111"), opt("title", "More"), opt("text", "Let there be more.")}},
		"proposal-withdraw":    {"name": "withdraw", "opts": []map[string]any{opt("proposal", "p-1")}},
		"justice-request":      {"name": "rfj", "opts": []map[string]any{opt("kind", "question"), opt("text", "Why?"), opt("message", "1113")}},
		"ruling":               {"name": "rule", "opts": []map[string]any{opt("request", "r-1"), opt("answer", "Because.")}},
		"ruling-overturn":      {"name": "overturn", "opts": []map[string]any{opt("ruling", "r-1-1")}},
		"confidence-open":      {"name": "confidence", "opts": []map[string]any{opt("ruling", "r-1-1"), opt("message", "1114")}},
		"judge-removal-assent": {"name": "assent-removal"},
		"judge-resign":         {"name": "resign"},
		"judge-candidacy":      {"name": "stand", "opts": []map[string]any{opt("message", "1115")}},
		"match-select":         match("select", opt("card", "c1,c2,c3,c4")),
		"match-raise":          match("raise", opt("level", 2)),
		"match-play":           match("play", opt("card", "c1")),
		"match-add":            match("add", opt("card", "c1")),
		"match-give":           match("give", opt("card", "c1")),
		"match-giver":          match("giver", userOpt("player", ada)),
		"match-target":         match("target", userOpt("player", ada)),
		"turns-propose":        {"name": "turns", "sub": sub("propose", opt("op", "enact"), opt("text", "A new rule."))},
		"turns-vote":           {"name": "turns", "sub": sub("vote", opt("proposal", "P1"), opt("vote", "for"))},
		"turns-active":         {"name": "turns-active", "opts": []map[string]any{opt("active", true)}},
		"round-start":          {"name": "round-start"},
		"pool-enter":           {"name": "pool-enter"},
		"pool-leave":           {"name": "pool-leave"},
		"judgment-request":     {"name": "judgment-request", "opts": []map[string]any{opt("statement", "Is this so?")}},
		"judge-recuse":         {"name": "case", "sub": sub("recuse", opt("case", 5301))},
		"judge-rule":           {"name": "case", "sub": sub("rule", opt("case", 5301), opt("ruling", "TRUE"))},
		"ruling-appeal":        {"name": "case", "sub": sub("appeal", opt("case", 5301), opt("ruling", "TRUE"), opt("reasons", "Because."))},
		"appeal-vote":          {"name": "case", "sub": sub("vote", opt("case", 5301), opt("vote", "for"))},
		"task":                 {"name": "task", "opts": []map[string]any{opt("task", "mining")}},
		"observe":              {"name": "observe"},
		"gathering-start":      {"name": "gathering", "sub": sub("start", opt("ritual_type", "cut-the-obelisk"))},
		"gathering-contribute": {"name": "gathering", "sub": sub("contribute", opt("gathering", "g-1"), opt("component", "resolve"))},
		"gathering-withdraw":   {"name": "gathering", "sub": sub("withdraw", opt("gathering", "g-1"), opt("component", "resolve"))},
		"gathering-complete":   {"name": "gathering", "sub": sub("complete", opt("gathering", "g-1"))},
		"banishment-end":       {"name": "banishment", "sub": sub("end")},
		"components-grant":     {"name": "components", "sub": sub("grant", userOpt("player", grace), opt("crystals", 2), opt("reason", "test"))},
		"components-revoke":    {"name": "components", "sub": sub("revoke", userOpt("player", grace), opt("crystals", 2), opt("reason", "test"))},
	}
	for _, k := range []string{"match", "decline", "pass", "forfeit", "terminate"} {
		calls["match-"+k] = match(k)
	}
	return calls
}

// notInChat are the catalogue's player commands no slash command sends as
// such: create (the CLI's and the API's), bind (common: it moves this
// test's guild), leave (a confirmation button runs it), the platform's
// reaction reports, match-bet (raise's alias: chat offers raise), and a
// moderator's import of a holdings table (a file: the CLI's and the API's).
var notInChat = map[string]bool{"create": true, "bind": true, "leave": true, "push-reactions": true,
	"push-message-event": true, "match-bet": true, "import": true, "import-revoke": true}

// Acceptance 2 of issue 12 (RULINGS R3), Discord's part: every command of
// the catalogue, as its slash command, in a guild bound to a game of each
// ruleset. What the ruleset lacks is answered privately with the sentence
// naming the ruleset and what it has, and leaves the game's items, versions
// and log exactly as they were; what it has is never refused so.
func TestR3_EveryCommandOfEveryRulesetThroughDiscord(t *testing.T) {
	hs := newHarness(t)
	ctx := context.Background()
	calls := chatCalls()
	for _, c := range rulesets.Registry().Catalogue() {
		if _, ok := calls[c.Name]; !ok && !c.Scheduled && !notInChat[c.Name] {
			t.Errorf("command %s of the catalogue has no case in this test's table", c.Name)
		}
	}
	titles := map[string]string{"gilded-hall": "Gilded Hall", "obelisk": "Obelisk", "turns": "turns"}
	refused := map[string]int{}
	for _, id := range []string{"gilded-hall", "obelisk", "turns"} {
		g := "hall"
		if id != "gilded-hall" {
			g = "g-" + id
			if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-" + id}, game.CreateGame{ID: g, Ruleset: id}); err != nil {
				t.Fatal(err)
			}
		}
		if r := hs.cmd(admin, "bind", opt("game", g)); !strings.Contains(r.all(), "now plays the game "+g) {
			t.Fatalf("bind %s: %s", g, r.Raw)
		}
		hs.cmd(ada, "join")
		for _, c := range rulesets.Registry().Catalogue() {
			call, ok := calls[c.Name]
			if !ok {
				continue
			}
			var opts []map[string]any
			if s, ok := call["sub"].(map[string]any); ok {
				opts = []map[string]any{s}
			} else if o, ok := call["opts"].([]map[string]any); ok {
				opts = o
			}
			user := ada
			if c.Admin {
				user = admin
			}
			before := storetest.Partition(t, hs.st, g)
			r := hs.send(slash(hs.nextID(), user, call["name"].(string), opts...))
			sentence := fmt.Sprintf("The %s game %q has no ", titles[id], g)
			got := strings.Contains(r.all(), sentence)
			if rulesets.Registry().RulesetHas(id, c.Institution) {
				if got {
					t.Errorf("%s %s: refused as not in the ruleset, but %s has %s: %s", id, c.Name, id, c.Institution, r.all())
				}
				continue
			}
			refused[id]++
			if !got || !strings.Contains(r.all(), "Its commands are: join, leave, roll") || !r.ephemeral() {
				t.Errorf("%s %s: reply %q (ephemeral %v), want the private not_in_ruleset sentence", id, c.Name, r.all(), r.ephemeral())
			}
			if after := storetest.Partition(t, hs.st, g); after != before {
				t.Errorf("%s %s: the refusal changed the store:\nbefore %s\nafter  %s", id, c.Name, before, after)
			}
		}
	}
	// obelisk lacks cards and Exoptosis (5 + 4 + 12 moves in chat), turns
	// those and trades and governance (+ 3 + 9); both lack the turns' own
	// 11 (turns, points, the judiciary), which Gilded Hall lacks with the
	// Obelisk's 9, which turns lacks too.
	if want := map[string]int{"gilded-hall": 20, "obelisk": 32, "turns": 42}; fmt.Sprint(refused) != fmt.Sprint(want) {
		t.Errorf("refusals by ruleset %v, want %v", refused, want)
	}
}

// Acceptance 6 of issue 12, the table's part: the slash command that
// reaches each catalogue command is offered to a ruleset's servers exactly
// when that ruleset has the command, which is when the game does not
// refuse it (TestR3_EveryCommandOfEveryRulesetThroughDiscord).
func TestR3_ChatCommandsOfferedAreTheCatalogues(t *testing.T) {
	calls := chatCalls()
	for _, id := range []string{"gilded-hall", "obelisk", "turns"} {
		for _, c := range rulesets.Registry().Catalogue() {
			call, ok := calls[c.Name]
			if !ok {
				continue
			}
			path := call["name"].(string)
			if s, ok := call["sub"].(map[string]any); ok {
				path += " " + s["name"].(string)
			}
			cmd, ok := chat.Lookup(path)
			if !ok {
				// A catalogue command no table command runs is offered as
				// itself (chat/catalogue.go) to the servers of the rulesets
				// that have it.
				offered := slices.ContainsFunc(chat.CommandsFor(rulesets.Registry(), id), func(cc chat.Command) bool { return cc.Name == path })
				if want := rulesets.Registry().RulesetHas(id, c.Institution); offered != want || path != c.ChatName() {
					t.Errorf("%s: /%s offered %v, but the ruleset has %s: %v", id, path, offered, c.Institution, want)
				}
				continue
			}
			if got, want := cmd.InRuleset(rulesets.Registry(), id), rulesets.Registry().RulesetHas(id, c.Institution); got != want {
				t.Errorf("%s: /%s (runs %s) offered %v, but the ruleset has %s: %v", id, path, c.Name, got, c.Institution, want)
			}
		}
	}
}

// Every name a chat command says it runs is a command or a view of the
// catalogue, so the ruleset filter cannot drift from it.
func TestEveryChatCommandRunsCatalogueNames(t *testing.T) {
	known := map[string]bool{}
	for _, c := range rulesets.Registry().Catalogue() {
		known[c.Name] = true
	}
	for _, v := range rulesets.Registry().Views() {
		known[v.Name] = true
	}
	for _, c := range chat.Commands() {
		for _, n := range c.Runs {
			if !known[n] {
				t.Errorf("/%s runs %q, which the catalogue does not declare", c.Name, n)
			}
		}
	}
}

// The views a ruleset lacks are not offered either: each is refused with
// the not_in_ruleset sentence in an Obelisk server, and /help there lists
// only what the Obelisk has; /bind to it tells the admin how to register
// the Obelisk's commands for the server.
func TestR3_ObeliskServerOffersAndHelpsWithObeliskCommandsOnly(t *testing.T) {
	hs := newHarness(t)
	ctx := context.Background()
	if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-ob"}, game.CreateGame{ID: "ob", Ruleset: "obelisk"}); err != nil {
		t.Fatal(err)
	}
	hs.bind() // Gilded Hall first
	r := hs.cmd(admin, "bind", opt("game", "ob"))
	contains(t, "bind to an Obelisk game", r, "now plays the game ob", "croupier discord register --guild "+guild+" --ruleset obelisk")
	if r := hs.cmd(admin, "bind", opt("game", "ob")); strings.Contains(r.all(), "croupier discord register") {
		t.Errorf("binding the same ruleset again: %q, want no registration note", r.all())
	}
	hs.cmd(ada, "join")
	views := map[string][]map[string]any{"shop": nil, "match": {sub("status")}}
	for name, opts := range views {
		before := storetest.Partition(t, hs.st, "ob")
		r := hs.send(slash(hs.nextID(), ada, name, opts...))
		path := name
		if opts != nil {
			path += " " + opts[0]["name"].(string)
		}
		if c, _ := chat.Lookup(path); c.InRuleset(rulesets.Registry(), "obelisk") {
			t.Errorf("/%s is offered to Obelisk servers", path)
		}
		if !strings.Contains(r.all(), `The Obelisk game "ob" has no `) || !r.ephemeral() {
			t.Errorf("/%s: %q, want the private not_in_ruleset sentence", path, r.all())
		}
		if after := storetest.Partition(t, hs.st, "ob"); after != before {
			t.Errorf("/%s changed the store", name)
		}
	}
	help := hs.cmd(ada, "help").all()
	for _, has := range []string{"/join", "/trade accept · list · offer", "/propose", "/roll", "/help"} {
		if !strings.Contains(help, has) {
			t.Errorf("Obelisk /help lacks %s: %s", has, help)
		}
	}
	for _, lacks := range []string{"/buy", "/shop", "/gift", "/duel", "/battle", "/match", "/grant"} {
		if strings.Contains(help, lacks) {
			t.Errorf("Obelisk /help lists %s: %s", lacks, help)
		}
	}
	hs.bind()
	if help := hs.cmd(ada, "help").all(); !strings.Contains(help, "/buy") || !strings.Contains(help, "/duel") {
		t.Errorf("Gilded Hall /help: %s", help)
	}
}
