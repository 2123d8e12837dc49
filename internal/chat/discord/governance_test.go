package discord_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"croupier/internal/chat/discord"
	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// menu uses the message command name on message id (in channel 700) written
// by author with content, as user.
func (hs *harness) menu(user, name, id, author, content string) result {
	hs.t.Helper()
	return hs.send(interaction(hs.nextID(), user, discord.InteractionCommand, map[string]any{"name": name, "type": discord.CommandMessage, "target_id": id,
		"resolved": map[string]any{"messages": map[string]any{id: map[string]any{"id": id, "channel_id": "700", "content": content, "author": map[string]any{"id": author}}}}}))
}

// react sets the 👍 and 👎 reactions on message id of channel 700, as the
// platform's reaction feed would.
func (hs *harness) react(id string, up, down []string) {
	hs.t.Helper()
	ids := func(us []string) []string {
		out := []string{}
		for _, u := range us {
			out = append(out, "discord:"+u)
		}
		return out
	}
	if _, err := hs.svc.PushReactions(context.Background(), game.Request{Game: "hall", Actor: "discord:" + admin, Key: "react-" + hs.nextID()},
		game.PushReactions{Message: game.MessageRef{Platform: "discord", Channel: "700", Message: id}, Up: ids(up), Down: ids(down)}); err != nil {
		hs.t.Fatal(err)
	}
}

func (hs *harness) proposals(status string) []game.ProposalView {
	hs.t.Helper()
	ps, err := hs.svc.Proposals(context.Background(), "hall", status)
	if err != nil {
		hs.t.Fatal(err)
	}
	return ps
}

func (hs *harness) judgeState() game.JudgeState {
	hs.t.Helper()
	js, err := hs.svc.Judge(context.Background(), "hall")
	if err != nil {
		hs.t.Fatal(err)
	}
	return js
}

func (hs *harness) rulings() []game.RulingView {
	hs.t.Helper()
	rs, err := hs.svc.Rulings(context.Background(), "hall")
	if err != nil {
		hs.t.Fatal(err)
	}
	return rs
}

