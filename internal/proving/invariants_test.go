package proving

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
)

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func event(t *testing.T, typ, player string, data any) game.Event {
	return game.Event{Type: typ, Player: player, Data: mustJSON(t, data)}
}

// A turns game with proposal P1 of turn 1 decided 1 for (discord:2), 0
// against, and the votes the clients were answered OK for.
func turnsSnapshot(t *testing.T, acked ...[2]string) (*Snapshot, Observed) {
	start := time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC)
	s := &Snapshot{Game: "g", ByKey: map[string]game.Entry{}, Module: map[string][]byte{}}
	s.Module["TURNS"] = mustJSON(t, turnsGame{Round: nomic.Round{Number: 1, Start: start}, Players: []nomic.Player{{ID: "discord:2", Member: true, Active: true}, {ID: "discord:3", Member: true, Active: true}}})
	s.Module["TPROP#P1"] = mustJSON(t, nomic.Proposal{ID: "P1", Round: 1, Ordinal: 1, Status: nomic.ProposalAdopted,
		Result: &nomic.Result{For: 1, ForVoters: []string{"discord:2"}, AgainstVoters: []string{}}})
	var obs Observed
	for i, a := range acked {
		key := string(rune('a' + i))
		obs.Acks = append(obs.Acks, Ack{Actor: a[0], Key: key, Command: "turns-vote",
			Body: mustJSON(t, map[string]string{"proposal": "P1", "voter": a[0], "vote": a[1]})})
		e := game.Entry{ID: key, Actor: a[0], Command: "turns-vote", At: start.Add(time.Duration(i) * time.Hour)}
		s.ByKey[game.CommandID(a[0], key)] = e
		s.Entries = append(s.Entries, e)
	}
	return s, obs
}

func violations(c *Checks, inv string) []string {
	var out []string
	for _, v := range c.Violations {
		if strings.HasPrefix(v, "["+inv+"]") {
			out = append(out, v)
		}
	}
	return out
}

// TestCounted_AnAcknowledgedVoteLeftOutOfTheTallyIsAViolation: RULINGS T5
// as the invariant checks it — the tally must count every voter's last
// acknowledged vote.
func TestCounted_AnAcknowledgedVoteLeftOutOfTheTallyIsAViolation(t *testing.T) {
	s, obs := turnsSnapshot(t, [2]string{"discord:2", "for"})
	c := &Checks{}
	s.Counted(c, obs)
	if v := violations(c, InvCounted); len(v) != 0 || c.N == 0 {
		t.Fatalf("a tally holding the acknowledged vote: %d checks, violations %v", c.N, v)
	}

	// discord:3's vote was answered OK and is not in the tally.
	s, obs = turnsSnapshot(t, [2]string{"discord:2", "for"}, [2]string{"discord:3", "against"})
	c = &Checks{}
	s.Counted(c, obs)
	if v := violations(c, InvCounted); len(v) != 1 || !strings.Contains(v[0], "discord:3's vote against was acknowledged") {
		t.Fatalf("a vote left out: violations %v", v)
	}

	// discord:2 changed its vote to against, acknowledged: the tally's
	// "for" is its earlier vote.
	s, obs = turnsSnapshot(t, [2]string{"discord:2", "for"}, [2]string{"discord:2", "against"})
	c = &Checks{}
	s.Counted(c, obs)
	if v := violations(c, InvCounted); len(v) != 1 || !strings.Contains(v[0], "counts it for") {
		t.Fatalf("a changed vote counted as the earlier one: violations %v", v)
	}

	// ...unless that vote was left unanswered, or the voter's activity
	// changed after it (U4 counts active players only).
	s, obs = turnsSnapshot(t, [2]string{"discord:2", "for"}, [2]string{"discord:3", "against"})
	obs.Unanswered = []Ack{{Actor: "discord:3", Command: "turns-vote", Target: "P1"}}
	c = &Checks{}
	s.Counted(c, obs)
	if v := violations(c, InvCounted); len(v) != 0 {
		t.Fatalf("a voter with an unanswered vote is not checked: violations %v", v)
	}
	s, obs = turnsSnapshot(t, [2]string{"discord:2", "for"}, [2]string{"discord:3", "against"})
	s.Entries = append(s.Entries, game.Entry{ID: "z", Actor: "discord:3", Command: "turns-active", At: s.Entries[1].At.Add(time.Minute)})
	c = &Checks{}
	s.Counted(c, obs)
	if v := violations(c, InvCounted); len(v) != 0 {
		t.Fatalf("a voter who became inactive is excused: violations %v", v)
	}
}

