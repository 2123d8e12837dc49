package obelisk_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/institutions/trades"
	"croupier/internal/rules/economy"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
)

// TestModule_TasksObservationAndRefusals: through the service, a task costs
// 1⚡ and says its roll, N and modifiers; the observation grants every
// player ⚡ and a second one in the week is refused with the next week's
// start; every die is a logged draw.
func TestModule_TasksObservationAndRefusals(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "Winter")
	w.join("discord:2", "discord:3")
	if s := w.player("discord:2"); s.Components.Resolve != 1 {
		t.Fatalf("a new player holds %v, want 1⚡", s.Components)
	}
	res, err := w.ob.PerformTask(w.ctx, w.req("discord:2"), obelisk.Task{Task: "mining"})
	done := must[obelisk.TaskDone](t)(res, err)
	if done.Effectiveness == nil || done.Effectiveness.N != 16 || done.Spent.Resolve != 1 || done.Holding.Resolve != 0 {
		t.Fatalf("mining in Winter: %+v", done)
	}
	if says := w.says("task", res); !strings.Contains(says, "P2 — Mining") || !strings.Contains(says, "on 1d16") || !strings.Contains(says, "Winter -8") {
		t.Fatalf("the answer does not say who, the roll and its modifiers: %q", says)
	}
	if len(res.Entry.Draws) != 1 {
		t.Fatalf("a task logs %d draws, want 1", len(res.Entry.Draws))
	}
	refused(t, "no_resolve")(w.ob.PerformTask(w.ctx, w.req("discord:2"), obelisk.Task{Task: "herbalism"}))
	if s := w.player("discord:2"); s.Experience["herbalism"] != 0 || s.Components.Resolve != 0 {
		t.Fatalf("a refused task changed state: %+v", s)
	}

	res, err = w.ob.Observe(w.ctx, w.req("discord:3"))
	obs := must[obelisk.Observed](t)(res, err)
	if obs.Roll.N != 1 || obs.Moved != 1 || obs.Distance != 9 {
		t.Fatalf("observation with 0 Cuts in Winter: %+v", obs.Observation)
	}
	for id, want := range map[string]int{"discord:2": 1, "discord:3": 2} {
		if got := w.player(id).Components.Resolve; got != want {
			t.Fatalf("%s holds %d⚡ after the observation, want %d", id, got, want)
		}
	}
	_, err = w.ob.Observe(w.ctx, w.req("discord:2"))
	refused(t, "already_observed")(nil, err)
	if !strings.Contains(err.Error(), "Mon, 07 Dec 2026 00:00:00") {
		t.Fatalf("the refusal does not say when the next week starts: %v", err)
	}
	if len(res.Entry.Draws) != 1 || res.Entry.Draws[0].Purpose != rob.PurposeObservation {
		t.Fatalf("the observation logs draws %+v", res.Entry.Draws)
	}
}

