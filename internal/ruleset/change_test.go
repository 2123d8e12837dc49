package ruleset

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func prepare(t *testing.T, r *Ruleset, patch string) Change {
	t.Helper()
	c, err := Prepare(r, []byte(patch))
	if err != nil {
		t.Fatalf("Prepare(%s): %v", patch, err)
	}
	return c
}

func applied(t *testing.T, r *Ruleset, c Change) (*Ruleset, []string) {
	t.Helper()
	rs, _, moved, err := Apply(r, c)
	if err != nil {
		t.Fatalf("Apply(%+v): %v", c, err)
	}
	return rs, moved
}

func price(t *testing.T, r *Ruleset, id string) int {
	t.Helper()
	it, ok := r.ShopItem(id)
	if !ok {
		t.Fatalf("no shop item %s", id)
	}
	return it.Price
}

// TestR4_TwoPriceChangesBothHoldInEitherOrder is issue 15's defect 1: two
// changes made against the same ruleset, one to each price, both hold
// whichever is applied first, and each also holds when made as the merge
// patch of the whole shop that older clients send.
func TestR4_TwoPriceChangesBothHoldInEitherOrder(t *testing.T) {
	base := mustLoad(t, "gilded-hall")
	wholeShop := func(id string, p int) string {
		shop := make([]ShopItem, len(base.Shop))
		copy(shop, base.Shop)
		for i := range shop {
			if shop[i].ID == id {
				shop[i].Price = p
			}
		}
		b, _ := json.Marshal(map[string]any{"shop": shop})
		return string(b)
	}
	for _, form := range []struct {
		name       string
		card, chip string
	}{
		{"operations", `[{"op":"replace","path":"/shop/random-card/price","value":2}]`, `[{"op":"replace","path":"/shop/chip/price","value":20}]`},
		{"whole-shop merge patches", wholeShop("random-card", 2), wholeShop("chip", 20)},
	} {
		card, chip := prepare(t, base, form.card), prepare(t, base, form.chip)
		if len(card) != 1 || card[0].Path != "/shop/random-card/price" || string(card[0].Was) != "5" {
			t.Fatalf("%s: the card change is %+v; want one replace of /shop/random-card/price, was 5", form.name, card)
		}
		for _, order := range [][]Change{{card, chip}, {chip, card}} {
			r := base
			for _, c := range order {
				r, _ = applied(t, r, c)
			}
			if price(t, r, "random-card") != 2 || price(t, r, "chip") != 20 {
				t.Errorf("%s, %s first: random-card %d, chip %d; want 2 and 20", form.name, order[0][0].Path,
					price(t, r, "random-card"), price(t, r, "chip"))
			}
			if r.Version != base.Version+2 {
				t.Errorf("version %d, want %d", r.Version, base.Version+2)
			}
			for _, it := range base.Shop {
				if it.ID != "random-card" && it.ID != "chip" && price(t, r, it.ID) != it.Price {
					t.Errorf("%s changed too: %d, was %d", it.ID, price(t, r, it.ID), it.Price)
				}
			}
		}
	}
}

// TestR4_ChangeWhoseBaseMovedAppliesToItsOwnPathOnly: a change made when
// the Random Card cost 5 is applied after another change set it to 4 and
// the chip to 20. It sets its own path as written, says the base moved, and
// leaves the chip at 20.
func TestR4_ChangeWhoseBaseMovedAppliesToItsOwnPathOnly(t *testing.T) {
	base := mustLoad(t, "gilded-hall")
	late := prepare(t, base, `[{"op":"replace","path":"/shop/random-card/price","value":3}]`)
	first := prepare(t, base, `[{"op":"replace","path":"/shop/random-card/price","value":4},{"op":"replace","path":"/shop/chip/price","value":20}]`)
	r, moved := applied(t, base, first)
	if len(moved) != 0 {
		t.Errorf("the first change's base did not move, yet: %v", moved)
	}
	r, moved = applied(t, r, late)
	if price(t, r, "random-card") != 3 || price(t, r, "chip") != 20 {
		t.Errorf("random-card %d, chip %d; want 3 (as written) and 20 (untouched)", price(t, r, "random-card"), price(t, r, "chip"))
	}
	if len(moved) != 1 || !strings.Contains(moved[0], "/shop/random-card/price was 5") || !strings.Contains(moved[0], "4 when it was applied") {
		t.Errorf("moved = %q; want the random-card price's base, 5 then 4", moved)
	}
	_, done, _, _ := Apply(base, first)
	if got := Summary(base, done); got != "Random Card costs 4 Vertebrae, was 5; 1 Chip costs 20 Vertebrae, was 25" {
		t.Errorf("summary %q", got)
	}
}

