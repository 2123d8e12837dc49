package discord_test

import (
	"context"
	"slices"
	"testing"

	"croupier/internal/chat/discord"
	"croupier/internal/game"
	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/store/storetest"
)

// Issue 23, acceptance 3: an Obelisk game played from Discord alone, every
// step a signed interaction (the game itself is created by the API or the
// CLI, as every game is). The admin binds the server and adds a ritual
// type; Ada and Grace join; Ada performs a task and Grace observes the
// Obelisk; the admin corrects Grace's components; Ada offers Grace a trade
// of components, shown in the channel, which Grace accepts by its button;
// Ada starts a Gathering whose message has a button for each component its
// cost names and no others, Ada and Grace contribute by button (each
// answered privately, the message following), Ada completes it; /obelisk
// and /gatherings say the game in sentences with names; the admin's
// refused and accepted corrections. Every assertion is on what a player
// reads.
func TestIssue23_AnObeliskGamePlayedFromDiscordAlone(t *testing.T) { obeliskFromDiscord(t) }

func obeliskFromDiscord(t *testing.T) *harness {
	hs, api := sharedHarness(t)
	ctx := context.Background()
	if _, err := hs.svc.Create(ctx, game.Request{Actor: "discord:" + admin, Key: "create-stone"}, game.CreateGame{ID: "stone", Ruleset: obelisk.ID}); err != nil {
		t.Fatal(err)
	}
	holds := func(user string) ruleset.Components {
		t.Helper()
		v, err := hs.svc.Player(ctx, "stone", "discord:"+user)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := obelisk.StateOf(v)
		return s.Components
	}
	private := func(what string, r result, subs ...string) {
		t.Helper()
		if !r.ephemeral() {
			t.Errorf("%s: answered publicly %s; want a private answer", what, r.Raw)
		}
		contains(t, what, r, subs...)
	}

	contains(t, "bind", hs.cmd(admin, "bind", opt("game", "stone")), "now plays the game")
	ritual := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk",` +
		`"cost":{"resolve":1,"crystals":1,"herbs":1},"effects":[{"kind":"add-cuts","amount":1}]}}]`
	contains(t, "amend", hs.cmd(admin, "amend", opt("patch", ritual), opt("reason", "our first ritual")), "The ruleset is amended to version 2: adds the ritual type Cut the Obelisk (our first ritual).")
	hs.cmd(ada, "join")
	hs.cmd(grace, "join", opt("name", "Grace"))

	// Tasks and the week's observation.
	contains(t, "task", hs.cmd(ada, "task", opt("task", "herbalism")), "Herbalism: rolled", "gained", "You hold")
	herbs := holds(ada).Herbs
	if herbs < 1 {
		t.Fatalf("herbalism gained Ada nothing: %s", holds(ada))
	}
	contains(t, "observe", hs.cmd(grace, "observe"), "Grace observed the Obelisk", "every player gains 1⚡")

	// An admin's correction: Grace's crystals carried over from the wiki.
	r := hs.cmd(admin, "components", sub("grant", userOpt("player", grace), opt("crystals", 2), opt("reason", "carried over from the wiki")))
	contains(t, "components grant", r, "granted Grace 2💎 (carried over from the wiki); Grace now holds 2⚡ 2💎.")
	if holds(grace) != (ruleset.Components{Resolve: 2, Crystals: 2}) {
		t.Fatalf("after the grant Grace holds %s", holds(grace))
	}

	// A trade of components, shown in the channel, accepted by its button.
	r = hs.cmd(ada, "trade", sub("offer", userOpt("player", grace), opt("give_herbs", 1), opt("take_crystals", 1), opt("note", "for the ritual")))
	if r.ephemeral() {
		t.Fatalf("a trade offer is shown in the channel: %s", r.Raw)
	}
	contains(t, "trade offer", r, "User 2 offers 1🌿 to Grace in exchange for 1💎.", "Grace can accept until")
	if labels := r.buttonLabels(); !slices.Equal(labels, []string{"Accept", "Decline / withdraw"}) {
		t.Errorf("the trade's buttons: %q", labels)
	}
	trade := sharedCheck{t, hs, api, "9301"}
	trade.press("Grace's Accept", grace, r.button(t, "Accept"), []string{"You accepted Trade", "the trade is done"},
		[]string{": executed", "Grace accepted: the trade is done.", "User 2 offers 1🌿 to Grace in exchange for 1💎."}, nil)
	if holds(ada) != (ruleset.Components{Resolve: 1, Crystals: 1, Herbs: herbs - 1}) || holds(grace) != (ruleset.Components{Resolve: 2, Crystals: 1, Herbs: 1}) {
		t.Fatalf("after the trade Ada holds %s, Grace %s", holds(ada), holds(grace))
	}

	// A Gathering: its buttons are the components its cost names.
	r = hs.cmd(ada, "gathering", sub("start", opt("ritual_type", "cut-the-obelisk")))
	contains(t, "gathering start", r, "Gathering of Cut the Obelisk", "Cost 1⚡ 1💎 1🌿")
	all := []string{"⚡", "💎", "🌿", "Complete"}
	if got := r.buttonLabels(); !slices.Equal(got, all) {
		t.Fatalf("the Gathering's buttons are %q; want a button for each component its cost names, then Complete: %q", got, all)
	}
	gs, err := obelisk.On(hs.svc).Gatherings(ctx, "stone")
	if err != nil || len(gs) != 1 {
		t.Fatalf("gatherings %+v %v", gs, err)
	}
	id := gs[0].ID
	// The gathering option suggests the open Gatherings by ritual and
	// starter; the value is what the command takes.
	ac := hs.send(interaction(hs.nextID(), ada, discord.InteractionAutocomplete, map[string]any{"name": "gathering", "type": 1,
		"options": []any{map[string]any{"name": "complete", "type": 1, "options": []any{map[string]any{"name": "gathering", "type": 3, "value": "user 2", "focused": true}}}}}))
	if ac.Data == nil || len(ac.Data.Choices) != 1 || ac.Data.Choices[0].Name != "Cut the Obelisk, started by User 2 (nothing of 1⚡ 1💎 1🌿 contributed)" || ac.Data.Choices[0].Value != id {
		t.Errorf("the gathering option's suggestions: %s", ac.Raw)
	}

	g := sharedCheck{t, hs, api, "9302"}
	first := g.press("Ada's 💎", ada, r.button(t, "💎"), []string{"contributed 1💎", "You hold"},
		[]string{"User 2 started it. Cost 1⚡ 1💎 1🌿; contributed: 1💎 by User 2."}, all)
	private("gatherings, one contributed", hs.cmd(grace, "gatherings"),
		"Cut the Obelisk, started by User 2, costs 1⚡ 1💎 1🌿; contributed: 1💎 by User 2; missing: 1⚡ 1🌿. It fails at Fri 4 Dec 00:00 UTC unless completed.")
	g.press("Ada's 🌿", ada, first.Button("🌿"), []string{"contributed 1🌿"}, []string{"contributed: 1💎 by User 2, 1🌿 by User 2."}, all)
	g.refused("Ada's ⚡ (she has none left)", ada, first.Button("⚡"), "⚡")
	g.press("Grace's ⚡", grace, first.Button("⚡"), []string{"Grace contributed 1⚡", "You hold 1⚡ 1💎 1🌿"},
		[]string{"1⚡ by Grace.", "The cost is covered: User 2 may complete it."}, all)
	private("gatherings, covered", hs.cmd(ada, "gatherings"), "contributed: 1💎 by User 2, 1🌿 by User 2, 1⚡ by Grace; the cost is covered, so User 2 may complete it.")
	g.refused("Grace's Complete", grace, first.Button("Complete"), "")
	g.press("Ada's Complete", ada, first.Button("Complete"), []string{"completed the Gathering of Cut the Obelisk", "gains 1 Cut (now 1)"}, []string{"Completed."}, nil)
	if v, err := obelisk.On(hs.svc).Gathering(ctx, "stone", id); err != nil || v.Status != rob.StatusCompleted {
		t.Fatalf("after Complete: %+v %v", v, err)
	}

	// The views.
	private("obelisk", hs.cmd(grace, "obelisk"),
		"The Obelisk stands 9 km from the Gates, with 1 Cut; the season is Calm Spring.",
		"Grebe 1 aids the Obelisk.",
		"Grace observed it this week; the next observation is possible from Mon 7 Dec 00:00 UTC.",
		"Ritual types: Cut the Obelisk (costs 1⚡ 1💎 1🌿).",
		"No Gathering is open.")
	private("gatherings, none open", hs.cmd(ada, "gatherings"), "No Gathering is open")

	// Corrections refused, privately and changing nothing; then a revocation.
	before := storetest.Partition(t, hs.st, "stone")
	private("a player's grant", hs.cmd(grace, "components", sub("grant", userOpt("player", grace), opt("heart", 1), opt("reason", "mine"))),
		"Only the game's admins can grant components.")
	private("revoking more than held", hs.cmd(admin, "components", sub("revoke", userOpt("player", ada), opt("herbs", 100), opt("reason", "typo"))),
		"cannot be revoked", "Nothing was revoked.")
	private("a correction of nothing", hs.cmd(admin, "components", sub("revoke", userOpt("player", ada), opt("reason", "empty"))),
		"needs a count of at least one component")
	if after := storetest.Partition(t, hs.st, "stone"); after != before {
		t.Errorf("a refused correction changed the game")
	}
	want := holds(grace).Minus(ruleset.Components{Crystals: 1})
	contains(t, "components revoke", hs.cmd(admin, "components", sub("revoke", userOpt("player", grace), opt("crystals", 1), opt("reason", "a duplicate of the wiki's"))),
		"revoked 1💎 from Grace (a duplicate of the wiki's); Grace now holds "+want.String()+".")
	if holds(grace) != want {
		t.Errorf("after the revocation Grace holds %s; want %s", holds(grace), want)
	}
	return hs
}
