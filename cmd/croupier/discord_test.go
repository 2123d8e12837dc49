package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordspec"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/game"
	"croupier/internal/rulesets"
)

// Acceptance 4: `croupier discord register` against a loopback server
// speaking Discord's commands routes; the second run sends nothing.
func TestDiscordRegisterIdempotent(t *testing.T) {
	var mu sync.Mutex
	var stored []byte
	var puts int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/applications/4242/guilds/900/commands" || r.Header.Get("Authorization") != "Bot tok" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		switch r.Method {
		case http.MethodGet:
			if stored == nil {
				_, _ = w.Write([]byte("[]"))
				return
			}
			_, _ = w.Write(stored)
		case http.MethodPut:
			puts++
			stored, _ = io.ReadAll(r.Body)
			_, _ = w.Write(stored)
		}
	}))
	defer srv.Close()
	run := func() (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(k string) string {
			return map[string]string{"DISCORD_BOT_TOKEN": "tok"}[k]
		}}
		code := e.run([]string{"discord", "register", "--app-id", "4242", "--guild", "900", "--api-base", srv.URL})
		return code, out.String(), errb.String()
	}
	code, out, errs := run()
	if code != 0 || !strings.Contains(out, "registered") || !strings.Contains(out, "in server 900") {
		t.Fatalf("first run: exit %d, out %q, err %q", code, out, errs)
	}
	code, out, errs = run()
	if code != 0 || !strings.Contains(out, "already up to date: nothing sent") {
		t.Fatalf("second run: exit %d, out %q, err %q", code, out, errs)
	}
	if puts != 1 {
		t.Errorf("%d overwrites, want 1", puts)
	}
	if !bytes.Contains(stored, []byte(`"name":"trade"`)) || !bytes.Contains(stored, []byte(`"Submit as proposal"`)) {
		t.Errorf("registered %s", stored)
	}
	var errb bytes.Buffer
	e := &env{ctx: context.Background(), stdout: io.Discard, stderr: &errb, getenv: func(string) string { return "" }}
	if code := e.run([]string{"discord", "register"}); code != exitUsage || !strings.Contains(errb.String(), "DISCORD_BOT_TOKEN") {
		t.Errorf("without credentials: exit %d, %q", code, errb.String())
	}
}

// Acceptance 6 of issue 12: `croupier discord register --guild G --ruleset
// R` (what /bind tells the admin to run) registers in G only the commands
// of R. A Gilded Hall server gets every command; an Obelisk server the
// same less exactly those of the institutions the catalogue says the
// Obelisk lacks (the cards and Exoptosis), a turns server less trades and
// governance too.
func TestDiscordRegisterPerRuleset(t *testing.T) {
	base, names := loopbackDiscord(t)
	register := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(k string) string {
			return map[string]string{"DISCORD_BOT_TOKEN": "tok", "DISCORD_APPLICATION_ID": "4242"}[k]
		}}
		code := e.run(append([]string{"discord", "register", "--api-base", base}, args...))
		return code, out.String(), errb.String()
	}
	for guild, id := range map[string]string{"900": "gilded-hall", "901": "obelisk", "902": "turns"} {
		if code, out, errs := register("--guild", guild, "--ruleset", id); code != 0 || !strings.Contains(out, "in server "+guild+" for the ruleset "+id) {
			t.Fatalf("register %s: exit %d, %q %q", id, code, out, errs)
		}
	}
	if code, out, _ := register("--guild", "901", "--ruleset", "obelisk"); code != 0 || !strings.Contains(out, "nothing sent") {
		t.Errorf("second obelisk registration: %q, want nothing sent", out)
	}
	all := map[string]bool{}
	for _, c := range chat.Commands() {
		if !c.Hidden {
			all[c.Name] = true
		}
	}
	hall, ob, turns := names("900"), names("901"), names("902")
	// What each lacks, by the catalogue: a command is missing exactly when
	// it runs a catalogue command or view of an institution the ruleset
	// lacks (Gilded Hall lacks only the Obelisk's and the turns ruleset's own).
	for _, rs := range []struct {
		id  string
		got map[string]bool
	}{{"gilded-hall", hall}, {"obelisk", ob}, {"turns", turns}} {
		for n := range all {
			c, _ := chat.Lookup(n)
			lacks := false
			for _, run := range c.Runs {
				inst := ""
				if cc, ok := rulesets.Registry().CommandNamed(run); ok {
					inst = cc.Institution
				}
				for _, v := range rulesets.Registry().Views() {
					if v.Name == run {
						inst = v.Institution
					}
				}
				if inst == "" || !rulesets.Registry().RulesetHas(rs.id, inst) {
					lacks = true
				}
			}
			if rs.got[n] == lacks {
				t.Errorf("%s server: %q registered %v, but it runs %v", rs.id, n, rs.got[n], c.Runs)
			}
		}
	}
	// What a user sees, named: the Obelisk's server has the common
	// commands, trades and governance, and no shop, gift, duel or grant.
	for _, n := range []string{"join", "leave", "roll", "status", "help", "log", "trade offer", "propose", "rfj", "Submit as proposal",
		"task", "observe", "gathering start", "gathering contribute", "gathering complete", "banishment end"} {
		if !ob[n] {
			t.Errorf("the Obelisk server lacks %q", n)
		}
	}
	for _, n := range []string{"shop", "buy", "open", "gift", "grant", "revoke", "duel", "battle", "match"} {
		if ob[n] {
			t.Errorf("the Obelisk server has %q", n)
		}
	}
	for _, n := range []string{"task", "observe", "gathering start"} {
		if hall[n] || turns[n] {
			t.Errorf("a server that is not the Obelisk's has %q", n)
		}
	}
	for _, n := range []string{"trade", "propose", "judge", "Submit as proposal"} {
		if turns[n] {
			t.Errorf("the turns server has %q", n)
		}
	}
	if !turns["join"] || !turns["roll"] || !turns["audit"] {
		t.Errorf("the turns server lacks common commands: %v", turns)
	}
	if code, _, errs := register("--ruleset", "obelisk"); code != exitUsage || !strings.Contains(errs, "needs --guild") {
		t.Errorf("--ruleset without --guild: exit %d, %q", code, errs)
	}
	if code, _, errs := register("--guild", "903", "--ruleset", "nomic"); code != exitUsage || !strings.Contains(errs, `no ruleset "nomic"`) {
		t.Errorf("unknown ruleset: exit %d, %q", code, errs)
	}
	if names("") != nil {
		t.Error("a per-ruleset registration changed the global commands")
	}
}

