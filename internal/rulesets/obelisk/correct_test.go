package obelisk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// RULINGS G3: an admin corrects one player's components through the
// audit-logged admin interface. A grant adds what it names, after the
// player caught up with the game-level grants; a revocation takes all of
// it or nothing; a non-admin, an unknown component, a revocation of more
// than held and a correction of a non-player are refused with state
// untouched; the log's event names the admin, the player, the amounts
// and the reason, and its changes carry the cause "correction".
func TestG3_AnAdminCorrectsAPlayersComponentsWithALoggedReason(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "Calm Spring")
	w.join("discord:2", "discord:3")
	must[obelisk.Observed](w.t)(w.ob.Observe(w.ctx, w.req("discord:3"))) // a game-level grant of 1⚡ to each

	res, err := w.ob.GrantComponents(w.ctx, w.req(admin), obelisk.Correction{Player: "P2",
		Components: ruleset.Components{Crystals: 3, Herbs: 2}, Reason: "Judge's ruling 4"})
	g := must[obelisk.Corrected](t)(res, err)
	if want := (ruleset.Components{Resolve: 2, Crystals: 3, Herbs: 2}); g.Holding != want || w.player("discord:2").Components != want {
		t.Fatalf("after the grant P2 holds %s (answer %s); want %s", w.player("discord:2").Components, g.Holding, want)
	}
	if says := w.says("components-grant", res); says != "discord:1 granted P2 3💎 2🌿 (Judge's ruling 4); P2 now holds 2⚡ 3💎 2🌿." {
		t.Errorf("the grant's answer reads %q", says)
	}

	before := w.snapshot()
	for _, tc := range []struct {
		what  string
		actor string
		c     obelisk.Correction
		code  string
	}{
		{"a player's grant", "discord:3", obelisk.Correction{Player: "discord:3", Components: ruleset.Components{Heart: 1}, Reason: "mine"}, "forbidden"},
		{"nothing to grant", admin, obelisk.Correction{Player: "discord:2", Reason: "r"}, "invalid_request"},
		{"a negative count", admin, obelisk.Correction{Player: "discord:2", Components: ruleset.Components{Herbs: -1}, Reason: "r"}, "invalid_request"},
		{"an unknown player", admin, obelisk.Correction{Player: "Nobody", Components: ruleset.Components{Herbs: 1}, Reason: "r"}, "unknown_player"},
		{"no reason", admin, obelisk.Correction{Player: "discord:2", Components: ruleset.Components{Herbs: 1}}, "reason_required"},
		{"a non-player", admin, obelisk.Correction{Player: "discord:9", Components: ruleset.Components{Herbs: 1}, Reason: "r"}, "not_a_player"},
	} {
		_, err := w.ob.GrantComponents(w.ctx, w.req(tc.actor), tc.c)
		if got := code(err); got != tc.code {
			t.Errorf("%s: refused %s; want %s", tc.what, got, tc.code)
		}
	}
	_, err = w.ob.RevokeComponents(w.ctx, w.req(admin), obelisk.Correction{Player: "discord:2", Components: ruleset.Components{Crystals: 4, Herbs: 1}, Reason: "too much"})
	if code(err) != "insufficient_components" || !strings.Contains(err.Error(), "P2 holds 2⚡ 3💎 2🌿, so 4💎 1🌿 cannot be revoked: 1💎 is missing") {
		t.Errorf("revoking more than held: %v", err)
	}
	if after := w.snapshot(); after != before {
		t.Fatalf("a refused correction changed the game:\nbefore %s\nafter  %s", before, after)
	}

	r := must[obelisk.Corrected](t)(w.ob.RevokeComponents(w.ctx, w.req(admin), obelisk.Correction{Player: "discord:2", Components: ruleset.Components{Crystals: 3, Resolve: 1}, Reason: "a duplicate"}))
	if want := (ruleset.Components{Resolve: 1, Herbs: 2}); r.Holding != want || w.player("discord:2").Components != want {
		t.Errorf("after the revocation P2 holds %s; want %s", w.player("discord:2").Components, want)
	}

	// The log: one event per correction, its changes of cause "correction",
	// read as a sentence with names and the reason.
	page, err := w.svc.Log(w.ctx, w.game, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"discord:1": "Ada", "discord:2": "P2"}
	var said []string
	for _, e := range page.Entries {
		for _, ev := range e.Events {
			if ev.Type != "components_corrected" {
				continue
			}
			said = append(said, w.svc.Registry.Sentence(ev, func(id string) string { return names[id] }))
			var c obelisk.Corrected
			decodeInto(t, ev, &c)
			for _, d := range c.Changes {
				if d.Cause != "correction" || d.Player != "discord:2" {
					t.Errorf("a correction's change %+v", d)
				}
			}
		}
	}
	want := []string{"Ada granted P2 3💎 2🌿 (Judge's ruling 4).", "Ada revoked 1⚡ 3💎 from P2 (a duplicate)."}
	if strings.Join(said, "\n") != strings.Join(want, "\n") {
		t.Errorf("the log says\n%s\nwant\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
}

// RULINGS R3: the Obelisk's corrections are the Obelisk's: a Gilded Hall
// game refuses them not_in_ruleset.
func TestR3_ComponentCorrectionsOnlyInObeliskGames(t *testing.T) {
	w := newWorld(t, gametest.Bolt(t), "Calm Spring")
	if _, err := w.svc.Create(w.ctx, game.Request{Actor: admin, Key: "create-hall"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	_, err := w.ob.GrantComponents(w.ctx, game.Request{Game: "hall", Actor: admin, Key: "g"}, obelisk.Correction{Player: admin, Components: ruleset.Components{Herbs: 1}, Reason: "r"})
	if code(err) != "not_in_ruleset" {
		t.Errorf("a component grant in the Gilded Hall: %v", err)
	}
}

func decodeInto(t *testing.T, ev game.Event, v any) {
	t.Helper()
	if err := json.Unmarshal(ev.Data, v); err != nil {
		t.Fatalf("event %s: %v", ev.Type, err)
	}
}
