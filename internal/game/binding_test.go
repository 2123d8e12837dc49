package game_test

import (
	"context"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
)

func TestBindingAdminOnlyLoggedAndMovable(t *testing.T) {
	ctx := context.Background()
	svc, _ := newLedger(t, gametest.Bolt(t))
	b := game.Bind{Platform: "discord", Space: "777", Channels: map[string]string{game.ChannelAnnouncements: "555"}}

	if _, err := svc.Bind(ctx, req("discord:2", "b0"), b); gametest.RuleCode(err) != "forbidden" {
		t.Fatalf("non-admin bind: %v, want forbidden", err)
	}
	if _, ok, _ := svc.BindingFor(ctx, "discord", "777"); ok {
		t.Fatal("a refused bind left a binding")
	}
	if _, err := svc.Bind(ctx, req(admin, "b1"), b); err != nil {
		t.Fatal(err)
	}
	got, ok, err := svc.BindingFor(ctx, "discord", "777")
	if err != nil || !ok || got.Game != "hall" || got.Channels[game.ChannelAnnouncements] != "555" || got.By != admin {
		t.Fatalf("binding %+v %v %v", got, ok, err)
	}
	page, err := svc.Log(ctx, "hall", "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if last := page.Entries[len(page.Entries)-1]; last.Command != "bind" || last.Events[0].Type != "game_bound" {
		t.Errorf("last log entry %+v, want the bind with a game_bound event", last)
	}
	if bs, err := svc.Bindings(ctx, "hall"); err != nil || len(bs) != 1 || bs[0].Space != "777" {
		t.Errorf("bindings of hall %+v %v", bs, err)
	}

	// Binding the same game again keeps the channels it does not name, and
	// changes those it names (issue 23: a second /bind without channel
	// options silenced the game).
	if _, err := svc.Bind(ctx, req(admin, "b1-again"), game.Bind{Platform: "discord", Space: "777"}); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := svc.BindingFor(ctx, "discord", "777"); got.Channels[game.ChannelAnnouncements] != "555" {
		t.Fatalf("a second bind naming no channel left the channels %v; want announcements still in 555", got.Channels)
	}
	if _, err := svc.Bind(ctx, req(admin, "b1-moved"), game.Bind{Platform: "discord", Space: "777", Channels: map[string]string{game.ChannelAnnouncements: "556"}}); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := svc.BindingFor(ctx, "discord", "777"); got.Channels[game.ChannelAnnouncements] != "556" {
		t.Fatalf("a bind naming the announcements channel left %v; want 556", got.Channels)
	}

	// Another game's admin cannot take the server; an admin of both can.
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:50", Key: "c2"}, game.CreateGame{ID: "other", Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	other := game.Request{Game: "other", Actor: "discord:50", Key: "b2"}
	if _, err := svc.Bind(ctx, other, b); gametest.RuleCode(err) != "forbidden" {
		t.Fatalf("stealing the server: %v, want forbidden", err)
	}
	if _, err := svc.Create(ctx, game.Request{Actor: admin, Key: "c3"}, game.CreateGame{ID: "third", Ruleset: ledgerID}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Bind(ctx, game.Request{Game: "third", Actor: admin, Key: "b3"}, b); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := svc.BindingFor(ctx, "discord", "777"); got.Game != "third" {
		t.Errorf("moved binding points at %q, want third", got.Game)
	}
	if bs, _ := svc.Bindings(ctx, "hall"); len(bs) != 0 {
		t.Errorf("hall still lists %+v after the move", bs)
	}

	for _, bad := range []game.Bind{{Platform: "Discord!", Space: "1"}, {Platform: "discord", Space: ""},
		{Platform: "discord", Space: "1", Channels: map[string]string{"memes": "2"}}} {
		if _, err := svc.Bind(ctx, req(admin, "bx"), bad); gametest.RuleCode(err) != "invalid_request" {
			t.Errorf("bind %+v: %v, want invalid_request", bad, err)
		}
	}
}