// TestModule_GatheringCompletedAndFailedAtThePhaseEnd: a ritual type added
// by amendment; a Gathering completed by its starter applies its effects
// and spends the contributions; another not completed fails at the end of
// its phase, as of that end, refunding every contributor.
func TestModule_GatheringCompletedAndFailedAtThePhaseEnd(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "")
	w.join("discord:2", "discord:3", "discord:4")
	refused(t, "unknown_ritual_type")(w.ob.StartGathering(w.ctx, w.req("discord:2"), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "m1"}))
	w.amendRitual(cutTheObelisk)
	// Give the contributors something to contribute: herbalism and mining.
	w.clk.Set(gametest.Start.Add(time.Minute))
	herbs := must[obelisk.TaskDone](t)(w.ob.PerformTask(w.ctx, w.req("discord:3"), obelisk.Task{Task: "herbalism"}))
	if herbs.Gained.Herbs < 1 {
		t.Fatalf("herbalism gained %v", herbs.Gained)
	}
	must[obelisk.Observed](t)(w.ob.Observe(w.ctx, w.req("discord:4")))
	st := must[obelisk.TaskDone](t)(w.ob.StartGathering(w.ctx, w.req("discord:2"), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "m1"}))
	g := st.Gathering
	if g == nil || g.Status != rob.StatusOpen || g.Message != "m1" {
		t.Fatalf("gathering-start: %+v", st)
	}
	refused(t, "cost_not_covered")(w.ob.Complete(w.ctx, w.req("discord:2"), obelisk.GatheringRef{Gathering: g.ID}))
	must[obelisk.Moved](t)(w.ob.Contribute(w.ctx, w.req("discord:3"), obelisk.GatheringMove{Gathering: g.ID, Component: "🌿"}))
	refused(t, "already_contributing")(w.ob.Contribute(w.ctx, w.req("discord:3"), obelisk.GatheringMove{Gathering: g.ID, Component: "herbs"}))
	refused(t, "no_component")(w.ob.Contribute(w.ctx, w.req("discord:4"), obelisk.GatheringMove{Gathering: g.ID, Component: "💎"}))
	// No crystals anywhere yet: the admin cannot grant them (no admin
	// grants in the Obelisk), so the first Gathering waits for its phase end.
	w.clk.Set(time.Date(2026, 12, 4, 0, 0, 1, 0, time.UTC)) // Friday: Phase II
	refused(t, "gathering_failed")(w.ob.Contribute(w.ctx, w.req("discord:4"), obelisk.GatheringMove{Gathering: g.ID, Component: "⚡"}))
	rep, err := w.svc.RunDue(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Done["gathering"]) != 1 {
		t.Fatalf("due report %+v: want the gathering failed", rep)
	}
	if got := w.player("discord:3").Components; got.Herbs != herbs.Holding.Herbs {
		t.Fatalf("after the failure discord:3 holds %v, want the %d🌿 they held before contributing", got, herbs.Holding.Herbs)
	}
	gv, err := w.ob.Gathering(w.ctx, w.game, g.ID)
	if err != nil || gv.Status != rob.StatusFailed || !gv.ClosedAt.Equal(g.Ends) {
		t.Fatalf("the failed gathering: %+v %v", gv, err)
	}
	if rep, _ := w.svc.RunDue(w.ctx); len(rep.Done["gathering"]) != 0 {
		t.Fatalf("a second run failed it again: %+v", rep)
	}
}

// TestR3_ObeliskAndGildedHallRefuseEachOthersCommands: a Gilded Hall
// command in an obelisk game is refused not_in_ruleset, and vice versa.
func TestR3_ObeliskAndGildedHallRefuseEachOthersCommands(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "")
	w.join("discord:2")
	refused(t, "not_in_ruleset")(gildedhall.On(w.svc).Purchase(w.ctx, w.req("discord:2"), gildedhall.Purchase{Item: "chip"}))
	if _, err := w.svc.Create(w.ctx, game.Request{Actor: admin, Key: "create-hall"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	hall := game.Request{Game: "hall", Actor: "discord:2", Key: "j"}
	if _, err := w.svc.Join(w.ctx, hall, game.JoinGame{}); err != nil {
		t.Fatal(err)
	}
	hall.Key = "task"
	refused(t, "not_in_ruleset")(w.ob.PerformTask(w.ctx, hall, obelisk.Task{Task: "mining"}))
	hall.Key = "observe"
	refused(t, "not_in_ruleset")(w.ob.Observe(w.ctx, hall))
}

// TestO1_TradesOfComponentsThroughTheTradesComponent: the trades component
// trades Ritual Components between Obelisk players; ⚡ and Gilded Hall's
// items are refused.
func TestO1_TradesOfComponentsThroughTheTradesComponent(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "")
	w.join("discord:2", "discord:3")
	th := trades.On(w.svc)
	refused(t, "resolve_not_tradable")(th.OfferTrade(w.ctx, w.req("discord:2"), trades.OfferTrade{To: "discord:3", Give: economy.Items{Components: ruleset.Components{Resolve: 1}}}))
	refused(t, "not_in_ruleset")(th.OfferTrade(w.ctx, w.req("discord:2"), trades.OfferTrade{To: "discord:3", Give: economy.Items{Vertebrae: 1}}))
	must[obelisk.TaskDone](t)(w.ob.PerformTask(w.ctx, w.req("discord:2"), obelisk.Task{Task: "herbalism"}))
	held := w.player("discord:2").Components
	tr := must[trades.Trade](t)(th.OfferTrade(w.ctx, w.req("discord:2"), trades.OfferTrade{To: "discord:3", Give: economy.Items{Components: ruleset.Components{Herbs: 1}}}))
	must[trades.Trade](t)(th.AcceptTrade(w.ctx, w.req("discord:3"), tr.ID))
	if a, b := w.player("discord:2").Components, w.player("discord:3").Components; a.Herbs != held.Herbs-1 || b.Herbs != 1 {
		t.Fatalf("after the trade: %v and %v", a, b)
	}
	raw, _ := json.Marshal(tr.Give)
	if !strings.Contains(string(raw), `"components":{"herbs":1}`) {
		t.Fatalf("the trade's side reads %s", raw)
	}
}

