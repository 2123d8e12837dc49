package chat_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
	"croupier/internal/store/bolt"
)

// TestReplyCacheAnswersItsOwnerOnly: a reply cached for one owner (scope
// and actor) answers that owner's replay byte for byte and no one else's,
// through Keep (Discord, Slack) and Claim/Fill (the bridge) alike.
func TestReplyCacheAnswersItsOwnerOnly(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	c := &chat.ReplyCache{Store: st, Clock: clock.NewManual(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))}
	alice, anna := chat.Owner("slack", "slack:alice"), chat.Owner("slack", "slack:anna")
	first := []byte(`{"text":"alice's secrets"}`)
	if got, err := c.Keep(ctx, "slack", "t1", alice, false, first); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("first keep: %s %v", got, err)
	}
	if got, err := c.Keep(ctx, "slack", "t1", alice, false, []byte(`{"text":"again"}`)); err != nil || !bytes.Equal(got, first) {
		t.Errorf("alice's replay: %s %v, want the first reply", got, err)
	}
	if got, err := c.Keep(ctx, "slack", "t1", anna, false, []byte(`{"text":"anna"}`)); !errors.Is(err, chat.ErrReused) || got != nil {
		t.Errorf("anna's keep of alice's id: %s %v, want ErrReused and nothing", got, err)
	}
	if _, err := c.Claim(ctx, "slack", "t1", anna); !errors.Is(err, chat.ErrReused) {
		t.Errorf("anna's claim of alice's id: %v, want ErrReused", err)
	}

	// The bridge: claim, fill, replay; another owner's claim is refused.
	cl, err := c.Claim(ctx, "bridge-matrix", "$e1", alice)
	if err != nil || cl.Reply != nil {
		t.Fatalf("claim: %+v %v", cl, err)
	}
	if _, err := c.Claim(ctx, "bridge-matrix", "$e1", anna); !errors.Is(err, chat.ErrReused) {
		t.Errorf("anna's claim of a claimed id: %v, want ErrReused", err)
	}
	twin, err := c.Claim(ctx, "bridge-matrix", "$e1", alice)
	if err != nil || twin.Reply != nil {
		t.Fatalf("twin claim before the fill: %+v %v, want to run", twin, err)
	}
	if got, err := c.Fill(ctx, cl, false, first); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("fill: %s %v", got, err)
	}
	// The concurrent twin's fill answers the first fill's reply.
	if got, err := c.Fill(ctx, twin, false, []byte(`{"text":"twin"}`)); err != nil || !bytes.Equal(got, first) {
		t.Errorf("twin's fill: %s %v, want the first reply", got, err)
	}
	if again, err := c.Claim(ctx, "bridge-matrix", "$e1", alice); err != nil || !bytes.Equal(again.Reply, first) {
		t.Errorf("alice's replay claim: %+v %v, want the first reply", again, err)
	}
}
