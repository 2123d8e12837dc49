package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
)

// Issue 25, "on every surface": every read of croupier play takes --at T
// and shows the game as it was then, saying first which moment it shows,
// in the game's words. T is a time, a phrase counted back from the
// server's clock ("2 days ago", "yesterday"), a log entry's id (just after
// it) or before:<id>. A command with --at is refused: the past is
// read-only.

// entries is the log of g as the server holds it.
func (h *harness) entries(g string) []game.Entry {
	h.t.Helper()
	page, err := h.srv.svc.Log(context.Background(), g, "", 500)
	if err != nil {
		h.t.Fatal(err)
	}
	return page.Entries
}

// lastEntry is the id of g's newest log entry.
func (h *harness) lastEntry(g string) string {
	h.t.Helper()
	all := h.entries(g)
	return all[len(all)-1].ID
}

// asOf runs a read at a moment, checks its first line says the moment
// (want) and returns the rest: what the read showed.
func (h *harness) asOf(want string, args ...string) string {
	h.t.Helper()
	out := h.must(args...)
	first, rest, _ := strings.Cut(out, "\n")
	if first != want {
		h.t.Errorf("croupier %s says %q first, want %q; it printed:\n%s", strings.Join(args, " "), first, want, out)
	}
	return rest
}

func TestPlayAtReadsTheGildedHallAsItWas(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "hall", "--name", "Gilded Hall")
	h.vars["CROUPIER_GAME"] = "hall"
	h.must("play", "join", "--name", "Ada")
	h.must("play", "clock", "--advance", "1m")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	h.must("play", "clock", "--advance", "1m")
	h.must("play", "grant", "Bob", "--vertebrae", "5", "--chips", "2", "--reason", "carried over from the wiki")
	grant := h.lastEntry("hall")
	// Thursday 5 March 12:02 UTC: what the reads showed then.
	then := walkStart.Add(2 * time.Minute)
	bob := h.must("play", "status", "Bob")
	players := h.must("play", "players")
	contains(t, "Bob then", bob, "Vertebrae 5, Chips 2")

	// Two days on (through the phase's end), Bob is granted more.
	h.must("play", "clock", "--advance", "48h")
	h.must("play", "grant", "Bob", "--vertebrae", "10", "--reason", "a correction")
	contains(t, "Bob now", h.must("play", "status", "Bob"), "Vertebrae 15, Chips 2")

	asked := "As of Thu 5 Mar 12:02 UTC (after entry " + grant + ")."
	for _, at := range []string{then.Format(time.RFC3339), "2026-03-05T06:02:00-06:00", "2 days ago", "48 hours ago"} {
		if got := h.asOf(asked, "play", "status", "Bob", "--at", at); got != bob {
			t.Errorf("status Bob --at %s shows\n%s\nwhere it showed then\n%s", at, got, bob)
		}
	}
	if got := h.asOf("As of Thu 5 Mar 12:02 UTC, just after entry "+grant+".", "play", "players", "--at", grant); got != players {
		t.Errorf("players --at %s shows\n%s\nwhere they showed then\n%s", grant, got, players)
	}
	if got := h.asOf("As of Thu 5 Mar 12:02 UTC, just after entry "+grant+".", "play", "--at", "after:"+strings.ToLower(grant), "status", "Bob"); got != bob {
		t.Errorf("status Bob --at after:%s shows\n%s\nwhere it showed then\n%s", grant, got, bob)
	}
	var bobJoined string
	for i, e := range h.entries("hall") {
		if e.ID == grant {
			bobJoined = h.entries("hall")[i-1].ID
		}
	}
	before := h.asOf("As of Thu 5 Mar 12:02 UTC, just before entry "+grant+" (after entry "+bobJoined+").", "play", "status", "Bob", "--at", "before:"+grant)
	contains(t, "Bob before the grant", before, "Vertebrae 0, Chips 0")
	// The log then ends with the grant; --json is the server's answer, as_of and all.
	contains(t, "log then", h.asOf(asked, "play", "log", "--all", "--at", then.Format(time.RFC3339)), "carried over from the wiki")
	if out := h.must("play", "log", "--all", "--at", then.Format(time.RFC3339)); strings.Contains(out, "a correction") {
		t.Errorf("the log at %s shows the later grant:\n%s", then, out)
	}
	var v struct {
		Inventory struct{ Vertebrae int }
		AsOf      game.AsOf `json:"as_of"`
	}
	if err := json.Unmarshal([]byte(h.must("play", "status", "Bob", "--json", "--at", "2 days ago")), &v); err != nil || v.Inventory.Vertebrae != 5 || v.AsOf.Entry != grant || !v.AsOf.At.Equal(then) {
		t.Errorf("status --json --at: %+v %v", v, err)
	}

	// A command at a moment is refused by the server, and a T that is no
	// moment by the CLI, each saying why.
	r := h.cli("play", "grant", "Bob", "--chips", "1", "--reason", "r", "--at", "yesterday")
	if r.code != exitRefused || !strings.Contains(r.stderr, "The past is read-only") || !strings.Contains(r.stderr, "[past_read_only]") {
		t.Errorf("grant --at: %s", r)
	}
	contains(t, "Bob after a refused grant", h.must("play", "status", "Bob"), "Vertebrae 15, Chips 2")
	for _, c := range []struct{ at, stderr string }{
		{"last week", `--at "last week" is not a moment`},
		{"2 fortnights ago", `"yesterday 18:00", "yesterday" (this time yesterday), "2 days ago"`},
		{"5 March", "2026-12-01T18:00:00Z"},
	} {
		if r := h.cli("play", "status", "--at", c.at); r.code != exitUsage || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("status --at %q: %s\nwant a usage error with %q", c.at, r, c.stderr)
		}
	}
	for _, c := range []struct{ at, code string }{
		{"2026-03-01T00:00:00Z", "before_game"},
		{"2026-03-09T00:00:00Z", "moment_in_future"},
		{"01JE5Z8X7Q3W0000000000000A", "entry_not_found"},
	} {
		if r := h.cli("play", "status", "--at", c.at); r.code != exitRefused || !strings.Contains(r.stderr, "["+c.code+"]") {
			t.Errorf("status --at %s: %s\nwant refused [%s]", c.at, r, c.code)
		}
	}
	contains(t, "play help", h.must("play", "help", "--game", ""), "--at T         read the game as it was at T")
	contains(t, "play help --game", h.must("play", "help"), "Every read (status, players, log ...) takes --at T")
}

