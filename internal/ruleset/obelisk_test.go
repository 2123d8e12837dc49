package ruleset

import (
	"errors"
	"testing"
)

// TestO2_ObeliskNumbersAreSeed002s checks the obelisk data against the
// numbers seed 002 states (RULINGS R1: they are data, so a proposal can
// amend them).
func TestO2_ObeliskNumbersAreSeed002s(t *testing.T) {
	r := mustLoad(t, "obelisk")
	o := r.Obelisk
	if o == nil {
		t.Fatal("the obelisk ruleset has no obelisk section")
	}
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"start distance (km)", o.StartDistance, 10},
		{"Grebe cap", o.MaxGrebes, 5},
		{"task cost (⚡)", o.TaskCost, 1},
		{"effectiveness base N", o.EffectivenessBase, 24},
		{"⚡ per observation", o.Observation.Resolve, 1},
		{"⚡ on joining", r.Thresholds.JoinEnergy, 1},
		{"mining divisor", o.Tasks.Mining.Divisor, 8},
		{"mining less", o.Tasks.Mining.Less, 1},
		{"mining boost", o.Tasks.Mining.Boost, 1},
		{"herbalism divisor", o.Tasks.Herbalism.Divisor, 4},
		{"herbalism boost", o.Tasks.Herbalism.Boost, 2},
		{"alchemy divisor", o.Tasks.Alchemy.Divisor, 24},
		{"heart yield", o.Tasks.Heart.Fixed, 1},
		{"befriend threshold", o.Tasks.Befriend.Above, 10},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d; seed 002 says %d", c.what, c.got, c.want)
		}
	}
	if o.Tasks.Alchemy.Inputs != (Components{Crystals: 1, Herbs: 5}) || o.Tasks.Alchemy.Yields != Reagents {
		t.Errorf("alchemy: %s into %s; want 1💎 5🌿 into reagents", o.Tasks.Alchemy.Inputs, o.Tasks.Alchemy.Yields)
	}
	if o.Tasks.Heart.Inputs != (Components{Blood: 1, Reagents: 1, Resolve: 1}) || o.Tasks.Heart.Yields != Heart {
		t.Errorf("the Heart: %s into %s; want 1🩸 1⚗️ 1⚡ into heart", o.Tasks.Heart.Inputs, o.Tasks.Heart.Yields)
	}
	if m := o.Tasks.Mining.SeasonModifiers; len(m) != 1 || m[0] != (SeasonModifier{Season: "Winter", Modifier: -8}) {
		t.Errorf("mining season modifiers %v; want Winter -8", m)
	}
	if m := o.Observation.SeasonModifiers; len(m) != 1 || m[0] != (SeasonModifier{Season: "Winter", Modifier: -1}) {
		t.Errorf("observation season modifiers %v; want Winter -1", m)
	}
	if len(o.RitualTypes) != 0 {
		t.Errorf("seed 002 names no ritual type; the data has %d", len(o.RitualTypes))
	}
	if g := mustLoad(t, "gilded-hall"); g.Obelisk != nil {
		t.Error("gilded-hall has an obelisk section")
	}
}

