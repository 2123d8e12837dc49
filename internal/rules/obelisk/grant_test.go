package obelisk

import (
	"encoding/json"
	"testing"
	"time"

	"croupier/internal/ruleset"
)

// ---- O6/O8: grants to every player are game-level (grant.go) ----

func TestO6_TheObservationsResolveIsAGrantEveryMemberCatchesUpWithOnce(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	a, b := newPlayer("a", Components{}), newPlayer("b", Components{Resolve: 2})
	a.Grants, b.Grants = o.Grants.Mark(), o.Grants.Mark()
	for i := range 3 {
		must[Observation](t)(Observe(&o, a, envAt(rs, "Calm Spring", monday.AddDate(0, 0, 7*i)), dice(t, 1)))
	}
	if a.Components.Resolve != 0 || b.Components.Resolve != 2 {
		t.Fatalf("an observation wrote the players: a %s, b %s", a.Components, b.Components)
	}
	stale := o.Grants // as read before the third observation by a slow reader
	stale.Seq, stale.Total = 2, Components{Resolve: 2}
	now := monday.AddDate(0, 0, 15)
	ch := CatchUp(a, &o.Grants, now)
	if a.Components.Resolve != 3 || len(ch) != 1 || ch[0] != (Delta{Player: "a", Component: ruleset.Resolve, Amount: 3, Cause: CauseGrant}) {
		t.Errorf("a caught up with three observations: holds %s, changes %v; want 3⚡ from one grant delta", a.Components, ch)
	}
	if CatchUp(a, &o.Grants, now) != nil || CatchUp(a, &stale, now) != nil || a.Components.Resolve != 3 || a.Grants.Seq != 3 {
		t.Errorf("catching up again, or with older grants, changed a: %s at grant %d", a.Components, a.Grants.Seq)
	}
	CatchUp(b, &stale, now) // b reads the older grants first, then the newer
	CatchUp(b, &o.Grants, now)
	if b.Components.Resolve != 5 {
		t.Errorf("b caught up in two steps holds %s; want 2⚡ + 3⚡", b.Components)
	}
}

func TestO6_AJoinerGetsNoEarlierGrantAndARejoinerNoneFromBeforeTheRejoin(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	a := newPlayer("a", Components{})
	Join(a, rs, &o.Grants)
	must[Observation](t)(Observe(&o, a, envAt(rs, "Calm Spring", monday), dice(t, 1)))
	late := newPlayer("late", Components{})
	Join(late, rs, &o.Grants)
	CatchUp(late, &o.Grants, monday)
	if late.Components != (Components{Resolve: 1}) {
		t.Errorf("a player who joined after the observation holds %s; want only the join's 1⚡", late.Components)
	}
	// a leaves with what the grant gave them, and rejoins.
	CatchUp(a, &o.Grants, monday)
	left := Leave(a, &o)
	if len(left) != 1 || left[0].Amount != -2 {
		t.Errorf("leaving destroyed %v; want the join's and the observation's 2⚡", left)
	}
	a.Member = false
	if CatchUp(a, &o.Grants, monday) != nil {
		t.Error("a non-member caught up with a grant")
	}
	must[Observation](t)(Observe(&o, late, envAt(rs, "Calm Spring", monday.AddDate(0, 0, 7)), dice(t, 1)))
	a.Member = true
	Join(a, rs, &o.Grants)
	CatchUp(a, &o.Grants, monday.AddDate(0, 0, 7))
	CatchUp(late, &o.Grants, monday.AddDate(0, 0, 7))
	if a.Components != (Components{Resolve: 1}) || late.Components != (Components{Resolve: 2}) {
		t.Errorf("after the second observation: rejoiner %s, member %s; want 1⚡ (a new stint), 2⚡", a.Components, late.Components)
	}
}

func TestO6_TheGrantsStayOneSizeWhateverTheirNumber(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{})
	size := func() int { b, _ := json.Marshal(o); return len(b) }
	var first int
	for i := range 2000 {
		must[Observation](t)(Observe(&o, p, envAt(rs, "Calm Spring", monday.AddDate(0, 0, 7*i)), dice(t, 1)))
		o.Grebes = nil // the Grebes' cap is not what this measures
		if i == 9 {
			first = size()
		}
	}
	// Only the numbers' digits grow: 10 grants and 2000 differ by a few bytes.
	if n := size(); n > first+16 {
		t.Errorf("the Obelisk is %d bytes after 2000 grants, %d after 10: the grants grow with their number", n, first)
	}
	CatchUp(p, &o.Grants, monday)
	if p.Components.Resolve != 2000 {
		t.Errorf("a player who never caught up holds %s after 2000 observations; want 2000⚡", p.Components)
	}
}

func TestO8_AnEveryPlayerRitualIsAGameLevelGrant(t *testing.T) {
	rs := withRitual(t, load(t), `{"id":"boon","name":"Boon","cost":{"heart":1},"effects":[
		{"kind":"grant","target":"every-player","components":{"crystals":2,"herbs":1}},
		{"kind":"boost","target":"every-player","task":"mining"},
		{"kind":"end-banishment","target":"every-player"}]}`)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday.Add(time.Hour))
	s := newPlayer("s", Components{Resolve: 1, Heart: 1})
	x, y := newPlayer("x", Components{}), newPlayer("y", Components{})
	for _, p := range []*Player{s, x, y} {
		p.Grants = o.Grants.Mark()
	}
	must[Banished](t)(Banish(x, 30*24*time.Hour, "prop-1", monday))
	g := must[TaskResult](t)(Perform(&o, s, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "boon", Gathering: "g1"}, dice(t))).Gathering
	must[Moved](t)(Contribute(g, s, "❤️‍🔥", env))
	c := must[Completed](t)(Complete(g, &o, s, []*Player{s}, env))
	if x.Components != (Components{}) || x.Banished() == false || len(c.Changes) != 0 {
		t.Fatalf("the completion wrote players: x %s banished %v, changes %v", x.Components, x.Banished(), c.Changes)
	}
	for i, e := range c.Effects {
		if e.Grant == nil || e.Grant.Seq != i+1 {
			t.Errorf("effect %s: grant %+v; want game-level grant %d", e.Kind, e.Grant, i+1)
		}
	}
	if c.Effects[0].Grant.EveryMember != (Components{Crystals: 2, Herbs: 1}) {
		t.Errorf("the grant says every member gains %s; want 2💎 1🌿", c.Effects[0].Grant.EveryMember)
	}
	later := env.Now.Add(time.Hour)
	must[Banished](t)(Banish(y, 30*24*time.Hour, "prop-2", later)) // banished after the ritual: not ended by it
	for _, p := range []*Player{x, y} {
		CatchUp(p, &o.Grants, later)
		if p.Components != (Components{Crystals: 2, Herbs: 1}) || len(p.Boosts) != 1 || p.Boosts[0].Task != ruleset.TaskMining {
			t.Errorf("%s caught up: holds %s, boosts %v; want 2💎 1🌿 and Mining Boosted", p.ID, p.Components, p.Boosts)
		}
	}
	if x.Banished() || !y.Banished() {
		t.Errorf("after catching up: x banished %v (before the ritual), y %v (after it); want false, true", x.Banished(), y.Banished())
	}
	// A boost that ran out by the time of the catch-up is not given.
	z := newPlayer("z", Components{})
	CatchUp(z, &o.Grants, g.Ends)
	if len(z.Boosts) != 0 || z.Components != (Components{Crystals: 2, Herbs: 1}) {
		t.Errorf("caught up after the phase end: boosts %v, holds %s", z.Boosts, z.Components)
	}
}
