package governance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

const (
	h   = time.Hour
	day = 24 * time.Hour
)

var (
	gameStart = time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC) // a Monday
	monday    = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	thursday  = monday.Add(3*day + 15*h) // Thu 3 Dec 2026 15:00 UTC
	msg       = MessageRef{Platform: "discord", Channel: "proposals", Message: "m1"}
)

func testConfig(t *testing.T) Config {
	t.Helper()
	rs, err := ruleset.Load("gilded-hall")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := NewConfig(rs, gameStart)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// veteran joined at the game's start: reputable throughout.
func veteran(id string) *players.Player {
	return &players.Player{ID: id, Member: true, JoinedAt: gameStart}
}

func code(err error) string {
	var re *rules.Error
	if errors.As(err, &re) {
		return re.Code
	}
	if err != nil {
		return "non-rule error: " + err.Error()
	}
	return ""
}

func everyone(string) bool { return true }

func TestG2_StandardSubmittedThursdayTalliedMonday(t *testing.T) {
	cfg := testConfig(t)
	for _, c := range []struct {
		name       string
		at         time.Time
		start, end time.Time
	}{
		{"Thursday in Phase I: voted in Phase II, tallied Monday 00:00", thursday, monday.Add(4 * day), monday.Add(7 * day)},
		{"Monday 00:00 starts Phase I", monday, monday.Add(4 * day), monday.Add(7 * day)},
		{"a nanosecond before Friday is still Phase I", monday.Add(4*day - 1), monday.Add(4 * day), monday.Add(7 * day)},
		{"Friday 00:00 is Phase II: voted in next Phase I", monday.Add(4 * day), monday.Add(7 * day), monday.Add(11 * day)},
		{"Sunday: voted in next Phase I, tallied Friday", monday.Add(6*day + 23*h), monday.Add(7 * day), monday.Add(11 * day)},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Submit(Submission{ID: "p1", Message: msg}, veteran("ada"), c.at, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if p.Class != Standard || p.Status != StatusOpen {
				t.Errorf("class, status = %q, %q; want standard by default, open", p.Class, p.Status)
			}
			if !p.VotingStart.Equal(c.start) || !p.VotingEnd.Equal(c.end) {
				t.Errorf("voting period = %v .. %v; want %v .. %v", p.VotingStart, p.VotingEnd, c.start, c.end)
			}
		})
	}
}

