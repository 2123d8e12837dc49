package ruleset

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestR1_TurnsNumbersAreData: every number seed 003 states is in the turns
// ruleset's data with the seed's value.
func TestR1_TurnsNumbersAreData(t *testing.T) {
	tu := mustLoad(t, "turns")
	want := TurnsRules{
		WinPoints: 200, DefeatPenalty: 10, DissentBonus: 10, UnanimityTurns: 2, ProposalsPerTurn: 1,
		FirstRuleNumber: 201, FirstCaseNumber: 5301, JudgeLatePenalty: 25,
		JudgeRecusal: Duration(48 * time.Hour), JudgeDeadline: Duration(7 * 24 * time.Hour),
		AppealSupport: Fraction{Num: 2, Den: 3},
	}
	if tu.Turns != want {
		t.Errorf("turns = %+v\nwant    %+v", tu.Turns, want)
	}
	for _, id := range []string{"gilded-hall", "obelisk"} {
		if r := mustLoad(t, id); r.Turns != (TurnsRules{}) {
			t.Errorf("%s has a turns section %+v; only the turns ruleset has one", id, r.Turns)
		}
	}
}

// TestR4_ProposalAmendsTurnsNumbers: a change can name a turns number by
// path, including one part of the appeal fraction, and a bad value is
// refused with the field.
func TestR4_ProposalAmendsTurnsNumbers(t *testing.T) {
	tu := mustLoad(t, "turns")
	c, err := Prepare(tu, []byte(`[{"op":"replace","path":"/turns/winPoints","value":150},{"op":"replace","path":"/turns/appealSupport/num","value":3},{"op":"replace","path":"/turns/appealSupport/den","value":4}]`))
	if err != nil {
		t.Fatal(err)
	}
	next, _, _, err := Apply(tu, c)
	if err != nil {
		t.Fatal(err)
	}
	if next.Turns.WinPoints != 150 || next.Turns.AppealSupport != (Fraction{3, 4}) || tu.Turns.WinPoints != 200 {
		t.Errorf("after the change: winPoints %d, appeal %+v (original winPoints %d); want 150, 3/4, 200",
			next.Turns.WinPoints, next.Turns.AppealSupport, tu.Turns.WinPoints)
	}
	if _, err := Prepare(tu, []byte(`{"turns":{"judgeDeadline":"24h"}}`)); err == nil || !strings.Contains(err.Error(), "turns.judgeRecusal") {
		t.Errorf("a deadline shorter than the recusal window: err = %v, want it to name turns.judgeRecusal", err)
	}
	if _, err := Prepare(tu, []byte(`[{"op":"replace","path":"/turns/appealSupport/num","value":4}]`)); err == nil || !strings.Contains(err.Error(), "turns.appealSupport") {
		t.Errorf("appeal support 4/3: err = %v, want it to name turns.appealSupport", err)
	}
	if _, err := Prepare(tu, []byte(`[{"op":"replace","path":"/turns/winPoints","value":"lots"}]`)); err == nil || !strings.Contains(err.Error(), "/turns/winPoints") {
		t.Errorf("a string for winPoints: err = %v, want it to name /turns/winPoints", err)
	}
}

func TestParse_TurnsSectionErrors(t *testing.T) {
	base := func() map[string]any {
		b, err := files.ReadFile("data/turns.json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	for name, tc := range map[string]struct {
		edit  func(m map[string]any)
		field string
		want  string
	}{
		"missing section":  {func(m map[string]any) { delete(m, "turns") }, "turns", "is missing"},
		"zero win":         {func(m map[string]any) { m["turns"].(map[string]any)["winPoints"] = 0 }, "turns.winPoints", "at least 1"},
		"negative penalty": {func(m map[string]any) { m["turns"].(map[string]any)["judgeLatePenalty"] = -25 }, "turns.judgeLatePenalty", "at least 1"},
		"unknown field":    {func(m map[string]any) { m["turns"].(map[string]any)["winPoint"] = 200 }, "turns.winPoint", "unknown field"},
		"zero denominator": {func(m map[string]any) {
			m["turns"].(map[string]any)["appealSupport"] = map[string]any{"num": 2, "den": 0}
		}, "turns.appealSupport", "1 <= num <= den"},
		"turns on a phases calendar": {func(m map[string]any) { m["calendar"] = CalendarUTCPhases }, "turns", "only a \"chicago-turns\" ruleset"},
	} {
		t.Run(name, func(t *testing.T) {
			m := base()
			tc.edit(m)
			b, _ := json.Marshal(m)
			_, err := Parse("turns.json", b)
			inv, ok := err.(*InvalidError)
			if !ok || !inv.Has(tc.field, tc.want) {
				t.Errorf("Parse: %v; want a problem at %s saying %q", err, tc.field, tc.want)
			}
		})
	}
}
