package discord_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/discord"
	"croupier/internal/game"
	"croupier/internal/rulesets/turns"
)

// turnsScenario plays the turns ruleset's chat commands in a server bound
// to a turns game: a proposal with its For/Against buttons and a typed
// vote, rule-number, proposal and case-number autocomplete, a Request for
// Judgment, the Judge's recusal, the administrator's ruling, an appeal
// with its buttons pressed during the next turn, and the turns view.
func turnsScenario(t *testing.T) *harness {
	hs := newHarness(t)
	ctx := context.Background()
	if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-nomic"}, game.CreateGame{ID: "nomic", Name: "Friday Nomic", Ruleset: turns.ID}); err != nil {
		t.Fatal(err)
	}
	// The bind names the game and shows its channels as Discord mentions,
	// which Discord renders as the channels' names (issue 23).
	if r := hs.cmd(admin, "bind", opt("game", "nomic"), map[string]any{"name": "announcements", "type": discord.OptChannel, "value": "801"}); !strings.Contains(r.all(), "now plays the game nomic, Friday Nomic") || !strings.Contains(r.all(), "<#801>") {
		t.Fatalf("bind: %s", r.Raw)
	}
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}
	complete := func(user, name string, opts ...map[string]any) string {
		t.Helper()
		r := hs.send(interaction(hs.nextID(), user, discord.InteractionAutocomplete, map[string]any{"name": name, "type": 1, "options": opts}))
		if r.Type != discord.ResponseAutocompleteResult {
			t.Fatalf("autocomplete answered %s", r.Raw)
		}
		// A string value reads quoted, a number bare: a choice's value has
		// its option's type (issue 23: "210" for an integer option is
		// refused by Discord).
		var vs []string
		for _, c := range r.Data.Choices {
			switch v := c.Value.(type) {
			case string:
				vs = append(vs, fmt.Sprintf("%s=%q", c.Name, v))
			case float64:
				vs = append(vs, fmt.Sprintf("%s=%v", c.Name, v))
			default:
				t.Fatalf("choice %q has a value of type %T", c.Name, c.Value)
			}
		}
		return strings.Join(vs, "\n")
	}
	focus := func(name, v string, typ int) map[string]any {
		return map[string]any{"name": name, "type": typ, "value": v, "focused": true}
	}
	if got := complete(ada, "turns", sub("propose", opt("op", "amend"), focus("rule", "210", discord.OptInteger))); !strings.Contains(got, "=210") {
		t.Errorf("rule numbers: %s", got)
	}
	r := hs.cmd(ada, "turns", sub("propose", opt("op", "amend"), opt("rule", 210), opt("text", "Rule 210, amended.")))
	contains(t, "turns-propose", r, "Proposal P1", "amend rule 210")
	contains(t, "vote button", hs.press(grace, r.button(t, "👍 For")), "voted for proposal P1")
	if got := complete(cy, "turns", sub("vote", focus("proposal", "", discord.OptString))); !strings.Contains(got, `="P1"`) {
		t.Errorf("open proposals: %s", got)
	}
	contains(t, "turns-vote", hs.cmd(cy, "turns", sub("vote", opt("proposal", "P1"), opt("vote", "against"))), "voted against proposal P1")

	hs.cmd(grace, "pool-enter")
	hs.cmd(ada, "judgment-request", opt("statement", "Is rule 210 fair?"))
	if got := complete(grace, "case", sub("recuse", focus("case", "", discord.OptInteger))); !strings.Contains(got, "=5301") {
		t.Errorf("case numbers: %s", got)
	}
	contains(t, "judge-recuse", hs.cmd(grace, "case", sub("recuse", opt("case", 5301))), "the administrator judges it")
	contains(t, "judge-rule", hs.cmd(admin, "case", sub("rule", opt("case", 5301), opt("ruling", "FALSE"), opt("reasons", "It is."))), "ruled case 5301 FALSE")
	r = hs.cmd(cy, "case", sub("appeal", opt("case", 5301), opt("ruling", "TRUE"), opt("reasons", "It is not.")))
	contains(t, "ruling-appeal", r, "Appeal A1 of case 5301", "2/3")
	// The appeal is voted on during turn 1-1 (Monday 22:00 CST).
	hs.clk.Set(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC))
	contains(t, "appeal button", hs.press(ada, r.button(t, "👍 For")), "voted for the appeal A1 of case 5301")
	if got := complete(grace, "case", sub("vote", focus("case", "53", discord.OptInteger))); !strings.Contains(got, "=5301") {
		t.Errorf("cases with an open appeal: %s", got)
	}
	contains(t, "appeal-vote", hs.cmd(grace, "case", sub("vote", opt("case", 5301), opt("vote", "against"))), "voted against the appeal A1 of case 5301")
	contains(t, "turns", hs.cmd(ada, "turns", sub("status")), "Round 1, turn 1-1", "Judicial Pool", "Proposal P1")
	contains(t, "case show", hs.cmd(ada, "case", sub("show", opt("case", "5301"))), "Case 5301: FALSE", "Ruled FALSE by the administrator", "Appeal A1 by User 5 for TRUE")
	contains(t, "rules", hs.cmd(ada, "rules", opt("rule", 210)), "Rule 210", "Enacted at the game's creation")
	return hs
}
