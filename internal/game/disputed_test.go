package game_test

import (
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/gametest"
	"croupier/internal/rules/governance"
)

// Issue 25 in the other rulesets (RULINGS G4, with seed 003's "the rules in
// effect at the time of the disputed game action"): a request for justice
// names the moment it disputes, as a time or a log entry, or disputes the
// moment it is made; the request's views show the ruleset in effect then
// (how many amendments had applied, those made since), which is the
// ruleset of the game read at that moment. A moment no read of the past
// could show is refused.
func TestG4_ARequestForJusticeNamesItsDisputedMomentAndShowsTheRulesThen(t *testing.T) {
	g := newGov(t)
	g.Elect(pl(10))
	lastEntry := func(command string) game.Entry {
		es := g.Entries()
		for i := len(es) - 1; i >= 0; i-- {
			if es[i].Command == command {
				return es[i]
			}
		}
		t.Fatalf("no %s in the log", command)
		return game.Entry{}
	}
	g.Clk.Set(g.Clk.Now().Add(time.Hour))
	g.Must(g.Svc.Amend(g.Ctx, req(admin, "a1"), game.Amend{Patch: priceOp("chip", 20), Reason: "ruling 1"}))
	first := lastEntry("amend")
	g.Clk.Set(g.Clk.Now().Add(time.Hour))
	between := g.Clk.Now()
	g.Clk.Set(g.Clk.Now().Add(time.Hour))
	g.Must(g.Svc.Amend(g.Ctx, req(admin, "a2"), game.Amend{Patch: priceOp("random-card", 2), Reason: "ruling 2"}))
	g.Clk.Set(g.Clk.Now().Add(time.Hour))
	for i, c := range []struct {
		at, moment string
		amended    int
	}{
		{"", game.Moment{At: g.Clk.Now()}.String(), 2},
		{between.Format(time.RFC3339), game.Moment{At: between}.String(), 1},
		{first.ID, "before:" + first.ID, 0},
		{"after:" + first.ID, "after:" + first.ID, 1},
	} {
		res := g.Must(g.Svc.RequestJustice(g.Ctx, req(pl(11), "rq"+c.moment), game.RequestJustice{Kind: governance.KindStatement,
			Text: "The chip was sold at the wrong price.", Message: msg("rq" + string(rune('a'+i))), At: c.at}))
		rq := gametest.Decode[game.JusticeRecord](t, res)
		if says := g.Svc.Registry.Says("justice-request", res.Body, func(id string) string { return id }); c.at != "" && !strings.Contains(says, "The Judge considers the rules in effect at") {
			t.Errorf("the request's answer says %q", says)
		}
		v, err := g.Svc.JusticeRequest(g.Ctx, "hall", rq.Request.ID)
		if err != nil {
			t.Fatal(err)
		}
		rt := v.RulesInEffect
		if rt == nil || rt.Moment != c.moment || rt.Amended != c.amended || len(rt.Since) != 2-c.amended {
			t.Fatalf("request disputing %q shows the rules %+v; want at %s, %d amendments applied", c.at, rt, c.moment, c.amended)
		}
		// The same as the game read at that moment.
		m, _ := game.ParseMoment(rt.Moment)
		past, _, err := g.Svc.Past(g.Ctx, "hall", m)
		if err != nil {
			t.Fatal(err)
		}
		then, err := past.Ruleset(g.Ctx, "hall")
		if err != nil {
			t.Fatal(err)
		}
		now, _ := g.Svc.Ruleset(g.Ctx, "hall")
		if c.amended > 0 && then.Version != rt.Version || c.amended == 0 && then.Version != now.Version-2 {
			t.Errorf("request disputing %q: version %d then; the ruleset read then is version %d", c.at, rt.Version, then.Version)
		}
		if c.moment == "after:"+first.ID {
			if w := rt.Words(); !strings.Contains(w, "the ruleset as amended 1 time (version") || !strings.Contains(w, "amended since: Random Card costs 2 Vertebrae") {
				t.Errorf("the rules then read %q", w)
			}
		}
	}
	all, err := g.Svc.JusticeRequests(g.Ctx, "hall", "")
	if err != nil || len(all) != 4 || all[3].RulesInEffect == nil || all[3].Disputed == nil || all[3].Disputed.Moment != "after:"+first.ID {
		t.Fatalf("the requests' list: %+v %v", all, err)
	}
	for at, code := range map[string]string{
		g.Clk.Now().Add(time.Hour).Format(time.RFC3339): "moment_in_future",
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":                    "entry_not_found",
		"yesterday":                                     "bad_moment",
	} {
		_, err := g.Svc.RequestJustice(g.Ctx, req(pl(11), "bad"+at), game.RequestJustice{Kind: governance.KindStatement, Text: "Wrong.", Message: msg("bad" + at), At: at})
		if gametest.RuleCode(err) != code {
			t.Errorf("a request disputing %q: %v; want %s", at, err, code)
		}
	}
}
