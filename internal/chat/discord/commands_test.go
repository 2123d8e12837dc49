package discord_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
)

// TestEverySlashCommand drives every command of the table through the
// signed endpoint, in the order a game would use them, and checks both the
// reply and the state it left.
func TestEverySlashCommand(t *testing.T) {
	hs := newHarness(t)
	ctx := context.Background()

	if r := hs.cmd(ada, "join"); !strings.Contains(r.content(), "not bound") || !r.ephemeral() {
		t.Fatalf("join before bind: %s", r.Raw)
	}
	hs.bind()
	if b, ok, _ := hs.svc.BindingFor(ctx, "discord", guild); !ok || b.Game != "hall" || b.Channels[game.ChannelAnnouncements] != "701" {
		t.Fatalf("binding %+v %v", b, ok)
	}

	r := hs.cmd(ada, "join")
	contains(t, "join", r, "User 2", "<@2>")
	hs.cmd(grace, "join", opt("name", "Grace"))
	if p := hs.player(grace); !p.Member || p.Name != "Grace" {
		t.Fatalf("grace after join: %+v", p)
	}
	r = hs.cmd(ada, "help")
	contains(t, "help", r, "/trade accept · list · offer", "/buy")
	if !r.ephemeral() {
		t.Error("help is not ephemeral")
	}
	contains(t, "game", hs.cmd(ada, "game"), "hall", "gilded-hall")
	contains(t, "players", hs.cmd(ada, "players"), "Grace", "User 2")

	// Admin grant: Vertebrae, a holographic King, a Handy Pack.
	r = hs.cmd(admin, "grant", userOpt("player", ada), opt("reason", "test stake"), opt("vertebrae", 60),
		opt("card", "King of Hearts"), opt("holo", true), opt("pack", "handy-pack"))
	contains(t, "grant", r, "60 Vertebrae")
	p := hs.player(ada)
	if p.Inventory.Vertebrae != 60 || len(p.Inventory.Cards) != 1 || !p.Inventory.Cards[0].Holo || len(p.Inventory.Packs) != 1 {
		t.Fatalf("after grant: %+v", p.Inventory)
	}
	king := p.Inventory.Cards[0].ID

	r = hs.cmd(ada, "status")
	contains(t, "status", r, "Vertebrae: 60", "Deck: 1 card")
	if !r.ephemeral() {
		t.Error("status is not ephemeral")
	}
	r = hs.cmd(ada, "inventory")
	contains(t, "inventory", r, "King of Hearts", king, "Handy Pack")
	if !r.ephemeral() {
		t.Error("inventory is not ephemeral")
	}
	contains(t, "status of another", hs.cmd(ada, "status", userOpt("player", grace)), "Grace")

	contains(t, "roll", hs.cmd(ada, "roll", opt("dice", "2d6"), opt("reason", "test")), "rolled 2d6", "(test)")

	r = hs.cmd(ada, "shop")
	if r.Data.Components == nil || len(*r.Data.Components) == 0 || (*r.Data.Components)[0].Components[0].Type != discord.ComponentStringSelect {
		t.Fatalf("shop has no select: %s", r.Raw)
	}
	contains(t, "shop", r, "Handy Pack", "12 Vertebrae")

	// Buying asks first; the confirmation buys, once.
	r = hs.cmd(ada, "buy", opt("item", "random-card"))
	contains(t, "buy", r, "for 5 Vertebrae", "You hold 60")
	if hs.player(ada).Inventory.Vertebrae != 60 {
		t.Fatal("buy spent before confirmation")
	}
	confirm := r.button(t, "Buy for")
	r = hs.press(ada, confirm)
	if r.Type != discord.ResponseUpdateMessage {
		t.Errorf("confirmation answered type %d, want an update of the prompt", r.Type)
	}
	contains(t, "buy confirm", r, "Bought 1 × Random Card", "Vertebrae: 55")
	if v := hs.player(ada).Inventory.Vertebrae; v != 55 {
		t.Fatalf("after purchase: %d Vertebrae, want 55", v)
	}
	// A purchase Ada cannot afford is said as such, with no button to buy
	// that the Croupier would refuse (issue 23).
	r = hs.cmd(ada, "buy", opt("item", "legendary-pack"), opt("quantity", 2))
	contains(t, "unaffordable buy", r, "costs 100 Vertebrae and you hold 55: 45 short")
	if strings.Contains(string(r.Raw), "Buy for") {
		t.Errorf("an unaffordable purchase offers a buy button: %s", r.Raw)
	}
	// The shop's select leads to the same prompt.
	sel := hs.send(interaction(hs.nextID(), ada, discord.InteractionComponent, map[string]any{
		"custom_id": (*hs.cmd(ada, "shop").Data.Components)[0].Components[0].CustomID, "component_type": 3, "values": []string{"handy-pack"}}))
	contains(t, "shop select", sel, "Buy 1 × Handy Pack for 12 Vertebrae")

	contains(t, "open", hs.cmd(ada, "open", opt("pack", "handy-pack")), "opened Handy Pack")
	if n := len(hs.player(ada).Inventory.Packs); n != 0 {
		t.Errorf("after open: %d packs", n)
	}
	contains(t, "gift", hs.cmd(ada, "gift", userOpt("player", grace)), "🎁", "gifted Grace ")
	graceCards := len(hs.player(grace).Inventory.Cards)
	if graceCards == 0 {
		t.Fatal("gift gave nothing")
	}

	// A trade offer carries consent buttons; only the receiver's counts.
	r = hs.send(slash(hs.nextID(), ada, "trade", sub("offer", userOpt("player", grace), opt("give_cards", king), opt("give_vertebrae", 5), opt("note", "for luck"))))
	contains(t, "trade offer", r, "King of Hearts", "5 Vertebrae", "for luck")
	accept := r.button(t, "Accept")
	if r.ephemeral() {
		t.Error("a trade offer is private; the receiver must see it")
	}
	r = hs.press(admin, accept)
	if r.Type != discord.ResponseMessage || !r.ephemeral() || !strings.Contains(r.content(), "only Grace can accept") {
		t.Errorf("third party pressing Accept: %s", r.Raw)
	}
	trades, _ := trades.On(hs.svc).Trades(ctx, "hall", trades.TradeFilter{Status: trades.TradeOpen})
	if len(trades) != 1 {
		t.Fatalf("open trades %+v", trades)
	}
	tradeID := trades[0].ID
	r = hs.press(grace, accept)
	if r.Type != discord.ResponseUpdateMessage {
		t.Errorf("accept answered type %d, want an update of the offer", r.Type)
	}
	contains(t, "trade accept", r, "accepted", "executed")
	if g := hs.player(grace); g.Inventory.Vertebrae != 5 || len(g.Inventory.Cards) != graceCards+1 {
		t.Errorf("grace after the trade: %+v", g.Inventory)
	}
	contains(t, "trade list", hs.send(slash(hs.nextID(), grace, "trade", sub("list", opt("status", "all")))), tradeID, "executed")
	r = hs.send(slash(hs.nextID(), ada, "trade", sub("show", opt("trade", tradeID))))
	contains(t, "trade show", r, "Trade "+tradeID+": executed")
	if !r.ephemeral() {
		t.Error("trade show is not ephemeral")
	}
	// Withdraw without naming the trade: the only open one.
	hs.send(slash(hs.nextID(), grace, "trade", sub("offer", userOpt("player", ada), opt("give_vertebrae", 1))))
	contains(t, "trade withdraw", hs.send(slash(hs.nextID(), ada, "trade", sub("withdraw"))), "withdrawn")
	contains(t, "trade accept with none", hs.send(slash(hs.nextID(), ada, "trade", sub("accept"))), "No open trade is offered to you")
	hs.send(slash(hs.nextID(), grace, "trade", sub("offer", userOpt("player", ada), opt("give_vertebrae", 1))))
	contains(t, "trade accept by slash", hs.send(slash(hs.nextID(), ada, "trade", sub("accept"))), "accepted")

	// Admin corrections.
	r = hs.cmd(admin, "revoke", userOpt("player", grace), opt("vertebrae", 2), opt("reason", "ruling 1"))
	contains(t, "revoke", r, "Revoked 2 Vertebrae from Grace (ruling 1).")
	if v := hs.player(grace).Inventory.Vertebrae; v != 2 {
		t.Errorf("grace after revoke: %d Vertebrae, want 2", v)
	}
	contains(t, "amend", hs.cmd(admin, "amend", opt("patch", `{"durations":{"tradeWindow":"72h"}}`), opt("reason", "vote 3")), "version 2")
	if rs, _ := hs.svc.Ruleset(ctx, "hall"); rs.Durations.TradeWindow.String() != "72h0m0s" {
		t.Errorf("trade window after amend: %s", rs.Durations.TradeWindow)
	}
	r = hs.cmd(ada, "grant", userOpt("player", ada), opt("reason", "greed"), opt("chips", 25))
	if !r.ephemeral() || !strings.Contains(r.content(), "Only the game's admins") {
		t.Errorf("grant by a player: %s", r.Raw)
	}
	if c := hs.player(ada).Inventory.Chips; c != 0 {
		t.Errorf("a refused grant gave %d Chips", c)
	}

	contains(t, "rules", hs.cmd(ada, "rules"), "version 2", "tradeWindow 3 days")
	contains(t, "log", hs.cmd(ada, "log", opt("limit", 5)), "The ruleset was amended to version 2 by <@1>")
	contains(t, "seeds", hs.cmd(ada, "seeds"), "commitment")
	contains(t, "audit", hs.cmd(ada, "audit"), "Draws checked")

	// Context menus: a player's status, and the governance menus that
	// register the user's own message so its reactions count.
	r = hs.send(interaction(hs.nextID(), grace, discord.InteractionCommand, map[string]any{"name": "Player status", "type": discord.CommandUser, "target_id": ada}))
	contains(t, "Player status", r, "User 2", "Vertebrae")
	// Each on its own message: one message is one thing (RULINGS G6).
	onMessage := func(name, id string) result {
		return hs.send(interaction(hs.nextID(), ada, discord.InteractionCommand, map[string]any{"name": name, "type": discord.CommandMessage, "target_id": id,
			"resolved": map[string]any{"messages": map[string]any{id: map[string]any{"id": id, "channel_id": "700", "content": "I propose…", "author": map[string]any{"id": ada}}}}}))
	}
	for name, c := range map[string]struct{ id, want string }{
		"Submit as proposal":            {"555", "proposal is open"},
		"Submit as request for justice": {"556", "asks the Judge"},
		"Stand for Judge":               {"557", "stands for Judge"},
	} {
		contains(t, name, onMessage(name, c.id), c.want)
	}
	contains(t, "a proposal's message as a request", onMessage("Submit as request for justice", "555"), "That message is already proposal")

	// Leaving asks first.
	r = hs.cmd(grace, "leave")
	if !hs.player(grace).Member {
		t.Fatal("leave left before confirmation")
	}
	contains(t, "leave confirm", hs.press(grace, r.button(t, "Leave the game")), "Grace left the game, losing ", "they may join again in 7 days")
	if hs.player(grace).Member {
		t.Error("grace is still a member after confirming")
	}

	// The areas' scenarios, each in a game of its own.
	sent := maps.Clone(hs.sent)
	for _, sc := range []struct {
		name string
		run  func(*testing.T) *harness
	}{{"exoptosis", exoptosisScenario}, {"governance", governanceScenario}, {"obelisk", obeliskScenario}, {"obelisk from Discord alone", obeliskFromDiscord}, {"turns", turnsScenario}} {
		t.Run(sc.name, func(t *testing.T) { maps.Copy(sent, sc.run(t).sent) })
	}

	// Every command of the table was sent (context menus too); hidden ones
	// are run by the buttons and selects pressed above.
	for _, c := range chat.Commands() {
		if !c.Hidden && !sent[c.Name] {
			t.Errorf("command %q is in the table but no scenario sends it", c.Name)
		}
	}
}

