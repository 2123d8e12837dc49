package chat_test

import (
	"slices"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/rulesets"
)

// Issue 23 point 3: /trade offer's options are the ruleset's tradable
// items. A server registered for the Obelisk is offered an amount of each
// component but ⚡ (ruleset.TradableComponents) and none of the Gilded
// Hall's items; one registered for the Gilded Hall keeps its cards, packs,
// Vertebrae and Chips and no component.
func TestIssue23_TradeOfferOptionsAreTheRulesetsTradableItems(t *testing.T) {
	options := func(id string) []string {
		t.Helper()
		i := slices.IndexFunc(chat.CommandsFor(rulesets.Registry(), id), func(c chat.Command) bool { return c.Name == "trade offer" })
		if i < 0 {
			t.Fatalf("ruleset %s offers no /trade offer", id)
		}
		var names []string
		for _, o := range chat.CommandsFor(rulesets.Registry(), id)[i].Options {
			names = append(names, o.Name)
		}
		return names
	}
	want := map[string][]string{
		"obelisk": {"player", "give_crystals", "give_herbs", "give_reagents", "give_blood", "give_heart",
			"take_crystals", "take_herbs", "take_reagents", "take_blood", "take_heart", "note"},
		"gilded-hall": {"player", "give_cards", "give_packs", "give_vertebrae", "give_chips",
			"take_cards", "take_packs", "take_vertebrae", "take_chips", "note"},
	}
	for id, w := range want {
		if got := options(id); !slices.Equal(got, w) {
			t.Errorf("/trade offer in %s takes %q; want %q", id, got, w)
		}
	}
	if slices.ContainsFunc(chat.CommandsFor(rulesets.Registry(), "turns"), func(c chat.Command) bool { return c.Name == "trade offer" }) {
		t.Error("a turns game, which has no trades, is offered /trade offer")
	}
}
