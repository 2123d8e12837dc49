package discord_test

import (
	"context"
	"encoding/json"
	"testing"

	"croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rulesets/obelisk"
)

// obeliskScenario plays the Obelisk's commands in a guild bound to an
// obelisk game: a task chosen from the list, the observation, a Gathering
// of a ritual type whose message has a button per component, contributed
// to by pressing them and by command, withdrawn from, completed by its
// starter's button, and the end of a banishment (refused: none).
func obeliskScenario(t *testing.T) *harness {
	hs := newHarness(t)
	ctx := context.Background()
	if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := hs.svc.Amend(ctx, game.Request{Game: "stone", Actor: "discord:" + admin, Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	hs.cmd(admin, "bind", opt("game", "stone"))
	hs.cmd(ada, "join")
	hs.cmd(grace, "join", opt("name", "Grace"))

	contains(t, "task", hs.cmd(ada, "task", opt("task", "herbalism")), "Herbalism: rolled", "on 1d24", "gained")
	contains(t, "observe", hs.cmd(grace, "observe"), "Grace observed the Obelisk", "every player gains 1⚡")
	r := hs.cmd(ada, "gathering", sub("start", opt("ritual_type", "cut-the-obelisk")))
	contains(t, "gathering start", r, "Gathering of Cut the Obelisk", "Cost 1⚡ 1🌿")
	gs, err := obelisk.On(hs.svc).Gatherings(ctx, "stone")
	if err != nil || len(gs) != 1 {
		t.Fatalf("gatherings %+v %v", gs, err)
	}
	id := gs[0].ID
	contains(t, "🌿 button", hs.press(ada, r.button(t, "🌿")), "contributed 1🌿")
	contains(t, "⚡ button", hs.press(grace, r.button(t, "⚡")), "Grace contributed 1⚡", "the cost is covered")
	contains(t, "withdraw", hs.cmd(grace, "gathering", sub("withdraw", opt("gathering", id), opt("component", "resolve"))), "Grace withdrew 1⚡")
	contains(t, "contribute", hs.cmd(grace, "gathering", sub("contribute", opt("gathering", id), opt("component", "resolve"))), "Grace contributed 1⚡")
	if r := hs.press(grace, r.button(t, "Complete")); !r.ephemeral() {
		t.Errorf("a non-starter completed it: %s", r.Raw)
	}
	contains(t, "complete", hs.cmd(ada, "gathering", sub("complete", opt("gathering", id))), "completed the Gathering of Cut the Obelisk", "gains 1 Cuts")
	if g, err := obelisk.On(hs.svc).Gathering(ctx, "stone", id); err != nil || g.Status != rob.StatusCompleted {
		t.Fatalf("after complete: %+v %v", g, err)
	}
	if r := hs.cmd(ada, "banishment", sub("end")); !r.ephemeral() {
		t.Errorf("ending a banishment one does not have: %s", r.Raw)
	}
	return hs
}