// A refusal is the rule's sentence, privately; never a 500.
func TestRefusalsAreEphemeralSentences(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	for _, tc := range []struct {
		name string
		r    result
		want string
	}{
		{"not a player", hs.cmd(ada, "roll", opt("dice", "1d6")), "join it first"},
		{"bad dice", hs.cmd(ada, "roll", opt("dice", "lots")), "NdK"},
		{"missing option", hs.cmd(ada, "roll"), "needs the option dice"},
		{"unknown item", hs.cmd(ada, "buy", opt("item", "pony")), "sells no"},
		{"unknown command", hs.cmd(ada, "frobnicate"), "no command"},
		{"integer out of range", hs.cmd(ada, "buy", opt("item", "chip"), opt("quantity", 1000)), "between 1 and 100"},
	} {
		if tc.r.Status != 200 || !tc.r.ephemeral() || !strings.Contains(tc.r.content(), tc.want) {
			t.Errorf("%s: %d %s, want an ephemeral reply containing %q", tc.name, tc.r.Status, tc.r.Raw, tc.want)
		}
	}
}

func TestAutocomplete(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(ada, "join")
	hs.cmd(grace, "join")
	hs.cmd(admin, "grant", userOpt("player", ada), opt("reason", "t"), opt("card", "Queen of Spades"), opt("pack", "deck-pack"))
	hs.cmd(admin, "grant", userOpt("player", grace), opt("reason", "t"), opt("card", "Ace of Clubs"))
	queen := hs.player(ada).Inventory.Cards[0].ID
	ace := hs.player(grace).Inventory.Cards[0].ID
	pack := hs.player(ada).Inventory.Packs[0].ID

	complete := func(user, name string, opts ...map[string]any) []string {
		t.Helper()
		r := hs.send(interaction(hs.nextID(), user, discord.InteractionAutocomplete, map[string]any{"name": name, "type": 1, "options": opts}))
		if r.Type != discord.ResponseAutocompleteResult {
			t.Fatalf("autocomplete answered %s", r.Raw)
		}
		var vs []string
		for _, c := range r.Data.Choices {
			vs = append(vs, c.Name+"="+c.Value.(string))
		}
		return vs
	}
	focus := func(name, v string) map[string]any {
		return map[string]any{"name": name, "type": 3, "value": v, "focused": true}
	}
	has := func(what string, got []string, sub string) {
		t.Helper()
		for _, g := range got {
			if strings.Contains(g, sub) {
				return
			}
		}
		t.Errorf("%s: suggestions %v lack %q", what, got, sub)
	}
	has("card names", complete(admin, "grant", focus("card", "king of")), "King of Hearts=King of Hearts")
	has("shop items", complete(ada, "buy", focus("item", "legend")), "=legendary-pack")
	has("own packs", complete(ada, "open", focus("pack", "")), "="+pack)
	offer := func(opts ...map[string]any) []string {
		return complete(ada, "trade", map[string]any{"name": "offer", "type": 1, "options": opts})
	}
	has("own cards", offer(focus("give_cards", "queen")), "Queen of Spades · "+queen+"="+queen)
	has("their cards", offer(userOpt("player", grace), focus("take_cards", "")), "="+ace)
	// A comma-separated list completes its last id and keeps the others.
	hs.cmd(admin, "grant", userOpt("player", ada), opt("reason", "t"), opt("card", "2 of Hearts"))
	got := offer(focus("give_cards", queen+", 2 of"))
	if len(got) != 1 || !strings.HasPrefix(strings.SplitN(got[0], "=", 2)[1], queen+", ") {
		t.Errorf("list completion: %v", got)
	}
	hs.send(slash(hs.nextID(), ada, "trade", sub("offer", userOpt("player", grace), opt("give_cards", queen))))
	tr, _ := trades.On(hs.svc).Trades(context.Background(), "hall", trades.TradeFilter{})
	mine := complete(grace, "trade", map[string]any{"name": "accept", "type": 1, "options": []any{focus("trade", "")}})
	has("my trades", mine, "="+tr[0].ID)
	// People read names, not ids, in a suggestion's label too.
	for _, c := range mine {
		if label, _, _ := strings.Cut(c, "="); strings.Contains(label, "discord:") || !strings.Contains(label, " → ") {
			t.Errorf("a trade's suggestion reads %q; want its players by name", label)
		}
	}
	if got := complete(ada, "trade", map[string]any{"name": "list", "type": 1, "options": []any{focus("status", "ex")}}); len(got) != 2 {
		t.Errorf("static choices filtered by \"ex\": %v, want executed and expired", got)
	}
}
