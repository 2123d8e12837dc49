package obelisk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// A ritual whose effect is on every player: a game-level grant.
const boon = `{"id":"boon","name":"Boon","cost":{"resolve":1},"effects":[{"kind":"grant","target":"every-player","components":{"resolve":1,"crystals":1}}]}`

// Acceptance (issue 22, point 1): the grants to every player (an
// observation's ⚡, an every-player ritual's components) race with tasks,
// trades, departures and joins by the same players, on DynamoDB Local.
// No grant is lost or doubled: every player's holdings, as their status
// shows them, are what the log explains (each event's changes, and each
// grant given to the stints it belongs to: docs/rules-obelisk.md), a
// player who joined during a grant has it or not as the log says, and
// one who left keeps none of it.
func TestGrantsUnderConcurrentCommandsDynamoDB(t *testing.T) {
	client, table := testenv.DynamoTable(t, "obgrants")
	raceGrants(t, dynamo.New(client, table))
}

// The same on bolt (`make run`'s store).
func TestGrantsUnderConcurrentCommandsBolt(t *testing.T) {
	raceGrants(t, gametest.Bolt(t))
}

func raceGrants(t *testing.T, st store.Store) {
	w := newWorld(t, st, "")
	if _, err := w.svc.Amend(w.ctx, w.req(admin), game.Amend{Patch: json.RawMessage(`[{"op":"replace","path":"/thresholds/joinEnergy","value":4}]`), Reason: "⚡ for tasks"}); err != nil {
		t.Fatal(err)
	}
	w.amendRitual(boon)
	var founders []string
	for i := range 8 {
		founders = append(founders, fmt.Sprintf("discord:%d", 100+i))
	}
	w.join(founders...)
	everyone := append([]string{}, founders...)
	th := trades.On(w.svc)
	const rounds = 4
	committed := map[string]int{}
	for round := range rounds {
		if round > 0 {
			// A new week: another observation is possible.
			w.clk.Set(calendar.WeekAt(w.clk.Now()).End().Add(12 * time.Hour))
			if _, err := w.svc.RunDue(w.ctx); err != nil {
				t.Fatal(err)
			}
		}
		starter := founders[round%len(founders)]
		msg := fmt.Sprintf("boon-%d", round)
		if _, err := w.ob.StartGathering(w.ctx, w.req(starter), obelisk.StartGathering{RitualType: "boon", Message: msg}); err != nil {
			t.Fatalf("round %d: start: %v", round, err)
		}
		if _, err := w.ob.Contribute(w.ctx, w.req(starter), obelisk.GatheringMove{Gathering: msg, Component: "⚡"}); err != nil {
			t.Fatalf("round %d: contribute: %v", round, err)
		}
		// An offer of 💎 for each pair of neighbours, accepted in the race.
		var offers []trades.Trade
		for i, from := range founders {
			to := founders[(i+1)%len(founders)]
			res, err := th.OfferTrade(w.ctx, w.req(from), trades.OfferTrade{To: to, Give: economy.Items{Components: ruleset.Components{Crystals: 1}}})
			if err != nil {
				continue // no 💎 yet (the first round), or gone
			}
			var tr trades.Trade
			_ = json.Unmarshal(res.Body, &tr)
			offers = append(offers, tr)
		}

		type op struct {
			what string
			req  game.Request
			run  func(game.Request) (*game.Result, error)
		}
		var ops []op
		add := func(what, actor string, run func(game.Request) (*game.Result, error)) {
			ops = append(ops, op{what, w.req(actor), run})
		}
		add("gathering-complete", starter, func(r game.Request) (*game.Result, error) {
			return w.ob.Complete(w.ctx, r, obelisk.GatheringRef{Gathering: msg})
		})
		add("observe", founders[(round+1)%len(founders)], func(r game.Request) (*game.Result, error) { return w.ob.Observe(w.ctx, r) })
		for _, id := range everyone {
			for range 2 {
				add("task", id, func(r game.Request) (*game.Result, error) {
					return w.ob.PerformTask(w.ctx, r, obelisk.Task{Task: "herbalism"})
				})
			}
		}
		for _, tr := range offers {
			add("trade-accept", tr.To, func(r game.Request) (*game.Result, error) { return th.AcceptTrade(w.ctx, r, tr.ID) })
		}
		// One leaves, two new players join, while the grants commit.
		if round < len(founders)-1 && round > 0 {
			add("leave", founders[len(founders)-round], func(r game.Request) (*game.Result, error) { return w.svc.Leave(w.ctx, r) })
		}
		for j := range 2 {
			id := fmt.Sprintf("slack:U%d%d", round, j)
			everyone = append(everyone, id)
			add("join", id, func(r game.Request) (*game.Result, error) { return w.svc.Join(w.ctx, r, game.JoinGame{Name: id}) })
		}

		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, o := range ops {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := o.run(o.req)
				var re *rules.Error
				switch {
				case err == nil:
					mu.Lock()
					committed[o.what]++
					mu.Unlock()
				case errors.As(err, &re):
					if o.what == "observe" || o.what == "gathering-complete" || o.what == "join" {
						t.Errorf("round %d: %s by %s refused: %v", round, o.what, o.req.Actor, err)
					}
				default:
					t.Errorf("round %d: %s by %s: %v", round, o.what, o.req.Actor, err)
				}
			}()
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
		checkGrants(t, w, everyone, 2*(round+1))
	}
	t.Logf("committed: %v", committed)
}

