package chat_test

import (
	"context"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
)

// A view with at: shows the game as it was: Ada's Chips before a later
// grant, headed by the moment in the game's words; the same view without
// it shows them now.
func TestStatusAtAPastMoment(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	clk := svc.Clock().(*clock.Manual)
	n := 0
	inv := func(user, cmd string, opts map[string]string) *chat.Reply {
		n++
		return r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "Ada", Command: cmd, Options: opts, Key: "k" + string(rune('a'+n))})
	}
	if rep := inv("slack:ADMIN", "bind", map[string]string{"game": "hall"}); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	inv("slack:U1", "join", nil)
	inv("slack:ADMIN", "grant", map[string]string{"player": "slack:U1", "chips": "3", "reason": "first"})
	clk.Advance(2 * time.Hour)
	inv("slack:ADMIN", "grant", map[string]string{"player": "slack:U1", "chips": "4", "reason": "second"})
	chips := func(rep *chat.Reply) string {
		for _, f := range rep.Fields {
			if f.Name == "Chips" {
				return f.Value
			}
		}
		return "(none) " + rep.Text
	}
	now := inv("slack:U1", "status", nil)
	then := inv("slack:U1", "status", map[string]string{"at": "1 hour ago"})
	t.Logf("now %+v\nthen %+v", now, then)
	if chips(now) != "7" || chips(then) != "3" {
		t.Errorf("Chips now %s, an hour ago %s; want 7 and 3", chips(now), chips(then))
	}
	for _, v := range []string{"game", "players", "inventory", "rules", "judge", "proposals", "rulings"} {
		rep := inv("slack:U1", v, map[string]string{"at": "1 hour ago"})
		t.Logf("%s: %+v", v, rep)
	}
	for _, bad := range []string{"tomorrow", "2 days ago", "in an hour", "01JE5Z8X7Q3W0000000000000Z", "2027-01-01 00:00"} {
		rep := inv("slack:U1", "status", map[string]string{"at": bad})
		t.Logf("%s: %+v", bad, rep)
	}
}
