package discord_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store/storetest"
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
	contains(t, "complete", hs.cmd(ada, "gathering", sub("complete", opt("gathering", id))), "completed the Gathering of Cut the Obelisk", "gains 1 Cut (now 1)")
	if g, err := obelisk.On(hs.svc).Gathering(ctx, "stone", id); err != nil || g.Status != rob.StatusCompleted {
		t.Fatalf("after complete: %+v %v", g, err)
	}
	r = hs.cmd(ada, "banishment", sub("propose", userOpt("player", grace), opt("duration", "72h"), opt("message", "https://discord.com/channels/900/700/1199")))
	contains(t, "banishment propose", r, "Banish Grace for 3 days", "standard proposal is open")
	ps, err := hs.svc.Proposals(ctx, "stone", "open")
	if err != nil || len(ps) != 1 || ps[0].Kind != obelisk.KindBanishment || !strings.Contains(string(ps[0].Params), `"player":"discord:`+grace+`"`) || ps[0].Message.Message != "1199" {
		t.Fatalf("after banishment propose: %+v %v", ps, err)
	}
	if r := hs.cmd(ada, "banishment", sub("propose", userOpt("player", grace), opt("duration", "soon"), opt("message", "1200"))); !r.ephemeral() || !strings.Contains(r.all(), "not a Banishment Duration") {
		t.Errorf("a banishment for no duration: %s", r.Raw)
	}
	if r := hs.cmd(ada, "banishment", sub("end")); !r.ephemeral() {
		t.Errorf("ending a banishment one does not have: %s", r.Raw)
	}
	return hs
}

// RULINGS R3: a banishment proposal is the Obelisk's; in a Gilded Hall
// game (which has proposals) it is refused privately with the sentence
// naming the ruleset, and the store is unchanged.
func TestR3_BanishmentProposalOnlyInObeliskGames(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(ada, "join")
	hs.cmd(grace, "join", opt("name", "Grace"))
	before := storetest.Partition(t, hs.st, "hall")
	r := hs.cmd(ada, "banishment", sub("propose", userOpt("player", grace), opt("duration", "72h"), opt("message", "1199")))
	if !r.ephemeral() || !strings.Contains(r.all(), `The Gilded Hall game "hall" has no banishment proposals. Its commands are: join, leave, roll`) {
		t.Errorf("banishment propose in the Gilded Hall: %s", r.Raw)
	}
	if after := storetest.Partition(t, hs.st, "hall"); after != before {
		t.Errorf("the refusal changed the store:\nbefore %s\nafter  %s", before, after)
	}
}
