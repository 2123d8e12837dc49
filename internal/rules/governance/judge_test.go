package governance

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"croupier/internal/ruleset"
)

var (
	rfj     = MessageRef{Platform: "discord", Channel: "request-for-justice", Message: "r1"}
	poll    = MessageRef{Platform: "discord", Channel: "request-for-justice", Message: "poll1"}
	ruledAt = monday.Add(10 * h)
)

// courtWithRuling has Judge "jo" and one ruling "ru1" (TRUE) on statement
// request "rq1", made at ruledAt.
func courtWithRuling(t *testing.T) *Court {
	t.Helper()
	c := &Court{Judge: "jo", Since: gameStart}
	if _, err := RequestJustice(c, "rq1", "ada", KindStatement, "Kings are worth 12.", rfj, monday); err != nil {
		t.Fatal(err)
	}
	if _, err := Rule(c, "ru1", "rq1", "jo", "true", ruledAt); err != nil {
		t.Fatal(err)
	}
	return c
}

func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func TestG4_RequestsAndRulings(t *testing.T) {
	c := &Court{Judge: "jo"}
	if _, err := RequestJustice(c, "rq0", "jo", KindQuestion, "May I?", rfj, monday); code(err) != "judge_cannot_request" {
		t.Errorf("the Judge's own request: %v; want judge_cannot_request", err)
	}
	for _, bad := range []struct {
		name, id, kind, text string
		msg                  MessageRef
		want                 string
	}{
		{"unknown kind", "rq0", "plea", "x", rfj, "invalid_kind"},
		{"empty text", "rq0", "question", "  ", rfj, "empty_request"},
		{"no message", "rq0", "question", "x", MessageRef{}, "invalid_message"},
		{"no id", "", "question", "x", rfj, "invalid_id"},
	} {
		if _, err := RequestJustice(c, bad.id, "ada", RequestKind(bad.kind), bad.text, bad.msg, monday); code(err) != bad.want {
			t.Errorf("%s: %v; want %s", bad.name, err, bad.want)
		}
	}
	if _, err := RequestJustice(c, "st", "ada", KindStatement, "Kings are worth 13.", rfj, monday); err != nil {
		t.Fatal(err)
	}
	if _, err := RequestJustice(c, "qu", "a-visitor", KindQuestion, "What is a phase?", rfj, monday); err != nil {
		t.Fatalf("anyone but the Judge may request justice: %v", err)
	}
	if _, err := RequestJustice(c, "st", "bo", KindStatement, "dup", rfj, monday); code(err) != "duplicate_id" {
		t.Errorf("duplicate request id: %v", err)
	}
	for _, r := range []struct {
		name, id, req, by, answer, want, stored string
	}{
		{"not the Judge", "r1", "st", "ada", "FALSE", "not_the_judge", ""},
		{"statement answered with text", "r1", "st", "jo", "probably", "truth_value_required", ""},
		{"unknown request", "r1", "nope", "jo", "FALSE", "unknown_request", ""},
		{"statement answered false", "r1", "st", "jo", " false ", "", "FALSE"},
		{"already ruled", "r2", "st", "jo", "TRUE", "already_ruled", ""},
		{"question with no answer", "r3", "qu", "jo", "", "answer_required", ""},
		{"question answered", "r3", "qu", "jo", "Half a week.", "", "Half a week."},
		{"duplicate ruling id", "r3", "qu", "jo", "Again.", "duplicate_id", ""},
	} {
		got, err := Rule(c, r.id, r.req, r.by, r.answer, ruledAt)
		if code(err) != r.want {
			t.Errorf("%s: %v; want %q", r.name, err, r.want)
		}
		if err == nil && got.Answer != r.stored {
			t.Errorf("%s: answer stored as %q; want %q", r.name, got.Answer, r.stored)
		}
	}
	if c.Requests[0].Status != RequestAnswered || c.Requests[0].Ruling != "r1" {
		t.Errorf("request after ruling: %+v", c.Requests[0])
	}
}