func TestG2_UrgentVotesFor48Hours(t *testing.T) {
	p, err := Submit(Submission{ID: "p1", Class: Urgent, Message: msg}, veteran("ada"), thursday, testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if !p.VotingStart.Equal(thursday) || !p.VotingEnd.Equal(thursday.Add(48*h)) {
		t.Errorf("urgent voting period = %v .. %v; want submission .. +48h", p.VotingStart, p.VotingEnd)
	}
}

func TestG2_UrgentTwoAgainstPassesThreeFails(t *testing.T) {
	for _, c := range []struct {
		name    string
		r       Reactions
		popular bool
	}{
		{"no votes at all", Reactions{}, true},
		{"2 against, 0 for", Reactions{Down: []string{"a", "b"}}, true},
		{"3 against, 10 for", Reactions{Up: []string{"c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, Down: []string{"a", "b", "m"}}, false},
		{"1 against + 1 unclear", Reactions{Up: []string{"b"}, Down: []string{"a", "b"}}, true},
		{"1 against + 2 unclear = 3", Reactions{Up: []string{"b", "c"}, Down: []string{"a", "b", "c"}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Tally(c.r, everyone, false, false, Urgent, testConfig(t))
			if res.Popular != c.popular || res.Adopted != c.popular {
				t.Errorf("popular, adopted = %v, %v; want %v (%s)", res.Popular, res.Adopted, c.popular, res.Reason)
			}
		})
	}
}

func TestG2_StandardNeedsMoreForThanAgainst(t *testing.T) {
	for _, c := range []struct {
		name    string
		r       Reactions
		popular bool
	}{
		{"no votes", Reactions{}, false},
		{"2 for, 2 against", Reactions{Up: []string{"a", "b"}, Down: []string{"c", "d"}}, false},
		{"3 for, 2 against", Reactions{Up: []string{"a", "b", "e"}, Down: []string{"c", "d"}}, true},
		{"1 for, 0 against", Reactions{Up: []string{"a"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if res := Tally(c.r, everyone, false, false, Standard, testConfig(t)); res.Popular != c.popular {
				t.Errorf("popular = %v; want %v (%s)", res.Popular, c.popular, res.Reason)
			}
		})
	}
}

func TestG2_NonReputableUrgentRefused(t *testing.T) {
	cfg := testConfig(t)
	now := monday.Add(3 * day)
	newcomer := &players.Player{ID: "bo", Member: true, JoinedAt: now.Add(-2 * day)}
	_, err := Submit(Submission{ID: "p1", Class: Urgent, Message: msg}, newcomer, now, cfg)
	var re *rules.Error
	if !errors.As(err, &re) || re.Code != "not_reputable" {
		t.Fatalf("urgent by a 2-day player: %v; want not_reputable", err)
	}
	if got, want := re.Fields["reputable_at"], newcomer.JoinedAt.Add(7*day); got != want {
		t.Errorf("reputable_at = %v; want %v (7 days after joining)", got, want)
	}
	for _, c := range []struct {
		name   string
		class  Class
		player *players.Player
		now    time.Time
		want   string
	}{
		{"the same player may submit a standard proposal", Standard, newcomer, now, ""},
		{"reputable after 7 continuous days", Urgent, newcomer, newcomer.JoinedAt.Add(7 * day), ""},
		{"joined within 3 days of the game start: reputable at once", Urgent,
			&players.Player{ID: "cy", Member: true, JoinedAt: gameStart.Add(2 * day)}, gameStart.Add(3 * day), ""},
		{"not a player", Standard, &players.Player{ID: "di", JoinedAt: gameStart}, now, "not_a_player"},
		{"unknown class", "emergency", veteran("ada"), now, "invalid_class"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Submit(Submission{ID: "p1", Class: c.class, Message: msg}, c.player, c.now, cfg)
			if code(err) != c.want {
				t.Errorf("got %v; want code %q", err, c.want)
			}
		})
	}
}

func TestSubmit_BadInputRefused(t *testing.T) {
	cfg := testConfig(t)
	for _, c := range []struct {
		name string
		s    Submission
		want string
	}{
		{"no id", Submission{Message: msg}, "invalid_id"},
		{"no message", Submission{ID: "p1", Message: MessageRef{Platform: "discord"}}, "invalid_message"},
		{"amendment that is not JSON", Submission{ID: "p1", Message: msg, Amendment: json.RawMessage(`{"shop":`)}, "invalid_amendment"},
		{"amendment that breaks the ruleset", Submission{ID: "p1", Message: msg, Amendment: json.RawMessage(`{"durations":{"turnTimeout":"soon"}}`)}, "invalid_amendment"},
		{"amendment changing the id", Submission{ID: "p1", Message: msg, Amendment: json.RawMessage(`{"id":"obelisk"}`)}, "invalid_amendment"},
		{"valid amendment", Submission{ID: "p1", Message: msg, Amendment: json.RawMessage(`{"durations":{"turnTimeout":"12h"}}`)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Submit(c.s, veteran("ada"), thursday, cfg)
			if code(err) != c.want {
				t.Fatalf("got %v; want code %q", err, c.want)
			}
			// A merge patch is kept as the operation it amounts to, with
			// its base, and a summary (RULINGS R4).
			if want := `[{"op":"replace","path":"/durations/turnTimeout","value":"12h","was":"24h0m0s"}]`; err == nil && string(p.Amendment) != want {
				t.Errorf("amendment = %s; want it kept as %s", p.Amendment, want)
			}
			if want := "the Exoptosis turn timeout is 12 hours, was 24 hours"; err == nil && p.Summary != want {
				t.Errorf("summary = %q; want %q", p.Summary, want)
			}
		})
	}
}

func TestG2_ObeliskHasNoUrgentProposals(t *testing.T) {
	rs, err := ruleset.Load("obelisk")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := NewConfig(rs, gameStart)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Submit(Submission{ID: "p1", Class: Urgent, Message: msg}, veteran("ada"), thursday, cfg)
	if code(err) != "not_in_ruleset" {
		t.Errorf("urgent under obelisk: %v; want not_in_ruleset", err)
	}
}

func TestG1_EditedProposalFails(t *testing.T) {
	cfg := testConfig(t)
	majority := Reactions{Up: []string{"a", "b", "c"}, Down: []string{"d"}}
	for _, c := range []struct {
		name            string
		edited, deleted bool
		status          Status
	}{
		{"untouched", false, false, StatusAdopted},
		{"edited", true, false, StatusFailed},
		{"deleted", false, true, StatusFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Submit(Submission{ID: "p1", Message: msg}, veteran("ada"), thursday, cfg)
			if err != nil {
				t.Fatal(err)
			}
			changed, err := Close(&p, majority, everyone, c.edited, c.deleted, p.VotingEnd, testConfig(t))
			if err != nil || !changed {
				t.Fatalf("Close = %v, %v", changed, err)
			}
			if p.Status != c.status || !p.Result.Popular || p.Result.Adopted != (c.status == StatusAdopted) {
				t.Errorf("status %q, popular %v, adopted %v; want %q with a popular vote (%s)",
					p.Status, p.Result.Popular, p.Result.Adopted, c.status, p.Result.Reason)
			}
		})
	}
}

func TestG1_BothReactionsCountAgainst(t *testing.T) {
	r := Reactions{Up: []string{"a", "b", "both"}, Down: []string{"c", "both"}}
	res := Tally(r, everyone, false, false, Standard, testConfig(t))
	if res.For != 2 || res.Against != 2 || res.Popular {
		t.Errorf("for %d against %d popular %v; want 2-2, not popular", res.For, res.Against, res.Popular)
	}
	if !slices.Equal(res.Unclear, []string{"both"}) || !slices.Equal(res.AgainstVoters, []string{"both", "c"}) ||
		!slices.Equal(res.ForVoters, []string{"a", "b"}) {
		t.Errorf("voters: for %v against %v unclear %v", res.ForVoters, res.AgainstVoters, res.Unclear)
	}
}

func TestG1_OnlyPlayersCount(t *testing.T) {
	isPlayer := func(id string) bool { return id != "bot" && id != "visitor" && id != "left-yesterday" }
	r := Reactions{Up: []string{"a", "bot", "visitor"}, Down: []string{"b", "c", "left-yesterday"}}
	res := Tally(r, isPlayer, false, false, Standard, testConfig(t))
	if res.For != 1 || res.Against != 2 {
		t.Errorf("for %d, against %d; want 1, 2 (non-players ignored)", res.For, res.Against)
	}
	if !slices.Equal(res.Ignored, []string{"bot", "left-yesterday", "visitor"}) {
		t.Errorf("ignored = %v", res.Ignored)
	}
}

func TestG1_SimultaneousInCreationOrder(t *testing.T) {
	cfg := testConfig(t)
	var ps []Proposal
	// Created Tue, Wed, Thu (all tallied Monday 00:00), plus an urgent one
	// created last but due earlier (Saturday).
	for i, at := range []time.Time{monday.Add(2 * day), monday.Add(1 * day), thursday} {
		p, err := Submit(Submission{ID: []string{"tue", "mon", "thu"}[i], Message: msg}, veteran("ada"), at, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	u, err := Submit(Submission{ID: "urgent", Class: Urgent, Message: msg}, veteran("ada"), thursday.Add(h), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ps = append(ps, u)
	ids := func(ps []Proposal) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	if got, want := ids(AdoptionOrder(ps)), []string{"urgent", "mon", "tue", "thu"}; !slices.Equal(got, want) {
		t.Errorf("AdoptionOrder = %v; want %v", got, want)
	}
	if got := ids(ps); !slices.Equal(got, []string{"tue", "mon", "thu", "urgent"}) {
		t.Errorf("AdoptionOrder modified its input: %v", got)
	}
	if got, want := ids(Due(ps, thursday.Add(49*h))), []string{"urgent"}; !slices.Equal(got, want) {
		t.Errorf("Due on Saturday = %v; want %v", got, want)
	}
	if got, want := ids(Due(ps, monday.Add(7*day))), []string{"urgent", "mon", "tue", "thu"}; !slices.Equal(got, want) {
		t.Errorf("Due on Monday = %v; want %v", got, want)
	}
}

func TestT4_CloseLateOrTwiceDecidesOnce(t *testing.T) {
	cfg := testConfig(t)
	r := Reactions{Up: []string{"a", "b"}, Down: []string{"c"}}
	p, err := Submit(Submission{ID: "p1", Message: msg}, veteran("ada"), thursday, cfg)
	if err != nil {
		t.Fatal(err)
	}
	early := p
	if _, err := Close(&early, r, everyone, false, false, p.VotingEnd.Add(-1), testConfig(t)); code(err) != "voting_open" {
		t.Fatalf("closing before the end: %v; want voting_open", err)
	}
	onTime, late := p, p
	if ch, err := Close(&onTime, r, everyone, false, false, p.VotingEnd, testConfig(t)); err != nil || !ch {
		t.Fatal(ch, err)
	}
	if ch, err := Close(&late, r, everyone, false, false, p.VotingEnd.Add(2*h), testConfig(t)); err != nil || !ch {
		t.Fatal(ch, err)
	}
	a, _ := json.Marshal(onTime)
	b, _ := json.Marshal(late)
	if string(a) != string(b) {
		t.Errorf("a tally 2 h late differs:\non time %s\nlate    %s", a, b)
	}
	if !onTime.ClosedAt.Equal(p.VotingEnd) {
		t.Errorf("ClosedAt = %v; want the voting end %v", onTime.ClosedAt, p.VotingEnd)
	}
	again := onTime
	if ch, err := Close(&again, Reactions{Down: []string{"x", "y", "z"}}, everyone, false, false, p.VotingEnd.Add(3*h), testConfig(t)); err != nil || ch {
		t.Fatalf("second Close = %v, %v; want no change", ch, err)
	}
	if c, _ := json.Marshal(again); string(c) != string(a) {
		t.Errorf("second Close changed the proposal: %s", c)
	}
}

func TestWithdraw(t *testing.T) {
	cfg := testConfig(t)
	p, err := Submit(Submission{ID: "p1", Message: msg}, veteran("ada"), thursday, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		by   string
		at   time.Time
		want string
	}{
		{"someone else", "bo", thursday.Add(h), "not_author"},
		{"after the voting period", "ada", p.VotingEnd, "voting_ended"},
		{"the author, during voting", "ada", p.VotingEnd.Add(-1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := p
			err := Withdraw(&q, c.by, c.at)
			if code(err) != c.want {
				t.Fatalf("got %v; want %q", err, c.want)
			}
			if err == nil {
				if q.Status != StatusWithdrawn {
					t.Errorf("status = %q", q.Status)
				}
				if ch, err := Close(&q, Reactions{Up: []string{"a"}}, everyone, false, false, p.VotingEnd, testConfig(t)); ch || err != nil {
					t.Errorf("a withdrawn proposal was tallied: %v, %v", ch, err)
				}
				if code(Withdraw(&q, "ada", c.at)) != "not_open" {
					t.Errorf("withdrawing twice should be refused with not_open")
				}
			}
		})
	}
}

// TestR4_UrgentAgainstLimitIsRulesetData: the urgent class's "no more than
// two votes against" is read from the ruleset, so amending it changes which
// urgent proposals are popular.
func TestR4_UrgentAgainstLimitIsRulesetData(t *testing.T) {
	twoAgainst := Reactions{Up: []string{"a", "b", "c"}, Down: []string{"d", "e"}}
	oneAgainst := Reactions{Up: []string{"a", "b", "c"}, Down: []string{"d"}}
	for _, c := range []struct {
		limit    int
		r        Reactions
		popular  bool
		inReason string
	}{
		{2, twoAgainst, true, "at most 2 against"},
		{1, twoAgainst, false, "at most 1 against"},
		{1, oneAgainst, true, "at most 1 against"},
		{0, oneAgainst, false, "at most 0 against"},
		{0, Reactions{Up: []string{"a"}}, true, "at most 0 against"},
	} {
		rs, err := ruleset.Amend(testConfig(t).Ruleset, []byte(fmt.Sprintf(`{"thresholds":{"governance":{"urgentMaxAgainst":%d}}}`, c.limit)))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := NewConfig(rs, gameStart)
		if err != nil {
			t.Fatal(err)
		}
		res := Tally(c.r, everyone, false, false, Urgent, cfg)
		if res.Popular != c.popular || !strings.Contains(res.Reason, c.inReason) {
			t.Errorf("limit %d, %d against: popular %v (%s); want %v and %q", c.limit, res.Against, res.Popular, res.Reason, c.popular, c.inReason)
		}
		if std := Tally(c.r, everyone, false, false, Standard, cfg); std.Popular != (std.For > std.Against) {
			t.Errorf("the urgent limit changed a standard tally: %+v", std)
		}
	}
	if _, err := ruleset.Amend(testConfig(t).Ruleset, []byte(`{"thresholds":{"governance":{"urgentMaxAgainst":-1}}}`)); err == nil {
		t.Error("a negative limit was accepted")
	}
}
