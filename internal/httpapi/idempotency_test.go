package httpapi_test

import (
	"bytes"
	"net/http"
	"sync"
	"testing"

	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rulesets/gildedhall"
)

// countCommands counts log entries of one command by one actor.
func (e *env) countCommands(command, actor string) int {
	n := 0
	for _, en := range e.logEntries(gameID) {
		if en.Command == command && en.Actor == actor {
			n++
		}
	}
	return n
}

// checkReplays: the first response is fresh, every other one is a
// byte-identical replay marked Idempotent-Replayed: true.
func checkReplays(t *testing.T, rs []*apitest.Response) {
	t.Helper()
	fresh := 0
	for i, r := range rs {
		if r.Status != http.StatusOK {
			t.Fatalf("response %d: status %d; body %s", i, r.Status, r.Body)
		}
		if !bytes.Equal(r.Body, rs[0].Body) {
			t.Errorf("response %d differs:\n%s\nvs\n%s", i, r.Body, rs[0].Body)
		}
		switch r.Header.Get("Idempotent-Replayed") {
		case "":
			fresh++
		case "true":
		default:
			t.Errorf("response %d: Idempotent-Replayed %q", i, r.Header.Get("Idempotent-Replayed"))
		}
	}
	if fresh != 1 {
		t.Errorf("%d responses were not marked replayed, want exactly 1", fresh)
	}
}

func TestIdempotencySequential(t *testing.T) {
	e := withGame(t)
	grant := gildedhall.Grant{Player: ada, Vertebrae: 7, Reason: "bounty"}
	var rs []*apitest.Response
	for range 3 {
		rs = append(rs, e.Post("/v1/games/"+gameID+"/grants", "grant-seq", grant))
	}
	checkReplays(t, rs)
	if rs[0].Header.Get("Idempotent-Replayed") != "" {
		t.Error("the first response is marked replayed")
	}
	if n := e.countCommands("grant", admin); n != 1 {
		t.Errorf("%d grant entries in the log, want 1", n)
	}
	if v := e.player(gameID, ada).Inventory.Vertebrae; v != 7 {
		t.Errorf("ada holds %d Vertebrae, want 7 (granted once)", v)
	}

	// The same key for a different request is refused, and changes nothing.
	r := e.Post("/v1/games/"+gameID+"/grants", "grant-seq", gildedhall.Grant{Player: ada, Vertebrae: 70, Reason: "test"})
	if p := r.Problem(t); r.Status != 422 || p.Code != "idempotency_key_reused" {
		t.Errorf("reused key: %d %s, want 422 idempotency_key_reused", r.Status, p.Code)
	}
	// ... even for another command on the same key.
	r = e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/rolls", Idem: "grant-seq", Body: game.RollDice{Dice: "1d6"}})
	if p := r.Problem(t); r.Status != 422 || p.Code != "idempotency_key_reused" {
		t.Errorf("reused key for a roll: %d %s, want 422 idempotency_key_reused", r.Status, p.Code)
	}
	if v := e.player(gameID, ada).Inventory.Vertebrae; v != 7 {
		t.Errorf("ada holds %d Vertebrae after the refused reuse, want 7", v)
	}

	// Keys belong to the actor: another actor's same key is another command.
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/rolls", Actor: ada, Idem: "grant-seq", Body: game.RollDice{Dice: "1d6"}}), 200)
}

func TestIdempotencyConcurrent(t *testing.T) {
	e := withGame(t)
	grant := gildedhall.Grant{Player: ada, Chips: 3, Reason: "test"}
	roll := game.RollDice{Dice: "4d20"}
	var wg sync.WaitGroup
	grants := make([]*apitest.Response, 3)
	rolls := make([]*apitest.Response, 3)
	for i := range 3 {
		wg.Go(func() { grants[i] = e.Post("/v1/games/"+gameID+"/grants", "grant-par", grant) })
		wg.Go(func() {
			rolls[i] = e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/rolls", Actor: ada, Idem: "roll-par", Body: roll})
		})
	}
	wg.Wait()
	checkReplays(t, grants)
	checkReplays(t, rolls) // the same dice every time: no reroll (N1)
	if n := e.countCommands("grant", admin); n != 1 {
		t.Errorf("%d grant entries in the log, want 1", n)
	}
	if n := e.countCommands("roll", ada); n != 1 {
		t.Errorf("%d roll entries in the log, want 1", n)
	}
	if c := e.player(gameID, ada).Inventory.Chips; c != 3 {
		t.Errorf("ada holds %d Chips, want 3 (granted once)", c)
	}
}