// loopbackDiscord is Discord's application-commands REST API for one
// application (4242, bot token "tok"): it keeps what each PUT registered,
// which registered returns by command name for a guild ("": the global
// commands), nil for one nothing was registered in.
func loopbackDiscord(t *testing.T) (base string, registered func(guild string) map[string]bool) {
	t.Helper()
	var mu sync.Mutex
	stored := map[string][]byte{}
	// Every overwrite is checked against Discord's OpenAPI description.
	srv := httptest.NewServer(discordspec.NewRecorder(t).Server(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("Authorization") != "Bot tok" || !strings.HasPrefix(r.URL.Path, "/applications/4242/") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		switch r.Method {
		case http.MethodGet:
			if b, ok := stored[r.URL.Path]; ok {
				_, _ = w.Write(b)
				return
			}
			_, _ = w.Write([]byte("[]"))
		case http.MethodPut:
			b, _ := io.ReadAll(r.Body)
			stored[r.URL.Path] = b
			_, _ = w.Write(b)
		}
	})))
	t.Cleanup(srv.Close)
	return srv.URL, func(guild string) map[string]bool {
		mu.Lock()
		defer mu.Unlock()
		path := "/applications/4242/guilds/" + guild + "/commands"
		if guild == "" {
			path = "/applications/4242/commands"
		}
		b, ok := stored[path]
		if !ok {
			return nil
		}
		var cmds []discord.AppCommand
		if err := json.Unmarshal(b, &cmds); err != nil {
			t.Fatalf("guild %s: %v", guild, err)
		}
		out := map[string]bool{}
		for _, c := range cmds {
			out[c.Name] = true
			for _, o := range c.Options {
				if o.Type == discord.OptSubCommand {
					out[c.Name+" "+o.Name] = true
				}
			}
		}
		return out
	}
}

