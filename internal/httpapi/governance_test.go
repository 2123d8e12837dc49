package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"croupier/internal/client"
	"croupier/internal/game"
	"croupier/internal/httpapi/apitest"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets/gildedhall"
)

// Governance over the API (RULINGS G1-G5), on the real server with a
// manual clock; votes are reactions pushed as a bridge would push them.
// Every exchange is checked against openapi.yaml by the apitest harness.

const govChannel = "1100"

func msg(id string) game.MessageRef {
	return game.MessageRef{Platform: "discord", Channel: govChannel, Message: id}
}

// voters are players joined at t0 (within the reputable grace of the game's
// start, RULINGS P4), besides ada.
var voters = []string{"discord:3001", "discord:3002", "discord:3003", "discord:3004", "discord:3005", "discord:3006", "discord:3007"}

// govGame is withGame plus the voters.
func govGame(t *testing.T) *env {
	t.Helper()
	e := withGame(t)
	for _, v := range voters {
		e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: v, Idem: "join-" + v}), http.StatusOK)
	}
	return e
}

var govN int

func (e *env) gpost(actor, path string, body any) *apitest.Response {
	e.T.Helper()
	govN++
	return e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + path, Actor: actor, Idem: fmt.Sprintf("gov-%d", govN), Body: body})
}

func (e *env) propose(actor string, p game.SubmitProposal) game.ProposalView {
	e.T.Helper()
	var v game.ProposalView
	e.mustStatus(e.gpost(actor, "/proposals", p), http.StatusCreated).Decode(e.T, &v)
	return v
}

func (e *env) push(m string, up, down []string) {
	e.T.Helper()
	e.mustStatus(e.gpost(admin, "/reactions", game.PushReactions{Message: msg(m), Up: up, Down: down}), http.StatusOK)
}

func (e *env) proposal(id string) game.ProposalView {
	e.T.Helper()
	var v game.ProposalView
	e.mustStatus(e.Get("/v1/games/"+gameID+"/proposals/"+id), http.StatusOK).Decode(e.T, &v)
	return v
}

// gbad posts a request the document itself rules out (a value outside an
// enum or pattern): the harness then checks only the answer.
func (e *env) gbad(actor, path string, body any) *apitest.Response {
	e.T.Helper()
	govN++
	return e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + path, Actor: actor, Idem: fmt.Sprintf("gov-%d", govN), Body: body, Bad: true})
}

// setClock moves the server's manual clock and runs the due work, as the
// dev clock route and the scheduled functions do. (It calls RunDue rather
// than POST /v1/dev/clock: that route's report can hold "done": {"proposal":
// null} when a proposal's due item finds its tally already made by an
// earlier one at the same deadline, which the document does not allow; see
// the report of this change.)
func (e *env) setClock(at time.Time) {
	e.T.Helper()
	e.clock.Set(at)
	rep, err := e.svc.RunDue(e.T.Context())
	if err != nil || len(rep.Failed) > 0 {
		e.T.Fatalf("due work at %s: %v %v", at, err, rep.Failed)
	}
}