func TestG4_OverturnWithin7Days(t *testing.T) {
	cfg := testConfig(t)
	for _, x := range []struct {
		name string
		by   string
		at   time.Time
		want string
	}{
		{"the Judge, 6 days 23 hours later", "jo", ruledAt.Add(7*day - h), ""},
		{"the Judge, exactly 7 days later", "jo", ruledAt.Add(7 * day), "overturn_window_closed"},
		{"another person", "ada", ruledAt.Add(day), "not_ruling_judge"},
	} {
		t.Run(x.name, func(t *testing.T) {
			c := courtWithRuling(t)
			err := Overturn(c, "ru1", x.by, x.at, cfg)
			if code(err) != x.want {
				t.Fatalf("got %v; want %q", err, x.want)
			}
			if err != nil {
				if !c.Rulings[0].Binding() || c.Requests[0].Status != RequestAnswered {
					t.Errorf("a refused overturn changed the court: %+v %+v", c.Rulings[0], c.Requests[0])
				}
				return
			}
			r := c.Rulings[0]
			if r.Binding() || !r.NoBearing || r.OverturnedBy != ByJudge || !r.OverturnedAt.Equal(x.at) {
				t.Errorf("ruling after overturn: %+v", r)
			}
			if c.Requests[0].Status != RequestOpen {
				t.Errorf("the request must reopen so the Judge rules again: %+v", c.Requests[0])
			}
			if code(Overturn(c, "ru1", "jo", x.at, cfg)) != "already_overturned" {
				t.Error("overturning twice should be refused")
			}
			again, err := Rule(c, "ru2", "rq1", "jo", "FALSE", x.at.Add(h))
			if err != nil || again.Answer != False || c.Requests[0].Ruling != "ru2" {
				t.Errorf("the new ruling: %+v, %v", again, err)
			}
		})
	}
	t.Run("a former Judge cannot overturn", func(t *testing.T) {
		c := courtWithRuling(t)
		if err := Resign(c, "jo", ruledAt.Add(h)); err != nil {
			t.Fatal(err)
		}
		if err := Overturn(c, "ru1", "jo", ruledAt.Add(2*h), cfg); code(err) != "not_the_judge" {
			t.Errorf("got %v; want not_the_judge", err)
		}
	})
}