// TestR4_ChangeRefusedAtSubmission: a change is checked against the
// ruleset when it is made: an unknown path, a wrong type, an invalid value,
// a list position where the list is keyed, or a change of nothing is
// refused with the reason.
func TestR4_ChangeRefusedAtSubmission(t *testing.T) {
	base := mustLoad(t, "gilded-hall")
	for _, c := range []struct {
		name, patch, want string
	}{
		{"unknown item", `[{"op":"replace","path":"/shop/golden-card/price","value":2}]`, "/shop/golden-card does not exist"},
		{"unknown field", `[{"op":"replace","path":"/shop/random-card/cost","value":2}]`, "/shop/random-card/cost is not a field"},
		{"unknown top-level field", `[{"op":"replace","path":"/prices/randomCard","value":2}]`, "/prices is not a field"},
		{"list position on a keyed list", `[{"op":"replace","path":"/shop/0/price","value":2}]`, "named by their id, not their position"},
		{"wrong type", `[{"op":"replace","path":"/shop/random-card/price","value":"two"}]`, "want an integer"},
		{"invalid value", `[{"op":"replace","path":"/shop/random-card/price","value":0}]`, "must be greater than 0"},
		{"negative threshold", `[{"op":"replace","path":"/thresholds/governance/urgentMaxAgainst","value":-1}]`, "must not be negative"},
		{"bad duration", `[{"op":"replace","path":"/durations/urgentVoting","value":"two days"}]`, "is not a duration"},
		{"the version", `[{"op":"replace","path":"/version","value":7}]`, "cannot set the ruleset version"},
		{"unknown operation", `[{"op":"move","path":"/shop/chip","from":"/shop/random-card"}]`, "unknown member \"from\""},
		{"unsupported operation", `[{"op":"copy","path":"/shop/chip"}]`, "\"copy\" is not an operation"},
		{"remove with a value", `[{"op":"remove","path":"/shop/chip","value":1}]`, "remove takes no value"},
		{"renaming an item", `[{"op":"replace","path":"/shop/chip/id","value":"chips"}]`, "names the item"},
		{"nothing changes", `[]`, "changes nothing"},
		{"a merge patch of nothing new", `{"thresholds":{"winChips":25}}`, "changes nothing"},
		// Issue 24 point 6: a replace by the value already there was a new
		// version ("is 25, was 25").
		{"an operation of nothing new", `[{"op":"replace","path":"/thresholds/winChips","value":25}]`, "changes nothing: the Chips that win"},
		{"a merge patch setting the version", `{"version":9}`, "cannot set the ruleset version"},
		{"not a change", `"cheaper"`, "a change is a JSON array"},
		{"not JSON", `[{"op":`, "not valid JSON"},
		{"removing a pack the shop sells", `[{"op":"remove","path":"/packs/deck-pack"}]`, "is not one of this ruleset's packs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Prepare(base, []byte(c.patch))
			var inv *InvalidError
			if !errors.As(err, &inv) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Prepare(%s) = %v; want an *InvalidError containing %q", c.patch, err, c.want)
			}
		})
	}
}

