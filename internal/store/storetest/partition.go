package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"croupier/internal/store"
)

// Partition is every item of one game's partition with its version, due
// time, order and data, one line each: the store byte for byte as far as
// the game is concerned. Tests that a refusal changed nothing compare it
// before and after.
func Partition(t testing.TB, st store.Store, game string) string {
	t.Helper()
	var b strings.Builder
	cursor := ""
	for {
		page, err := st.Query(context.Background(), store.Query{PK: "GAME#" + game, Limit: 1000, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			fmt.Fprintf(&b, "%s v%d due=%s order=%s %s\n", it.Key, it.Version, it.Due, it.Order, it.Data)
		}
		if page.Next == "" {
			return b.String()
		}
		cursor = page.Next
	}
}