// TestG2_StandardProposalOnThursdayTalliedMonday: a standard proposal
// submitted on a Thursday is voted on during Phase II and tallied when it
// ends, Monday 00:00 UTC; the live counts show meanwhile.
func TestG2_StandardProposalOnThursdayTalliedMonday(t *testing.T) {
	e := govGame(t)
	thursday := time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	e.setClock(thursday)
	p := e.propose(ada, game.SubmitProposal{Message: msg("2001"), Title: "More gifts", Text: "Everyone gets two gifts a period."})
	monday := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	if p.Class != governance.Standard || !p.VotingStart.Equal(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)) || !p.VotingEnd.Equal(monday) {
		t.Fatalf("proposal %s class %s voting %s..%s, want standard, Fri 4 Dec 00:00 .. Mon 7 Dec 00:00", p.ID, p.Class, p.VotingStart, p.VotingEnd)
	}
	e.push("2001", voters[:3], voters[3:4])
	e.setClock(monday.Add(-time.Minute))
	if got := e.proposal(p.ID); got.Status != governance.StatusOpen || got.Live == nil || got.Live.For != 3 || got.Live.Against != 1 {
		t.Fatalf("a minute before the end: %+v, want open with live 3 for 1 against", got)
	}
	e.setClock(monday.Add(time.Second))
	got := e.proposal(p.ID)
	if got.Status != governance.StatusAdopted || !got.ClosedAt.Equal(monday) || got.Result == nil || got.Result.For != 3 || got.Live != nil {
		t.Fatalf("after Monday 00:00: %+v, want adopted at %s with 3 for", got, monday)
	}
	var list struct{ Proposals []game.ProposalView }
	e.mustStatus(e.Get("/v1/games/"+gameID+"/proposals?status=adopted"), http.StatusOK).Decode(t, &list)
	if len(list.Proposals) != 1 || list.Proposals[0].ID != p.ID {
		t.Errorf("adopted proposals %+v, want %s", list.Proposals, p.ID)
	}
}

// TestG2_UrgentTwoAgainstPassesThreeFails: an urgent proposal is popular
// with at most two against, however many are for.
func TestG2_UrgentTwoAgainstPassesThreeFails(t *testing.T) {
	e := govGame(t)
	two := e.propose(ada, game.SubmitProposal{Message: msg("2101"), Class: governance.Urgent})
	three := e.propose(ada, game.SubmitProposal{Message: msg("2102"), Class: governance.Urgent})
	if !two.VotingEnd.Equal(t0.Add(48 * time.Hour)) {
		t.Fatalf("urgent voting ends %s, want 48 hours after %s", two.VotingEnd, t0)
	}
	e.push("2101", voters[:1], voters[1:3])
	e.push("2102", voters[:4], voters[4:7])
	e.setClock(t0.Add(48*time.Hour + time.Second))
	if got := e.proposal(two.ID); got.Status != governance.StatusAdopted || got.Result.Against != 2 {
		t.Errorf("2 against: %+v, want adopted", got.Result)
	}
	if got := e.proposal(three.ID); got.Status != governance.StatusFailed || got.Result.Against != 3 || got.Result.For != 4 {
		t.Errorf("3 against (4 for): %+v, want failed", got.Result)
	}
}

// TestG2_NonReputableUrgentRefused: only reputable players (RULINGS P4)
// may submit urgent proposals; a standard one is open to every player.
func TestG2_NonReputableUrgentRefused(t *testing.T) {
	e := govGame(t)
	late := "discord:3999"
	e.setClock(t0.Add(4 * 24 * time.Hour)) // past the 72-hour grace of the game's start
	e.mustStatus(e.Do(apitest.Call{Method: "POST", Path: "/v1/games/" + gameID + "/join", Actor: late, Idem: "join-late"}), http.StatusOK)
	r := e.gpost(late, "/proposals", game.SubmitProposal{Message: msg("2201"), Class: governance.Urgent})
	e.wantCode(r, http.StatusForbidden, "not_reputable")
	if p := r.Problem(t); p.Extra["reputable_at"] == nil {
		t.Errorf("not_reputable without reputable_at: %+v", p)
	}
	e.propose(late, game.SubmitProposal{Message: msg("2202")})
	e.wantCode(e.gbad(late, "/proposals", game.SubmitProposal{Message: msg("2203"), Class: "secret"}), http.StatusBadRequest, "invalid_class")
	e.wantCode(e.gbad(late, "/proposals", game.SubmitProposal{Message: game.MessageRef{Platform: "discord", Channel: "x"}}), http.StatusBadRequest, "invalid_message")
	e.wantCode(e.gpost("discord:4444", "/proposals", game.SubmitProposal{Message: msg("2204")}), http.StatusConflict, "not_a_player")
}