// TestPoints_PointsTheLogDoesNotExplainAreAViolation.
func TestPoints_PointsTheLogDoesNotExplainAreAViolation(t *testing.T) {
	s, _ := turnsSnapshot(t)
	s.Entries = []game.Entry{{ID: "e1", Events: []game.Event{event(t, "turns_points", "discord:2", nomic.Event{Kind: nomic.EvPoints, Player: "discord:2", Delta: -10})}}}
	s.Module["TURNS"] = mustJSON(t, turnsGame{Players: []nomic.Player{{ID: "discord:2", Points: -10}, {ID: "discord:3", Points: 10}}})
	c := &Checks{}
	s.Points(c)
	if v := violations(c, InvPoints); len(v) != 1 || !strings.Contains(v[0], "discord:3") {
		t.Fatalf("violations %v", v)
	}
}

// TestPoints_ThePlayersAreReadFromTheirItems: a turns game's players are
// its TPLAYER# items, whose points of an earlier round read as 0 (U6).
func TestPoints_ThePlayersAreReadFromTheirItems(t *testing.T) {
	s, _ := turnsSnapshot(t)
	s.Entries = []game.Entry{{ID: "e1", Events: []game.Event{event(t, "turns_points", "discord:2", nomic.Event{Kind: nomic.EvPoints, Player: "discord:2", Delta: -10})}}}
	s.Module["TURNS"] = []byte(`{"round":{"number":2}}`)
	s.Module["TPLAYER#discord:2"] = []byte(`{"id":"discord:2","points":-10,"round":2}`)
	s.Module["TPLAYER#discord:3"] = []byte(`{"id":"discord:3","points":30,"round":1}`)
	c := &Checks{}
	s.Points(c)
	if v := violations(c, InvPoints); len(v) != 0 {
		t.Fatalf("violations %v", v)
	}
	s.Module["TPLAYER#discord:2"] = []byte(`{"id":"discord:2","points":-20,"round":2}`)
	c = &Checks{}
	s.Points(c)
	if v := violations(c, InvPoints); len(v) != 1 || !strings.Contains(v[0], "discord:2") {
		t.Fatalf("violations %v", v)
	}
}

// TestComponents_WhatNoEventAccountsForIsAViolation: joins' ⚡, a grant to
// every member (an observation's, which a player who joined after it does
// not have), a task's changes and a trade account for what the players
// hold; one 💎 more is a violation.
func TestComponents_WhatNoEventAccountsForIsAViolation(t *testing.T) {
	s := &Snapshot{Game: "g", PlayerItems: map[string][]byte{}}
	joined := func(id string, seq int) game.Event {
		return event(t, "components_granted", id, map[string]any{"changes": []rob.Delta{{Player: id, Component: "resolve", Amount: 12}}, "grants_seq": seq})
	}
	s.Entries = []game.Entry{
		{ID: "e1", Events: []game.Event{event(t, "player_joined", "discord:2", map[string]string{"name": "A"}), joined("discord:2", 0)}},
		{ID: "e2", Events: []game.Event{event(t, "obelisk_observed", "discord:2", map[string]any{
			"grant": map[string]any{"seq": 1, "cause": "observation", "every_member": map[string]int{"resolve": 3}}})}},
		{ID: "e3", Events: []game.Event{event(t, "player_joined", "discord:3", map[string]string{"name": "B"}), joined("discord:3", 1)}},
		{ID: "e4", Events: []game.Event{event(t, "task_performed", "discord:2", map[string]any{"changes": []rob.Delta{
			{Player: "discord:2", Component: "resolve", Amount: -1}, {Player: "discord:2", Component: "crystals", Amount: 2}}})}},
		{ID: "e5", Events: []game.Event{event(t, "trade_executed", "discord:3", map[string]any{"from": "discord:2", "to": "discord:3",
			"give": map[string]any{"components": map[string]int{"crystals": 1}}, "take": map[string]any{"components": map[string]int{"resolve": 1}}})}},
	}
	// Records caught up to grant 1 (discord:3 joined after it, so its
	// stint starts there).
	hold := func(id string, comps map[string]int) {
		s.PlayerItems[id] = mustJSON(t, map[string]any{"id": id, "member": true, "components": comps,
			"grants": map[string]any{"seq": 1, "total": map[string]int{"resolve": 3}}})
	}
	hold("discord:2", map[string]int{"resolve": 15, "crystals": 1})
	hold("discord:3", map[string]int{"resolve": 11, "crystals": 1})
	c := &Checks{}
	s.Components(c)
	if v := violations(c, InvComponents); len(v) != 0 {
		t.Fatalf("accounted for: violations %v", v)
	}
	// A record stored before the grant, not caught up yet, holds what the
	// log says once caught up, as every reader catches it up.
	s.Module = map[string][]byte{"OBELISK": mustJSON(t, map[string]any{"grants": map[string]any{"seq": 1, "total": map[string]int{"resolve": 3}}})}
	s.PlayerItems["discord:2"] = mustJSON(t, map[string]any{"id": "discord:2", "member": true, "components": map[string]int{"resolve": 12, "crystals": 1},
		"grants": map[string]any{"seq": 0}})
	c = &Checks{}
	s.Components(c)
	if v := violations(c, InvComponents); len(v) != 0 {
		t.Fatalf("a record behind the grant: violations %v", v)
	}
	hold("discord:3", map[string]int{"resolve": 11, "crystals": 2})
	c = &Checks{}
	s.Components(c)
	if v := violations(c, InvComponents); len(v) != 1 || !strings.Contains(v[0], "discord:3 holds 2 crystals; the log accounts for 1") {
		t.Fatalf("one 💎 more: violations %v", v)
	}
}