func TestG4_ConfidenceWindow4Days(t *testing.T) {
	cfg := testConfig(t)
	for _, x := range []struct {
		name string
		at   time.Time
		want string
	}{
		{"at the ruling", ruledAt, ""},
		{"3 days 23 hours later", ruledAt.Add(4*day - h), ""},
		{"exactly 4 days later", ruledAt.Add(4 * day), "confidence_window_closed"},
		{"before the ruling", ruledAt.Add(-h), "confidence_window_closed"},
	} {
		t.Run(x.name, func(t *testing.T) {
			c := courtWithRuling(t)
			v, err := OpenConfidence(c, "ru1", "ada", poll, x.at, cfg)
			if code(err) != x.want {
				t.Fatalf("got %v; want %q", err, x.want)
			}
			if err == nil && (!v.EndsAt.Equal(x.at.Add(48*h)) || v.Status != ConfidenceOpen) {
				t.Errorf("vote %+v; want open for 48 h", v)
			}
		})
	}
	c := courtWithRuling(t)
	if _, err := OpenConfidence(c, "ru1", "ada", MessageRef{}, ruledAt, cfg); code(err) != "invalid_message" {
		t.Errorf("no poll message: %v", err)
	}
	if _, err := OpenConfidence(c, "nope", "ada", poll, ruledAt, cfg); code(err) != "unknown_ruling" {
		t.Errorf("unknown ruling: %v", err)
	}
	if _, err := OpenConfidence(c, "ru1", "ada", poll, ruledAt, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenConfidence(c, "ru1", "bo", poll, ruledAt.Add(h), cfg); code(err) != "confidence_already_held" {
		t.Errorf("second vote on one ruling: %v; want confidence_already_held", err)
	}
	c = courtWithRuling(t)
	if err := Overturn(c, "ru1", "jo", ruledAt.Add(h), cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenConfidence(c, "ru1", "ada", poll, ruledAt.Add(2*h), cfg); code(err) != "already_overturned" {
		t.Errorf("vote on an overturned ruling: %v; want already_overturned", err)
	}
}

// confidence runs a vote of confidence on a fresh ruling with the given
// reactions and returns the court after the tally.
func confidence(t *testing.T, r Reactions) *Court {
	t.Helper()
	c := courtWithRuling(t)
	v, err := OpenConfidence(c, "ru1", "ada", poll, ruledAt.Add(day), testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CloseConfidence(c, "ru1", r, everyone, v.EndsAt.Add(-1)); code(err) != "voting_open" {
		t.Fatalf("closing early: %v; want voting_open", err)
	}
	if ch, err := CloseConfidence(c, "ru1", r, everyone, v.EndsAt); err != nil || !ch {
		t.Fatalf("CloseConfidence = %v, %v", ch, err)
	}
	return c
}

func TestG4_ConfidenceVote4v3Overturned(t *testing.T) {
	// 4 👎, 2 👍 and one player reacting both: 4 to overturn, 3 to affirm.
	c := confidence(t, Reactions{Up: append(ids("up", 2), "both"), Down: append(ids("down", 4), "both")})
	r := c.Rulings[0]
	res := r.Confidence.Result
	if res.Overturn != 4 || res.Affirm != 3 || !res.Overturned {
		t.Fatalf("result %+v; want 4 to 3, overturned", res)
	}
	if r.Binding() || !r.NoBearing || r.OverturnedBy != ByConfidence || r.Confidence.Status != ConfidenceOverturned {
		t.Errorf("ruling %+v; want overturned by the vote, no bearing", r)
	}
	if !r.OverturnedAt.Equal(r.Confidence.EndsAt) {
		t.Errorf("overturned at %v; want the vote's end %v", r.OverturnedAt, r.Confidence.EndsAt)
	}
	if !slices.Equal(res.Unclear, []string{"both"}) || !slices.Contains(res.Affirmers, "both") {
		t.Errorf("the unclear voter must affirm: %+v", res)
	}
}

func TestG4_Confidence3v3Stands(t *testing.T) {
	// 3 👎, 2 👍 and one player reacting both: 3 is not strictly more than 3.
	c := confidence(t, Reactions{Up: append(ids("up", 2), "both"), Down: append(ids("down", 3), "both")})
	r := c.Rulings[0]
	if res := r.Confidence.Result; res.Overturn != 3 || res.Affirm != 3 || res.Overturned {
		t.Fatalf("result %+v; want 3 to 3, standing", res)
	}
	if !r.Binding() || r.Confidence.Status != ConfidenceAffirmed {
		t.Errorf("ruling %+v; want it standing and affirmed", r)
	}
	if ch, err := CloseConfidence(c, "ru1", Reactions{Down: ids("late", 9)}, everyone, r.Confidence.EndsAt.Add(2*h)); ch || err != nil {
		t.Errorf("a second tally must change nothing: %v, %v", ch, err)
	}
	if !c.Rulings[0].Binding() {
		t.Error("a second tally overturned the ruling")
	}
}

func TestG4_ConfidenceOnlyPlayersCount(t *testing.T) {
	res := TallyConfidence(Reactions{Up: []string{"a"}, Down: []string{"x", "y"}}, func(id string) bool { return id == "a" || id == "x" })
	if res.Affirm != 1 || res.Overturn != 1 || res.Overturned || !slices.Equal(res.Ignored, []string{"y"}) {
		t.Errorf("result %+v; want 1 to 1 with y ignored", res)
	}
}

func TestG4_ConfidenceMootAfterJudgeOverturns(t *testing.T) {
	cfg := testConfig(t)
	c := courtWithRuling(t)
	v, err := OpenConfidence(c, "ru1", "ada", poll, ruledAt.Add(h), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Overturn(c, "ru1", "jo", ruledAt.Add(2*h), cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := CloseConfidence(c, "ru1", Reactions{Up: []string{"a"}}, everyone, v.EndsAt); err != nil {
		t.Fatal(err)
	}
	r := c.Rulings[0]
	if r.Confidence.Status != ConfidenceMoot || r.OverturnedBy != ByJudge || r.Binding() {
		t.Errorf("ruling %+v, vote %+v; want the Judge's overturn kept and the vote moot", r, r.Confidence)
	}
}

func TestG4_RemovalByTwoPlayersAndResignation(t *testing.T) {
	isPlayer := func(id string) bool { return id != "visitor" }
	c := &Court{Judge: "jo", Since: gameStart}
	steps := []struct {
		by      string
		want    string
		removed bool
	}{
		{"jo", "judge_cannot_assent", false},
		{"visitor", "not_a_player", false},
		{"ada", "", false},
		{"ada", "already_assented", false},
		{"bo", "", true},
		{"cy", "no_judge", false},
	}
	for _, s := range steps {
		removed, err := AssentRemoval(c, s.by, isPlayer, monday, testConfig(t))
		if code(err) != s.want || removed != s.removed {
			t.Errorf("assent by %s: removed %v, %v; want %v, %q", s.by, removed, err, s.removed, s.want)
		}
	}
	if c.Judge != "" || c.RemovalAssents != nil {
		t.Errorf("court after removal: %+v", c)
	}

	c = &Court{Judge: "jo"}
	if err := Resign(c, "ada", monday); code(err) != "not_the_judge" {
		t.Errorf("someone else resigning: %v", err)
	}
	if err := Resign(c, "jo", monday); err != nil || c.Judge != "" {
		t.Errorf("resignation: %v, judge %q", err, c.Judge)
	}
	if _, err := Rule(c, "r", "x", "jo", "TRUE", monday); code(err) != "not_the_judge" {
		t.Errorf("a resigned Judge ruling: %v", err)
	}
}

// The state is plain data: a court and a proposal survive a JSON round trip
// unchanged, so the service can store them as they are.
func TestStateRoundTripsThroughJSON(t *testing.T) {
	c := confidence(t, Reactions{Up: []string{"a"}, Down: []string{"b", "c"}})
	c.RemovalAssents = []string{"ada"}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Court
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, c) {
		t.Errorf("court changed in a JSON round trip:\n%+v\n%+v", c, &back)
	}
	p, err := Submit(Submission{ID: "p1", Message: msg, Amendment: json.RawMessage(`{"durations":{"turnTimeout":"12h"}}`)}, veteran("ada"), thursday, testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Close(&p, Reactions{Up: []string{"a"}}, everyone, false, false, p.VotingEnd, testConfig(t)); err != nil {
		t.Fatal(err)
	}
	b, err = json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var pb Proposal
	if err := json.Unmarshal(b, &pb); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pb, p) {
		t.Errorf("proposal changed in a JSON round trip:\n%+v\n%+v", p, pb)
	}
}

// TestR4_JudgeRemovalAssentsIsRulesetData: "the assent of two players" is
// ruleset data; amended to three, two assents leave the Judge in office and
// the third removes them.
func TestR4_JudgeRemovalAssentsIsRulesetData(t *testing.T) {
	rs, err := ruleset.Amend(testConfig(t).Ruleset, []byte(`{"thresholds":{"governance":{"judgeRemovalAssents":3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := NewConfig(rs, gameStart)
	if err != nil {
		t.Fatal(err)
	}
	c := &Court{Judge: "jo", Since: gameStart}
	for i, by := range []string{"ada", "bo", "cy"} {
		removed, err := AssentRemoval(c, by, everyone, monday, cfg)
		if err != nil || removed != (i == 2) {
			t.Fatalf("assent %d by %s: removed %v, %v; want removed only at the third", i+1, by, removed, err)
		}
	}
	if c.Judge != "" {
		t.Errorf("the Judge is still %q after three assents", c.Judge)
	}
}
