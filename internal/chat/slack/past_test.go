package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/slack"
	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// field is the value of the message's field name, as Block Kit shows it
// ("*Chips*\n3"), "" when none.
func field(m slack.Message, name string) string {
	b, _ := json.Marshal(m.Blocks)
	var blocks []struct {
		Fields []struct{ Text string } `json:"fields"`
	}
	_ = json.Unmarshal(b, &blocks)
	for _, bl := range blocks {
		for _, f := range bl.Fields {
			if v, ok := strings.CutPrefix(f.Text, "*"+name+"*\n"); ok {
				return v
			}
		}
	}
	return ""
}

// The parser reads at: as the words typed after it, so a moment needs no
// quotes ("at=2 days ago", "at:yesterday 18:00"), after a player given by
// position.
func TestParseAtOption(t *testing.T) {
	for text, want := range map[string]string{
		"status <@U0ADA> at=2 days ago":           "2 days ago",
		"status at:yesterday 18:00":               "yesterday 18:00",
		`status at="2026-12-01 18:00"`:            "2026-12-01 18:00",
		"status at=2026-12-01T18:00:00Z":          "2026-12-01T18:00:00Z",
		"status at=before:01JE5Z8X7Q3W0000000000": "before:01JE5Z8X7Q3W0000000000",
	} {
		name, opts, err := slack.Parse(text)
		if err != nil || name != "status" || opts["at"] != want {
			t.Errorf("Parse(%q) = %q %v %v; want at %q", text, name, opts, err, want)
		}
	}
	if _, opts, err := slack.Parse("rules rule=210 at=1 hour ago"); err != nil || opts["rule"] != "210" || opts["at"] != "1 hour ago" {
		t.Errorf("rules with a rule and a moment: %v %v", opts, err)
	}
}

// Issue 25 on Slack: for each ruleset, a player's holdings or standing
// recorded live are shown again, as they were, by a read at that moment
// after a later change, headed by the moment in the game's zone.
func TestViewsAtAPastMomentOnSlack(t *testing.T) {
	ctx := context.Background()
	t.Run("gilded-hall", func(t *testing.T) {
		e := newEnv(t)
		e.ok(admin, "bind hall")
		e.ok(ada, "join Ada")
		e.ok(grace, "join Grace")
		e.ok(admin, "grant <@"+ada+"> chips=3 reason=first")
		e.clk.Advance(time.Hour)
		before := e.ok(grace, "status <@"+ada+">")
		e.clk.Advance(time.Hour)
		e.ok(admin, "grant <@"+ada+"> chips=4 reason=second")
		if got := field(e.ok(grace, "status <@"+ada+">"), "Chips"); got != "7" {
			t.Fatalf("Chips now %q, want 7", got)
		}
		then := e.ok(grace, "status <@"+ada+"> at=2026-11-30 13:00")
		if field(then, "Chips") != field(before, "Chips") || field(then, "Chips") != "3" || then.ResponseType != "ephemeral" {
			t.Errorf("status at 13:00: Chips %q (recorded %q), want 3, privately: %s", field(then, "Chips"), field(before, "Chips"), all(then))
		}
		has(t, "status then", then, "As of Mon 30 Nov 13:00 UTC (Calm Spring, period 2026-W49-I).", "Ada")
		has(t, "players then", e.ok(grace, "players at=1 hour ago"), "Ada (<@U0ADA>): 0 Vertebrae, 3 Chips", "Grace (<@U0GRACE>): 0 Vertebrae, 0 Chips")
	})
	t.Run("obelisk", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
			t.Fatal(err)
		}
		e.ok(admin, "bind game=stone")
		e.ok(ada, "join Ada")
		e.ok(grace, "join Grace")
		e.ok(grace, "observe") // every player gains 1⚡
		e.clk.Advance(time.Hour)
		before := e.ok(grace, "status <@"+ada+">")
		e.clk.Advance(time.Hour)
		e.ok(admin, "components grant <@"+ada+"> crystals=2 reason=found")
		if field(e.ok(grace, "status <@"+ada+">"), "Holds") == field(before, "Holds") {
			t.Fatal("the grant changed nothing")
		}
		then := e.ok(grace, "status <@"+ada+"> at=1 hour ago")
		if field(then, "Holds") != field(before, "Holds") || !strings.Contains(field(before, "Holds"), "⚡") {
			t.Errorf("holds an hour ago %q; recorded then %q", field(then, "Holds"), field(before, "Holds"))
		}
		has(t, "status then", then, "As of Mon 30 Nov 13:00 UTC")
	})
	t.Run("turns", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "create-nomic"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
			t.Fatal(err)
		}
		e.ok(admin, "bind nomic")
		e.ok(ada, "join Ada")
		e.ok(grace, "join Grace")
		e.ok(grace, "pool-enter")
		e.ok(ada, `judgment-request statement="Is rule 210 fair?"`)
		e.clk.Set(time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)) // Wed 2 Dec 12:00 CST
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		before := e.ok(ada, "turns status")
		// Grace does not rule by the deadline: she loses points (U9).
		e.clk.Set(time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC))
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		if field(e.ok(ada, "turns status"), "Points") == field(before, "Points") {
			t.Fatal("the late Judge lost no points")
		}
		then := e.ok(ada, "turns status at=2026-12-02 12:00")
		if field(then, "Points") != field(before, "Points") || !strings.Contains(field(then, "Points"), "Grace 0") {
			t.Errorf("points at Wed 12:00 CST %q; recorded then %q", field(then, "Points"), field(before, "Points"))
		}
		has(t, "turns then", then, "As of Wed 2 Dec 12:00 CST (turn 1-1, first half).")
		has(t, "case then", e.ok(ada, "case show 5301 at=2026-12-02 12:00"), "As of Wed 2 Dec 12:00 CST", "Ada asks whether", "Its Judge is Grace")
		has(t, "case now", e.ok(ada, "case show 5301"), "The administrator judges it")
		has(t, "rules then", e.ok(ada, "rules rule=210 at=5 days ago"), "As of Wed 2 Dec 12:00 CST", "Rule 210")
	})
}

// A bad moment is refused privately, in a sentence.
func TestViewAtRefusalsOnSlack(t *testing.T) {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	e.ok(ada, "join Ada")
	for at, want := range map[string]string{
		"next tuesday":     `"next tuesday" is not a time this reads`,
		"2027-01-01 00:00": "Fri 1 Jan 00:00 UTC is in the future",
		"2026-11-01":       "Sun 1 Nov 00:00 UTC is before the game hall began",
	} {
		m := e.cmd(ada, "status at="+at)
		if !refused(m) || m.ResponseType != "ephemeral" || !strings.Contains(all(m), want) {
			t.Errorf("status at=%s: %s, want a private refusal saying %q", at, all(m), want)
		}
	}
}