// checkGrants checks every player's status against the log: the changes
// its events report, and the grants (grantsExplained), of which there
// must be grants.
func checkGrants(t *testing.T, w *world, ids []string, grants int) {
	t.Helper()
	var entries []game.Entry
	for cursor := ""; ; {
		page, err := w.svc.Log(w.ctx, w.game, cursor, 100)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, page.Entries...)
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	explained := grantsExplained(t, entries)
	n := 0
	for _, e := range entries {
		for _, ev := range e.Events {
			switch ev.Type {
			case "obelisk_observed":
				n++
			case "gathering_completed":
				n++ // one grant each: the Boon's
			case "trade_executed":
				var tr trades.Trade
				_ = json.Unmarshal(ev.Data, &tr)
				explained[tr.From] = explained[tr.From].Minus(tr.Give.Components).Plus(tr.Take.Components)
				explained[tr.To] = explained[tr.To].Plus(tr.Give.Components).Minus(tr.Take.Components)
			}
			var d struct {
				Changes []struct {
					Player    string `json:"player"`
					Component string `json:"component"`
					Amount    int    `json:"amount"`
				} `json:"changes"`
			}
			if ev.Type != "trade_executed" && json.Unmarshal(ev.Data, &d) == nil {
				for _, c := range d.Changes {
					x := explained[c.Player]
					x.Add(c.Component, c.Amount)
					explained[c.Player] = x
				}
			}
		}
	}
	if n != grants {
		t.Fatalf("the log has %d grants; want %d", n, grants)
	}
	for _, id := range ids {
		if got := w.player(id).Components; got != explained[id] {
			t.Errorf("%s holds %s; the log explains %s", id, got, explained[id])
		}
	}
}

// interposer runs a command just before the commit of another: when a
// commit writes the item key, first run.
type interposer struct {
	store.Store
	mu  sync.Mutex
	key store.Key
	run func()
}

func (s *interposer) Commit(ctx context.Context, tx store.Tx) error {
	s.mu.Lock()
	run := s.run
	if run != nil && slices.ContainsFunc(tx.Puts, func(p store.Put) bool { return p.Item.Key == s.key }) {
		s.run = nil
	} else {
		run = nil
	}
	s.mu.Unlock()
	if run != nil {
		run()
	}
	return s.Store.Commit(ctx, tx)
}

// A grant that commits between a join's read and its commit is not the
// joiner's (they were not a member when it was made); one that commits
// between a departure's read and its commit is the leaver's, destroyed
// with the rest. Without the join's and the departure's check of the
// Obelisk's version, the joiner would get the observation's ⚡ and the
// leaver's destroyed holdings would miss it.
func TestGrantsCommittedDuringAJoinAndALeaveBolt(t *testing.T) {
	grantsDuringJoinAndLeave(t, gametest.Bolt(t))
}

func TestGrantsCommittedDuringAJoinAndALeaveDynamoDB(t *testing.T) {
	client, table := testenv.DynamoTable(t, "obinterpose")
	grantsDuringJoinAndLeave(t, dynamo.New(client, table))
}

func grantsDuringJoinAndLeave(t *testing.T, st store.Store) {
	is := &interposer{Store: st}
	w := newWorld(t, is, "")
	const ann, joiner = "discord:100", "discord:200"
	w.join(ann)
	observe := func() {
		if _, err := w.ob.Observe(w.ctx, w.req(ann)); err != nil {
			t.Errorf("the observation: %v", err)
		}
	}
	is.mu.Lock()
	is.key, is.run = game.PlayerKey(w.game, joiner), observe
	is.mu.Unlock()
	w.join(joiner)
	if got := w.player(joiner).Components; got != (ruleset.Components{Resolve: 1}) {
		t.Errorf("a player whose join committed after the observation holds %s; want the join's 1⚡ only", got)
	}
	if got := w.player(ann).Components; got != (ruleset.Components{Resolve: 2}) {
		t.Errorf("a member at the observation holds %s; want 2⚡", got)
	}

	// Next week, the joiner leaves while the next observation commits.
	w.clk.Set(calendar.WeekAt(w.clk.Now()).End().Add(time.Hour))
	if _, err := w.svc.RunDue(w.ctx); err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	is.key, is.run = game.PlayerKey(w.game, joiner), observe
	is.mu.Unlock()
	res, err := w.svc.Leave(w.ctx, w.req(joiner))
	if err != nil {
		t.Fatal(err)
	}
	var left game.LeaveResult
	_ = json.Unmarshal(res.Body, &left)
	if len(left.Lost) != 1 || left.Lost[0] != "2⚡" {
		t.Errorf("the leaver lost %v; want the join's and the observation's 2⚡", left.Lost)
	}
	if got := w.player(ann).Components; got != (ruleset.Components{Resolve: 3}) {
		t.Errorf("after two observations the member holds %s; want 3⚡", got)
	}

	// A week later: one more observation while they are away, then they
	// rejoin; the new stint has none of the grants from before it.
	w.clk.Set(calendar.WeekAt(w.clk.Now()).End().Add(2 * time.Hour))
	if _, err := w.svc.RunDue(w.ctx); err != nil {
		t.Fatal(err)
	}
	observe()
	w.join(joiner)
	if got := w.player(joiner).Components; got != (ruleset.Components{Resolve: 1}) {
		t.Errorf("a rejoiner holds %s; want the join's 1⚡ only", got)
	}
	if got := w.player(ann).Components; got != (ruleset.Components{Resolve: 4}) {
		t.Errorf("after three observations the member holds %s; want 4⚡", got)
	}
}
