package obelisk

import (
	"strings"
	"testing"

	"croupier/internal/ruleset"
)

// ---- G3: an admin's correction of one player's components ----

func TestG3_AnAdminCorrectionGrantsOrRevokesComponentsWithChangesOfItsOwnCause(t *testing.T) {
	p := newPlayer("ann", Components{Resolve: 2, Herbs: 1})
	ch := must[[]Delta](t)(Correct(p, Components{Crystals: 3, Herbs: 2}, false))
	if p.Components != (Components{Resolve: 2, Crystals: 3, Herbs: 3}) {
		t.Errorf("after granting 3💎 2🌿 Ann holds %s", p.Components)
	}
	want := []Delta{{Player: "ann", Component: ruleset.Crystals, Amount: 3, Cause: CauseCorrection}, {Player: "ann", Component: ruleset.Herbs, Amount: 2, Cause: CauseCorrection}}
	if len(ch) != 2 || ch[0] != want[0] || ch[1] != want[1] {
		t.Errorf("the grant's changes are %v; want %v", ch, want)
	}
	ch = must[[]Delta](t)(Correct(p, Components{Resolve: 2, Herbs: 3}, true))
	if p.Components != (Components{Crystals: 3}) || len(ch) != 2 || ch[0].Amount != -2 || ch[1].Amount != -3 || ch[1].Cause != CauseCorrection {
		t.Errorf("after revoking 2⚡ 3🌿 Ann holds %s with changes %v", p.Components, ch)
	}
}

func TestG3_RevokingMoreThanHeldRevokesNothing(t *testing.T) {
	p := newPlayer("ann", Components{Crystals: 1, Herbs: 5})
	_, err := Correct(p, Components{Crystals: 2, Herbs: 1}, true)
	re := refused(t, err, "insufficient_components")
	if !strings.Contains(re.Message, "Player ann holds 1💎 5🌿") || !strings.Contains(re.Message, "1💎 is missing") {
		t.Errorf("the refusal reads %q", re.Message)
	}
	if p.Components != (Components{Crystals: 1, Herbs: 5}) {
		t.Errorf("a refused revocation changed Ann's holding to %s", p.Components)
	}
	gone := newPlayer("bob", Components{})
	gone.Member = false
	refused(t, func() error { _, err := Correct(gone, Components{Herbs: 1}, false); return err }(), "not_a_player")
	refused(t, func() error { _, err := Correct(p, Components{}, false); return err }(), "invalid_request")
}

func TestG3_ACorrectionsCountsAreBoundedAndNameSomething(t *testing.T) {
	if err := CheckCounts(Components{Resolve: 1, Crystals: 2, Herbs: 1, Blood: 4}); err != nil {
		t.Errorf("a correction of four components: %v", err)
	}
	for _, tc := range []struct {
		c    Components
		code string
		says string
	}{
		{Components{Herbs: -1}, "invalid_request", "-1 is not a count of Herbs"},
		{Components{Blood: MaxCorrection + 1}, "invalid_request", "is not a count of Blood of Stone"},
		{Components{}, "invalid_request", "at least one component"},
	} {
		err := CheckCounts(tc.c)
		if re := refused(t, err, tc.code); !strings.Contains(re.Message, tc.says) {
			t.Errorf("%+v: refused %q; want it to say %q", tc.c, re.Message, tc.says)
		}
	}
}
