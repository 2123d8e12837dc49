package ruleset

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func mustLoad(t testing.TB, id string) *Ruleset {
	t.Helper()
	r, err := Load(id)
	if err != nil {
		t.Fatalf("Load(%q): %v", id, err)
	}
	return r
}

func TestR1_EmbeddedRulesetsLoad(t *testing.T) {
	if got, want := IDs(), []string{"gilded-hall", "obelisk", "turns"}; !slices.Equal(got, want) {
		t.Fatalf("IDs() = %v, want %v", got, want)
	}
	if !slices.Contains(IDs(), Default) {
		t.Fatalf("Default %q is not a known ruleset", Default)
	}
	for _, tc := range []struct {
		id, calendar string
		seeds        []string
		cards        int
	}{
		{"gilded-hall", CalendarUTCPhases, []string{"000_dc6deb805c0c7770.txt", "001_29f675eea62db54d.txt", "002_c2d4836adb8ece6f.txt"}, 54},
		{"obelisk", CalendarUTCPhases, []string{"002_c2d4836adb8ece6f.txt"}, 0},
		{"turns", CalendarChicagoTurns, []string{"003_8d1b87f7c1c3f326.txt"}, 0},
	} {
		r := mustLoad(t, tc.id)
		if r.ID != tc.id || r.Calendar != tc.calendar || !slices.Equal(r.Seeds, tc.seeds) || len(r.Cards) != tc.cards || r.Version != 1 {
			t.Errorf("%s: got id %q calendar %q seeds %v cards %d version %d", tc.id, r.ID, r.Calendar, r.Seeds, len(r.Cards), r.Version)
		}
	}
}

func TestLoad_UnknownIDListsKnownOnes(t *testing.T) {
	_, err := Load("monopoly")
	if err == nil || !strings.Contains(err.Error(), `"monopoly"`) || !strings.Contains(err.Error(), "gilded-hall, obelisk, turns") {
		t.Fatalf("Load(monopoly) error = %v, want it to name the id and list the known ones", err)
	}
}

func TestLoad_ReturnsFreshCopy(t *testing.T) {
	a := mustLoad(t, "gilded-hall")
	a.Cards[0].Value = 99
	a.Shop[0].Price = 1
	a.Seeds[0] = "x"
	b := mustLoad(t, "gilded-hall")
	if b.Cards[0].Value != 1 || b.Shop[0].Price != 5 || b.Seeds[0] == "x" {
		t.Fatal("changing one loaded ruleset changed the next Load")
	}
}

// TestC3_CardTable checks every card against seed 000's table: name, value,
// suit, colour, Special flag and table order.
func TestC3_CardTable(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	rows := strings.Split(strings.TrimSpace(seedTable), "\n")[1:]
	if len(rows) != 54 || len(r.Cards) != 54 {
		t.Fatalf("seed table has %d rows, ruleset has %d cards; want 54 each", len(rows), len(r.Cards))
	}
	wantEffect := map[string]string{"Ace": EffectAce, "Jack": EffectJack, "Queen": EffectQueen, "King": EffectKing}
	for i, row := range rows {
		f := strings.Split(row, "\t")
		name, value, suit, colour, special := f[0], 0, f[2], f[3], f[4] == "Special"
		if f[1] != "-" {
			value, _ = strconv.Atoi(f[1])
		}
		if suit == "-" {
			suit = ""
		}
		effect := wantEffect[strings.Fields(name)[0]]
		if strings.HasSuffix(name, "Joker") {
			effect = EffectJoker
		}
		got := r.Cards[i]
		if got.Name != name || got.Value != value || got.Suit != suit || got.Colour != colour || got.Special() != special || got.Effect != effect {
			t.Errorf("cards[%d] = %+v (special %v), want %s value %d suit %q colour %s special %v effect %q",
				i, got, got.Special(), name, value, suit, colour, special, effect)
		}
		if c, ok := r.Card(name); !ok || c.Name != name {
			t.Errorf("Card(%q) not found", name)
		}
	}
	if _, ok := r.Card("Knight of Cups"); ok {
		t.Error("Card found a card that is not in the table")
	}
}

