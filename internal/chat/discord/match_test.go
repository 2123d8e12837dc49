package discord_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"croupier/internal/chat/discord"
	"croupier/internal/game"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/rulesets/gildedhall"
)

// cy is a third player for three-way duels.
const cy = "5"

// selectMenu returns the custom_id and the option values of the select whose
// placeholder starts with placeholder.
func (r result) selectMenu(t *testing.T, placeholder string) (string, []string) {
	t.Helper()
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type == discord.ComponentStringSelect && strings.HasPrefix(c.Placeholder, placeholder) {
					if len(c.CustomID) > 100 || len(c.Options) > 25 || len(c.Options) == 0 {
						t.Fatalf("select %q breaks Discord's limits: %d-character custom_id, %d options", placeholder, len(c.CustomID), len(c.Options))
					}
					var vs []string
					for _, o := range c.Options {
						vs = append(vs, o.Value)
					}
					return c.CustomID, vs
				}
			}
		}
	}
	t.Fatalf("no select %q in %s", placeholder, r.Raw)
	return "", nil
}

// menu is a multi-select as rendered.
type menu struct {
	customID string
	values   []string
	min, max int
}

// multiSelect returns the multi-select whose placeholder starts with
// placeholder, checking Discord's limits on it.
func (r result) multiSelect(t *testing.T, placeholder string) menu {
	t.Helper()
	if r.Data != nil && r.Data.Components != nil {
		for _, row := range *r.Data.Components {
			for _, c := range row.Components {
				if c.Type != discord.ComponentStringSelect || !strings.HasPrefix(c.Placeholder, placeholder) {
					continue
				}
				m := menu{customID: c.CustomID, min: c.MinValues, max: c.MaxValues}
				for _, o := range c.Options {
					m.values = append(m.values, o.Value)
				}
				if len(c.CustomID) > 100 || len(c.Options) > 25 || m.min < 1 || m.min > m.max || m.max > len(c.Options) {
					t.Fatalf("multi-select %q breaks Discord's limits: %d-character custom_id, %d options, %d to %d values",
						placeholder, len(c.CustomID), len(c.Options), m.min, m.max)
				}
				return m
			}
		}
	}
	t.Fatalf("no multi-select %q in %s", placeholder, r.Raw)
	return menu{}
}

// hasComponent reports whether r has a button or select labelled like label.
func (r result) hasComponent(label string) bool {
	if r.Data == nil || r.Data.Components == nil {
		return false
	}
	for _, row := range *r.Data.Components {
		for _, c := range row.Components {
			if strings.HasPrefix(c.Label, label) || strings.HasPrefix(c.Placeholder, label) {
				return true
			}
		}
	}
	return false
}

// choose picks value in the select customID as user.
func (hs *harness) choose(user, customID, value string) result {
	hs.t.Helper()
	return hs.send(interaction(hs.nextID(), user, discord.InteractionComponent,
		map[string]any{"custom_id": customID, "component_type": discord.ComponentStringSelect, "values": []string{value}}))
}

// chooseAll picks values together in the multi-select customID as user.
func (hs *harness) chooseAll(user, customID string, values ...string) result {
	hs.t.Helper()
	return hs.send(interaction(hs.nextID(), user, discord.InteractionComponent,
		map[string]any{"custom_id": customID, "component_type": discord.ComponentStringSelect, "values": values}))
}

// give grants user (an id) cards by name and Chips, outside the chat.
func (hs *harness) give(user string, chips int, names ...string) {
	hs.t.Helper()
	g := gildedhall.Grant{Player: "discord:" + user, Chips: chips, Reason: "test deck"}
	for _, n := range names {
		g.Cards = append(g.Cards, gildedhall.CardGrant{Name: n})
	}
	if _, err := gildedhall.On(hs.svc).Grant(context.Background(), game.Request{Game: "hall", Actor: "discord:" + admin, Key: "deck-" + user + hs.nextID()}, g); err != nil {
		hs.t.Fatal(err)
	}
}

func (hs *harness) match(id, viewer string) gildedhall.MatchView {
	hs.t.Helper()
	v, err := gildedhall.On(hs.svc).Match(context.Background(), "hall", id, "discord:"+viewer)
	if err != nil {
		hs.t.Fatalf("match %s: %v", id, err)
	}
	return v
}

func (hs *harness) matches(f gildedhall.MatchFilter) []gildedhall.MatchSummary {
	hs.t.Helper()
	ms, err := gildedhall.On(hs.svc).Matches(context.Background(), "hall", f)
	if err != nil {
		hs.t.Fatal(err)
	}
	return ms
}