// TestO11_BanishmentByAdoptedProposalThroughTheGovernance: a banishment
// proposal is a standard proposal; its adoption banishes the player as of
// the end of the vote; banished, they cannot start or contribute to a
// Gathering nor trade with a player who is not banished; they end it by
// command once the Duration has passed, not before.
func TestO11_BanishmentByAdoptedProposalThroughTheGovernance(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "")
	w.join("discord:2", "discord:3", "discord:4")
	w.amendRitual(cutTheObelisk)
	refused(t, "not_a_player")(w.svc.SubmitProposal(w.ctx, w.req("discord:2"), obelisk.BanishmentProposal(game.MessageRef{Platform: "discord", Channel: "c", Message: "p0"}, "discord:9", "24h")))
	refused(t, "invalid_duration")(w.svc.SubmitProposal(w.ctx, w.req("discord:2"), obelisk.BanishmentProposal(game.MessageRef{Platform: "discord", Channel: "c", Message: "p0"}, "discord:4", "-1h")))
	p := must[game.ProposalView](t)(w.svc.SubmitProposal(w.ctx, w.req("discord:2"), obelisk.BanishmentProposal(game.MessageRef{Platform: "discord", Channel: "c", Message: "p1"}, "discord:4", "24h")))
	if p.Kind != obelisk.KindBanishment || p.Class != "standard" {
		t.Fatalf("the proposal: %+v", p.ProposalRecord)
	}
	w.clk.Set(p.VotingStart.Add(time.Hour))
	must[json.RawMessage](t)(w.svc.PushReactions(w.ctx, w.req(admin), game.PushReactions{Message: p.Message, Up: []string{"discord:2", "discord:3"}}))
	w.clk.Set(p.VotingEnd.Add(time.Minute))
	if _, err := w.svc.RunDue(w.ctx); err != nil {
		t.Fatal(err)
	}
	got, err := w.svc.Proposal(w.ctx, w.game, p.ID)
	if err != nil || got.Status != "adopted" {
		t.Fatalf("the proposal after its vote: %+v %v", got.ProposalRecord, err)
	}
	s := w.player("discord:4")
	if s.Banishment == nil || !s.Banishment.Since.Equal(p.VotingEnd) {
		t.Fatalf("discord:4 after the adoption: %+v", s)
	}
	refused(t, "banished")(w.ob.StartGathering(w.ctx, w.req("discord:4"), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "m"}))
	g := must[obelisk.TaskDone](t)(w.ob.StartGathering(w.ctx, w.req("discord:3"), obelisk.StartGathering{RitualType: "cut-the-obelisk", Message: "m"}))
	refused(t, "banished")(w.ob.Contribute(w.ctx, w.req("discord:4"), obelisk.GatheringMove{Gathering: g.Gathering.ID, Component: "⚡"}))
	refused(t, "banishment_not_over")(w.ob.EndBanishment(w.ctx, w.req("discord:4")))
	w.clk.Set(p.VotingEnd.Add(24 * time.Hour))
	must[obelisk.BanishmentEnded](t)(w.ob.EndBanishment(w.ctx, w.req("discord:4")))
	if s := w.player("discord:4"); s.Banishment != nil {
		t.Fatalf("still banished: %+v", s)
	}
	refused(t, "not_banished")(w.ob.EndBanishment(w.ctx, w.req("discord:4")))
}
