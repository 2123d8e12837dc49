package discord_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
)

// field is the value of the reply's embed field name ("" when none).
func (r result) field(name string) string {
	if r.Data == nil {
		return ""
	}
	for _, e := range r.Data.Embeds {
		for _, f := range e.Fields {
			if f.Name == name {
				return f.Value
			}
		}
	}
	return ""
}

// Issue 25 on Discord: a view with at: shows the game as it was. For each
// ruleset a player's holdings or standing are recorded live, changed
// later, and read again at the moment recorded: the reply shows them as
// they were, by name, headed by the moment in the game's zone and words.
func TestViewsAtAPastMomentOnDiscord(t *testing.T) {
	ctx := context.Background()
	t.Run("gilded-hall", func(t *testing.T) {
		hs := newHarness(t)
		hs.bind()
		hs.cmd(ada, "join", opt("name", "Ada"))
		hs.cmd(grace, "join", opt("name", "Grace"))
		hs.cmd(admin, "grant", userOpt("player", ada), opt("chips", 3), opt("reason", "first"))
		hs.clk.Advance(time.Hour)
		before := hs.cmd(grace, "status", userOpt("player", ada))
		hs.clk.Advance(time.Hour)
		hs.cmd(admin, "grant", userOpt("player", ada), opt("chips", 4), opt("reason", "second"))
		hs.cmd(admin, "amend", opt("patch", `{"durations":{"rejoinWait":"72h"}}`), opt("reason", "shorter"))
		if got := hs.cmd(grace, "status", userOpt("player", ada)).field("Chips"); got != "7" {
			t.Fatalf("Chips now %q, want 7", got)
		}
		then := hs.cmd(grace, "status", userOpt("player", ada), opt("at", "2026-11-30 13:00"))
		if !then.ephemeral() || then.field("Chips") != before.field("Chips") || then.field("Chips") != "3" {
			t.Errorf("status at 13:00: Chips %q (recorded then: %q), want 3, privately: %s", then.field("Chips"), before.field("Chips"), then.Raw)
		}
		contains(t, "status then", then, "As of Mon 30 Nov 13:00 UTC (Calm Spring, period 2026-W49-I).", "Ada")
		contains(t, "rules then", hs.cmd(grace, "rules", opt("at", "1 hour ago")), "As of Mon 30 Nov 13:00 UTC", "rejoinWait 7 days")
		contains(t, "rules now", hs.cmd(grace, "rules"), "rejoinWait 3 days", "version 2")
		contains(t, "players then", hs.cmd(grace, "players", opt("at", "1 hour ago")), "Ada (<@2>): 0 Vertebrae, 3 Chips", "Grace (<@3>): 0 Vertebrae, 0 Chips")
	})
	t.Run("obelisk", func(t *testing.T) {
		hs := newHarness(t)
		obeliskGame(t, hs) // Ada gathered herbs
		hs.clk.Advance(time.Hour)
		before := hs.cmd(grace, "status", userOpt("player", ada))
		obeliskBefore := hs.cmd(ada, "obelisk")
		hs.clk.Advance(time.Hour)
		hs.cmd(admin, "components", sub("grant", userOpt("player", ada), opt("crystals", 2), opt("reason", "found")))
		if now := hs.cmd(grace, "status", userOpt("player", ada)).field("Holds"); now == before.field("Holds") {
			t.Fatalf("the grant changed nothing: %q", now)
		}
		then := hs.cmd(grace, "status", userOpt("player", ada), opt("at", "2026-11-30 13:00"))
		if then.field("Holds") != before.field("Holds") || before.field("Holds") == "" {
			t.Errorf("status at 13:00 holds %q; recorded then %q", then.field("Holds"), before.field("Holds"))
		}
		contains(t, "status then", then, "As of Mon 30 Nov 13:00 UTC")
		obeliskThen := hs.cmd(ada, "obelisk", opt("at", "2026-11-30 13:00"))
		if got, want := strings.TrimPrefix(obeliskThen.all(), "As of Mon 30 Nov 13:00 UTC (Calm Spring, period 2026-W49-I).\n"), obeliskBefore.all(); got != want {
			t.Errorf("the Obelisk at 13:00:\n%s\nrecorded then:\n%s", got, want)
		}
	})
	t.Run("turns", func(t *testing.T) {
		hs := newHarness(t)
		turnsGame(t, hs)
		hs.cmd(grace, "pool-enter")
		hs.cmd(ada, "judgment-request", opt("statement", "Is rule 210 fair?"))
		hs.clk.Set(time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)) // Wed 2 Dec 12:00 CST
		if _, err := hs.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		before := hs.cmd(ada, "turns", sub("status"))
		caseBefore := hs.cmd(ada, "case", sub("show", opt("case", "5301")))
		contains(t, "case then", caseBefore, "Its Judge is User 3")
		// Grace does not rule by the deadline: she loses points (U9), and
		// the administrator judges the case.
		hs.clk.Set(time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC))
		if _, err := hs.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		now := hs.cmd(ada, "turns", sub("status"))
		if now.field("Points") == before.field("Points") {
			t.Fatalf("the late Judge lost no points: %q", now.field("Points"))
		}
		then := hs.cmd(ada, "turns", sub("status", opt("at", "2026-12-02 12:00")))
		if then.field("Points") != before.field("Points") || !strings.Contains(then.field("Points"), "User 3 0") {
			t.Errorf("points at Wed 12:00 CST: %q; recorded then %q", then.field("Points"), before.field("Points"))
		}
		contains(t, "turns then", then, "As of Wed 2 Dec 12:00 CST (turn 1-1, first half).", "Round 1, turn 1-1, first half.")
		caseThen := hs.cmd(ada, "case", sub("show", opt("case", "5301"), opt("at", "2026-12-02 12:00")))
		contains(t, "case then", caseThen, "As of Wed 2 Dec 12:00 CST", "Its Judge is User 3")
		contains(t, "case now", hs.cmd(ada, "case", sub("show", opt("case", "5301"))), "The administrator judges it",
			"The rules as they stood when it was filed: /rules at:2026-11-30 06:00:00")
		contains(t, "rules when filed", hs.cmd(ada, "rules", opt("at", "2026-11-30 06:00:00")), "As of Mon 30 Nov 06:00 CST", "The rules in force (24)")
		contains(t, "rules then", hs.cmd(ada, "rules", opt("rule", 210), opt("at", "2026-12-02 12:00")), "Rule 210", "Each active player always has exactly one vote")
	})
}