// TestG1_EditedProposalWithMajorityFails: an edited proposal never takes
// effect, however popular; so does a deleted one.
func TestG1_EditedProposalWithMajorityFails(t *testing.T) {
	e := govGame(t)
	edited := e.propose(ada, game.SubmitProposal{Message: msg("2301"), Class: governance.Urgent})
	deleted := e.propose(ada, game.SubmitProposal{Message: msg("2302"), Class: governance.Urgent})
	e.push("2301", voters, nil)
	e.push("2302", voters, nil)
	var pv game.PushedView
	e.mustStatus(e.gpost(admin, "/message-events", game.MessageEvent{Message: msg("2301"), Event: "edited"}), http.StatusOK).Decode(t, &pv)
	if !pv.Edited || len(pv.Up) != len(voters) || pv.Changes != 2 {
		t.Errorf("after the edit: %+v", pv)
	}
	e.mustStatus(e.gpost(admin, "/message-events", game.MessageEvent{Message: msg("2302"), Event: "deleted"}), http.StatusOK)
	e.wantCode(e.gbad(admin, "/message-events", game.MessageEvent{Message: msg("2302"), Event: "pinned"}), http.StatusBadRequest, "invalid_event")
	e.wantCode(e.gbad(admin, "/reactions", game.PushReactions{Message: msg("2302"), Up: []string{"not an id"}}), http.StatusBadRequest, "invalid_reactions")
	e.setClock(t0.Add(49 * time.Hour))
	for _, c := range []struct {
		p    game.ProposalView
		what string
	}{{edited, "edited"}, {deleted, "deleted"}} {
		got := e.proposal(c.p.ID)
		if got.Status != governance.StatusFailed || !got.Result.Popular || got.Result.Adopted {
			t.Errorf("%s with %d for: %+v, want popular but failed", c.what, len(voters), got.Result)
		}
	}
}

// TestG3_TwoAdoptedAtOneDeadlineApplyInCreationOrder: both amendments
// apply, the earlier proposal's first, so the later one's price stands.
func TestG3_TwoAdoptedAtOneDeadlineApplyInCreationOrder(t *testing.T) {
	e := govGame(t)
	first := e.propose(ada, game.SubmitProposal{Message: msg("2401"), Amendment: pricePatch(t, e, 4)})
	second := e.propose(voters[0], game.SubmitProposal{Message: msg("2402"), Amendment: pricePatch(t, e, 3)})
	if !first.VotingEnd.Equal(second.VotingEnd) {
		t.Fatalf("voting ends %s and %s differ", first.VotingEnd, second.VotingEnd)
	}
	e.push("2401", voters[:2], nil)
	e.push("2402", voters[:2], nil)
	e.setClock(second.VotingEnd.Add(time.Second))
	a, b := e.proposal(first.ID), e.proposal(second.ID)
	if a.Status != governance.StatusAdopted || b.Status != governance.StatusAdopted || a.RulesetVersion == 0 || b.RulesetVersion != a.RulesetVersion+1 {
		t.Fatalf("first %s v%d, second %s v%d; want both adopted, the first's version first", a.Status, a.RulesetVersion, b.Status, b.RulesetVersion)
	}
	if got := randomCardPrice(t, e); got != 3 {
		t.Errorf("random-card costs %d, want 3 (the later proposal's amendment applied last)", got)
	}
}

