package game_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

// wantUsed checks a refusal for a message already used, and that it says
// what the message already is.
func wantUsed(t *testing.T, what string, err error, already string) {
	t.Helper()
	if gametest.RuleCode(err) != "message_already_used" || !strings.Contains(err.Error(), "That message is already "+already) {
		t.Errorf("%s on a used message: %v; want message_already_used saying %q", what, err, "That message is already "+already)
	}
}

// TestG6_OneMessageIsOneThing is issue 15's defect 2: a message that is a
// proposal cannot also be a second proposal, a request for justice, a
// candidacy or a confidence poll, and the same holds for each other use;
// the refusal says what the message already is and changes nothing.
func TestG6_OneMessageIsOneThing(t *testing.T) {
	g := newGov(t)
	g.Elect(pl(10)) // its candidacy is message cand-discord:10
	p := g.Propose(pl(11), "m1", game.SubmitProposal{Title: "More gifts"})
	isProposal := "proposal " + p.ID + " «More gifts»."
	before := len(g.Entries())

	_, err := g.Svc.SubmitProposal(g.Ctx, req(pl(12), "p2"), game.SubmitProposal{Message: msg("m1"), Title: "Fewer gifts"})
	wantUsed(t, "a second proposal", err, isProposal)
	var re *rules.Error
	if errors.As(err, &re) {
		if u, ok := re.Fields["used_for"].(game.MessageUse); !ok || u.Use != game.UseProposal || u.ID != p.ID {
			t.Errorf("used_for = %#v", re.Fields["used_for"])
		}
	}
	_, err = g.Svc.RequestJustice(g.Ctx, req(pl(12), "r"), game.RequestJustice{Kind: governance.KindQuestion, Text: "Is this a proposal?", Message: msg("m1")})
	wantUsed(t, "a request for justice", err, isProposal)
	_, err = g.Svc.StandForJudge(g.Ctx, req(pl(12), "c"), game.StandForJudge{Message: msg("m1")})
	wantUsed(t, "a candidacy", err, isProposal)
	_, err = g.Svc.SubmitProposal(g.Ctx, req(pl(12), "p3"), game.SubmitProposal{Message: msg("cand-" + pl(10))})
	wantUsed(t, "a proposal on a candidacy", err, "Judge candidacy ")

	rq := gametest.Decode[game.JusticeRecord](t, g.Must(g.Svc.RequestJustice(g.Ctx, req(pl(11), "rq"),
		game.RequestJustice{Kind: governance.KindStatement, Text: "Kings are worth 12.", Message: msg("rq")})))
	ru := gametest.Decode[game.RulingView](t, g.Must(g.Svc.Rule(g.Ctx, req(pl(10), "rule"), game.RuleOn{Request: rq.Request.ID, Answer: "true"})))
	for _, m := range []struct{ msg, already string }{
		{"m1", isProposal},
		{"rq", "request for justice " + rq.Request.ID + " «Kings are worth 12.»."},
	} {
		_, err = g.Svc.OpenConfidence(g.Ctx, req(pl(12), "conf-"+m.msg), game.OpenConfidence{Ruling: ru.ID, Poll: msg(m.msg)})
		wantUsed(t, "a confidence poll on "+m.msg, err, m.already)
	}
	if rs, _ := g.Svc.Rulings(g.Ctx, "hall"); rs[0].Confidence != nil {
		t.Fatalf("a refused poll opened a vote: %+v", rs[0].Confidence)
	}
	g.Must(g.Svc.OpenConfidence(g.Ctx, req(pl(12), "conf"), game.OpenConfidence{Ruling: ru.ID, Poll: msg("poll")}))
	_, err = g.Svc.SubmitProposal(g.Ctx, req(pl(13), "p4"), game.SubmitProposal{Message: msg("poll")})
	wantUsed(t, "a proposal on a confidence poll", err, "the confidence poll on ruling "+ru.ID+".")

	// Refusals change nothing: the log has only the request, the ruling
	// and the poll since the proposal.
	if got := len(g.Entries()) - before; got != 3 {
		t.Errorf("%d log entries since the proposal, want 3 (request, ruling, poll)", got)
	}
	if ps, _ := g.Svc.Proposals(g.Ctx, "hall", ""); len(ps) != 1 {
		t.Errorf("%d proposals, want 1", len(ps))
	}
	// Another message is free, and the same command repeated (same
	// idempotency key) is a replay of its answer, not a second use.
	sp := game.SubmitProposal{Message: msg("m2"), Title: "Other"}
	first := g.Must(g.Svc.SubmitProposal(g.Ctx, req(pl(12), "same"), sp))
	if res, err := g.Svc.SubmitProposal(g.Ctx, req(pl(12), "same"), sp); err != nil || !res.Replayed || string(res.Body) != string(first.Body) {
		t.Errorf("a repeated submission: %v, replayed %v; want the first answer replayed", err, res != nil && res.Replayed)
	}
}

// concurrentUses submits, at once, proposals, requests for justice and
// candidacies that all use one message, and checks exactly one succeeds and
// every other is refused as message_already_used.
func concurrentUses(t *testing.T, st store.Store) {
	g := newGovOn(t, st)
	g.Clk.Set(thursday)
	const n = 9
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			actor, key, m := pl(10+i), fmt.Sprintf("race%d", i), msg("race")
			switch i % 3 {
			case 0:
				_, errs[i] = g.Svc.SubmitProposal(g.Ctx, req(actor, key), game.SubmitProposal{Message: m, Title: fmt.Sprintf("Proposal %d", i)})
			case 1:
				_, errs[i] = g.Svc.RequestJustice(g.Ctx, req(actor, key), game.RequestJustice{Kind: governance.KindQuestion, Text: "Why?", Message: m})
			default:
				_, errs[i] = g.Svc.StandForJudge(g.Ctx, req(actor, key), game.StandForJudge{Message: m})
			}
		}()
	}
	close(start)
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch {
		case err == nil:
			ok++
		case gametest.RuleCode(err) != "message_already_used":
			t.Errorf("use %d: %v; want success or message_already_used", i, err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of %d concurrent uses of one message succeeded, want exactly 1", ok, n)
	}
	ps, _ := g.Svc.Proposals(g.Ctx, "hall", "")
	rs, _ := g.Svc.JusticeRequests(g.Ctx, "hall", "")
	cs, _ := g.Svc.Candidacies(g.Ctx, "hall", "", game.First)
	if got := len(ps) + len(rs) + len(cs.Candidacies); got != 1 {
		t.Errorf("%d proposals, %d requests and %d candidacies recorded, want 1 in all", len(ps), len(rs), len(cs.Candidacies))
	}
}

func TestG6_ConcurrentUsesOfOneMessageBolt(t *testing.T) { concurrentUses(t, gametest.Bolt(t)) }

func TestG6_ConcurrentUsesOfOneMessageDynamoDB(t *testing.T) { concurrentUses(t, gametest.Dynamo(t)) }
