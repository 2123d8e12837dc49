package slack_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rulesets/obelisk"
)

// obeliskScenario plays the Obelisk's commands in a workspace bound to an
// obelisk game: a task, the observation, a Gathering whose message has a
// button per component, contributed to by button and by command, withdrawn
// from and completed, and the end of a banishment (refused: none).
func obeliskScenario(t *testing.T) *env {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":1,"resolve":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := e.svc.Amend(ctx, game.Request{Game: "stone", Actor: "slack:" + admin, Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind game=stone")
	e.ok(ada, "join Ada")
	e.ok(grace, "join Grace")

	has(t, "task", e.ok(ada, "task task=herbalism"), "Herbalism: rolled", "on 1d24", "gained")
	has(t, "observe", e.ok(grace, "observe"), "Grace observed the Obelisk", "every player gains 1⚡")
	m := e.ok(ada, "gathering start ritual_type=cut-the-obelisk")
	has(t, "gathering start", m, "Gathering of Cut the Obelisk", "Cost 1⚡ 1🌿")
	gs, err := obelisk.On(e.svc).Gatherings(ctx, "stone")
	if err != nil || len(gs) != 1 {
		t.Fatalf("gatherings %+v %v", gs, err)
	}
	id := gs[0].ID
	has(t, "🌿 button", e.click(ada, actionOf(t, m, "🌿")), "contributed 1🌿")
	has(t, "withdraw", e.ok(ada, "gathering withdraw gathering="+id+" component=herbs"), "withdrew 1🌿")
	has(t, "contribute", e.ok(ada, "gathering contribute gathering="+id+" component=herbs"), "contributed 1🌿")
	has(t, "⚡ button", e.click(grace, actionOf(t, m, "⚡")), "Grace contributed 1⚡", "the cost is covered")
	has(t, "complete", e.ok(ada, "gathering complete gathering="+id), "completed the Gathering of Cut the Obelisk")
	if g, err := obelisk.On(e.svc).Gathering(ctx, "stone", id); err != nil || g.Status != rob.StatusCompleted {
		t.Fatalf("after complete: %+v %v", g, err)
	}
	has(t, "banishment propose", e.ok(ada, "banishment propose player=<@"+grace+"> duration=72h message=C0PLAY/1700000000.000900"), "Banish Grace for 72h", "standard proposal is open")
	ps, err := e.svc.Proposals(ctx, "stone", "open")
	if err != nil || len(ps) != 1 || ps[0].Kind != obelisk.KindBanishment || !strings.Contains(string(ps[0].Params), `"player":"slack:`+grace+`"`) {
		t.Fatalf("after banishment propose: %+v %v", ps, err)
	}
	if m := e.cmd(ada, "banishment propose player=<@"+grace+"> duration=soon message=1700000000.000901"); !refused(m) || !strings.Contains(m.Text, "not a Banishment Duration") {
		t.Errorf("a banishment for no duration: %s", m.Text)
	}
	if m := e.cmd(ada, "banishment end"); !refused(m) {
		t.Errorf("ending a banishment one does not have: %s", m.Text)
	}
	return e
}
