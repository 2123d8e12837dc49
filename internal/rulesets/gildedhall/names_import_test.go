package gildedhall_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/store"
)

// The Gilded Hall's import and the engine's name index: the engine's own
// tests of names are internal/game/names_test.go.

// resolves checks that text, written by actor, names want.
func resolves(t *testing.T, svc *game.Service, actor, text, want string) {
	t.Helper()
	got, err := svc.ResolvePlayer(context.Background(), req(actor, ""), text)
	if err != nil || got != want {
		t.Errorf("%q resolves to %q (%v), want %s", text, got, err, want)
	}
}

// refusedAs checks that text is refused with code and these candidates.
func refusedAs(t *testing.T, svc *game.Service, text, code string, candidates ...string) {
	t.Helper()
	_, err := svc.ResolvePlayer(context.Background(), req(admin, ""), text)
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("%q: %v, want %s", text, err, code)
	}
	got, _ := re.Fields["candidates"].([]string)
	if !slices.Equal(got, candidates) {
		t.Errorf("%q: candidates %v, want %v", text, got, candidates)
	}
}

// nameItems lists the identities the game's name index holds.
func nameItems(t *testing.T, st store.Store) []string {
	t.Helper()
	page, err := st.Query(context.Background(), store.Query{PK: game.GamePK("hall"), Prefix: "NAME#"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range page.Items {
		var e struct{ ID string }
		if err := json.Unmarshal(it.Data, &e); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	slices.Sort(ids)
	return ids
}

func join(t *testing.T, svc *game.Service, id, name string) {
	t.Helper()
	if _, err := svc.Join(context.Background(), req(id, "join-"+name), game.JoinGame{Name: name}); err != nil {
		t.Fatalf("join %s: %v", name, err)
	}
}

// TestNames_AnImportsRegistrationsAreNamedUntilRevoked: the people an import
// registers before they join are found by name; revoking the import takes
// their index items with their memberships, so their own join later
// indexes them afresh (no item is left behind to trip it).
func TestNames_AnImportsRegistrationsAreNamedUntilRevoked(t *testing.T) {
	ctx := context.Background()
	st := newBolt(t)
	svc, _ := newGame(t, st)
	join(t, svc, "discord:2", "Bob")
	res, err := gildedhall.On(svc).Import(ctx, req(admin, "import"), gildedhall.Import{Reason: "carry over",
		Rows: []gildedhall.ImportRow{{Player: "discord:9", Name: "Nine", Vertebrae: 3}, {Player: "discord:2", Vertebrae: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var im gildedhall.ImportResult
	if err := json.Unmarshal(res.Body, &im); err != nil {
		t.Fatal(err)
	}
	resolves(t, svc, admin, "nine", "discord:9")
	if _, err := gildedhall.On(svc).RevokeImport(ctx, req(admin, "revoke"), gildedhall.ImportRef{Import: im.ID, Reason: "wrong table"}); err != nil {
		t.Fatal(err)
	}
	refusedAs(t, svc, "Nine", "unknown_player")
	if got := nameItems(t, st); !slices.Equal(got, []string{"discord:2"}) {
		t.Fatalf("after the revocation the name index holds %v", got)
	}
	join(t, svc, "discord:9", "Nine")
	resolves(t, svc, admin, "NINE", "discord:9")
}
