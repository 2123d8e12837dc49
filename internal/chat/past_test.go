package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
	"croupier/internal/game"
)

// pastprobe is a view of the test's own (hidden: no help lists it): it
// says the time its service reads and offers a button, so a read at a
// moment shows what its handler saw.
func init() {
	chat.Register(chat.Command{Name: "pastprobe", Past: true, Hidden: true, Description: "A test's view", Handler: func(_ context.Context, s *game.Service, _ *chat.Invocation) (*chat.Reply, error) {
		return &chat.Reply{Text: "The clock reads " + s.Clock().Now().UTC().Format(time.RFC3339) + ".",
			Buttons: []chat.Button{{Label: "Act now", Action: chat.Action{Command: "dismiss"}}}}, nil
	}})
}

// A view with at: runs its handler over the game as it was (its clock
// stopped at the moment), headed by the moment, without the buttons that
// would act on the game now; without at it is the view of now.
func TestPastViewRunsItsHandlerAtTheMoment(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	clk := svc.Clock().(*clock.Manual)
	n := 0
	inv := func(user, cmd string, opts map[string]string) *chat.Reply {
		n++
		return r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "Ada", Command: cmd, Options: opts, Key: fmt.Sprint("k", n)})
	}
	if rep := inv("slack:ADMIN", "bind", map[string]string{"game": "hall"}); rep.Refusal {
		t.Fatalf("bind: %+v", rep)
	}
	clk.Advance(3 * time.Hour)
	now := inv("slack:U1", "pastprobe", nil)
	if now.Text != "The clock reads 2026-11-30T15:00:00Z." || len(now.Buttons) != 1 {
		t.Errorf("the view now: %q, %d buttons", now.Text, len(now.Buttons))
	}
	then := inv("slack:U1", "pastprobe", map[string]string{"at": "2 hours ago"})
	if then.Text != "As of Mon 30 Nov 13:00 UTC (Calm Spring, period 2026-W49-I).\nThe clock reads 2026-11-30T13:00:00Z." || len(then.Buttons) != 0 || then.Refusal {
		t.Errorf("the view 2 hours ago: %q, %d buttons", then.Text, len(then.Buttons))
	}
	c, _ := r.Lookup("pastprobe")
	if o, ok := c.Option("at"); !ok || o.Complete == "" {
		t.Errorf("a Past view's options %+v lack at with its suggestions", c.Options)
	}
}

// The player views of the Gilded Hall at a moment: Ada's Chips before a
// later grant, in /status, /inventory and /players, by name.
func TestPlayerViewsAtAPastMoment(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	clk := svc.Clock().(*clock.Manual)
	n := 0
	inv := func(user, cmd string, opts map[string]string) *chat.Reply {
		n++
		return r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, UserName: "Ada", Command: cmd, Options: opts, Key: fmt.Sprint("k", n)})
	}
	inv("slack:ADMIN", "bind", map[string]string{"game": "hall"})
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
		return ""
	}
	if now, then := inv("slack:U1", "status", nil), inv("slack:U1", "status", map[string]string{"at": "1 hour ago"}); chips(now) != "7" || chips(then) != "3" {
		t.Errorf("Chips now %q, an hour ago %q; want 7 and 3", chips(now), chips(then))
	}
	if rep := inv("slack:U1", "inventory", map[string]string{"at": "1 hour ago"}); rep.Title != "Inventory of Ada: 0 Vertebrae, 3 Chips" {
		t.Errorf("inventory an hour ago: %q", rep.Title)
	}
	if rep := inv("slack:U1", "players", map[string]string{"at": "1 hour ago"}); !strings.Contains(rep.Text, "Ada (slack:U1): 0 Vertebrae, 3 Chips") {
		t.Errorf("players an hour ago: %q", rep.Text)
	}
	if rep := inv("slack:U1", "rules", map[string]string{"rule": "201"}); !rep.Refusal || !strings.Contains(rep.Text, "This game's rules are not numbered") {
		t.Errorf("a rule number in the Gilded Hall: %+v", rep)
	}
}
