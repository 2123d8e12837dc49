package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets/gildedhall"
)

// Governance through `croupier play` against the local server with a
// manual clock (RULINGS G1-G5); votes are pushed with `play react`, as a
// bridge pushes reactions.

// jsonOut runs a play command with --json that must succeed and decodes its
// output into v.
func (h *harness) jsonOut(v any, args ...string) {
	h.t.Helper()
	out := h.must(append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		h.t.Fatalf("croupier %s: output is not the JSON expected (%v):\n%s", strings.Join(args, " "), err, out)
	}
}

// refused runs a command that the server must refuse with code.
func (h *harness) refused(code string, args ...string) {
	h.t.Helper()
	r := h.cli(args...)
	if r.code != exitRefused || !strings.Contains(r.stderr, "["+code+"]") {
		h.t.Fatalf("croupier %s: want refused [%s], got %s", strings.Join(args, " "), code, r)
	}
}

// govHarness: game "hall" created on Thursday 5 March 2026 12:00 (walkStart)
// by discord:1, who joins with the voters discord:2 .. discord:8.
func govHarness(t *testing.T) *harness {
	h := newHarness(t, "manual")
	h.vars["CROUPIER_AS"] = "discord:1"
	h.must("play", "create-game", "hall")
	h.vars["CROUPIER_GAME"] = "hall"
	for i := 1; i <= 8; i++ {
		h.must("play", "--as", fmt.Sprintf("discord:%d", i), "join")
	}
	return h
}

func ids(from, to int) string {
	var s []string
	for i := from; i <= to; i++ {
		s = append(s, fmt.Sprintf("discord:%d", i))
	}
	return strings.Join(s, ",")
}

// TestG2G3_ProposalsOverTheCLI: a standard proposal made on a Thursday is
// tallied on Monday 00:00 UTC; its adopted price amendment changes what the
// next purchase costs, and the log says so (issue 5 acceptance 5); an
// urgent proposal passes with 2 against and fails with 3; a non-reputable
// player's urgent proposal is refused; an edited popular proposal fails.
func TestG2G3_ProposalsOverTheCLI(t *testing.T) {
	h := govHarness(t)
	var std game.ProposalView
	h.jsonOut(&std, "play", "propose", "--channel", "c1", "--message", "m1", "--title", "Cheaper cards", "--price", "random-card=2")
	monday := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	if !std.VotingEnd.Equal(monday) || std.Class != governance.Standard {
		t.Fatalf("standard proposal on Thursday: class %s, voting ends %s; want standard, %s", std.Class, std.VotingEnd, monday)
	}
	// A second price proposal open at the same time (issue 15 defect 1):
	// both hold once adopted.
	contains(t, "propose --price", h.must("play", "propose", "--channel", "c1", "--message", "m6", "--price", "chip=20"),
		"; amendment: 1 Chip costs 20 Vertebrae, was 25")
	h.must("play", "react", "--channel", "c1", "--message", "m6", "--up", ids(2, 5))
	var two, three, edited game.ProposalView
	h.jsonOut(&two, "play", "propose", "--urgent", "--channel", "c1", "--message", "m2")
	h.jsonOut(&three, "play", "propose", "--urgent", "--channel", "c1", "--message", "m3")
	h.jsonOut(&edited, "play", "propose", "--urgent", "--channel", "c1", "--message", "m4")
	h.must("play", "react", "--channel", "c1", "--message", "m1", "--up", ids(2, 5), "--down", "discord:6")
	h.must("play", "react", "--channel", "c1", "--message", "m2", "--up", ids(2, 2), "--down", ids(3, 4))
	h.must("play", "react", "--channel", "c1", "--message", "m3", "--up", ids(2, 5), "--down", ids(6, 8))
	out := h.must("play", "react", "--channel", "c1", "--message", "m4", "--up", ids(2, 8))
	contains(t, "react", out, "Message discord/c1/m4: 👍 discord:2, discord:3")
	out = h.must("play", "message-event", "edited", "--channel", "c1", "--message", "m4")
	contains(t, "message-event", out, "; edited (2 changes recorded).")
	out = h.must("play", "proposals", "--status", "open")
	contains(t, "open proposals", out, "proposal "+std.ID+" \"Cheaper cards\" by discord:1 (standard, message discord/c1/m1): open; voting 2026-03-06T00:00:00Z to 2026-03-09T00:00:00Z; now 4 for, 1 against (popular); amendment: Random Card costs 2 Vertebrae, was 5")

	// A player who joins after the game's first 72 hours is not reputable.
	h.must("play", "clock", "--set", "2026-03-08T13:00:00Z")
	h.must("play", "--as", "discord:9", "join")
	h.refused("not_reputable", "play", "--as", "discord:9", "propose", "--urgent", "--channel", "c1", "--message", "m5")

	h.must("play", "clock", "--set", "2026-03-09T00:00:01Z")
	for _, c := range []struct {
		id, want string
	}{
		{std.ID, "adopted at 2026-03-09T00:00:00Z: popular: 4 for, 1 against"},
		{two.ID, "adopted at 2026-03-07T12:00:00Z: popular: 1 for, 2 against"},
		{three.ID, "failed at 2026-03-07T12:00:00Z: not popular: 4 for, 3 against"},
		{edited.ID, "failed at 2026-03-07T12:00:00Z: popular: 7 for, 0 against; an urgent proposal may have at most 2 against; the proposal message was edited"},
	} {
		contains(t, "proposal "+c.id, h.must("play", "proposal", c.id), c.want)
	}

	out = h.must("play", "shop")
	contains(t, "shop after adoption", out, "random-card     2 Vertebrae", "20 Vertebrae")
	h.must("play", "grant", "discord:2", "--vertebrae", "10", "--reason", "test funds")
	var bought gildedhall.PurchaseResult
	h.jsonOut(&bought, "play", "--as", "discord:2", "buy", "random-card")
	if bought.Paid != 2 {
		t.Errorf("the purchase after adoption paid %d, want 2", bought.Paid)
	}
	out = h.must("play", "log", "--all")
	contains(t, "log", out, "The ruleset was amended to version 2 by croupier:scheduler (proposal "+std.ID+" adopted): Random Card costs 2 Vertebrae, was 5.",
		"Proposal "+std.ID+" “Cheaper cards” (Random Card costs 2 Vertebrae, was 5) by discord:1 was adopted")
	var page game.LogPage
	h.jsonOut(&page, "play", "log", "--all")
	found := false
	for _, en := range page.Entries {
		for _, ev := range en.Events {
			if ev.Type == "ruleset_amended" {
				var am game.Amendment
				_ = json.Unmarshal(ev.Data, &am)
				found = found || am.Source == "proposal:"+std.ID && am.At.Equal(monday) && en.At.Equal(monday)
			}
		}
	}
	if !found {
		t.Errorf("no ruleset_amended from proposal:%s at %s in the log:\n%s", std.ID, monday, out)
	}
}