// TestGatherings_AGatheringClosedTwiceOrOpenPastItsPhaseIsAViolation.
func TestGatherings_AGatheringClosedTwiceOrOpenPastItsPhaseIsAViolation(t *testing.T) {
	ends := time.Date(2026, 3, 13, 0, 0, 0, 0, time.UTC)
	s := &Snapshot{Game: "g", Now: ends.Add(time.Hour), Module: map[string][]byte{}}
	s.Module["GATHERING#a"] = mustJSON(t, rob.Gathering{ID: "a", Status: rob.StatusFailed, Ends: ends})
	s.Module["GATHERING#b"] = mustJSON(t, rob.Gathering{ID: "b", Status: rob.StatusOpen, Ends: ends})
	s.Entries = []game.Entry{
		{ID: "e1", Events: []game.Event{event(t, "gathering_started", "discord:2", map[string]string{"id": "a"}), event(t, "gathering_started", "discord:2", map[string]string{"id": "b"})}},
		{ID: "e2", Events: []game.Event{event(t, "gathering_failed", "discord:2", map[string]string{"gathering": "a"})}},
		{ID: "e3", Events: []game.Event{event(t, "gathering_failed", "discord:2", map[string]string{"gathering": "a"})}},
	}
	c := &Checks{}
	s.Gatherings(c, true)
	v := violations(c, InvGatherings)
	if len(v) != 2 || !strings.Contains(strings.Join(v, "\n"), "Gathering a (failed) was closed 2 times") || !strings.Contains(strings.Join(v, "\n"), "Gathering b is still open") {
		t.Fatalf("violations %v", v)
	}
}

// TestExplained_AnItemChangedOutsideTheLogIsAViolation: issue 25's "the log
// explains the state" as the invariant checks it — an Obelisk player's
// name changed by a write no logged commit made (as a bug writing
// around Tx.Commit would) is a violation naming the item, the field and
// the entry after which the store departs from the log, with that entry's
// command; the untouched game has none.
func TestExplained_AnItemChangedOutsideTheLogIsAViolation(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "explained.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	clk := clock.NewManual(DefaultStart)
	svc := rulesets.New(st, clk, game.WithLogger(slog.New(slog.DiscardHandler)))
	if _, err := svc.Create(ctx, game.Request{Actor: Admin, Key: "create"}, game.CreateGame{ID: "tampered", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	if _, err := svc.Join(ctx, game.Request{Game: "tampered", Actor: "discord:7", Key: "join"}, game.JoinGame{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	check := func() []string {
		snap, err := Read(ctx, st, "tampered", clk.Now())
		if err != nil {
			t.Fatal(err)
		}
		c := &Checks{}
		snap.Explained(ctx, c, svc)
		if c.Counted[InvExplained] < 2 {
			t.Errorf("%d explained checks, want one per item and more", c.Counted[InvExplained])
		}
		return violations(c, InvExplained)
	}
	if v := check(); len(v) > 0 {
		t.Fatalf("the untouched game: %v", v)
	}
	k := game.PlayerKey("tampered", "discord:7")
	it, err := st.Get(ctx, k)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(it.Data, &p); err != nil {
		t.Fatal(err)
	}
	p["name"] = "Mallory"
	if err := st.Commit(ctx, store.Tx{Puts: []store.Put{{Item: store.Item{Key: k, Data: mustJSON(t, p)}, Expect: it.Version}}}); err != nil {
		t.Fatal(err)
	}
	v := check()
	t.Logf("the violation reported: %v", v)
	if len(v) != 1 {
		t.Fatalf("violations %v, want one", v)
	}
	for _, want := range []string{"PLAYER#discord:7", "(fields name)", "after entry ", "(join by discord:7 at ", "other values than the log's changes left"} {
		if !strings.Contains(v[0], want) {
			t.Errorf("the violation %q does not say %q", v[0], want)
		}
	}
}