// governanceScenario drives every governance command and the three
// message context menus through the signed endpoint: proposals tied to
// messages (by link, by id, by the menu), their withdrawal and listing,
// requests for justice, a Judge elected from candidacies whose reactions
// count, rulings, a vote of confidence, an overturn, an assent to removal
// and a resignation, checking each reply and the governance state.
// TestEverySlashCommand runs it.
func governanceScenario(t *testing.T) *harness {
	hs := newHarness(t)
	hs.bind()
	for _, u := range []string{ada, grace, cy} {
		hs.cmd(u, "join")
	}

	// propose, by message link, and the "Submit as proposal" menu.
	r := hs.cmd(ada, "propose", opt("message", "https://discord.com/channels/900/700/1111"), opt("class", "standard"), opt("title", "Cheaper cards"),
		opt("text", "Random Cards cost 4 Vertebrae."))
	contains(t, "propose", r, "<@2>'s standard proposal is open", "react 👍 or 👎")
	ps := hs.proposals("open")
	if len(ps) != 1 || ps[0].Author != "discord:"+ada || ps[0].Message.Message != "1111" || ps[0].Title != "Cheaper cards" {
		t.Fatalf("after propose: %+v", ps)
	}
	mine := ps[0].ID
	r = hs.menu(grace, "Submit as proposal", "1112", grace, "Every player gets a gift on Sundays.")
	contains(t, "Submit as proposal", r, "<@3>'s standard proposal is open")
	ps = hs.proposals("open")
	if len(ps) != 2 || !slices.ContainsFunc(ps, func(p game.ProposalView) bool {
		return p.Author == "discord:"+grace && p.Text == "Every player gets a gift on Sundays." && p.Message.Message == "1112"
	}) {
		t.Fatalf("after the menu: %+v", ps)
	}
	// The menu on someone else's message is refused and records nothing.
	if r := hs.menu(cy, "Submit as proposal", "1112", grace, "Every player gets a gift on Sundays."); !r.ephemeral() || len(hs.proposals("")) != 2 {
		t.Errorf("proposing another's message: %s", r.Raw)
	}
	hs.react("1112", []string{ada, cy}, nil)
	r = hs.cmd(cy, "proposals")
	contains(t, "proposals", r, "Cheaper cards", "Every player gets a gift", "now 2 👍 / 0 👎 (popular)")
	if !r.ephemeral() {
		t.Error("proposals is not private")
	}

	// withdraw: only the author's; then the list of withdrawn ones.
	if r := hs.cmd(grace, "withdraw", opt("proposal", mine)); !r.ephemeral() {
		t.Errorf("withdrawing another's proposal: %s", r.Raw)
	}
	contains(t, "withdraw", hs.cmd(ada, "withdraw", opt("proposal", mine)), "Proposal "+mine+" is withdrawn")
	if ps := hs.proposals(string(governance.StatusWithdrawn)); len(ps) != 1 || ps[0].ID != mine {
		t.Fatalf("withdrawn proposals: %+v", ps)
	}
	contains(t, "proposals withdrawn", hs.cmd(ada, "proposals", opt("status", "withdrawn")), mine, "withdrawn")

	// rfj by slash (a question) and by the menu (a statement).
	r = hs.cmd(cy, "rfj", opt("kind", "question"), opt("text", "Do Jokers count as Red?"), opt("message", "1113"))
	contains(t, "rfj", r, "<@5> asks the Judge (question): Do Jokers count as Red?")
	r = hs.menu(grace, "Submit as request for justice", "1114", grace, "Gifts may be given to oneself.")
	contains(t, "Submit as request for justice", r, "<@3> asks the Judge (statement): Gifts may be given to oneself.")
	queue, err := hs.svc.JudgeQueue(context.Background(), "hall")
	if err != nil || len(queue) != 2 || queue[0].Request.Kind != governance.KindQuestion || queue[1].Request.Kind != governance.KindStatement {
		t.Fatalf("the Judge's queue: %+v %v", queue, err)
	}
	question, statement := queue[0].Request.ID, queue[1].Request.ID
	if r := hs.cmd(ada, "rule", opt("request", question), opt("answer", "No.")); !r.ephemeral() || len(hs.rulings()) != 0 {
		t.Errorf("a ruling without a Judge: %s", r.Raw)
	}

	// stand by slash, and the "Stand for Judge" menu; the reactions on
	// the candidacies elect Ada when the week ends.
	r = hs.cmd(ada, "stand", opt("message", "1115"))
	contains(t, "stand", r, "<@2> stands for Judge in 2026-W49")
	r = hs.menu(cy, "Stand for Judge", "1116", cy, "Vote for me")
	contains(t, "Stand for Judge", r, "<@5> stands for Judge in 2026-W49")
	cs, err := hs.svc.Candidacies(context.Background(), "hall", "2026-W49", game.First)
	if err != nil || len(cs.Candidacies) != 2 {
		t.Fatalf("candidacies %+v %v", cs, err)
	}
	hs.react("1115", []string{grace, cy}, nil)
	hs.react("1116", nil, []string{grace})
	hs.clk.Set(time.Date(2026, 12, 7, 0, 0, 1, 0, time.UTC))
	if rep, err := hs.svc.RunDue(context.Background()); err != nil || len(rep.Failed) > 0 {
		t.Fatalf("RunDue: %v %+v", err, rep)
	}
	if js := hs.judgeState(); js.Judge != "discord:"+ada {
		t.Fatalf("the Judge after the election: %+v", js)
	}
	r = hs.cmd(grace, "judge")
	contains(t, "judge", r, "The Judge is <@2>", question, statement, "Do Jokers count as Red?")

	// rule (the Judge), confidence on one ruling, overturn of the other.
	r = hs.cmd(ada, "rule", opt("request", question), opt("answer", "No: a Joker's colour is its own."))
	contains(t, "rule", r, "Ruling", "No: a Joker's colour is its own.")
	r = hs.cmd(ada, "rule", opt("request", statement), opt("answer", "TRUE"))
	contains(t, "rule TRUE", r, "TRUE")
	rs := hs.rulings()
	if len(rs) != 2 {
		t.Fatalf("rulings %+v", rs)
	}
	byText := map[string]game.RulingView{}
	for _, x := range rs {
		byText[x.Text] = x
	}
	qr, sr := byText["Do Jokers count as Red?"], byText["Gifts may be given to oneself."]
	if qr.Answer != "No: a Joker's colour is its own." || qr.Judge != "discord:"+ada || sr.Answer != "TRUE" {
		t.Fatalf("rulings %+v", rs)
	}
	if q, _ := hs.svc.JudgeQueue(context.Background(), "hall"); len(q) != 0 {
		t.Errorf("the queue after both rulings: %+v", q)
	}
	// A request for justice, now and as it stood before the election
	// (issue 25): then it awaited a Judge.
	contains(t, "case show", hs.cmd(grace, "case", sub("show", opt("case", question))), "Question by <@5>", "Ruling "+qr.ID+" by <@2>", "No: a Joker's colour is its own.")
	then := hs.cmd(grace, "case", sub("show", opt("case", question), opt("at", "2026-12-06 12:00")))
	contains(t, "case show then", then, "As of Sun 6 Dec 12:00 UTC", "Question by <@5>", "Do Jokers count as Red?", "No ruling yet.")
	contains(t, "judge then", hs.cmd(grace, "judge", opt("at", "2026-12-06 12:00")), "As of Sun 6 Dec 12:00 UTC", "There is no Judge.", question)
	r = hs.cmd(grace, "confidence", opt("ruling", qr.ID), opt("message", "1117"))
	contains(t, "confidence", r, "Vote of confidence "+qr.ID, "vote of confidence open")
	r = hs.cmd(ada, "overturn", opt("ruling", sr.ID))
	contains(t, "overturn", r, "Overturned "+sr.ID, "overturned by")
	for _, x := range hs.rulings() {
		switch x.ID {
		case qr.ID:
			if x.Confidence == nil || x.Confidence.Status != governance.ConfidenceOpen || x.Confidence.Poll.Message != "1117" {
				t.Errorf("the ruling under a vote of confidence: %+v", x.Confidence)
			}
		case sr.ID:
			if !x.Overturned {
				t.Errorf("the overturned ruling: %+v", x)
			}
		}
	}
	r = hs.cmd(cy, "rulings")
	contains(t, "rulings", r, qr.ID, sr.ID, "no bearing", "vote of confidence open")

	// assent-removal (one of two needed), then resign.
	r = hs.cmd(grace, "assent-removal")
	contains(t, "assent-removal", r, "1 player has assented to their removal")
	if js := hs.judgeState(); !slices.Equal(js.RemovalAssents, []string{"discord:" + grace}) || js.Judge != "discord:"+ada {
		t.Fatalf("after one assent: %+v", js)
	}
	r = hs.cmd(ada, "resign")
	contains(t, "resign", r, "<@2> resigned as Judge")
	if js := hs.judgeState(); js.Judge != "" {
		t.Fatalf("after the resignation: %+v", js)
	}
	return hs
}