func part(v gildedhall.MatchView, id string) gildedhall.ParticipantView {
	for _, p := range v.Participants {
		if p.ID == "discord:"+id {
			return p
		}
	}
	return gildedhall.ParticipantView{}
}

// logged counts the log entries of command by user.
func (hs *harness) logged(command, user string) int {
	hs.t.Helper()
	n, cursor := 0, ""
	for {
		page, err := hs.svc.Log(context.Background(), "hall", cursor, 100)
		if err != nil {
			hs.t.Fatal(err)
		}
		for _, e := range page.Entries {
			if e.Command == command && e.Actor == "discord:"+user {
				n++
			}
		}
		if page.Next == "" {
			return n
		}
		cursor = page.Next
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// exoptosisScenario drives every Exoptosis command, every move
// kind of /match move, and the match components (duel buttons, the hand
// chosen in one multi-select, betting buttons and the raise select, the select of
// plays, adds, givers, gives and targets) through the signed endpoint,
// checking each reply and the match it leaves.
//
// TestEverySlashCommand runs it (and counts the commands it sends).
func exoptosisScenario(t *testing.T) *harness {
	hs := newHarness(t)
	hs.bind()
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}
	// Ada's deck is exactly the hand she will select, so once she cannot
	// play she must ask for a card (giver); Grace's red middle cards cannot
	// follow the 2 of Hearts, so she adds one of her spare cards.
	adaDeck := []string{"2 of Hearts", "Ace of Spades", "3 of Hearts", "Queen of Diamonds", "4 of Diamonds"}
	graceHand := []string{"7 of Diamonds", "8 of Diamonds", "9 of Diamonds", "10 of Diamonds"}
	hs.give(ada, 5, adaDeck...)
	hs.give(grace, 5, append(slices.Clone(graceHand), "Jack of Hearts", "6 of Spades", "7 of Spades", "8 of Spades")...)
	hs.give(cy, 5, "2 of Clubs", "3 of Clubs", "4 of Clubs", "5 of Clubs")

	// duel request: Accept and Decline buttons; the duel waits for both.
	r := hs.cmd(ada, "duel", sub("request", userOpt("player", grace), userOpt("player2", cy)))
	contains(t, "duel request", r, "asks <@3>, <@5> to an Exoptosis duel")
	ms := hs.matches(gildedhall.MatchFilter{Kind: gildedhall.MatchDuel})
	if len(ms) != 1 || ms[0].Status != gildedhall.MatchRequested {
		t.Fatalf("after the request: %+v", ms)
	}
	id := ms[0].ID
	accept := r.button(t, "Accept")
	_ = r.button(t, "Decline")
	// The Accept button, then duel answer by slash.
	r = hs.press(grace, accept)
	contains(t, "Accept button", r, "<@3> accepted duel "+id, "waits for <@5>")
	if r.Type != discord.ResponseUpdateMessage {
		t.Errorf("Accept answered type %d, want an update of the request", r.Type)
	}
	if v := hs.match(id, grace); v.Status != gildedhall.MatchRequested || !slices.Equal(v.WaitingFor, []string{"discord:" + cy}) {
		t.Fatalf("after Grace's accept: %s waiting for %v", v.Status, v.WaitingFor)
	}
	r = hs.cmd(cy, "duel", sub("answer", opt("accept", true)))
	contains(t, "duel answer", r, "Duel "+id+" has started")
	if v := hs.match(id, cy); v.Status != gildedhall.MatchPlaying || v.Phase != string(exoptosis.PhaseSelection) {
		t.Fatalf("after the last accept: %s %s", v.Status, v.Phase)
	}

	// match status: Ada chooses her whole hand in one multi-select (her
	// deck fits one menu, so there is no card-at-a-time path).
	r = hs.cmd(ada, "match", sub("status"))
	if !r.ephemeral() {
		t.Error("match status is not private")
	}
	contains(t, "match status", r, "duel "+id+": playing selection", "select 4+ of: 2 of Hearts")
	hand := r.multiSelect(t, "Choose your hand")
	if !slices.Equal(hand.values, adaDeck) || hand.min != 4 || hand.max != len(adaDeck) {
		t.Fatalf("the hand menu offers %v, %d to %d; want Ada's deck %v, 4 to 5", hand.values, hand.min, hand.max, adaDeck)
	}
	for _, old := range []string{"Add a card", "Take a card back", "Select these"} {
		if r.hasComponent(old) {
			t.Errorf("a deck of 5 still offers %q", old)
		}
	}
	if strings.Contains(r.content(), "a card at a time") {
		t.Errorf("a deck of 5 is built a card at a time: %s", r.content())
	}
	// Too few cards are refused privately and select nothing.
	r = hs.chooseAll(ada, hand.customID, adaDeck[:3]...)
	if !r.ephemeral() || !strings.Contains(r.content(), "at least 4") || part(hs.match(id, ada), ada).Selected {
		t.Fatalf("a hand of 3: %s", r.Raw)
	}
	r = hs.chooseAll(ada, hand.customID, adaDeck...)
	contains(t, "hand menu", r, "User 2 selected a hand", "Waiting for")
	if p := part(hs.match(id, ada), ada); !p.Selected || !sameSet(p.Hand, adaDeck) {
		t.Fatalf("Ada after the hand menu: %+v", p)
	}
	// Grace picks 4 of her 8 cards in one press of the same menu.
	r = hs.cmd(grace, "match", sub("status"))
	hand = r.multiSelect(t, "Choose your hand")
	if len(hand.values) != 8 || hand.min != 4 || hand.max != 8 {
		t.Fatalf("Grace's hand menu: %+v", hand)
	}
	r = hs.chooseAll(grace, hand.customID, graceHand...)
	contains(t, "hand menu of 4", r, id+": select", "User 3 selected a hand")
	if p := part(hs.match(id, grace), grace); !p.Selected || !sameSet(p.Hand, graceHand) {
		t.Fatalf("Grace after the hand menu: %+v, want %v", p, graceHand)
	}
	// Cy selects by slash (kind select, comma-separated cards).
	r = hs.cmd(cy, "match", sub("move", opt("kind", "select"), opt("card", "2 of Clubs, 3 of Clubs, 4 of Clubs, 5 of Clubs"), opt("match", id)))
	contains(t, "match move select", r, id+": select", "User 5 selected a hand")
	v := hs.match(id, ada)
	if v.Phase != string(exoptosis.PhaseBetting) || v.Turn != "discord:"+ada {
		t.Fatalf("after the selections: phase %s, turn %s (Ada holds the most cards)", v.Phase, v.Turn)
	}

	// Betting: Ada raises with the select; the next bettor answers with
	// the buttons (Match) or by slash (decline, which forfeits).
	r = hs.cmd(ada, "match", sub("status"))
	_ = r.button(t, "Pass")
	raise, levels := r.selectMenu(t, "Raise to")
	if levels[0] != "raise||||1" {
		t.Fatalf("raises %v", levels)
	}
	r = hs.choose(ada, raise, "raise||||2")
	contains(t, "raise select", r, "User 2 raised")
	if v = hs.match(id, ada); v.Pool != 2 || part(v, ada).Bet != 2 {
		t.Fatalf("after the raise: pool %d, Ada's bet %d", v.Pool, part(v, ada).Bet)
	}
	for range 2 {
		switch next := hs.match(id, ada).Turn; next {
		case "discord:" + grace:
			r = hs.cmd(grace, "match", sub("status"))
			r = hs.press(grace, r.button(t, "Match"))
			contains(t, "Match button", r, "User 3 matched")
		case "discord:" + cy:
			r = hs.cmd(cy, "match", sub("move", opt("kind", "decline")))
			contains(t, "decline", r, "User 5 declined")
		default:
			t.Fatalf("turn %s in betting", next)
		}
	}
	v = hs.match(id, ada)
	if p := part(v, cy); p.Status == exoptosis.StatusActive || hs.player(cy).Inventory.Chips != 5 {
		t.Fatalf("Cy declined: status %s, %d Chips (refunded)", p.Status, hs.player(cy).Inventory.Chips)
	}
	if v.Pool != 4 || hs.player(grace).Inventory.Chips != 3 {
		t.Fatalf("after Grace matched: pool %d, Grace %d Chips", v.Pool, hs.player(grace).Inventory.Chips)
	}
	// Everyone has matched: each passes, by button and by slash.
	r = hs.cmd(ada, "match", sub("status"))
	hs.press(ada, r.button(t, "Pass"))
	r = hs.cmd(grace, "match", sub("move", opt("kind", "pass")))
	contains(t, "pass", r, "User 3 passed")
	if v = hs.match(id, ada); v.Phase != string(exoptosis.PhasePlay) || v.Turn != "discord:"+ada {
		t.Fatalf("after the passes: %s, turn %s", v.Phase, v.Turn)
	}

	// Play: Ada plays the 2 of Hearts from the select.
	r = hs.cmd(ada, "match", sub("status"))
	moves, plays := r.selectMenu(t, "Your move")
	if !slices.Contains(plays, "play|2 of Hearts") || slices.Contains(plays, "play|Queen of Diamonds") {
		t.Fatalf("Ada's first plays %v: any card but a special one", plays)
	}
	r = hs.choose(ada, moves, "play|2 of Hearts")
	contains(t, "play select", r, "User 2 played 2 of Hearts", "Waiting for <@3>")
	if v = hs.match(id, ada); v.Top != "2 of Hearts" || v.Turn != "discord:"+grace {
		t.Fatalf("after the play: top %q, turn %s", v.Top, v.Turn)
	}
	// Grace cannot follow a 2 of Hearts: her moves are adds; she adds by slash.
	r = hs.cmd(grace, "match", sub("status"))
	_, adds := r.selectMenu(t, "Your move")
	for _, a := range adds {
		if !strings.HasPrefix(a, "add|") {
			t.Fatalf("Grace's moves %v, want adds only", adds)
		}
	}
	r = hs.cmd(grace, "match", sub("move", opt("kind", "add"), opt("card", "Jack of Hearts")))
	contains(t, "add", r, "User 3 added Jack of Hearts")
	if p := part(hs.match(id, grace), grace); !slices.Contains(p.Hand, "Jack of Hearts") || p.HandSize != 5 {
		t.Fatalf("Grace after adding: %+v", p)
	}
	// Ada plays her Ace by slash: she owes the Ace's target, so the reply
	// offers it at once.
	r = hs.cmd(ada, "match", sub("move", opt("kind", "play"), opt("card", "Ace of Spades")))
	contains(t, "play", r, "User 2 played Ace of Spades")
	targets, vals := r.selectMenu(t, "Your move")
	if !slices.Equal(vals, []string{"target||discord:" + grace}) {
		t.Fatalf("the Ace's targets %v", vals)
	}
	if v = hs.match(id, ada); v.Pending == nil || v.Pending.Kind != exoptosis.ChoiceAce || v.Pending.Owner != "discord:"+ada {
		t.Fatalf("pending %+v", v.Pending)
	}
	r = hs.choose(ada, targets, vals[0])
	contains(t, "target", r, id+": target")
	v = hs.match(id, ada)
	if v.Pending != nil || part(v, grace).HandSize != 7 || v.Turn != "discord:"+grace {
		t.Fatalf("after the Ace on Grace: pending %+v, Grace holds %d, turn %s", v.Pending, part(v, grace).HandSize, v.Turn)
	}
	// Grace follows the black Ace with a red card by slash.
	hs.cmd(grace, "match", sub("move", opt("kind", "play"), opt("card", "7 of Diamonds")))
	// Ada holds 3 of Hearts, 4 and Queen of Diamonds: nothing follows the 7
	// of Diamonds and her whole deck is in the match, so she asks Grace.
	r = hs.cmd(ada, "match", sub("status"))
	_, vals = r.selectMenu(t, "Your move")
	if !slices.Equal(vals, []string{"giver||discord:" + grace}) {
		t.Fatalf("Ada's moves %v, want to ask Grace", vals)
	}
	r = hs.cmd(ada, "match", sub("move", opt("kind", "giver"), userOpt("player", grace)))
	contains(t, "giver", r, "Waiting for <@3>")
	if v = hs.match(id, grace); v.Pending == nil || v.Pending.Kind != exoptosis.ChoiceGive || v.Pending.Owner != "discord:"+grace {
		t.Fatalf("pending after giver: %+v", v.Pending)
	}
	// Grace gives with the select of her status.
	r = hs.cmd(grace, "match", sub("status"))
	gives, vals := r.selectMenu(t, "Your move")
	if !slices.Contains(vals, "give|8 of Diamonds") {
		t.Fatalf("Grace's gives %v", vals)
	}
	r = hs.choose(grace, gives, "give|8 of Diamonds")
	contains(t, "give", r, id+": give")
	if p := part(hs.match(id, ada), ada); !slices.Contains(p.Hand, "8 of Diamonds") {
		t.Fatalf("Ada after the gift: %+v", p.Hand)
	}
	// A move out of turn is refused privately and changes nothing.
	before := hs.match(id, ada).Moves
	r = hs.cmd(cy, "match", sub("move", opt("kind", "play"), opt("card", "2 of Clubs"), opt("match", id)))
	if !r.ephemeral() || hs.match(id, ada).Moves != before {
		t.Errorf("a move by a player out of the match: %s", r.Raw)
	}
	// Grace forfeits: Ada, the last one in, wins the pool.
	r = hs.cmd(grace, "match", sub("move", opt("kind", "forfeit")))
	contains(t, "forfeit", r, "<@2> won", "pool of 4 Chips")
	if v = hs.match(id, ada); v.Status != gildedhall.MatchEnded || v.Winner != "discord:"+ada || hs.player(ada).Inventory.Chips != 7 {
		t.Fatalf("after the forfeit: %s won by %s, Ada %d Chips", v.Status, v.Winner, hs.player(ada).Inventory.Chips)
	}
	r = hs.cmd(ada, "match", sub("status", opt("match", id), opt("replay", true)))
	contains(t, "replay", r, "<@2> play 2 of Hearts", "<@3> add Jack of Hearts", "<@3> give 8 of Diamonds")

	// A Decline button cancels a duel; terminate ends one without a winner.
	r = hs.cmd(ada, "duel", sub("request", userOpt("player", grace)))
	r = hs.press(grace, r.button(t, "Decline"))
	contains(t, "Decline button", r, "is cancelled")
	if ms := hs.matches(gildedhall.MatchFilter{Status: gildedhall.MatchCancelled}); len(ms) != 1 {
		t.Fatalf("cancelled duels %+v", ms)
	}
	hs.cmd(ada, "duel", sub("request", userOpt("player", grace)))
	hs.cmd(grace, "duel", sub("answer", opt("accept", true)))
	id = hs.matches(gildedhall.MatchFilter{Status: gildedhall.MatchPlaying})[0].ID
	r = hs.cmd(ada, "match", sub("move", opt("kind", "terminate")))
	contains(t, "terminate", r, "User 2 consented")
	r = hs.cmd(grace, "match", sub("move", opt("kind", "terminate")))
	contains(t, "terminate by all", r, "ended without a winner")
	if v = hs.match(id, ada); v.Status != gildedhall.MatchEnded || v.Winner != "" {
		t.Fatalf("after both consented: %s, winner %q", v.Status, v.Winner)
	}

	// battle: the engagement is recorded for this phase's battle.
	r = hs.cmd(ada, "battle")
	contains(t, "battle", r, "⚔️", "engaged in battle", "with a deck of 5 cards")
	if n := hs.logged("battle-engage", ada); n != 1 {
		t.Fatalf("%d battle-engage entries by Ada, want 1", n)
	}
	if r := hs.cmd(ada, "battle"); !r.ephemeral() || !strings.Contains(r.content(), "already engaged") || hs.logged("battle-engage", ada) != 1 {
		t.Errorf("engaging twice: %s", r.Raw)
	}
	return hs
}

// A deck of more eligible cards than one menu lists (25) keeps the hand
// built a card at a time, and the reply says why.
func TestHandOfLargeDeckIsBuiltCardByCard(t *testing.T) {
	hs := newHarness(t)
	hs.bind()
	hs.cmd(ada, "join")
	hs.cmd(grace, "join")
	var deck []string
	for _, suit := range []string{"Hearts", "Spades", "Clubs"} {
		for _, rank := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10"} {
			deck = append(deck, rank+" of "+suit)
		}
	}
	hs.give(ada, 0, deck...)
	hs.give(grace, 0, "2 of Diamonds", "3 of Diamonds", "4 of Diamonds", "5 of Diamonds")
	r := hs.cmd(ada, "duel", sub("request", userOpt("player", grace)))
	hs.press(grace, r.button(t, "Accept"))
	r = hs.cmd(ada, "match", sub("status"))
	contains(t, "large deck", r, "27 cards you can select", "a card at a time")
	if _, offered := r.selectMenu(t, "Add a card to your hand"); len(offered) != 25 {
		t.Errorf("the add select offers %d cards", len(offered))
	}
	if r.hasComponent("Choose your hand") {
		t.Error("a deck of 27 offers a multi-select that cannot list it")
	}
	// Grace's 4 cards fit one menu.
	if hand := hs.cmd(grace, "match", sub("status")).multiSelect(t, "Choose your hand"); hand.min != 4 || hand.max != 4 {
		t.Errorf("Grace's hand menu %+v", hand)
	}
}
