package game_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/store"
)

// views is what a reader sees of the Ledger game now: the game, the
// players, each player's status.
func views(t *testing.T, svc *game.Service, ids []string) string {
	t.Helper()
	ctx := context.Background()
	g, err := svc.Game(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := svc.Players(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{"game": g, "players": ps}
	for _, id := range ids {
		if v, err := svc.Player(ctx, "hall", id); err == nil {
			out[id] = v
		} else {
			out[id] = gametest.RuleCode(err)
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Issue 25 (RULINGS T6): the game at a moment is what the log says it was.
// At moments between joins, credits, departures and period ends, the
// views read live are recorded; afterwards the same views read through
// the past at each moment are byte for byte the recorded ones, and the
// replay of the whole log is the store (Explain finds nothing).
func TestT6_TheGameAtAMomentIsWhatItWasThen(t *testing.T) {
	for name, st := range map[string]store.Store{"bolt": gametest.Bolt(t)} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			svc, clk := newLedger(t, st)
			ids := []string{"discord:2", "discord:3", "discord:4"}
			type seen struct {
				at    time.Time
				views string
			}
			var record []seen
			look := func() {
				gametest.RunDue(t, svc)
				record = append(record, seen{clk.Now(), views(t, svc, ids)})
			}
			look()
			for i, id := range ids {
				clk.Advance(time.Hour)
				if _, err := svc.Join(ctx, gametest.Req(id, "j"+id), game.JoinGame{Name: fmt.Sprintf("Player %d", i)}); err != nil {
					t.Fatal(err)
				}
				look()
			}
			for i := range 6 {
				clk.Advance(20 * time.Hour)
				if _, err := credit(svc, ctx, gametest.Req(gametest.Admin, fmt.Sprint("c", i)), Credit{Player: ids[i%3], Points: i + 1, Reason: "test"}); err != nil {
					t.Fatal(err)
				}
				look()
			}
			clk.Advance(2 * time.Hour)
			if _, err := svc.Leave(ctx, gametest.Req(ids[1], "leave")); err != nil {
				t.Fatal(err)
			}
			look()
			clk.Advance(6 * 24 * time.Hour) // through a period end or two
			look()
			for _, r := range record {
				past, asOf, err := svc.Past(ctx, "hall", game.Moment{At: r.at})
				if err != nil {
					t.Fatal(err)
				}
				if got := views(t, past, ids); got != r.views {
					t.Errorf("at %s (as of entry %s) the past reads\n%s\nwhere it was read\n%s", r.at, asOf.Entry, got, r.views)
				}
			}
			diffs, _, err := svc.Explain(ctx, "hall")
			if err != nil || len(diffs) > 0 {
				t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
			}
		})
	}
}

// An item deleted and written again (a player's name index item, when they
// leave and join again a week later) starts its versions again at 1: the
// replay applies each of its lives in turn and leaves the last one, as the
// store holds it.
func TestT6_AnItemDeletedAndWrittenAgainIsReplayedInCommitOrder(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	id := "discord:2"
	var seen []time.Time
	var record []string
	look := func() {
		seen, record = append(seen, clk.Now()), append(record, views(t, svc, []string{id}))
	}
	for i := range 3 {
		clk.Advance(time.Hour)
		if _, err := svc.Join(ctx, gametest.Req(id, fmt.Sprint("j", i)), game.JoinGame{Name: "Ada"}); err != nil {
			t.Fatal(err)
		}
		look()
		if i == 2 {
			break
		}
		clk.Advance(time.Hour)
		if _, err := svc.Leave(ctx, gametest.Req(id, fmt.Sprint("l", i))); err != nil {
			t.Fatal(err)
		}
		look()
		clk.Advance(8 * 24 * time.Hour) // past the week a rejoin waits (RULINGS P1)
	}
	diffs, _, err := svc.Explain(ctx, "hall")
	if err != nil || len(diffs) > 0 {
		t.Fatalf("the log does not explain the state: %v %+v", err, diffs)
	}
	for i, at := range seen {
		past, _, err := svc.Past(ctx, "hall", game.Moment{At: at})
		if err != nil {
			t.Fatal(err)
		}
		if got := views(t, past, []string{id}); got != record[i] {
			t.Errorf("at %s the past reads\n%s\nwhere it was read\n%s", at, got, record[i])
		}
	}
}

// A chat server bound to one game and moved to another changes both: the
// first game's META no longer lists the server and its copy of the binding
// is marked replaced. Each game's log explains its own items, so the move
// is in both logs: the first game's past before the move shows the server,
// after it not.
func TestT6_AServerMovedToAnotherGameIsInBothLogs(t *testing.T) {
	ctx := context.Background()
	svc, clk := newLedger(t, gametest.Bolt(t))
	b := game.Bind{Platform: "discord", Space: "777", Channels: map[string]string{game.ChannelAnnouncements: "555"}}
	if _, err := svc.Bind(ctx, gametest.Req(gametest.Admin, "bind"), b); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, game.Request{Actor: gametest.Admin, Key: "create-2"}, game.CreateGame{ID: "annex", Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	before := clk.Now()
	clk.Advance(time.Hour)
	if _, err := svc.Bind(ctx, game.Request{Game: "annex", Actor: gametest.Admin, Key: "bind"}, b); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"hall", "annex"} {
		diffs, _, err := svc.Explain(ctx, g)
		if err != nil || len(diffs) > 0 {
			t.Errorf("the log of %s does not explain its state: %v %+v", g, err, diffs)
		}
	}
	spaces := func(s *game.Service) string {
		bs, err := s.Bindings(ctx, "hall")
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(bs)
		return string(out)
	}
	past, _, err := svc.Past(ctx, "hall", game.Moment{At: before})
	if err != nil {
		t.Fatal(err)
	}
	if then, now := spaces(past), spaces(svc); then == now {
		t.Errorf("hall's bindings before the move read %s, as they read now", then)
	}
}
