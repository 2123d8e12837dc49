package dynamo

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"croupier/internal/store"
)

// FuzzDecodeCursor: a cursor is client input; any string is either a cursor
// of this very query or ErrBadCursor, never a panic or another error.
func FuzzDecodeCursor(f *testing.F) {
	good, err := encodeCursor(map[string]av{attrPK: s("GAME#g"), attrSK: s("LOG#01")})
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range []string{good, "", "e30", "!!", "eyJQSyI6IkdBTUUjZyJ9"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, c string) {
		m, err := decodeCursor(c, "GAME#g", attrSK, "LOG#", attrPK, attrSK)
		if err != nil {
			if !errors.Is(err, store.ErrBadCursor) {
				t.Fatalf("cursor %q: error %v is not ErrBadCursor", c, err)
			}
			return
		}
		pk, _ := m[attrPK].(*types.AttributeValueMemberS)
		if pk == nil || pk.Value != "GAME#g" {
			t.Fatalf("cursor %q accepted for another partition: %v", c, m)
		}
	})
}
