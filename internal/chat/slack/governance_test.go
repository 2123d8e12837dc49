package slack_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// react sets the 👍 and 👎 reactions on message ts of channel C0PLAY.
func (e *env) react(ts string, up, down []string) {
	e.t.Helper()
	ids := func(us []string) []string {
		out := []string{}
		for _, u := range us {
			out = append(out, "slack:"+u)
		}
		return out
	}
	e.n++
	if _, err := e.svc.PushReactions(context.Background(), game.Request{Game: "hall", Actor: "slack:" + admin, Key: fmt.Sprintf("react-%s-%d", ts, e.n)},
		game.PushReactions{Message: game.MessageRef{Platform: "slack", Channel: "C0PLAY", Message: ts}, Up: ids(up), Down: ids(down)}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) proposals(status string) []game.ProposalView {
	e.t.Helper()
	ps, err := e.svc.Proposals(context.Background(), "hall", status)
	if err != nil {
		e.t.Fatal(err)
	}
	return ps
}

func (e *env) judge() game.JudgeState {
	e.t.Helper()
	js, err := e.svc.Judge(context.Background(), "hall")
	if err != nil {
		e.t.Fatal(err)
	}
	return js
}

func (e *env) rulings() []game.RulingView {
	e.t.Helper()
	rs, err := e.svc.Rulings(context.Background(), "hall")
	if err != nil {
		e.t.Fatal(err)
	}
	return rs
}

// governanceScenario drives every governance slash command with signed
// /croupier commands (messages named by channel/ts or ts), checking each
// reply and the governance state. The message menus cannot be typed on
// Slack; their slash equivalents are propose, rfj and stand.
// TestEveryCommand runs it.
func governanceScenario(t *testing.T) *env {
	e := newEnv(t)
	e.ok(admin, "bind hall")
	for _, u := range []string{ada, grace, cy} {
		e.ok(u, "join")
	}

	has(t, "propose", e.ok(ada, "propose message=C0PLAY/1700000000.000100 class=standard title=Cheaper cards text=Random Cards cost 4 Vertebrae."),
		"standard proposal is open")
	ps := e.proposals("open")
	if len(ps) != 1 || ps[0].Author != "slack:"+ada || ps[0].Title != "Cheaper cards" || ps[0].Text != "Random Cards cost 4 Vertebrae." ||
		ps[0].Message != (game.MessageRef{Platform: "slack", Channel: "C0PLAY", Message: "1700000000.000100"}) {
		t.Fatalf("after propose: %+v", ps)
	}
	mine := ps[0].ID
	e.ok(grace, "propose 1700000000.000200 urgent title=Sunday gifts")
	e.react("1700000000.000200", []string{ada, cy}, nil)
	m := e.ok(cy, "proposals")
	has(t, "proposals", m, "Cheaper cards", "Sunday gifts", "now 2 👍 / 0 👎 (popular)")
	if m.ResponseType != "ephemeral" || len(e.proposals("open")) != 2 {
		t.Errorf("proposals: %s %+v", m.ResponseType, e.proposals("open"))
	}

	if m := e.cmd(grace, "withdraw "+mine); !refused(m) {
		t.Errorf("withdrawing another's proposal: %s", m.Text)
	}
	has(t, "withdraw", e.ok(ada, "withdraw "+mine), "Proposal "+mine+" is withdrawn")
	if ps := e.proposals(string(governance.StatusWithdrawn)); len(ps) != 1 || ps[0].ID != mine {
		t.Fatalf("withdrawn: %+v", ps)
	}
	has(t, "proposals withdrawn", e.ok(ada, "proposals withdrawn"), mine)

	has(t, "rfj", e.ok(cy, `rfj question "Do Jokers count as Red?" 1700000000.000300`), "asks the Judge (question): Do Jokers count as Red?")
	has(t, "rfj statement", e.ok(grace, "rfj kind=statement message=1700000000.000400 text=Gifts may be given to oneself."), "(statement)")
	queue, err := e.svc.JudgeQueue(context.Background(), "hall")
	if err != nil || len(queue) != 2 || queue[0].Request.Author != "slack:"+cy || queue[1].Request.Kind != governance.KindStatement {
		t.Fatalf("queue %+v %v", queue, err)
	}
	question, statement := queue[0].Request.ID, queue[1].Request.ID

	has(t, "stand", e.ok(ada, "stand 1700000000.000500"), "stands for Judge in 2026-W49")
	e.react("1700000000.000500", []string{grace, cy}, nil)
	e.clk.Set(time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC))
	if rep, err := e.svc.RunDue(context.Background()); err != nil || len(rep.Failed) > 0 {
		t.Fatalf("RunDue: %v %+v", err, rep)
	}
	if js := e.judge(); js.Judge != "slack:"+ada {
		t.Fatalf("the Judge: %+v", js)
	}
	has(t, "judge", e.ok(grace, "judge"), "The Judge is", question, statement)

	if m := e.cmd(grace, "rule "+question+" Yes."); !refused(m) || len(e.rulings()) != 0 {
		t.Errorf("a ruling by a player who is not the Judge: %s", m.Text)
	}
	has(t, "rule", e.ok(ada, "rule "+question+" No: a Joker's colour is its own."), "No: a Joker's colour is its own.")
	has(t, "rule TRUE", e.ok(ada, "rule request="+statement+" answer=TRUE"), "TRUE")
	var qr, sr game.RulingView
	for _, r := range e.rulings() {
		switch r.Text {
		case "Do Jokers count as Red?":
			qr = r
		case "Gifts may be given to oneself.":
			sr = r
		}
	}
	if qr.Answer != "No: a Joker's colour is its own." || sr.Answer != "TRUE" || qr.Judge != "slack:"+ada {
		t.Fatalf("rulings %+v", e.rulings())
	}
	has(t, "confidence", e.ok(grace, "confidence "+qr.ID+" 1700000000.000600"), "vote of confidence open")
	has(t, "overturn", e.ok(ada, "overturn "+sr.ID), "Overturned "+sr.ID)
	for _, r := range e.rulings() {
		if r.ID == qr.ID && (r.Confidence == nil || r.Confidence.Status != governance.ConfidenceOpen) || r.ID == sr.ID && !r.Overturned {
			t.Errorf("ruling after confidence and overturn: %+v", r)
		}
	}
	has(t, "rulings", e.ok(cy, "rulings"), qr.ID, sr.ID, "no bearing")

	has(t, "assent-removal", e.ok(grace, "assent-removal"), "1 player has assented")
	if js := e.judge(); !slices.Equal(js.RemovalAssents, []string{"slack:" + grace}) {
		t.Fatalf("after the assent: %+v", js)
	}
	has(t, "resign", e.ok(ada, "resign"), "resigned as Judge")
	if js := e.judge(); js.Judge != "" {
		t.Fatalf("after the resignation: %+v", js)
	}
	return e
}