func TestPlayAtReadsTheObeliskAsItWas(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "ob", "--ruleset", "obelisk", "--name", "The Obelisk")
	h.vars["CROUPIER_GAME"] = "ob"
	h.must("play", "join", "--name", "Ada")
	h.must("play", "clock", "--advance", "1h")
	obeliskThen := h.must("play", "obelisk")
	statusThen := h.must("play", "status")
	then := h.lastEntry("ob")
	h.must("play", "clock", "--advance", "1h")
	h.must("play", "observe")
	if now := h.must("play", "status"); now == statusThen {
		t.Fatalf("the observation changed nothing to read:\n%s", now)
	}
	// An hour after the join, before the observation: 13:00 UTC.
	asked := "As of Thu 5 Mar 13:00 UTC (after entry " + then + ")."
	if got := h.asOf(asked, "play", "obelisk", "--at", "an hour ago"); got != obeliskThen {
		t.Errorf("obelisk --at an hour ago shows\n%s\nwhere it showed then\n%s", got, obeliskThen)
	}
	if got := h.asOf(asked, "play", "status", "--at", "60 minutes ago"); got != statusThen {
		t.Errorf("status --at 60 minutes ago shows\n%s\nwhere it showed then\n%s", got, statusThen)
	}
	r := h.cli("play", "observe", "--at", "an hour ago")
	if r.code != exitRefused || !strings.Contains(r.stderr, "[past_read_only]") {
		t.Errorf("observe --at: %s", r)
	}
}

func TestPlayAtReadsATurnsGameAsItWas(t *testing.T) {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "nomic", "--ruleset", "turns", "--name", "Nomic")
	h.vars["CROUPIER_GAME"] = "nomic"
	h.must("play", "join", "--name", "Ada")
	h.must("play", "--as", "discord:2", "join", "--name", "Bob")
	h.must("play", "clock", "--advance", "1m")
	h.must("play", "turns-propose", "amend", "210", "Rule 210, as amended by Ada.")
	h.must("play", "turns-vote", "P1", "for")
	h.must("play", "--as", "discord:2", "turns-vote", "P1", "for")
	before := h.must("play", "turns-rules", "210")
	contains(t, "rule 210 before its turn's end", before, "Each active player always has exactly one vote on each proposal.")
	voted := h.lastEntry("nomic")
	// Through the end of turn 1-1 (Saturday 14 March 22:00 CDT): P1 is adopted.
	h.must("play", "clock", "--set", "2026-03-15T04:00:00Z")
	contains(t, "rule 210 now", h.must("play", "turns-rules", "210"), "Rule 210, as amended by Ada.")

	// The game's words: its times in America/Chicago.
	asked := "As of Thu 5 Mar 06:01 CST, just after entry " + voted + "."
	if got := h.asOf(asked, "play", "turns-rules", "210", "--at", voted); got != before {
		t.Errorf("turns-rules 210 --at %s shows\n%s\nwhere it showed then\n%s", voted, got, before)
	}
	// A day before the turn's end (the turn's begin and middle were
	// logged in between).
	dayAgo := time.Date(2026, 3, 14, 4, 0, 0, 0, time.UTC)
	var last string
	for _, e := range h.entries("nomic") {
		if !e.At.After(dayAgo) {
			last = e.ID
		}
	}
	contains(t, "rule 210 a day ago", h.asOf("As of Fri 13 Mar 23:00 CDT (after entry "+last+").", "play", "turns-rules", "210", "--at", "yesterday"),
		"Each active player always has exactly one vote on each proposal.")
	r := h.cli("play", "turns-vote", "P1", "against", "--at", voted)
	if r.code != exitRefused || !strings.Contains(r.stderr, "[past_read_only]") {
		t.Errorf("turns-vote --at: %s", r)
	}
}