// A moment that is no moment, in the future, before the game, or an entry
// the log lacks is refused privately, in a sentence saying why.
func TestViewAtRefusalsOnDiscord(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(ada, "join", opt("name", "Ada"))
	for at, want := range map[string]string{
		"next tuesday":               `"next tuesday" is not a time this reads: give a time such as "2026-12-01 18:00"`,
		"2027-01-01 00:00":           "Fri 1 Jan 00:00 UTC is in the future (it is now Mon 30 Nov 12:00 UTC)",
		"2026-11-01":                 "Sun 1 Nov 00:00 UTC is before the game hall began (Mon 30 Nov 12:00 UTC)",
		"01JE5Z8X7Q3W0000000000000Z": "The log of hall has no entry 01JE5Z8X7Q3W0000000000000Z",
		"before:banana":              `"banana" is not a log entry's id`,
	} {
		r := hs.cmd(ada, "status", opt("at", at))
		if !r.ephemeral() || !strings.Contains(r.all(), want) {
			t.Errorf("status at:%s answered %s, want a private refusal saying %q", at, r.Raw, want)
		}
	}
}

// The at option is registered on every view that takes it, with Discord's
// limits (its description within 100 characters: AppCommands refuses
// more), and suggests the moments after the latest log entries, said by
// what they did; a moment typed is suggested as the time it reads as.
func TestAtOptionRegisteredAndSuggested(t *testing.T) {
	hs, api := sharedHarness(t)
	cmds, err := discord.AppCommands(chat.AllCommands(hs.svc.Registry))
	if err != nil {
		t.Fatal(err)
	}
	// Every ruleset's commands at once, at their longest (a global
	// registration's): the wire recorder checks the payload against
	// Discord's description and limits (4000 characters a command).
	if _, err := discord.Register(context.Background(), &discord.Client{Base: api.Base(), Token: botToken}, app, guild, cmds); err != nil {
		t.Fatalf("registering every ruleset's commands: %v", err)
	}
	if checked, failed := hs.wire.Total(); checked == 0 || failed != 0 {
		t.Errorf("the registration: %d bodies checked, %d refused:\n%s", checked, failed, hs.wire.Summary())
	}
	has := map[string]bool{}
	for _, c := range cmds {
		for _, o := range c.Options {
			if o.Name == "at" && o.Type == discord.OptString && o.Autocomplete {
				has[c.Name] = true
				if strings.HasSuffix(o.Description, "…") || !strings.Contains(o.Description, "2 days ago") {
					t.Errorf("/%s at: its description %q is cut", c.Name, o.Description)
				}
			}
			for _, s := range o.Options {
				if s.Name == "at" && s.Autocomplete {
					has[c.Name+" "+o.Name] = true
				}
			}
		}
	}
	for _, want := range []string{"status", "inventory", "players", "game", "rules", "case show", "turns status", "obelisk", "gatherings", "judge"} {
		if !has[want] {
			t.Errorf("/%s has no at option with suggestions", want)
		}
	}
	hs.bind()
	hs.cmd(ada, "join", opt("name", "Ada"))
	complete := func(partial string) []discord.AppChoice {
		r := hs.send(interaction(hs.nextID(), ada, discord.InteractionAutocomplete, map[string]any{"name": "status", "type": 1,
			"options": []map[string]any{{"name": "at", "type": discord.OptString, "value": partial, "focused": true}}}))
		if r.Type != discord.ResponseAutocompleteResult || r.Data == nil {
			t.Fatalf("autocomplete answered %s", r.Raw)
		}
		return r.Data.Choices
	}
	hs.clk.Advance(2 * time.Hour)
	cs := complete("")
	if len(cs) == 0 || !strings.Contains(cs[0].Name, "After Mon 30 Nov 12:00 UTC: Ada joined") {
		b, _ := json.Marshal(cs)
		t.Errorf("suggestions: %s, want the moment after Ada joined first", b)
	}
	p, err := hs.svc.Log(context.Background(), "hall", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if last := p.Entries[len(p.Entries)-1]; len(cs) > 0 && cs[0].Value != last.ID {
		t.Errorf("the first suggestion's value is %v, want the entry %s", cs[0].Value, last.ID)
	}
	// Then the spans since the game began, said as their times.
	if names := fmt.Sprint(cs); !strings.Contains(names, "1 hour ago: Mon 30 Nov 13:00 UTC") || strings.Contains(names, "yesterday") {
		t.Errorf("suggestions %s, want 1 hour ago (and no day before the game)", names)
	}
	if cs := complete("2 hours ago"); len(cs) != 1 || cs[0].Name != "2 hours ago: Mon 30 Nov 12:00 UTC" || cs[0].Value != "2 hours ago" {
		t.Errorf("a typed moment is suggested as %+v", cs)
	}
}
