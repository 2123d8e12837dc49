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
	has(t, "banishment propose", e.ok(ada, "banishment propose player=<@"+grace+"> duration=72h message=C0PLAY/1700000000.000900"), "Banish Grace for 3 days", "standard proposal is open")
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

// Issue 23 point 3 on Slack: the Obelisk's new commands. /trade offer
// takes component amounts (and refuses the Gilded Hall's items in an
// Obelisk game), its message is accepted by button and updated for
// everyone; a Gathering's buttons are its cost's components; /gatherings
// and /obelisk answer in sentences with names; an admin's
// /components grant and revoke, and their refusals.
func TestIssue23_TheObeliskInSlack(t *testing.T) { obeliskInSlack(t) }

func obeliskInSlack(t *testing.T) *env {
	e, api := sharedEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, game.Request{Actor: "slack:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	patch := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":1,"herbs":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	if _, err := e.svc.Amend(ctx, game.Request{Game: "stone", Actor: "slack:" + admin, Key: "amend"}, game.Amend{Patch: json.RawMessage(patch), Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	e.ok(admin, "bind game=stone")
	e.ok(ada, "join Ada")
	e.ok(grace, "join Grace")
	holds := func(user string) string {
		t.Helper()
		v, err := e.svc.Player(ctx, "stone", "slack:"+user)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := obelisk.StateOf(v)
		return s.Components.String()
	}

	has(t, "components grant", e.ok(admin, "components grant <@"+ada+"> herbs=2 crystals=1 reason=carried over from the wiki"),
		"granted Ada 1💎 2🌿 (carried over from the wiki); Ada now holds 1⚡ 1💎 2🌿.")
	if m := e.cmd(grace, "components grant <@"+grace+"> heart=1 reason=mine"); !refused(m) || !strings.Contains(m.Text, "Only the game's admins can grant components.") {
		t.Errorf("a player's grant: %s", m.Text)
	}
	if m := e.cmd(admin, "components grant <@"+ada+"> gold=2 reason=typo"); !refused(m) || !strings.Contains(m.Text, `/components grant has no option "gold"; its options are player, resolve, crystals, herbs, reagents, blood, heart, reason.`) {
		t.Errorf("an unknown component: %s", m.Text)
	}
	if m := e.cmd(admin, "components revoke <@"+ada+"> herbs=9 reason=typo"); !refused(m) || !strings.Contains(m.Text, "so 9🌿 cannot be revoked: 7🌿 is missing. Nothing was revoked.") {
		t.Errorf("revoking more than held: %s", m.Text)
	}

	// A trade of components; the Gilded Hall's items are refused here.
	if m := e.cmd(ada, "trade offer <@"+grace+"> give_vertebrae=1"); !refused(m) || !strings.Contains(m.Text, "This game's ruleset has no give_vertebrae for /trade offer; it takes give_crystals, give_herbs") {
		t.Errorf("Vertebrae offered in an Obelisk game: %s", m.Text)
	}
	if m := e.cmd(ada, "trade offer <@"+grace+"> give_resolve=1"); !refused(m) {
		t.Errorf("⚡ offered: %s", m.Text)
	}
	m := e.ok(ada, "trade offer <@"+grace+"> give_herbs=1 note=a gift")
	has(t, "trade offer", m, "Ada offers 1🌿 to Grace in exchange for nothing.")
	tr := slackShared{t, e, api, "1700000000.000300"}
	tr.press("Grace's Accept", grace, actionOf(t, m, "Accept"), []string{"You accepted Trade", "the trade is done"}, []string{": executed", "Grace accepted: the trade is done."}, nil)
	if holds(ada) != "1⚡ 1💎 1🌿" || holds(grace) != "1⚡ 1🌿" {
		t.Fatalf("after the trade Ada holds %s, Grace %s", holds(ada), holds(grace))
	}

	// A Gathering with a button for each component its cost names.
	m = e.ok(ada, "gathering start ritual_type=cut-the-obelisk")
	g := slackShared{t, e, api, "1700000000.000400"}
	buttons := []string{"💎", "🌿", "Complete"}
	g.press("Ada's 💎", ada, actionOf(t, m, "💎"), []string{"contributed 1💎"}, []string{"contributed: 1💎 by Ada."}, buttons)
	has(t, "gatherings", e.ok(grace, "gatherings"), "Cut the Obelisk, started by Ada, costs 1💎 1🌿; contributed: 1💎 by Ada; missing: 1🌿.")
	last := g.press("Grace's 🌿", grace, actionOf(t, m, "🌿"), []string{"Grace contributed 1🌿"}, []string{"1🌿 by Grace.", "The cost is covered: Ada may complete it."}, buttons)
	g.press("Ada's Complete", ada, updateAction(t, last, "Complete"), []string{"completed the Gathering of Cut the Obelisk"}, []string{"Completed."}, nil)
	has(t, "obelisk", e.ok(grace, "obelisk"), "The Obelisk stands 10 km from the Gates, with 1 Cut; the season is Calm Spring.", "No Grebe exists.",
		"Nobody has observed it this week", "Ritual types: Cut the Obelisk (costs 1💎 1🌿).", "No Gathering is open.")

	has(t, "components revoke", e.ok(admin, "components revoke <@"+ada+"> herbs=1 reason=a duplicate"), "revoked 1🌿 from Ada (a duplicate); Ada now holds nothing.")
	return e
}