func TestC3_KingIsTwelve(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	for _, s := range []string{"Hearts", "Diamonds", "Spades", "Clubs"} {
		king, _ := r.Card("King of " + s)
		queen, _ := r.Card("Queen of " + s)
		if king.Value != 12 || queen.Value != 12 {
			t.Errorf("King/Queen of %s = %d/%d, want 12/12 as printed in seed 000", s, king.Value, queen.Value)
		}
	}
}

func TestC3_JokersHaveColourOnly(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	for name, colour := range map[string]string{"Red Joker": "Red", "Black Joker": "Black"} {
		j, ok := r.Card(name)
		if !ok || j.Value != 0 || j.Suit != "" || j.Colour != colour || !j.Special() || !j.Joker() {
			t.Errorf("%s = %+v, want colour %s, no value, no suit, special joker", name, j, colour)
		}
	}
}

func TestC1_ChancesAndPacks(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	if want := (Chances{HoloGranted: 5, HoloPack: 5, HoloCroupierCard: 10}); r.Chances != want {
		t.Errorf("chances = %+v, want %+v", r.Chances, want)
	}
	for _, tc := range []struct {
		id          string
		cards, holo int
	}{
		{"handy-pack", 3, 0},
		{"deck-pack", 5, 0},
		{"legendary-pack", 5, 2},
	} {
		p, ok := r.Pack(tc.id)
		if !ok || p.Cards != tc.cards || p.HoloCards != tc.holo || p.Size() != tc.cards+tc.holo {
			t.Errorf("Pack(%q) = %+v, %v; want %d random + %d holographic", tc.id, p, ok, tc.cards, tc.holo)
		}
	}
	if _, ok := r.Pack("booster"); ok {
		t.Error("Pack found an unknown pack")
	}
}

func TestC6_CroupierPrices(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	want := []ShopItem{
		{ID: "random-card", Name: "Random Card", Price: 5, Currency: CurrencyVertebrae, Kind: ItemRandomCard, Count: 1},
		{ID: "handy-pack", Name: "Handy Pack", Price: 12, Currency: CurrencyVertebrae, Kind: ItemPack, Pack: "handy-pack"},
		{ID: "deck-pack", Name: "Deck Pack", Price: 18, Currency: CurrencyVertebrae, Kind: ItemPack, Pack: "deck-pack"},
		{ID: "legendary-pack", Name: "Legendary Pack", Price: 50, Currency: CurrencyVertebrae, Kind: ItemPack, Pack: "legendary-pack"},
		{ID: "chip", Name: "1 Chip", Price: 25, Currency: CurrencyVertebrae, Kind: ItemChips, Count: 1},
	}
	if !reflect.DeepEqual(r.Shop, want) {
		t.Errorf("shop = %+v\nwant %+v", r.Shop, want)
	}
	if it, ok := r.ShopItem("chip"); !ok || it.Price != 25 {
		t.Errorf("ShopItem(chip) = %+v, %v", it, ok)
	}
	if _, ok := r.ShopItem("sword"); ok {
		t.Error("ShopItem found an unknown item")
	}
}

func TestX10_BattleRewards(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	want := []Reward{{Kind: RewardCards, Count: 3}, {Kind: RewardVertebrae, Min: 5, Max: 16}, {Kind: RewardChips, Count: 2}}
	if !reflect.DeepEqual(r.BattleRewards, want) {
		t.Errorf("battle rewards = %+v, want %+v", r.BattleRewards, want)
	}
}

