package main

import (
	"croupier/internal/rulesets"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
)

// docFiles are the documents a user reads for commands.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	paths = append(paths, "../../README.md")
	out := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = string(b)
	}
	return out
}

var (
	croupierRe = regexp.MustCompile("(?:^|[^/\\w])croupier ([a-z][a-z-]*)((?: [^\\s`|]+)*)")
	verbRe     = regexp.MustCompile(`^[a-z][a-z-]*$`)
	// A Discord command in docs/discord.md's table: `/name` or `/name sub`.
	slashRe = regexp.MustCompile("`/([a-z][a-z-]*)((?: [a-z][a-z-]*)?)")
)

// Issue 15 point 11: every command the docs name exists, so a reader who
// types what the docs say is never told there is no such command: each
// `croupier X` is a top-level command, each `croupier play VERB` a play
// verb, and each Discord `/command` of docs/discord.md a registered chat
// command; and every chat command is in docs/discord.md's table.
func TestDocsNameOnlyCommandsThatExist(t *testing.T) {
	top := []string{"serve", "play", "verify", "bench", "discord", "version", "help"}
	n := 0
	for name, text := range docFiles(t) {
		for _, m := range croupierRe.FindAllStringSubmatch(text, -1) {
			cmd, rest := m[1], strings.Fields(m[2])
			if !slices.Contains(top, cmd) {
				if strings.Contains(text, "croupier/"+cmd) || cmd == "is" || cmd == "and" {
					continue // a package path or prose ("croupier is ...")
				}
				t.Errorf("%s names `croupier %s`, which is no command (%s)", name, cmd, strings.Join(top, ", "))
				continue
			}
			if cmd != "play" {
				continue
			}
			// The verb is the first word after the leading flags.
			verb := ""
			for i := 0; i < len(rest); i++ {
				w := rest[i]
				if strings.HasPrefix(w, "-") {
					if !strings.Contains(w, "=") && i+1 < len(rest) && !strings.HasPrefix(rest[i+1], "-") && (w == "--url" || w == "--key" || w == "--game" || w == "--as") {
						i++ // the flag's value
					}
					continue
				}
				verb = w
				if subs := subcommands[w]; subs != nil && i+1 < len(rest) && slices.Contains(subs, rest[i+1]) {
					verb += " " + rest[i+1]
				}
				break
			}
			if verb == "" || !verbRe.MatchString(strings.Fields(verb)[0]) {
				continue // `croupier play [flags] <command>` and the like
			}
			n++
			// A ruleset's command without a verb of its own is one too
			// (play_catalogue.go: `croupier play turns-vote P1 for`).
			if c, ok := rulesets.Registry().CommandNamed(verb); ok && c.Call != nil {
				continue
			}
			if _, ok := playCommands[verb]; !ok && verb != "help" && subcommands[verb] == nil {
				t.Errorf("%s names `croupier play %s`, which is no play command", name, verb)
			}
		}
	}
	if n < 20 {
		t.Fatalf("found only %d play commands in the docs: is the pattern right?", n)
	}

	discordDoc := docFiles(t)["discord.md"]
	named := map[string]bool{}
	for _, m := range slashRe.FindAllStringSubmatch(discordDoc, -1) {
		name := m[1] + m[2]
		if _, ok := chat.Lookup(name); ok {
			named[name] = true
			continue
		}
		if _, ok := chat.Lookup(m[1]); ok {
			named[m[1]] = true // "/roll dice": an option, not a subcommand
			continue
		}
		if slices.ContainsFunc(rulesets.Registry().Catalogue(), func(c game.Command) bool {
			return c.Call != nil && (c.ChatName() == name || c.ChatName() == m[1])
		}) {
			continue // a catalogue command, offered at its chat path (chat/catalogue.go)
		}
		if slices.ContainsFunc(rulesets.Registry().Catalogue(), func(c game.Command) bool {
			return c.Call != nil && (c.ChatName() == name || c.ChatName() == m[1] || strings.HasPrefix(c.ChatName(), m[1]+" "))
		}) {
			continue // a catalogue command at its declared chat path (then an option), or their group ("/case")
		}
		if slices.ContainsFunc(rulesets.Registry().Catalogue(), func(c game.Command) bool {
			return c.Call != nil && (c.ChatName() == name || c.ChatName() == m[1])
		}) {
			continue // a catalogue command at its declared chat path ("/open pack": an option)
		}
		if slices.ContainsFunc(chat.Commands(), func(c chat.Command) bool { return strings.HasPrefix(c.Name, m[1]+" ") }) {
			continue // "/duel": the group of /duel request and /duel answer
		}
		t.Errorf("docs/discord.md names /%s, which is no chat command", name)
	}
	for _, c := range chat.Commands() {
		if c.Hidden || c.Kind != chat.Slash {
			continue
		}
		if !named[c.Name] {
			t.Errorf("the chat command /%s is not in docs/discord.md's table", c.Name)
		}
	}
}

// Every function of the deployment is described in docs/operations.md.
func TestOperationsDocDescribesEveryFunction(t *testing.T) {
	tmpl, err := os.ReadFile("../../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	fns := regexp.MustCompile(`(?m)^  ([A-Za-z]+Function):`).FindAllStringSubmatch(string(tmpl), -1)
	if len(fns) < 10 {
		t.Fatalf("found %d functions in template.yaml", len(fns))
	}
	ops := docFiles(t)["operations.md"]
	for _, f := range fns {
		if !strings.Contains(ops, "`"+f[1]+"`") {
			t.Errorf("docs/operations.md does not describe %s", f[1])
		}
	}
}
