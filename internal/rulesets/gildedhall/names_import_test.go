package gildedhall_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"croupier/internal/gametest"
	"croupier/internal/rulesets/gildedhall"
)

// The Gilded Hall's import and the engine's name index: the engine's own
// tests of names are internal/game/names_test.go.

// TestNames_AnImportsRegistrationsAreNamedUntilRevoked: the people an import
// registers before they join are found by name; revoking the import takes
// their index items with their memberships, so their own join later
// indexes them afresh (no item is left behind to trip it).
func TestNames_AnImportsRegistrationsAreNamedUntilRevoked(t *testing.T) {
	ctx := context.Background()
	st := gametest.Bolt(t)
	svc, _ := gametest.NewGame(t, st)
	gametest.Join(t, svc, "discord:2", "Bob")
	res, err := gildedhall.On(svc).Import(ctx, req(admin, "import"), gildedhall.Import{Reason: "carry over",
		Rows: []gildedhall.ImportRow{{Player: "discord:9", Name: "Nine", Vertebrae: 3}, {Player: "discord:2", Vertebrae: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var im gildedhall.ImportResult
	if err := json.Unmarshal(res.Body, &im); err != nil {
		t.Fatal(err)
	}
	gametest.Resolves(t, svc, admin, "nine", "discord:9")
	if _, err := gildedhall.On(svc).RevokeImport(ctx, req(admin, "revoke"), gildedhall.ImportRef{Import: im.ID, Reason: "wrong table"}); err != nil {
		t.Fatal(err)
	}
	gametest.RefusedAs(t, svc, "Nine", "unknown_player")
	if got := gametest.NameItems(t, st); !slices.Equal(got, []string{"discord:2"}) {
		t.Fatalf("after the revocation the name index holds %v", got)
	}
	gametest.Join(t, svc, "discord:9", "Nine")
	gametest.Resolves(t, svc, admin, "NINE", "discord:9")
}
