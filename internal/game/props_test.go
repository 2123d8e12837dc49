package game_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
)

func FuzzParseDice(f *testing.F) {
	for _, s := range []string{"2d6", "0d1", "100d1000000", "1d0", "d6", "6d", "101d6", " 3D8 ", "1d9999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, k, err := game.ParseDice(s)
		if err != nil {
			var re *rules.Error
			if !errors.As(err, &re) || re.Code != "invalid_dice" {
				t.Fatalf("%q: error %v is not invalid_dice", s, err)
			}
			return
		}
		if n < 0 || n > game.MaxDice || k < 1 || k > game.MaxSides {
			t.Fatalf("%q parsed to %dd%d, out of range", s, n, k)
		}
	})
}

// TestGameStateMachine runs random sequences of joins, leaves, grants (a
// Ledger game's credits), rolls, repeated commands and clock moves for
// several players, and checks after every step what a player would: the
// engine's view agrees with a model of who is a player and what they hold,
// no balance is negative, a repeated idempotency key changes nothing, and
// every accepted command is exactly one log entry.
func TestGameStateMachine(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ctx := context.Background()
		st := gametest.Bolt(t)
		clk := clock.NewManual(gametest.Start)
		svc := newLedgerService(st, clk, game.WithEntropy(gametest.Seeded(7)))
		if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "create"}, game.CreateGame{ID: "hall", Ruleset: ledgerID}); err != nil {
			rt.Fatal(err)
		}
		people := []string{"discord:2", "discord:3", "discord:4", "slack:U5"}
		type model struct {
			member bool
			leftAt time.Time
			points int
		}
		m := map[string]*model{}
		for _, p := range people {
			m[p] = &model{}
		}
		entries := 1 // create
		keys := 0
		last := map[string]string{} // a command's key -> the body it answered
		var lastKey struct{ actor, key string }

		expectCode := func(err error, code string) {
			var re *rules.Error
			if !errors.As(err, &re) || re.Code != code {
				rt.Fatalf("want %s, got %v", code, err)
			}
		}
		rt.Repeat(map[string]func(*rapid.T){
			"join": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "player")
				keys++
				key := fmt.Sprintf("k%d", keys)
				res, err := svc.Join(ctx, req(p, key), game.JoinGame{})
				mp := m[p]
				switch {
				case mp.member:
					expectCode(err, "already_a_player")
				case !mp.leftAt.IsZero() && clk.Now().Before(mp.leftAt.Add(7*24*time.Hour)):
					expectCode(err, "rejoin_too_soon")
				default:
					if err != nil {
						rt.Fatalf("join %s: %v", p, err)
					}
					mp.member, mp.points = true, 0
					entries++
					last[p+key] = string(res.Body)
					lastKey.actor, lastKey.key = p, key
				}
			},
			"leave": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "player")
				keys++
				_, err := svc.Leave(ctx, req(p, fmt.Sprintf("k%d", keys)))
				mp := m[p]
				if !mp.member {
					expectCode(err, "not_a_player")
					return
				}
				if err != nil {
					rt.Fatalf("leave %s: %v", p, err)
				}
				mp.member, mp.leftAt, mp.points = false, clk.Now(), 0
				entries++
			},
			"grant": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "player")
				v := rapid.IntRange(-20, 20).Draw(rt, "points")
				keys++
				key := fmt.Sprintf("k%d", keys)
				res, err := credit(svc, ctx, req(admin, key), Credit{Player: p, Points: v, Reason: "test"})
				mp := m[p]
				switch {
				case v == 0:
					expectCode(err, "invalid_request")
				case !mp.member:
					expectCode(err, "not_a_player")
				case mp.points+v < 0:
					expectCode(err, "insufficient_funds")
				default:
					if err != nil {
						rt.Fatalf("grant: %v", err)
					}
					mp.points += v
					entries++
					last[admin+key] = string(res.Body)
					lastKey.actor, lastKey.key = admin, key
				}
			},
			"roll": func(rt *rapid.T) {
				p := rapid.SampledFrom(people).Draw(rt, "player")
				keys++
				_, err := svc.Roll(ctx, req(p, fmt.Sprintf("k%d", keys)), game.RollDice{Dice: "2d6"})
				if !m[p].member {
					expectCode(err, "not_a_player")
					return
				}
				if err != nil {
					rt.Fatalf("roll: %v", err)
				}
				entries++
			},
			"repeat last command": func(rt *rapid.T) {
				if lastKey.key == "" {
					rt.Skip("nothing to repeat")
				}
				var res *game.Result
				var err error
				if lastKey.actor == admin {
					// The same key with its original body: find it in the log.
					res, err = credit(svc, ctx, req(admin, lastKey.key), originalGrant(rt, svc, lastKey.key))
				} else {
					res, err = svc.Join(ctx, req(lastKey.actor, lastKey.key), game.JoinGame{})
				}
				if err != nil {
					rt.Fatalf("repeat: %v", err)
				}
				if !res.Replayed || string(res.Body) != last[lastKey.actor+lastKey.key] {
					rt.Fatalf("repeat answered %s (replayed %v), first answer %s", res.Body, res.Replayed, last[lastKey.actor+lastKey.key])
				}
			},
			"time passes": func(rt *rapid.T) {
				h := rapid.IntRange(1, 100).Draw(rt, "hours")
				clk.Advance(time.Duration(h) * time.Hour)
				rep, err := svc.RunDue(ctx)
				if err != nil || len(rep.Failed) > 0 {
					rt.Fatalf("run due: %v %v", err, rep.Failed)
				}
				entries += len(rep.Transitions)
			},
			"": func(rt *rapid.T) {
				for _, p := range people {
					v, err := svc.Player(ctx, "hall", p)
					mp := m[p]
					if err != nil {
						if mp.member || !mp.leftAt.IsZero() {
							rt.Fatalf("status of %s: %v", p, err)
						}
						continue
					}
					h, _ := v.Holdings.(LedgerHoldings)
					if v.Member != mp.member || h.Points != mp.points {
						rt.Fatalf("%s: engine says member=%v %d points, model says member=%v %d points",
							p, v.Member, h.Points, mp.member, mp.points)
					}
					if h.Points < 0 {
						rt.Fatalf("%s: negative balance %+v", p, h)
					}
				}
				if n := len(gametest.Entries(rt, svc)); n != entries {
					rt.Fatalf("%d log entries, want one per accepted command: %d", n, entries)
				}
			},
		})
	})
}

// originalGrant reads the credit recorded under key, so its repeat sends
// the identical request.
func originalGrant(rt *rapid.T, svc *game.Service, key string) Credit {
	page, err := svc.Log(context.Background(), "hall", "", 500)
	if err != nil {
		rt.Fatal(err)
	}
	for cursor := ""; ; {
		for _, e := range page.Entries {
			if e.Command == "credit" && e.Key == key {
				for _, ev := range e.Events {
					if ev.Type == "credited" {
						var g Credit
						if err := json.Unmarshal(ev.Data, &g); err != nil {
							rt.Fatal(err)
						}
						return g
					}
				}
			}
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
		if page, err = svc.Log(context.Background(), "hall", cursor, 500); err != nil {
			rt.Fatal(err)
		}
	}
	rt.Fatalf("grant %s not in the log", key)
	return Credit{}
}