func TestC4_C7_Thresholds(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	want := Thresholds{BattleMinCards: 4, HandMinCards: 4, WinChips: 25,
		Gift:       Gift{Base: 1, InactiveBonus: 2, SmallDeckBonus: 1, SmallDeckBelow: 5, ReturnToGiver: 1},
		Governance: Governance{UrgentMaxAgainst: 2, JudgeRemovalAssents: 2}}
	if r.Thresholds != want {
		t.Errorf("thresholds = %+v, want %+v", r.Thresholds, want)
	}
	if o := mustLoad(t, "obelisk"); o.Thresholds.JoinEnergy != 1 || len(o.Cards) != 0 || len(o.Shop) != 0 {
		t.Errorf("obelisk: joinEnergy %d, %d cards, %d shop items; want 1, 0, 0", o.Thresholds.JoinEnergy, len(o.Cards), len(o.Shop))
	}
	if tu := mustLoad(t, "turns"); tu.Turns.WinPoints != 200 || tu.Turns.FirstCaseNumber != 5301 {
		t.Errorf("turns numbers = %+v, want winPoints 200 and firstCaseNumber 5301", tu.Turns)
	}
}

func TestDurations(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	h := time.Hour
	for name, c := range map[string]struct{ got, want time.Duration }{
		"turnTimeout (X7)":      {r.Durations.TurnTimeout.Std(), 24 * h},
		"rejoinWait (P1)":       {r.Durations.RejoinWait.Std(), 7 * 24 * h},
		"tradeWindow":           {r.Durations.TradeWindow.Std(), 7 * 24 * h},
		"urgentVoting (G2)":     {r.Durations.UrgentVoting.Std(), 48 * h},
		"reputableTenure (P4)":  {r.Durations.ReputableTenure.Std(), 7 * 24 * h},
		"reputableGrace (P4)":   {r.Durations.ReputableGrace.Std(), 72 * h},
		"confidenceWindow (G4)": {r.Durations.ConfidenceWindow.Std(), 4 * 24 * h},
		"confidenceVote (G4)":   {r.Durations.ConfidenceVote.Std(), 48 * h},
		"judgeOverturn (G4)":    {r.Durations.JudgeOverturn.Std(), 7 * 24 * h},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", name, c.got, c.want)
		}
	}
	tu := mustLoad(t, "turns")
	if tu.Turns.JudgeRecusal.Std() != 48*h || tu.Turns.JudgeDeadline.Std() != 7*24*h {
		t.Errorf("turns judge durations = %v, %v; want 48h, 168h", tu.Turns.JudgeRecusal, tu.Turns.JudgeDeadline)
	}
	b, _ := json.Marshal(r.Durations.RejoinWait)
	if string(b) != `"168h0m0s"` {
		t.Errorf("Duration marshals as %s, want a Go duration string", b)
	}
}

// TestRoundTrip: what Amend marshals must parse back to the same ruleset.
func TestRoundTrip(t *testing.T) {
	for _, id := range IDs() {
		r := mustLoad(t, id)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(id, b)
		if err != nil {
			t.Fatalf("%s: re-parsing marshalled ruleset: %v", id, err)
		}
		if !reflect.DeepEqual(r, back) {
			t.Errorf("%s: round trip changed the ruleset", id)
		}
	}
}

