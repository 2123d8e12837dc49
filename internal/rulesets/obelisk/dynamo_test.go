package obelisk_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// A ritual 20 players can cover together and no one alone.
const bonfire = `{"id":"bonfire","name":"Bonfire","cost":{"resolve":6,"herbs":4},"effects":[{"kind":"add-cuts","amount":1}]}`

// Acceptance (issue 13, 3): on DynamoDB Local, 20 players contribute to
// and withdraw from one Gathering concurrently (100 operations, some
// repeated with the same idempotency key) while its starter tries to
// complete it. No component is lost or duplicated, each committed
// contribution and withdrawal is applied once, and the completion happens
// at most once, only while the contributions covered the cost.
func TestGatheringUnderConcurrentContributionsDynamoDB(t *testing.T) {
	client, table := testenv.DynamoTable(t, "obelisk")
	w := newWorld(t, dynamo.New(client, table), "")
	if _, err := w.svc.Amend(w.ctx, w.req(admin), game.Amend{Patch: json.RawMessage(`[{"op":"replace","path":"/thresholds/joinEnergy","value":3}]`), Reason: "enough ⚡ to contribute"}); err != nil {
		t.Fatal(err)
	}
	w.amendRitual(bonfire)
	var ids []string
	for i := range 20 {
		ids = append(ids, fmt.Sprintf("discord:%d", 100+i))
	}
	w.join(ids...)
	for _, id := range ids {
		must[obelisk.TaskDone](t)(w.ob.PerformTask(w.ctx, w.req(id), obelisk.Task{Task: "herbalism"}))
	}
	before := map[string]ruleset.Components{}
	var total ruleset.Components
	for _, id := range ids {
		before[id] = w.player(id).Components
		total = total.Plus(before[id])
	}
	starter := ids[0]
	g := must[obelisk.TaskDone](t)(w.ob.StartGathering(w.ctx, w.req(starter), obelisk.StartGathering{RitualType: "bonfire", Message: "rituals-1"})).Gathering
	total = total.Minus(ruleset.Components{Resolve: 1}) // the starter's task
	before[starter] = w.player(starter).Components

	type op struct {
		req  game.Request
		move obelisk.GatheringMove
		with bool // withdraw
	}
	rnd := rand.New(rand.NewPCG(13, 13))
	var ops []op
	for i := range 100 {
		if i >= 10 && rnd.IntN(5) == 0 {
			ops = append(ops, ops[rnd.IntN(len(ops))]) // the same key again
			continue
		}
		id := ids[rnd.IntN(len(ids))]
		ops = append(ops, op{req: game.Request{Game: w.game, Actor: id, Key: fmt.Sprintf("op-%d", i)},
			move: obelisk.GatheringMove{Gathering: g.ID, Component: []string{"⚡", "🌿"}[rnd.IntN(2)]}, with: rnd.IntN(3) == 0})
	}
	var mu sync.Mutex
	applied := map[string]bool{} // actor/key of the operations that committed
	var wg sync.WaitGroup
	stop := make(chan struct{})
	completions := 0
	wg.Add(1)
	go func() { // the starter keeps trying to complete it
		defer wg.Done()
		for n := 0; ; n++ {
			_, err := w.ob.Complete(w.ctx, game.Request{Game: w.game, Actor: starter, Key: fmt.Sprintf("complete-%d", n)}, obelisk.GatheringRef{Gathering: g.ID})
			var re *rules.Error
			switch {
			case err == nil:
				mu.Lock()
				completions++
				mu.Unlock()
			case !errors.As(err, &re):
				t.Errorf("complete: %v", err)
				return
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond): // a person clicking, not a spin
			}
		}
	}()
	sem := make(chan struct{}, 20)
	var opsWG sync.WaitGroup
	for _, o := range ops {
		opsWG.Add(1)
		sem <- struct{}{}
		go func() {
			defer opsWG.Done()
			defer func() { <-sem }()
			run := w.ob.Contribute
			if o.with {
				run = w.ob.Withdraw
			}
			res, err := run(w.ctx, o.req, o.move)
			var re *rules.Error
			switch {
			case err == nil:
				mu.Lock()
				applied[o.req.Actor+"/"+o.req.Key] = true
				mu.Unlock()
				_ = res
			case !errors.As(err, &re):
				t.Errorf("%s by %s: %v", o.req.Key, o.req.Actor, err)
			}
		}()
	}
	opsWG.Wait()
	close(stop)
	wg.Wait()

	gv, err := w.ob.Gathering(w.ctx, w.game, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Each committed operation is one ledger line: none applied twice.
	moves := 0
	net := map[string]ruleset.Components{}
	var spent ruleset.Components
	for _, e := range gv.Ledger {
		c := net[e.Player]
		switch e.Kind {
		case rob.EntryContributed:
			moves++
			c.Add(e.Component, e.Amount)
		case rob.EntryWithdrew:
			moves++
			c.Add(e.Component, -e.Amount)
		case rob.EntrySpent:
			spent.Add(e.Component, e.Amount)
		}
		net[e.Player] = c
	}
	if moves != len(applied) {
		t.Fatalf("%d operations committed but the ledger has %d contributions and withdrawals", len(applied), moves)
	}
	// No component lost or duplicated: each player holds what they held
	// less what they have in the Gathering (spent, if it completed).
	var now ruleset.Components
	for _, id := range ids {
		got := w.player(id).Components
		if want := before[id].Minus(net[id]); got != want {
			t.Errorf("%s holds %v; held %v and has %v in the Gathering", id, got, before[id], net[id])
		}
		now = now.Plus(got)
	}
	inside := gv.Contributed.Plus(spent)
	if now.Plus(inside) != total {
		t.Fatalf("the players hold %v and the Gathering %v: %v in all, not the %v there were", now, inside, now.Plus(inside), total)
	}
	if completions > 1 || (completions == 1) != (gv.Status == rob.StatusCompleted) {
		t.Fatalf("%d completions reported; the Gathering is %s", completions, gv.Status)
	}
	if gv.Status == rob.StatusCompleted && !spent.Covers(gv.Ritual.Cost) {
		t.Fatalf("completed while the contributions %v did not cover %v", spent, gv.Ritual.Cost)
	}
	t.Logf("%d of %d operations committed, status %s, spent %v", len(applied), len(ops), gv.Status, spent)
}
