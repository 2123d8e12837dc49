package gametest

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/store"
)

// Join joins id to the game Game under name.
func Join(t testing.TB, svc *game.Service, id, name string) {
	t.Helper()
	if _, err := svc.Join(context.Background(), Req(id, "join-"+name), game.JoinGame{Name: name}); err != nil {
		t.Fatalf("join %s: %v", name, err)
	}
}

// Resolves checks that text, written by actor, names want.
func Resolves(t testing.TB, svc *game.Service, actor, text, want string) {
	t.Helper()
	got, err := svc.ResolvePlayer(context.Background(), Req(actor, ""), text)
	if err != nil || got != want {
		t.Errorf("%q resolves to %q (%v), want %s", text, got, err, want)
	}
}

// RefusedAs checks that text is refused with code and these candidates.
func RefusedAs(t testing.TB, svc *game.Service, text, code string, candidates ...string) {
	t.Helper()
	_, err := svc.ResolvePlayer(context.Background(), Req(Admin, ""), text)
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("%q: %v, want %s", text, err, code)
	}
	got, _ := re.Fields["candidates"].([]string)
	if !slices.Equal(got, candidates) {
		t.Errorf("%q: candidates %v, want %v", text, got, candidates)
	}
}

// NameItems lists the identities the name index of the game Game holds.
func NameItems(t testing.TB, st store.Store) []string {
	t.Helper()
	page, err := st.Query(context.Background(), store.Query{PK: game.GamePK(Game), Prefix: "NAME#"})
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
