package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"croupier/internal/chat"
	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// The governance commands through the neutral router: the context-menu
// commands tie a proposal, a request for justice and a candidacy to the
// message they are used on (the caller's own); the slash commands take a
// message link or id; votes are the message's reactions (pushed here).
func TestGovernanceCommands(t *testing.T) {
	ctx := context.Background()
	r, svc := newRouter(t)
	n := 0
	run := func(user, cmd string, opts map[string]string, target *chat.MessageRef) *chat.Reply {
		n++
		return r.Handle(ctx, &chat.Invocation{Platform: "slack", Guild: "T1", Channel: "C1", User: user, Command: cmd,
			Options: opts, Key: fmt.Sprintf("k%d", n), Target: target})
	}
	want := func(what string, rep *chat.Reply, refusal bool, subs ...string) {
		t.Helper()
		if rep.Refusal != refusal {
			t.Fatalf("%s: refusal %v, want %v: %+v", what, rep.Refusal, refusal, rep)
		}
		for _, s := range subs {
			if !strings.Contains(rep.Title+" "+rep.Text, s) {
				t.Errorf("%s: reply lacks %q: %+v", what, s, rep)
			}
		}
	}
	want("bind", run("slack:ADMIN", "bind", map[string]string{"game": "hall"}, nil), false)
	for _, u := range []string{"slack:U1", "slack:U2", "slack:U3"} {
		want("join", run(u, "join", nil, nil), false)
	}

	mine := &chat.MessageRef{Channel: "C1", ID: "1700000000.000100", Author: "slack:U1", Content: "Cheaper cards for all"}
	want("Submit as proposal", run("slack:U1", "Submit as proposal", nil, mine), false, "standard proposal is open", "Mon 7 Dec 00:00 UTC")
	want("someone else's message", run("slack:U2", "Submit as proposal", nil, mine), true, "Only the author")
	want("slash propose", run("slack:U2", "propose", map[string]string{"message": "C1/1700000000.000200", "class": "urgent", "title": "Two gifts"}, nil),
		false, "urgent proposal is open")
	want("bad message option", run("slack:U2", "propose", map[string]string{"message": "not a message id"}, nil), true, "must name a message")

	m := game.MessageRef{Platform: "slack", Channel: "C1", Message: "1700000000.000100"}
	if _, err := svc.PushReactions(ctx, game.Request{Game: "hall", Actor: "slack:ADMIN", Key: "p1"},
		game.PushReactions{Message: m, Up: []string{"slack:U2", "slack:U3"}, Down: []string{"slack:U9"}}); err != nil {
		t.Fatal(err)
	}
	want("proposals", run("slack:U3", "proposals", nil, nil), false, "Cheaper cards for all", "now 2 👍 / 0 👎 (popular)", "Two gifts")

	question := &chat.MessageRef{Channel: "C1", ID: "1700000000.000300", Author: "slack:U3", Content: "Do Jokers count as Red?"}
	want("Submit as request for justice", run("slack:U3", "Submit as request for justice", nil, question), false, "asks the Judge (question): Do Jokers count as Red?")
	rs, err := svc.JudgeQueue(ctx, "hall")
	if err != nil || len(rs) != 1 || rs[0].Request.Kind != governance.KindQuestion {
		t.Fatalf("queue %+v (%v), want the question", rs, err)
	}
	want("judge", run("slack:U1", "judge", nil, nil), false, "There is no Judge.", rs[0].Request.ID)
	want("rule without a Judge", run("slack:U1", "rule", map[string]string{"request": rs[0].Request.ID, "answer": "No."}, nil), true, "Judge")
	want("rfj slash", run("slack:U2", "rfj", map[string]string{"kind": "statement", "text": "Gifts may be given to oneself.", "message": "1700000000.000400"}, nil),
		false, "asks the Judge (statement)")

	cand := &chat.MessageRef{Channel: "C1", ID: "1700000000.000500", Author: "slack:U1", Content: "Vote for me"}
	want("Stand for Judge", run("slack:U1", "Stand for Judge", nil, cand), false, "stands for Judge in 2026-W49")
	want("stand again", run("slack:U1", "stand", map[string]string{"message": "1700000000.000600"}, nil), true, "already stand")
	want("rulings", run("slack:U1", "rulings", nil, nil), false, "No rulings yet.")
	want("resign without being the Judge", run("slack:U1", "resign", nil, nil), true)
}