func gildedJSON(t *testing.T) map[string]any {
	t.Helper()
	b, err := files.ReadFile("data/gilded-hall.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParse_BrokenFilesGiveSpecificErrors(t *testing.T) {
	mutate := func(f func(m map[string]any)) func(*testing.T) []byte {
		return func(t *testing.T) []byte {
			m := gildedJSON(t)
			f(m)
			b, _ := json.Marshal(m)
			return b
		}
	}
	cards := func(m map[string]any) []any { return m["cards"].([]any) }
	card := func(m map[string]any, i int) map[string]any { return cards(m)[i].(map[string]any) }
	raw := func(s string) func(*testing.T) []byte { return func(*testing.T) []byte { return []byte(s) } }

	for _, tc := range []struct {
		name         string
		data         func(*testing.T) []byte
		field, words string
	}{
		{"bad JSON", raw("{\"id\": \"gilded-hall\",\n \"name\": }"), "", "not valid JSON: invalid character '}' looking for beginning of value at line 2"},
		{"empty file", raw(""), "", "the file is empty"},
		{"truncated", raw(`{"id": "gilded-hall", "cards": [`), "", "ends early"},
		{"trailing data", raw(`{"id": "x"} {}`), "", "unexpected data after the JSON object"},
		{"not an object", raw(`[1, 2]`), "", "want an object, got an array"},
		{"unknown top field", mutate(func(m map[string]any) { m["colour"] = "Red" }), "colour", "unknown field"},
		{"unknown nested field", mutate(func(m map[string]any) { card(m, 3)["rank"] = 4 }), "cards[3].rank", "unknown field"},
		{"wrong case field", mutate(func(m map[string]any) { card(m, 3)["Value"] = 4 }), "cards[3].Value", "unknown field"},
		{"wrong type", mutate(func(m map[string]any) { card(m, 3)["value"] = "four" }), "cards[3].value", `want an integer, got the string "four"`},
		{"fraction", mutate(func(m map[string]any) { m["version"] = 1.5 }), "version", "want an integer, got 1.5"},
		{"null", mutate(func(m map[string]any) { m["shop"] = nil }), "shop", "must not be null"},
		{"bad duration", mutate(func(m map[string]any) { m["durations"].(map[string]any)["rejoinWait"] = "7d" }), "durations.rejoinWait", `"7d" is not a duration`},
		{"duplicate card", mutate(func(m map[string]any) { card(m, 1)["name"] = "Ace of Hearts" }), "cards[1] (Ace of Hearts).name", "duplicate of cards[0]"},
		{"53 cards", mutate(func(m map[string]any) { m["cards"] = cards(m)[:53] }), "cards", `got 53; missing "Black Joker"`},
		{"55 cards", mutate(func(m map[string]any) {
			m["cards"] = append(cards(m), map[string]any{"name": "Ace of Cups", "value": 1, "suit": "Hearts", "colour": "Red"})
		}), "cards", "got 55"},
		{"value out of range", mutate(func(m map[string]any) { card(m, 12)["value"] = 14 }), "cards[12] (King of Hearts).value", "14 is out of range 1..13"},
		{"bad colour", mutate(func(m map[string]any) { card(m, 2)["colour"] = "Green" }), "cards[2] (3 of Hearts).colour", `"Green" is not a colour`},
		{"bad suit", mutate(func(m map[string]any) { card(m, 2)["suit"] = "Cups" }), "cards[2] (3 of Hearts).suit", `"Cups" is not a suit`},
		{"suit contradicts name", mutate(func(m map[string]any) { card(m, 2)["suit"] = "Clubs" }), "cards[2] (3 of Hearts).suit", "the name says otherwise"},
		{"joker with value", mutate(func(m map[string]any) { card(m, 52)["value"] = 5 }), "cards[52] (Red Joker)", "colour only"},
		{"unknown type", mutate(func(m map[string]any) { card(m, 2)["types"] = []any{"Fancy"} }), "cards[2] (3 of Hearts).types[0]", `"Fancy" is not a card type`},
		{"negative price", mutate(func(m map[string]any) { m["shop"].([]any)[1].(map[string]any)["price"] = -12 }), "shop[1].price", "must be greater than 0, got -12"},
		{"zero price", mutate(func(m map[string]any) { m["shop"].([]any)[1].(map[string]any)["price"] = 0 }), "shop[1].price", "must be greater than 0"},
		{"missing pack", mutate(func(m map[string]any) { m["shop"].([]any)[1].(map[string]any)["pack"] = "booster" }), "shop[1].pack", `"booster" is not one of this ruleset's packs`},
		{"duplicate shop id", mutate(func(m map[string]any) { m["shop"].([]any)[1].(map[string]any)["id"] = "random-card" }), "shop[1].id", "duplicate"},
		{"bad shop kind", mutate(func(m map[string]any) { m["shop"].([]any)[0].(map[string]any)["kind"] = "sword" }), "shop[0].kind", `"sword" is not a shop item kind`},
		{"bad currency", mutate(func(m map[string]any) { m["shop"].([]any)[0].(map[string]any)["currency"] = "gold" }), "shop[0].currency", `"gold" is not a currency`},
		{"empty pack", mutate(func(m map[string]any) { m["packs"].([]any)[0].(map[string]any)["cards"] = 0 }), "packs[0]", "at least one card"},
		{"chance over 100", mutate(func(m map[string]any) { m["chances"].(map[string]any)["holoPack"] = 101 }), "chances.holoPack", "101 is not a percentage"},
		{"negative chance", mutate(func(m map[string]any) { m["chances"].(map[string]any)["holoGranted"] = -1 }), "chances.holoGranted", "not a percentage"},
		{"reward min > max", mutate(func(m map[string]any) { m["battleRewards"].([]any)[1].(map[string]any)["min"] = 20 }), "battleRewards[1]", "min 20 max 16"},
		{"bad reward kind", mutate(func(m map[string]any) { m["battleRewards"].([]any)[0].(map[string]any)["kind"] = "gold" }), "battleRewards[0].kind", `"gold" is not a reward kind`},
		{"negative duration", mutate(func(m map[string]any) { m["durations"].(map[string]any)["turnTimeout"] = "-1h" }), "durations.turnTimeout", "must be greater than 0, got -1h0m0s"},
		{"missing duration", mutate(func(m map[string]any) { delete(m["durations"].(map[string]any), "urgentVoting") }), "durations.urgentVoting", "missing or zero"},
		{"negative threshold", mutate(func(m map[string]any) { m["thresholds"].(map[string]any)["winChips"] = -25 }), "thresholds.winChips", "must not be negative"},
		{"unknown calendar", mutate(func(m map[string]any) { m["calendar"] = "lunar" }), "calendar", `"lunar" is not a calendar`},
		{"bad id", mutate(func(m map[string]any) { m["id"] = "Gilded Hall" }), "id", "lower-case"},
		{"no seeds", mutate(func(m map[string]any) { m["seeds"] = []any{} }), "seeds", "at least one"},
		{"version 0", mutate(func(m map[string]any) { m["version"] = 0 }), "version", "at least 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse("broken.json", tc.data(t))
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("Parse = %v, %v; want an *InvalidError", r, err)
			}
			if r != nil {
				t.Error("Parse returned a ruleset along with the error")
			}
			if inv.File != "broken.json" || !strings.Contains(err.Error(), "broken.json") {
				t.Errorf("error %q does not name the file", err)
			}
			if !inv.Has(tc.field, tc.words) {
				t.Errorf("error = %v\nwant a problem on field %q saying %q", err, tc.field, tc.words)
			}
		})
	}
}

