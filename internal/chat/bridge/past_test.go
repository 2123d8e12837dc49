package bridge_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat/bridge"
	"croupier/internal/game"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// fieldOf is the value of the reply's field name ("" when none).
func fieldOf(r bridge.Reply, name string) string {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// replyText is all a relay shows of r.
func replyText(r bridge.Reply) string {
	s := r.Title + "\n" + r.Text
	for _, f := range r.Fields {
		s += "\n" + f.Name + ": " + f.Value
	}
	return s
}

// at runs commands in room space of the bridge, each with a fresh id.
type room struct {
	e     *env
	space string
	n     int
}

func (r *room) run(t *testing.T, user, name string, opts map[string]string) bridge.Reply {
	t.Helper()
	r.n++
	return r.e.command(bridge.Command{ID: fmt.Sprint(r.space, "-", r.n), Platform: "matrix", Space: r.space, Channel: "general", User: user,
		UserName: strings.ToUpper(user[:1]) + user[1:], Command: name, Options: opts})
}

func (r *room) ok(t *testing.T, user, name string, opts map[string]string) bridge.Reply {
	t.Helper()
	rep := r.run(t, user, name, opts)
	if rep.Refusal {
		t.Fatalf("%s %v refused: %s", name, opts, rep.Text)
	}
	return rep
}

func contains(t *testing.T, what string, r bridge.Reply, subs ...string) {
	t.Helper()
	for _, s := range subs {
		if !strings.Contains(replyText(r), s) {
			t.Errorf("%s: reply %q lacks %q", what, replyText(r), s)
		}
	}
}

// Issue 25 through the bridge: for each ruleset, a view with at: shows
// the game as it was, by names, headed by the moment in the game's zone;
// a log entry's id names the moment just after it, before:<id> the moment
// just before.
func TestViewsAtAPastMomentThroughTheBridge(t *testing.T) {
	ctx := context.Background()
	t.Run("gilded-hall", func(t *testing.T) {
		e := newEnv(t)
		r := &room{e: e, space: "room1"}
		r.ok(t, "ada", "join", nil)
		r.ok(t, "grace", "join", nil)
		r.ok(t, "matrix:admin", "grant", map[string]string{"player": "Ada", "chips": "3", "reason": "first"})
		e.clk.Advance(time.Hour)
		before := r.ok(t, "grace", "status", map[string]string{"player": "Ada"})
		e.clk.Advance(time.Hour)
		r.ok(t, "matrix:admin", "grant", map[string]string{"player": "Ada", "chips": "4", "reason": "second"})
		p, err := e.svc.Log(ctx, "hall", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		second := p.Entries[len(p.Entries)-1].ID
		then := r.ok(t, "grace", "status", map[string]string{"player": "Ada", "at": "2026-11-30 13:00"})
		if fieldOf(then, "Chips") != fieldOf(before, "Chips") || fieldOf(then, "Chips") != "3" || !then.Ephemeral {
			t.Errorf("status at 13:00: %q, recorded %q, want 3 privately", fieldOf(then, "Chips"), fieldOf(before, "Chips"))
		}
		contains(t, "status then", then, "As of Mon 30 Nov 13:00 UTC (Calm Spring, period 2026-W49-I).", "Ada")
		if got := fieldOf(r.ok(t, "grace", "status", map[string]string{"player": "Ada", "at": "before:" + second}), "Chips"); got != "3" {
			t.Errorf("Chips just before the second grant: %q, want 3", got)
		}
		after := r.ok(t, "grace", "status", map[string]string{"player": "Ada", "at": second})
		if got := fieldOf(after, "Chips"); got != "7" {
			t.Errorf("Chips just after the second grant: %q, want 7", got)
		}
		contains(t, "status after the entry", after, "As of Mon 30 Nov 14:00 UTC")
	})
	t.Run("obelisk", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c-ob"}, game.CreateGame{ID: "ob", Ruleset: obelisk.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Bind(ctx, game.Request{Game: "ob", Actor: "matrix:admin", Key: "b-ob"}, game.Bind{Platform: "matrix", Space: "room2"}); err != nil {
			t.Fatal(err)
		}
		r := &room{e: e, space: "room2"}
		r.ok(t, "ada", "join", nil)
		r.ok(t, "grace", "join", nil)
		r.ok(t, "grace", "observe", nil)
		e.clk.Advance(time.Hour)
		before := r.ok(t, "grace", "status", map[string]string{"player": "Ada"})
		e.clk.Advance(time.Hour)
		r.ok(t, "matrix:admin", "components grant", map[string]string{"player": "Ada", "crystals": "2", "reason": "found"})
		then := r.ok(t, "grace", "status", map[string]string{"player": "Ada", "at": "1 hour ago"})
		if fieldOf(then, "Holds") != fieldOf(before, "Holds") || !strings.Contains(fieldOf(before, "Holds"), "⚡") {
			t.Errorf("holds an hour ago %q; recorded then %q", fieldOf(then, "Holds"), fieldOf(before, "Holds"))
		}
		contains(t, "status then", then, "As of Mon 30 Nov 13:00 UTC")
		contains(t, "players then", r.ok(t, "grace", "players", map[string]string{"at": "1 hour ago"}), "Ada (matrix:ada)", "Grace (matrix:grace)")
	})
	t.Run("turns", func(t *testing.T) {
		e := newEnv(t)
		if _, err := e.svc.Create(ctx, game.Request{Actor: "matrix:admin", Key: "c-n"}, game.CreateGame{ID: "nomic", Ruleset: turns.ID}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Bind(ctx, game.Request{Game: "nomic", Actor: "matrix:admin", Key: "b-n"}, game.Bind{Platform: "matrix", Space: "room3"}); err != nil {
			t.Fatal(err)
		}
		r := &room{e: e, space: "room3"}
		r.ok(t, "ada", "join", nil)
		r.ok(t, "grace", "join", nil)
		r.ok(t, "ada", "turns propose", map[string]string{"op": "amend", "rule": "210", "text": "Rule 210, amended."})
		r.ok(t, "ada", "turns vote", map[string]string{"proposal": "P1", "vote": "for"})
		r.ok(t, "grace", "turns vote", map[string]string{"proposal": "P1", "vote": "for"})
		e.clk.Set(time.Date(2026, 12, 2, 18, 0, 0, 0, time.UTC)) // Wed 2 Dec 12:00 CST
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		before := r.ok(t, "ada", "rules", map[string]string{"rule": "210"})
		// Turn 1-1 ends Sat 5 Dec 22:00 CST: P1 is adopted.
		e.clk.Set(time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC))
		if _, err := e.svc.RunDue(ctx); err != nil {
			t.Fatal(err)
		}
		contains(t, "rule 210 now", r.ok(t, "ada", "rules", map[string]string{"rule": "210"}), "Rule 210, amended.", "Amended by proposal P1 in turn 1-1")
		then := r.ok(t, "ada", "rules", map[string]string{"rule": "210", "at": "2026-12-02 12:00"})
		if got, want := strings.TrimPrefix(then.Text, "As of Wed 2 Dec 12:00 CST (turn 1-1, first half).\n"), before.Text; got != want {
			t.Errorf("rule 210 at Wed 12:00 CST:\n%s\nrecorded then:\n%s", then.Text, want)
		}
		// Between the end of the turn and its adoption's effect nothing
		// else happened: a moment just after the turn end shows it.
		contains(t, "turns then", r.ok(t, "ada", "turns status", map[string]string{"at": "2026-12-02 12:00"}), "As of Wed 2 Dec 12:00 CST", "Proposal P1", "For: Ada and Grace")
	})
}

// The refusals through the bridge: private, in sentences.
func TestViewAtRefusalsThroughTheBridge(t *testing.T) {
	e := newEnv(t)
	r := &room{e: e, space: "room1"}
	r.ok(t, "ada", "join", nil)
	for at, want := range map[string]string{
		"soon":                       `"soon" is not a time this reads`,
		"2027-01-01 00:00":           "is in the future",
		"2026-11-01":                 "is before the game hall began",
		"01JE5Z8X7Q3W0000000000000Z": "The log of hall has no entry",
	} {
		rep := r.run(t, "ada", "status", map[string]string{"at": at})
		if !rep.Refusal || !rep.Ephemeral || !strings.Contains(rep.Text, want) {
			t.Errorf("status at %s: %+v, want a private refusal saying %q", at, rep, want)
		}
	}
}