// Acceptance 6 of issue 12: `croupier discord register --guild G --bound`
// for a server bound to an Obelisk game registers that ruleset's commands
// only, read from the binding through the Croupier server, the same set
// --ruleset obelisk registers; a server bound to no game is refused with
// the reason, and nothing is registered for it.
func TestDiscordRegisterBoundGuildOffersItsGamesRuleset(t *testing.T) {
	h := newHarness(t, "manual")
	h.must("play", "create-game", "ob", "--ruleset", "obelisk", "--as", "discord:1")
	if _, err := h.srv.svc.Bind(context.Background(), game.Request{Game: "ob", Actor: "discord:1", Key: "bind"},
		game.Bind{Platform: "discord", Space: "777"}); err != nil {
		t.Fatal(err)
	}
	base, registered := loopbackDiscord(t)
	vars := map[string]string{"DISCORD_BOT_TOKEN": "tok", "DISCORD_APPLICATION_ID": "4242", "CROUPIER_URL": h.ts.URL, "CROUPIER_KEY": testKey}
	r := runCLI(vars, "discord", "register", "--api-base", base, "--guild", "777", "--bound")
	if r.code != 0 {
		t.Fatalf("register --bound: %s", r)
	}
	contains(t, "register --bound", r.stdout, "in server 777 for the ruleset obelisk (the ruleset of the bound game ob)")
	got := registered("777")
	for _, n := range []string{"join", "leave", "roll", "status", "trade offer", "propose", "rfj"} {
		if !got[n] {
			t.Errorf("the server bound to an Obelisk game lacks %q", n)
		}
	}
	for _, n := range []string{"shop", "buy", "open", "gift", "grant", "duel", "battle", "match"} {
		if got[n] {
			t.Errorf("the server bound to an Obelisk game offers %q", n)
		}
	}
	if r := runCLI(vars, "discord", "register", "--api-base", base, "--guild", "778", "--ruleset", "obelisk"); r.code != 0 {
		t.Fatalf("register --ruleset obelisk: %s", r)
	}
	if want := registered("778"); !maps.Equal(got, want) {
		t.Errorf("--bound registered %v; --ruleset obelisk registers %v", got, want)
	}

	r = runCLI(vars, "discord", "register", "--api-base", base, "--guild", "779", "--bound")
	if r.code == 0 || !strings.Contains(r.stderr, "bound to no game") || !strings.Contains(r.stderr, "space_not_bound") {
		t.Errorf("register --bound for an unbound server: %s", r)
	}
	if registered("779") != nil {
		t.Errorf("an unbound server got commands registered: %v", registered("779"))
	}
	if r := runCLI(vars, "discord", "register", "--api-base", base, "--bound"); r.code != exitUsage || !strings.Contains(r.stderr, "needs --guild") {
		t.Errorf("--bound without --guild: %s", r)
	}
}

// Issue 23 point 5: global registration (no --guild) registers the
// commands of every ruleset, each once, since global commands show in
// every server whatever game it is bound to: exactly the union of what the
// three rulesets' servers get with --ruleset, within Discord's 100 global
// slash commands, valid against Discord's OpenAPI description. A second
// run, compared with what Discord lists back (permissions as a string),
// sends nothing.
func TestDiscordRegisterGlobalOffersEveryRulesetOnce(t *testing.T) {
	rec := discordspec.NewRecorder(t)
	api := discordtest.NewAPI(t, "tok", rec.Server)
	register := func() (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{ctx: context.Background(), stdout: &out, stderr: &errb, getenv: func(k string) string {
			return map[string]string{"DISCORD_BOT_TOKEN": "tok", "DISCORD_APPLICATION_ID": "4242"}[k]
		}}
		code := e.run([]string{"discord", "register", "--api-base", api.Base()})
		return code, out.String(), errb.String()
	}
	if code, out, errs := register(); code != 0 || !strings.Contains(out, "globally") {
		t.Fatalf("register: exit %d, %q %q", code, out, errs)
	}
	if code, out, _ := register(); code != 0 || !strings.Contains(out, "nothing sent") {
		t.Errorf("second global registration: %q, want nothing sent", out)
	}
	names := func(cmds []map[string]any) map[string]int {
		out := map[string]int{}
		for _, c := range cmds {
			name, _ := c["name"].(string)
			out[name]++
			opts, _ := c["options"].([]any)
			for _, o := range opts {
				if om, _ := o.(map[string]any); om["type"] == float64(discord.OptSubCommand) {
					out[name+" "+om["name"].(string)]++
				}
			}
		}
		return out
	}
	got := names(api.Registered(""))
	want := map[string]int{}
	for _, id := range rulesets.Registry().Rulesets() {
		cmds, err := discord.AppCommands(chat.CommandsFor(rulesets.Registry(), id))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(cmds)
		var generic []map[string]any
		_ = json.Unmarshal(b, &generic)
		for n := range names(generic) {
			want[n] = 1
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("global commands:\n got %v\nwant %v (each ruleset's, once)", got, want)
	}
	for _, n := range []string{"shop", "task", "gathering start", "turns propose", "pool-enter", "judgment-request", "Submit as proposal"} {
		if got[n] != 1 {
			t.Errorf("the global commands lack %q", n)
		}
	}
	// /trade offer is one command of two rulesets: globally it takes the
	// Gilded Hall's cards and the Obelisk's components.
	offer := map[string]bool{}
	for _, c := range api.Registered("") {
		if c["name"] != "trade" {
			continue
		}
		subs, _ := c["options"].([]any)
		for _, s := range subs {
			if sm, _ := s.(map[string]any); sm["name"] == "offer" {
				opts, _ := sm["options"].([]any)
				for _, o := range opts {
					offer[o.(map[string]any)["name"].(string)] = true
				}
			}
		}
	}
	if !offer["give_cards"] || !offer["give_crystals"] {
		t.Errorf("the global /trade offer takes %v; want the Gilded Hall's cards and the Obelisk's components", slices.Sorted(maps.Keys(offer)))
	}
	if _, failed := rec.Total(); failed != 0 || api.Overwrites() != 1 {
		t.Errorf("%d bodies refused by Discord's description, %d overwrites (want 0 and 1)", failed, api.Overwrites())
	}
}