func TestG3_AmendChangesNumbersAndKeepsOriginal(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	a, err := Amend(r, []byte(`{"durations": {"turnTimeout": "12h"}, "thresholds": {"winChips": 30, "gift": {"returnToGiver": null}}}`))
	if err != nil {
		t.Fatalf("Amend: %v", err)
	}
	if a.Durations.TurnTimeout.Std() != 12*time.Hour || a.Thresholds.WinChips != 30 || a.Thresholds.Gift.ReturnToGiver != 0 {
		t.Errorf("amended: turnTimeout %v winChips %d returnToGiver %d; want 12h, 30, 0",
			a.Durations.TurnTimeout, a.Thresholds.WinChips, a.Thresholds.Gift.ReturnToGiver)
	}
	if a.Version != 2 {
		t.Errorf("amended version = %d, want 2", a.Version)
	}
	if a.Thresholds.Gift.Base != 1 || len(a.Cards) != 54 || a.Shop[4].Price != 25 {
		t.Error("amendment changed fields it did not mention")
	}
	if r.Durations.TurnTimeout.Std() != 24*time.Hour || r.Thresholds.WinChips != 25 || r.Version != 1 || r.Thresholds.Gift.ReturnToGiver != 1 {
		t.Error("Amend modified the original ruleset")
	}

	// Arrays are replaced whole (RFC 7396): a new shop list.
	b, err := Amend(a, []byte(`{"version": 10, "shop": [{"id": "chip", "name": "1 Chip", "price": 20, "currency": "vertebrae", "kind": "chips", "count": 1}]}`))
	if err != nil {
		t.Fatalf("Amend shop: %v", err)
	}
	if len(b.Shop) != 1 || b.Shop[0].Price != 20 || b.Version != 10 {
		t.Errorf("shop amendment: %+v version %d", b.Shop, b.Version)
	}
}