func pricePatch(t *testing.T, e *env, price int) json.RawMessage {
	t.Helper()
	var shop struct{ Items []gildedhall.ShopItemView }
	e.mustStatus(e.Get("/v1/games/"+gameID+"/ruleset"), http.StatusOK)
	var rs struct {
		Shop []map[string]any `json:"shop"`
	}
	e.mustStatus(e.Get("/v1/games/"+gameID+"/ruleset"), http.StatusOK).Decode(t, &rs)
	_ = shop
	for _, it := range rs.Shop {
		if it["id"] == "random-card" {
			it["price"] = price
		}
	}
	b, err := json.Marshal(map[string]any{"shop": rs.Shop})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func randomCardPrice(t *testing.T, e *env) int {
	t.Helper()
	var shop struct{ Items []gildedhall.ShopItemView }
	e.mustStatus(e.Get("/v1/games/"+gameID+"/shop"), http.StatusOK).Decode(t, &shop)
	for _, it := range shop.Items {
		if it.ID == "random-card" {
			return it.Price
		}
	}
	t.Fatal("no random-card in the shop")
	return 0
}

// TestG3_AdoptedAmendmentLowersThePriceOfTheNextPurchase is issue 5's
// acceptance 5: the adopted amendment changes what the next purchase
// costs, and the log has the change, its proposal and its adoption time.
func TestG3_AdoptedAmendmentLowersThePriceOfTheNextPurchase(t *testing.T) {
	e := govGame(t)
	e.mustStatus(e.Post("/v1/games/"+gameID+"/grants", "funds", gildedhall.Grant{Player: ada, Vertebrae: 20, Reason: "test"}), http.StatusOK)
	p := e.propose(ada, game.SubmitProposal{Message: msg("2501"), Class: governance.Urgent, Title: "Cheaper cards", Amendment: pricePatch(t, e, 2)})
	e.push("2501", voters[:3], nil)
	e.setClock(p.VotingEnd.Add(time.Hour))
	var bought gildedhall.PurchaseResult
	e.mustStatus(e.gpost(ada, "/purchases", gildedhall.Purchase{Item: "random-card", Quantity: 1}), http.StatusOK).Decode(t, &bought)
	if bought.Paid != 2 {
		t.Errorf("the purchase after adoption paid %d, want 2", bought.Paid)
	}
	var found bool
	for _, en := range e.logEntries(gameID) {
		for _, ev := range en.Events {
			if ev.Type != "ruleset_amended" {
				continue
			}
			var am game.Amendment
			if err := json.Unmarshal(ev.Data, &am); err != nil {
				t.Fatal(err)
			}
			found = true
			if am.Source != "proposal:"+p.ID || !am.At.Equal(p.VotingEnd) || !en.At.Equal(p.VotingEnd) || en.Command != "proposal-tally" {
				t.Errorf("amendment %+v in entry %s at %s, want source proposal:%s at the adoption time %s", am, en.Command, en.At, p.ID, p.VotingEnd)
			}
			if !slices.ContainsFunc(en.Events, func(ev game.Event) bool { return ev.Type == "proposal_adopted" }) {
				t.Errorf("the amendment's entry has no proposal_adopted event: %+v", en.Events)
			}
		}
	}
	if !found {
		t.Error("no ruleset_amended event in the log")
	}
}

// TestT4_TallyTwiceAndLateGivesOneResult is issue 5's acceptance 3: the
// tally run twice on time gives one result; in a game with the same votes
// run 2 hours late (after reactions changed) it gives the same result,
// dated at the deadline.
func TestT4_TallyTwiceAndLateGivesOneResult(t *testing.T) {
	run := func(late bool) (game.ProposalView, []game.Entry) {
		e := govGame(t)
		p := e.propose(ada, game.SubmitProposal{Message: msg("2601"), Class: governance.Urgent})
		e.push("2601", voters[:3], voters[3:5])
		if !late {
			e.clock.Set(p.VotingEnd)
			for range 2 {
				if _, err := e.svc.RunDue(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
		} else {
			e.clock.Set(p.VotingEnd.Add(time.Hour))
			e.push("2601", voters[:1], voters[1:7]) // after the deadline: must not count
			e.clock.Set(p.VotingEnd.Add(2 * time.Hour))
			if _, err := e.svc.RunDue(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		return e.proposal(p.ID), e.logEntries(gameID)
	}
	onTime, logA := run(false)
	late, logB := run(true)
	tallies := func(log []game.Entry) (n int, at time.Time) {
		for _, en := range log {
			if en.Command == "proposal-tally" {
				n++
				at = en.At
			}
		}
		return n, at
	}
	if n, at := tallies(logA); n != 1 || !at.Equal(onTime.VotingEnd) {
		t.Errorf("on time, run twice: %d tally entries at %s, want 1 at %s", n, at, onTime.VotingEnd)
	}
	if n, at := tallies(logB); n != 1 || !at.Equal(late.VotingEnd) {
		t.Errorf("2 hours late: %d tally entries at %s, want 1 at %s", n, at, late.VotingEnd)
	}
	a, _ := json.Marshal(onTime.Result)
	b, _ := json.Marshal(late.Result)
	if string(a) != string(b) || onTime.Status != late.Status || !onTime.ClosedAt.Equal(late.ClosedAt) {
		t.Errorf("on time %s %s %s\nlate    %s %s %s", onTime.Status, onTime.ClosedAt, a, late.Status, late.ClosedAt, b)
	}
}

// electJudge makes ada the Judge: she stands in the week of t0 and three
// players give her candidacy 👍; the week ends Monday 7 December.
func electJudge(t *testing.T, e *env) time.Time {
	t.Helper()
	var cd struct{ ID, Week string }
	e.mustStatus(e.gpost(ada, "/candidacies", game.StandForJudge{Message: msg("2700")}), http.StatusCreated).Decode(t, &cd)
	e.wantCode(e.gpost(ada, "/candidacies", game.StandForJudge{Message: msg("2701")}), http.StatusConflict, "already_candidate")
	e.push("2700", voters[:3], voters[3:4])
	var v game.CandidaciesView
	e.mustStatus(e.Get("/v1/games/"+gameID+"/candidacies"), http.StatusOK).Decode(t, &v)
	if v.Week != "2026-W49" || v.Status != "open" || len(v.Candidacies) != 1 || v.Live == nil || v.Live.Judge != ada {
		t.Fatalf("this week's election %+v, want ada leading", v)
	}
	weekEnd := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	e.setClock(weekEnd.Add(time.Second))
	var js game.JudgeState
	e.mustStatus(e.Get("/v1/games/"+gameID+"/judge"), http.StatusOK).Decode(t, &js)
	if js.Judge != ada || !js.Since.Equal(weekEnd) {
		t.Fatalf("judge %+v, want ada since %s", js, weekEnd)
	}
	e.mustStatus(e.Get("/v1/games/"+gameID+"/candidacies?week=2026-W49"), http.StatusOK).Decode(t, &v)
	if v.Status != "held" || v.Result == nil || v.Result.Winner != cd.ID {
		t.Errorf("held election %+v, want won by %s", v, cd.ID)
	}
	return weekEnd
}

func (e *env) requestAndRule(requester, m, answer string) game.RulingView {
	e.T.Helper()
	var rec game.JusticeRecord
	e.mustStatus(e.gpost(requester, "/justice", game.RequestJustice{Kind: governance.KindStatement, Text: "Gifts may be given to oneself.", Message: msg(m)}), http.StatusCreated).Decode(e.T, &rec)
	var r game.RulingView
	e.mustStatus(e.gpost(ada, "/justice/"+rec.Request.ID+"/rulings", map[string]string{"answer": answer}), http.StatusCreated).Decode(e.T, &r)
	return r
}

// TestG4_ConfidenceVotes: 4 👎, 2 👍 and one player reacting both is 4 to
// overturn against 3 to affirm: overturned. 3 👎, 2 👍 and one both is 3
// to 3: the ruling stands (overturning needs strictly more).
func TestG4_ConfidenceVotes(t *testing.T) {
	e := govGame(t)
	electJudge(t, e)
	over := e.requestAndRule(voters[0], "2801", "FALSE")
	stands := e.requestAndRule(voters[1], "2802", "TRUE")
	for _, c := range []struct {
		r          game.RulingView
		poll       string
		down, up   []string
		both       string
		overturned bool
	}{
		{over, "2811", voters[:4], voters[4:6], voters[6], true},
		{stands, "2812", voters[:3], voters[4:6], voters[6], false},
	} {
		var v game.RulingView
		e.mustStatus(e.gpost(voters[2], "/rulings/"+c.r.ID+"/confidence", map[string]any{"poll": msg(c.poll)}), http.StatusCreated).Decode(t, &v)
		if v.Confidence == nil || v.Confidence.Status != governance.ConfidenceOpen {
			t.Fatalf("confidence vote on %s: %+v", c.r.ID, v.Confidence)
		}
		e.push(c.poll, append(slices.Clone(c.up), c.both), append(slices.Clone(c.down), c.both))
	}
	e.wantCode(e.gpost(voters[3], "/rulings/"+over.ID+"/confidence", map[string]any{"poll": msg("2813")}), http.StatusConflict, "confidence_already_held")
	e.setClock(over.At.Add(48*time.Hour + time.Minute))
	var list struct{ Rulings []game.RulingView }
	e.mustStatus(e.Get("/v1/games/"+gameID+"/rulings"), http.StatusOK).Decode(t, &list)
	got := map[string]game.RulingView{}
	for _, r := range list.Rulings {
		got[r.ID] = r
	}
	if r := got[over.ID]; !r.Overturned || !r.NoBearing || r.OverturnedBy != governance.ByConfidence || r.Confidence.Result.Overturn != 4 || r.Confidence.Result.Affirm != 3 {
		t.Errorf("4 against 2 and 1 both: %+v %+v, want overturned 4 to 3 with no bearing", r.Ruling, r.Confidence)
	}
	if r := got[stands.ID]; r.Overturned || r.Confidence.Status != governance.ConfidenceAffirmed || r.Confidence.Result.Overturn != 3 || r.Confidence.Result.Affirm != 3 {
		t.Errorf("3 against 2 and 1 both: %+v %+v, want standing 3 to 3", r.Ruling, r.Confidence)
	}

	// G5: a week without candidacies keeps the Judge; then she resigns.
	e.setClock(time.Date(2026, 12, 14, 0, 0, 1, 0, time.UTC))
	var w50 game.CandidaciesView
	e.mustStatus(e.Get("/v1/games/"+gameID+"/candidacies?week=2026-W50"), http.StatusOK).Decode(t, &w50)
	var js game.JudgeState
	e.mustStatus(e.Get("/v1/games/"+gameID+"/judge"), http.StatusOK).Decode(t, &js)
	if w50.Status != "none" || js.Judge != ada {
		t.Errorf("after a week without candidacies: election %s, Judge %q; want none and still %s", w50.Status, js.Judge, ada)
	}
	var after game.JudgeState
	e.mustStatus(e.gpost(ada, "/judge/resign", nil), http.StatusOK).Decode(t, &after)
	if after.Judge != "" {
		t.Errorf("after resigning the Judge is %q", after.Judge)
	}
	e.wantCode(e.Do(apitest.Call{Method: "GET", Path: "/v1/games/" + gameID + "/candidacies?week=49", Bad: true}), http.StatusBadRequest, "invalid_request")
}

// TestG4_TheJudge: the Judge's queue, a request by the Judge refused, the
// Judge overturning their own ruling and ruling again, removal by two
// players' assent, and resignation after a new election.
func TestG4_TheJudge(t *testing.T) {
	e := govGame(t)
	g := "/v1/games/" + gameID
	var rec game.JusticeRecord
	e.mustStatus(e.gpost(voters[0], "/justice", game.RequestJustice{Kind: governance.KindQuestion, Text: "Do Jokers count as Red?", Message: msg("2901")}), http.StatusCreated).Decode(t, &rec)
	e.wantCode(e.gpost(ada, "/justice/"+rec.Request.ID+"/rulings", map[string]string{"answer": "No."}), http.StatusForbidden, "not_the_judge")
	electJudge(t, e)
	var queue struct{ Requests []game.JusticeRecord }
	e.mustStatus(e.Get(g+"/justice?status=open"), http.StatusOK).Decode(t, &queue)
	if len(queue.Requests) != 1 || queue.Requests[0].Request.ID != rec.Request.ID {
		t.Fatalf("queue %+v, want the one request", queue.Requests)
	}
	e.wantCode(e.gpost(ada, "/justice", game.RequestJustice{Kind: governance.KindQuestion, Text: "Am I right?", Message: msg("2902")}), http.StatusForbidden, "judge_cannot_request")
	var r1 game.RulingView
	e.mustStatus(e.gpost(ada, "/justice/"+rec.Request.ID+"/rulings", map[string]string{"answer": "No."}), http.StatusCreated).Decode(t, &r1)
	e.wantCode(e.gpost(ada, "/justice/"+rec.Request.ID+"/rulings", map[string]string{"answer": "Yes."}), http.StatusConflict, "already_ruled")
	var o game.RulingView
	e.mustStatus(e.gpost(ada, "/rulings/"+r1.ID+"/overturn", nil), http.StatusOK).Decode(t, &o)
	if !o.Overturned || !o.NoBearing || o.OverturnedBy != governance.ByJudge {
		t.Errorf("overturned by the Judge: %+v", o.Ruling)
	}
	var r2 game.RulingView
	e.mustStatus(e.gpost(ada, "/justice/"+rec.Request.ID+"/rulings", map[string]string{"answer": "Yes, Jokers are Red."}), http.StatusCreated).Decode(t, &r2)
	var one game.JusticeRecord
	e.mustStatus(e.Get(g+"/justice/"+rec.Request.ID), http.StatusOK).Decode(t, &one)
	if one.Request.Status != governance.RequestAnswered || one.Request.Ruling != r2.ID || len(one.Rulings) != 2 {
		t.Errorf("request after ruling again: %+v", one)
	}
	e.wantCode(e.Get(g+"/justice/01NOSUCHREQUEST"), http.StatusNotFound, "unknown_request")
	e.wantCode(e.gpost(voters[0], "/rulings/"+r2.ID+"/overturn", nil), http.StatusForbidden, "not_ruling_judge")

	var js game.JudgeState
	e.mustStatus(e.gpost(voters[0], "/judge/removal-assents", nil), http.StatusOK).Decode(t, &js)
	if js.Judge != ada || !slices.Equal(js.RemovalAssents, []string{voters[0]}) {
		t.Errorf("after one assent: %+v", js)
	}
	e.wantCode(e.gpost(voters[0], "/judge/removal-assents", nil), http.StatusConflict, "already_assented")
	e.wantCode(e.gpost(ada, "/judge/removal-assents", nil), http.StatusForbidden, "judge_cannot_assent")
	var after game.JudgeState
	e.mustStatus(e.gpost(voters[1], "/judge/removal-assents", nil), http.StatusOK).Decode(t, &after)
	if after.Judge != "" || len(after.RemovalAssents) != 0 {
		t.Errorf("after two assents: %+v, want no Judge", after)
	}
	e.wantCode(e.gpost(voters[2], "/judge/removal-assents", nil), http.StatusConflict, "no_judge")
	e.wantCode(e.gpost(ada, "/judge/resign", nil), http.StatusForbidden, "not_the_judge")
}

// TestG6_MessageAlreadyUsedIs409: over HTTP a second use of a proposal's
// message is a 409 problem with code message_already_used, a sentence
// naming the proposal and used_for; the proposal's response carries its
// amendment's summary (RULINGS G6, R4).
func TestG6_MessageAlreadyUsedIs409(t *testing.T) {
	e := govGame(t)
	p := e.propose(ada, game.SubmitProposal{Message: msg("2801"), Title: "More gifts",
		Amendment: json.RawMessage(`[{"op":"replace","path":"/shop/random-card/price","value":2}]`)})
	if p.Summary != "Random Card costs 2 Vertebrae, was 5" {
		t.Errorf("summary %q", p.Summary)
	}
	for path, body := range map[string]any{
		"/proposals":   game.SubmitProposal{Message: msg("2801")},
		"/justice":     game.RequestJustice{Kind: governance.KindQuestion, Text: "Is it?", Message: msg("2801")},
		"/candidacies": game.StandForJudge{Message: msg("2801")},
	} {
		r := e.gpost(voters[0], path, body)
		pr := r.Problem(t)
		if r.Status != http.StatusConflict || pr.Code != "message_already_used" ||
			pr.Detail != "That message is already proposal "+p.ID+" «More gifts». One message is one thing (a proposal, a request for justice, a candidacy or a confidence poll), so that its reactions count once: use a new message." {
			t.Errorf("POST %s on a proposal's message: %d %s %q", path, r.Status, pr.Code, pr.Detail)
		}
		if u, _ := pr.Extra["used_for"].(map[string]any); u["use"] != "proposal" || u["id"] != p.ID {
			t.Errorf("POST %s: used_for %v", path, pr.Extra["used_for"])
		}
	}
}

// TestCandidaciesRoutePages (issue 22, point 7): the week's election pages
// its candidacies like every list route. Eight candidacies read three to a
// page come in three pages, each candidacy once; every page carries the
// whole election's live outcome (the same leader on each) with the
// standings of its own candidacies only; the client follows the cursor to
// the whole election, earliest first; a bad limit or cursor is refused.
func TestCandidaciesRoutePages(t *testing.T) {
	e := govGame(t)
	stand := append([]string{ada}, voters...)
	var want []string
	for i, p := range stand {
		var cd struct{ ID string }
		e.mustStatus(e.gpost(p, "/candidacies", game.StandForJudge{Message: msg(fmt.Sprint(2800 + i))}), http.StatusCreated).Decode(t, &cd)
		want = append(want, cd.ID)
	}
	e.push("2803", voters[:4], nil) // voters[2]'s candidacy leads
	path := "/v1/games/" + gameID + "/candidacies"

	var got []string
	pages, cursor := 0, ""
	for {
		q := url.Values{"limit": {"3"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var v game.CandidaciesView
		e.mustStatus(e.Get(path+"?"+q.Encode()), http.StatusOK).Decode(t, &v)
		pages++
		if len(v.Candidacies) > 3 || v.Live == nil || v.Live.Judge != voters[2] || v.Status != "open" {
			t.Fatalf("page %d: %d candidacies, live %+v; want at most 3 and voters[2] leading on every page", pages, len(v.Candidacies), v.Live)
		}
		var ids []string
		for _, c := range v.Candidacies {
			ids = append(ids, c.ID)
		}
		var standing []string
		for _, s := range v.Live.Standings {
			standing = append(standing, s.Candidacy)
		}
		slices.Sort(ids)
		slices.Sort(standing)
		if !slices.Equal(ids, standing) {
			t.Errorf("page %d: standings of %v, want those of its candidacies %v", pages, standing, ids)
		}
		got = append(got, ids...)
		if v.NextCursor == "" {
			break
		}
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		cursor = v.NextCursor
	}
	slices.Sort(got)
	sorted := slices.Sorted(slices.Values(want))
	if pages != 3 || !slices.Equal(got, sorted) {
		t.Fatalf("%d pages listing %v, want 3 pages listing each of %v once", pages, got, sorted)
	}

	c, err := client.New(e.BaseURL, testKey, admin)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := c.Candidacies(context.Background(), gameID, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range all.Candidacies {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, want) || all.Live == nil || len(all.Live.Standings) != len(want) || all.NextCursor != "" {
		t.Fatalf("the client's whole election: %v with %+v, want %v earliest first with every standing", ids, all.Live, want)
	}
	e.wantCode(e.Do(apitest.Call{Method: "GET", Path: path + "?limit=0", Bad: true}), http.StatusBadRequest, "invalid_limit")
	e.wantCode(e.Get(path+"?cursor=nonsense"), http.StatusBadRequest, "invalid_cursor")
}