func TestO8_RitualTypeAddedByAChangeAndAmendedByPath(t *testing.T) {
	r := mustLoad(t, "obelisk")
	add := `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk",
		"cost":{"crystals":2,"herbs":1},"prerequisites":[{"kind":"season","season":"Winter","part":"late"}],
		"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"every-player","components":{"resolve":1}}]}}]`
	c, err := Prepare(r, []byte(add))
	if err != nil {
		t.Fatal(err)
	}
	r2, _, _, err := Apply(r, c)
	if err != nil {
		t.Fatal(err)
	}
	rt, ok := r2.Obelisk.RitualType("cut-the-obelisk")
	if !ok || rt.Cost != (Components{Crystals: 2, Herbs: 1}) || len(rt.Effects) != 2 || rt.Prerequisites[0].Part != SeasonLate {
		t.Fatalf("added ritual type %+v", rt)
	}
	if r.Obelisk.RitualTypes != nil {
		t.Error("the change modified the original ruleset")
	}
	// The type is addressed by id, its cost by component.
	r3, err := Amend(r2, []byte(`[{"op":"replace","path":"/obelisk/ritualTypes/cut-the-obelisk/cost/crystals","value":3}]`))
	if err != nil {
		t.Fatal(err)
	}
	if rt, _ := r3.Obelisk.RitualType("cut-the-obelisk"); rt.Cost.Crystals != 3 || rt.Cost.Herbs != 1 {
		t.Errorf("after the cost change: %s", rt.Cost)
	}
	// A merge patch of one number keeps the rest of the section.
	r4, err := Amend(r3, []byte(`{"obelisk":{"maxGrebes":6}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r4.Obelisk.MaxGrebes != 6 || r4.Obelisk.StartDistance != 10 || len(r4.Obelisk.RitualTypes) != 1 {
		t.Errorf("merge patch of maxGrebes: %+v", r4.Obelisk)
	}
}

func TestO8_RitualVocabularyIsClosed(t *testing.T) {
	r := mustLoad(t, "obelisk")
	for _, c := range []struct {
		ritual, field, msg string
	}{
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[{"kind":"explode","amount":1}]}`, "obelisk.ritualTypes[0].effects[0].kind", "not an effect"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[{"kind":"grant","target":"judge","components":{"herbs":1}}]}`, "obelisk.ritualTypes[0].effects[0].target", "not a target"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[{"kind":"add-cuts"}]}`, "obelisk.ritualTypes[0].effects[0].amount", "between 1 and 100"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[{"kind":"add-cuts","amount":1000}]}`, "obelisk.ritualTypes[0].effects[0].amount", "between 1 and 100"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[{"kind":"boost","target":"starter","task":"alchemy"}]}`, "obelisk.ritualTypes[0].effects[0].task", "not a task with a boost"},
		{`{"id":"x","name":"X","cost":{},"effects":[{"kind":"add-cuts","amount":1}]}`, "obelisk.ritualTypes[0].cost", "at least one component"},
		{`{"id":"x","name":"X","cost":{"herbs":-1},"effects":[{"kind":"add-cuts","amount":1}]}`, "obelisk.ritualTypes[0].cost.herbs", "negative"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"effects":[]}`, "obelisk.ritualTypes[0].effects", "at least one effect"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"prerequisites":[{"kind":"full-moon"}],"effects":[{"kind":"add-cuts","amount":1}]}`, "obelisk.ritualTypes[0].prerequisites[0].kind", "not a prerequisite"},
		{`{"id":"x","name":"X","cost":{"herbs":1},"prerequisites":[{"kind":"season","season":"Summer"}],"effects":[{"kind":"add-cuts","amount":1}]}`, "obelisk.ritualTypes[0].prerequisites[0].season", "not a season"},
		{`{"id":"X Y","name":"X","cost":{"herbs":1},"effects":[{"kind":"add-cuts","amount":1}]}`, "obelisk.ritualTypes[0].id", "lower-case"},
	} {
		_, err := Amend(r, []byte(`{"obelisk":{"ritualTypes":[`+c.ritual+`]}}`))
		var inv *InvalidError
		if !errors.As(err, &inv) || !inv.Has(c.field, c.msg) {
			t.Errorf("ritual %s: got %v; want %s: …%s…", c.ritual, err, c.field, c.msg)
		}
	}
	// Unknown fields are refused with their path, like any ruleset field.
	_, err := Amend(r, []byte(`{"obelisk":{"ritualTypes":[{"id":"x","name":"X","cost":{"gold":1},"effects":[{"kind":"add-cuts","amount":1}]}]}}`))
	var inv *InvalidError
	if !errors.As(err, &inv) || !inv.Has("obelisk.ritualTypes[0].cost.gold", "unknown field") {
		t.Errorf("unknown component in a cost: %v", err)
	}
	// The section cannot be removed from the obelisk ruleset.
	_, err = Amend(r, []byte(`{"obelisk":null}`))
	if !errors.As(err, &inv) || !inv.Has("obelisk", "needs its obelisk section") {
		t.Errorf("removing the section: %v", err)
	}
}