func TestG3_AmendRefusesBadPatches(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	before, _ := json.Marshal(r)
	for _, tc := range []struct {
		name, patch, field, words string
	}{
		{"negative price", `{"shop": [{"id": "chip", "name": "1 Chip", "price": -5, "currency": "vertebrae", "kind": "chips", "count": 1}]}`, "shop[0].price", "greater than 0"},
		{"removes a required duration", `{"durations": {"turnTimeout": null}}`, "durations.turnTimeout", "missing or zero"},
		{"chance out of range", `{"chances": {"holoPack": 150}}`, "chances.holoPack", "not a percentage"},
		{"unknown field", `{"thresholds": {"winchips": 30}}`, "thresholds.winchips", "unknown field"},
		{"wrong type", `{"thresholds": {"winChips": "30"}}`, "thresholds.winChips", "want an integer"},
		{"drops a card", `{"cards": []}`, "", ""},
		{"not JSON", `{"shop": `, "", "not valid JSON"},
		{"not an object", `"cheaper"`, "", "must be a JSON object"},
		{"an operation without a value", `[{"op": "replace", "path": "/thresholds/winChips"}]`, "", "replace needs a value"},
		{"changes the id", `{"id": "obelisk"}`, "id", "cannot change the ruleset id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Amend(r, []byte(tc.patch))
			var inv *InvalidError
			if !errors.As(err, &inv) || a != nil {
				t.Fatalf("Amend = %v, %v; want refusal with *InvalidError", a, err)
			}
			if tc.words != "" && !inv.Has(tc.field, tc.words) {
				t.Errorf("error = %v\nwant a problem on %q saying %q", err, tc.field, tc.words)
			}
			if !strings.Contains(err.Error(), "gilded-hall v1 amended") {
				t.Errorf("error %q does not say it is an amendment", err)
			}
			after, _ := json.Marshal(r)
			if string(after) != string(before) {
				t.Fatal("a refused amendment changed the original")
			}
		})
	}
	if _, err := Amend(nil, []byte(`{}`)); err == nil {
		t.Error("Amend(nil) succeeded")
	}
}

// An empty cards list is a valid amendment only for a ruleset without card
// rules; for gilded-hall it is refused because its shop sells random cards.
func TestG3_AmendEmptyCardsRefusedWhereCardsAreUsed(t *testing.T) {
	r := mustLoad(t, "gilded-hall")
	_, err := Amend(r, []byte(`{"cards": []}`))
	var inv *InvalidError
	if !errors.As(err, &inv) || !inv.Has("shop[0].kind", "need a card table") {
		t.Fatalf("err = %v, want shop[0].kind to need a card table", err)
	}
}

func TestValidate_NilAndZero(t *testing.T) {
	var r *Ruleset
	if err := r.Validate(); err == nil {
		t.Error("nil ruleset validated")
	}
	if err := (&Ruleset{}).Validate(); err == nil {
		t.Error("zero ruleset validated")
	}
}

func FuzzParse(f *testing.F) {
	for _, id := range IDs() {
		b, _ := files.ReadFile("data/" + id + ".json")
		f.Add(b)
	}
	f.Add([]byte(`{"id":"x","cards":[{"name":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("fuzz.json", data)
		if err != nil {
			if r != nil {
				t.Fatal("ruleset and error both returned")
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("Parse accepted an invalid ruleset: %v", err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("fuzz.json", b)
		if err != nil || !reflect.DeepEqual(r, back) {
			t.Fatalf("marshal round trip failed: %v", err)
		}
	})
}