// TestG4G5_TheJudgeOverTheCLI: an election seats the Judge, who rules; a
// vote of confidence with 4 👎, 2 👍 and one both overturns (4 to 3), one
// with 3 👎, 2 👍 and one both leaves the ruling standing (3 to 3); the
// Judge overturns their own ruling and rules again; two assents remove them.
func TestG4G5_TheJudgeOverTheCLI(t *testing.T) {
	h := govHarness(t)
	out := h.must("play", "stand", "--channel", "c1", "--message", "cand")
	contains(t, "stand", out, "discord:1 stands for Judge in 2026-W10")
	h.must("play", "react", "--channel", "c1", "--message", "cand", "--up", ids(2, 4))
	contains(t, "candidacies", h.must("play", "candidacies"), "discord:1: 3 👍, 0 👎, popular", "If the week ended now: discord:1 is elected")
	h.must("play", "clock", "--set", "2026-03-09T00:00:01Z")
	contains(t, "judge", h.must("play", "judge"), "The Judge is discord:1, since 2026-03-09T00:00:00Z.")

	var over, stands, q game.JusticeRecord
	h.jsonOut(&over, "play", "--as", "discord:2", "rfj", "statement", "Gifts", "may", "be", "given", "to", "oneself.", "--channel", "c1", "--message", "r1")
	h.jsonOut(&stands, "play", "--as", "discord:3", "rfj", "statement", "Jokers are Red.", "--channel", "c1", "--message", "r2")
	h.jsonOut(&q, "play", "--as", "discord:4", "rfj", "question", "Who deals?", "--channel", "c1", "--message", "r3")
	if over.Request.Text != "Gifts may be given to oneself." {
		t.Errorf("request text %q", over.Request.Text)
	}
	contains(t, "queue", h.must("play", "judge"), "3 request(s) waiting for a ruling")
	h.refused("truth_value_required", "play", "rule", over.Request.ID, "maybe")
	h.refused("not_the_judge", "play", "--as", "discord:2", "rule", over.Request.ID, "TRUE")
	var r1, r2, r3 game.RulingView
	h.jsonOut(&r1, "play", "rule", over.Request.ID, "FALSE")
	h.jsonOut(&r2, "play", "rule", stands.Request.ID, "TRUE")
	h.jsonOut(&r3, "play", "rule", q.Request.ID, "The", "admin", "deals.")
	contains(t, "overturn", h.must("play", "overturn", r3.ID), "(overturned by judge at 2026-03-09T00:00:01Z: no bearing)")
	h.must("play", "rule", q.Request.ID, "Nobody deals.")

	h.must("play", "--as", "discord:5", "confidence", r1.ID, "--channel", "c1", "--message", "p1")
	h.must("play", "--as", "discord:5", "confidence", r2.ID, "--channel", "c1", "--message", "p2")
	// p1: 4 down (2-5), 2 up (6-7), 8 both. p2: 3 down (2-4), 2 up (6-7), 8 both.
	h.must("play", "react", "--channel", "c1", "--message", "p1", "--up", ids(6, 8), "--down", ids(2, 5)+",discord:8")
	h.must("play", "react", "--channel", "c1", "--message", "p2", "--up", ids(6, 8), "--down", ids(2, 4)+",discord:8")
	h.must("play", "clock", "--set", "2026-03-11T00:00:02Z")
	out = h.must("play", "rulings")
	contains(t, "rulings", out,
		"ruling "+r1.ID+" by Judge discord:1 at 2026-03-09T00:00:01Z on statement \"Gifts may be given to oneself.\" by discord:2: FALSE (overturned by confidence-vote at 2026-03-11T00:00:01Z: no bearing); vote of confidence on discord/c1/p1 until 2026-03-11T00:00:01Z: overturned (overturned: 4 to overturn, 3 to affirm (1 unclear counted as affirming)",
		"ruling "+r2.ID+" by Judge discord:1 at 2026-03-09T00:00:01Z on statement \"Jokers are Red.\" by discord:3: TRUE; vote of confidence on discord/c1/p2 until 2026-03-11T00:00:01Z: affirmed (ruling stands: 3 to overturn, 3 to affirm",
		"Nobody deals.")

	h.must("play", "--as", "discord:2", "assent-removal")
	h.refused("already_assented", "play", "--as", "discord:2", "assent-removal")
	contains(t, "removal", h.must("play", "--as", "discord:3", "assent-removal"), "There is no Judge.")
	h.refused("not_the_judge", "play", "resign")
}