// TestR4_ChangeOperations: add and remove on keyed and unkeyed lists and
// optional fields, each on its own path.
func TestR4_ChangeOperations(t *testing.T) {
	base := mustLoad(t, "gilded-hall")
	c := prepare(t, base, `[
		{"op":"add","path":"/shop/two-chips","value":{"id":"two-chips","name":"2 Chips","price":45,"currency":"vertebrae","kind":"chips","count":2}},
		{"op":"remove","path":"/shop/random-card"},
		{"op":"add","path":"/battleRewards/-","value":{"kind":"chips","count":1}},
		{"op":"replace","path":"/battleRewards/1/max","value":20},
		{"op":"replace","path":"/cards/7 of Hearts/effect","value":"jack"},
		{"op":"replace","path":"/thresholds/joinEnergy","value":3},
		{"op":"replace","path":"/thresholds/governance/urgentMaxAgainst","value":0}
	]`)
	r, _ := applied(t, base, c)
	if _, ok := r.ShopItem("random-card"); ok {
		t.Error("random-card was not removed")
	}
	if it, ok := r.ShopItem("two-chips"); !ok || it.Price != 45 {
		t.Errorf("two-chips: %+v, %v", it, ok)
	}
	if len(r.BattleRewards) != 4 || r.BattleRewards[1].Max != 20 || r.BattleRewards[3].Kind != RewardChips {
		t.Errorf("battle rewards %+v", r.BattleRewards)
	}
	if card, _ := r.Card("7 of Hearts"); card.Effect != EffectJack {
		t.Errorf("7 of Hearts: %+v", card)
	}
	if r.Thresholds.JoinEnergy != 3 || r.Thresholds.Governance.UrgentMaxAgainst != 0 || r.Thresholds.Governance.JudgeRemovalAssents != 2 {
		t.Errorf("thresholds %+v", r.Thresholds)
	}
	got := Summary(base, c)
	for _, want := range []string{"adds shop item 2 Chips", "removes shop item Random Card;", "the ⚡ gained on joining is 3, was not set",
		"adds a battle reward: {\"count\":1,\"kind\":\"chips\"}", "battleRewards.1.max is 20, was 16",
		"the most votes against a popular urgent proposal is 0, was 2"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary %q lacks %q", got, want)
		}
	}
	// The change is recorded as JSON and replays through Amend.
	b, _ := json.Marshal(c)
	again, err := Amend(base, b)
	if err != nil || again.Version != r.Version || len(again.Shop) != len(r.Shop) {
		t.Fatalf("replaying %s: %v", b, err)
	}
	// Applying a change whose item an earlier change removed is refused.
	if _, _, _, err := Apply(r, prepare(t, base, `[{"op":"replace","path":"/shop/random-card/price","value":2}]`)); err == nil ||
		!strings.Contains(err.Error(), "/shop/random-card does not exist") {
		t.Errorf("a change to a removed item: %v", err)
	}
}

// FuzzPrepare: whatever a player sends as an amendment, Prepare either
// refuses it with an *InvalidError or returns a change that Apply applies
// to a valid ruleset, and the base ruleset is never modified.
func FuzzPrepare(f *testing.F) {
	for _, s := range []string{
		`[{"op":"replace","path":"/shop/random-card/price","value":2}]`,
		`[{"op":"add","path":"/battleRewards/-","value":{"kind":"chips","count":1}}]`,
		`[{"op":"remove","path":"/shop/chip"},{"op":"add","path":"/shop/chip","value":{"id":"chip","name":"1 Chip","price":3,"currency":"chips","kind":"chips","count":1}}]`,
		`[{"op":"replace","path":"/cards/7 of Hearts/types/0","value":"Special"}]`,
		`{"shop":[{"id":"chip","name":"1 Chip","price":20,"currency":"vertebrae","kind":"chips","count":1}]}`,
		`{"thresholds":{"governance":{"urgentMaxAgainst":0}}}`,
		`[{"op":"replace","path":"/thresholds/gift","value":{"base":1}}]`,
		`[{"op":"replace","path":"/a~1b/~0","value":null}]`,
		`[]`, `{}`, `null`, `[1]`,
	} {
		f.Add([]byte(s))
	}
	base := mustLoad(f, "gilded-hall")
	before, _ := json.Marshal(base)
	f.Fuzz(func(t *testing.T, patch []byte) {
		c, err := Prepare(base, patch)
		if err != nil {
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("Prepare(%q) = %v, not an *InvalidError", patch, err)
			}
		} else {
			rs, _, _, err := Apply(base, c)
			if err != nil {
				t.Fatalf("a prepared change does not apply: %v", err)
			}
			if err := rs.Validate(); err != nil {
				t.Fatalf("applied to an invalid ruleset: %v", err)
			}
			_ = Summary(base, c)
		}
		if after, _ := json.Marshal(base); string(after) != string(before) {
			t.Fatalf("Prepare(%q) modified the base ruleset", patch)
		}
	})
}
