package obelisk

import (
	"slices"
	"strings"
	"testing"
	"time"

	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

const cutTheObelisk = `{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":2,"herbs":1},"effects":[{"kind":"add-cuts","amount":1}]}`

// ---- O1: components and resolve ----

func TestO1_JoiningGrantsOneResolveAndNothingElse(t *testing.T) {
	rs := load(t)
	core, err := players.Join(nil, "ann", "Ann", monday, "2026-W49-I", rs.Durations.RejoinWait.Std(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	p := &Player{Player: *core, Components: Components{Crystals: 4}, Experience: map[string]int{"mining": 3}}
	ch := Join(p, rs, &Grants{})
	if p.Components != (Components{Resolve: 1}) || p.Experience != nil {
		t.Fatalf("a new player holds %s with experience %v; want 1⚡ and no experience", p.Components, p.Experience)
	}
	if len(ch) != 1 || ch[0] != (Delta{Player: "ann", Component: ruleset.Resolve, Amount: 1, Cause: CauseJoin}) {
		t.Errorf("join changes %v; want one +1⚡ for joining", ch)
	}
}

func TestO1_ComponentsByIDEmojiOrName(t *testing.T) {
	for ref, want := range map[string]string{
		"⚡": ruleset.Resolve, "💎": ruleset.Crystals, "🌿": ruleset.Herbs, "⚗️": ruleset.Reagents, "⚗": ruleset.Reagents,
		"🩸": ruleset.Blood, "❤️‍🔥": ruleset.Heart, "❤‍🔥": ruleset.Heart, "herbs": ruleset.Herbs, "Blood of Stone": ruleset.Blood,
	} {
		c, ok := ruleset.Component(ref)
		if !ok || c.ID != want {
			t.Errorf("component %q = %v, %v; want %s", ref, c.ID, ok, want)
		}
	}
	if _, ok := ruleset.Component("🍕"); ok {
		t.Error("🍕 is not a Ritual Component")
	}
	if got := (Components{Resolve: 1, Herbs: 5}).String(); got != "1⚡ 5🌿" {
		t.Errorf("components read %q", got)
	}
}

func TestO1_ResolveCannotBeTraded(t *testing.T) {
	rs := load(t)
	env := envAt(rs, "Calm Spring", monday)
	a, b := newPlayer("a", Components{Resolve: 3, Crystals: 2}), newPlayer("b", Components{Resolve: 1, Herbs: 4})
	re := refused(t, CheckTrade(a, b, Components{Resolve: 1}, Components{Herbs: 1}, env), "resolve_not_tradable")
	if !strings.Contains(re.Message, "⚡") {
		t.Errorf("refusal does not say ⚡: %s", re.Message)
	}
	refused(t, CheckTrade(a, b, Components{Crystals: 1}, Components{Resolve: 1}, env), "resolve_not_tradable")
	_, err := Swap(a, b, Components{Crystals: 1, Resolve: 1}, Components{Herbs: 1}, env)
	refused(t, err, "resolve_not_tradable")
	if a.Components != (Components{Resolve: 3, Crystals: 2}) || b.Components != (Components{Resolve: 1, Herbs: 4}) {
		t.Error("a refused trade changed holdings")
	}
	ch := must[[]Delta](t)(Swap(a, b, Components{Crystals: 1}, Components{Herbs: 3}, env))
	if a.Components != (Components{Resolve: 3, Crystals: 1, Herbs: 3}) || b.Components != (Components{Resolve: 1, Crystals: 1, Herbs: 1}) {
		t.Errorf("after 1💎 for 3🌿: a %s, b %s", a.Components, b.Components)
	}
	for _, d := range ch {
		if d.Cause != CauseTrade || d.Component == ruleset.Resolve {
			t.Errorf("trade change %v", d)
		}
	}
	_, err = Swap(a, b, Components{Crystals: 5}, Components{}, env)
	refused(t, err, "trade_items_missing")
	refused(t, CheckTrade(a, b, Components{Crystals: -1}, Components{Herbs: 1}, env), "invalid_trade")
	refused(t, CheckTrade(a, a, Components{Crystals: 1}, Components{}, env), "self_trade")
}

func TestO1_TradesNeedBothPlayersReputable(t *testing.T) {
	rs := load(t)
	now := monday
	env := envAt(rs, "Calm Spring", now)
	a, b := newPlayer("a", Components{Crystals: 2}), newPlayer("b", Components{Herbs: 4})
	b.JoinedAt = now.Add(-6 * 24 * time.Hour) // six days: not yet reputable, and long after the game started
	re := refused(t, CheckTrade(a, b, Components{Crystals: 1}, Components{}, env), "not_reputable")
	if !strings.Contains(re.Message, "Player b") {
		t.Errorf("refusal does not name the player: %s", re.Message)
	}
	env.Now = b.JoinedAt.Add(7 * 24 * time.Hour)
	if err := CheckTrade(a, b, Components{Crystals: 1}, Components{}, env); err != nil {
		t.Errorf("after 7 days both are reputable: %v", err)
	}
}

// ---- O2: tasks, effectiveness, experience, rounding ----

func TestO2_TaskNeedsAndCostsOneResolve(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	p := newPlayer("a", Components{})
	src := dice(t)
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskHerbalism}, src)
	refused(t, err, "no_resolve")
	if len(src.asked) != 0 || p.Experience != nil {
		t.Error("a refused task rolled or gained experience")
	}
	p.Components.Resolve = 1
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskHerbalism}, dice(t, 9)))
	// 9/4 = 2.25, rounded up: 3🌿.
	if p.Components != (Components{Herbs: 3}) || res.Spent != (Components{Resolve: 1}) || res.Gained != (Components{Herbs: 3}) {
		t.Errorf("herbalism with E=9: holds %s, spent %s, gained %s; want 0⚡ 3🌿", p.Components, res.Spent, res.Gained)
	}
	refused(t, func() error {
		_, err := Perform(&o, p, env, TaskRequest{Task: "fishing"}, dice(t))
		return err
	}(), "unknown_task")
}

func TestO2_MiningInWinterUsesSixteenPlusExperience(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{Resolve: 5})
	for i, season := range []string{"Winter", "Winter", "Calm Spring", "Long night", "Winter"} {
		src := dice(t, 1)
		res := must[TaskResult](t)(Perform(&o, p, envAt(rs, season, monday), TaskRequest{Task: ruleset.TaskMining}, src))
		want := 24 + i
		if season == "Winter" {
			want = 16 + i
		}
		if src.asked[0] != (draw{PurposeEffectiveness, want}) || res.Effectiveness.N != want {
			t.Errorf("mining #%d in %s rolled %v (result N %d); want 1d%d", i+1, season, src.asked, res.Effectiveness.N, want)
		}
		if res.Effectiveness.Modifiers[0] != (Modifier{"experience", i}) {
			t.Errorf("mining #%d modifiers %v; want experience %d first", i+1, res.Effectiveness.Modifiers, i)
		}
		if season == "Winter" && !slices.Contains(res.Effectiveness.Modifiers, Modifier{"Winter", -8}) {
			t.Errorf("winter mining modifiers %v lack Winter -8", res.Effectiveness.Modifiers)
		}
		if res.Experience != i+1 || p.Experience[ruleset.TaskMining] != i+1 {
			t.Errorf("experience after mining #%d is %d; want %d", i+1, p.Experience[ruleset.TaskMining], i+1)
		}
	}
}

func TestO2_QuantitiesAreExactThenRoundedUp(t *testing.T) {
	rs := load(t)
	cases := []struct {
		task   string
		inputs Components
		e      int
		want   Components
	}{
		// Mining: ceil(E/8 - 1), never below 0.
		{ruleset.TaskMining, Components{}, 1, Components{}},
		{ruleset.TaskMining, Components{}, 8, Components{}},
		{ruleset.TaskMining, Components{}, 9, Components{Crystals: 1}},
		{ruleset.TaskMining, Components{}, 16, Components{Crystals: 1}},
		{ruleset.TaskMining, Components{}, 17, Components{Crystals: 2}},
		{ruleset.TaskMining, Components{}, 24, Components{Crystals: 2}},
		// Herbalism: ceil(E/4).
		{ruleset.TaskHerbalism, Components{}, 1, Components{Herbs: 1}},
		{ruleset.TaskHerbalism, Components{}, 4, Components{Herbs: 1}},
		{ruleset.TaskHerbalism, Components{}, 5, Components{Herbs: 2}},
		{ruleset.TaskHerbalism, Components{}, 24, Components{Herbs: 6}},
		// Alchemy: ceil(E/24), with experience to roll above 24.
		{ruleset.TaskAlchemy, Components{Crystals: 1, Herbs: 5}, 1, Components{Reagents: 1}},
		{ruleset.TaskAlchemy, Components{Crystals: 1, Herbs: 5}, 24, Components{Reagents: 1}},
		{ruleset.TaskAlchemy, Components{Crystals: 1, Herbs: 5}, 25, Components{Reagents: 2}},
	}
	for _, c := range cases {
		o := NewObelisk(rs.Obelisk)
		p := newPlayer("a", c.inputs.Plus(Components{Resolve: 1}))
		p.Experience = map[string]int{c.task: 1} // N = 25, so E = 25 is possible
		res := must[TaskResult](t)(Perform(&o, p, envAt(rs, "Calm Spring", monday), TaskRequest{Task: c.task}, dice(t, c.e)))
		if res.Gained != c.want || p.Components != c.want {
			t.Errorf("%s with E=%d gained %s (holds %s); want %s (exact %s)", c.task, c.e, res.Gained, p.Components, c.want, res.Exact)
		}
	}
}

func TestO2_EffectivenessDieIsAtLeastOne(t *testing.T) {
	rs := load(t)
	rs.Obelisk.EffectivenessBase = 3 // an amended base: 3 - 8 in Winter
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{Resolve: 1})
	src := dice(t, 1)
	res := must[TaskResult](t)(Perform(&o, p, envAt(rs, "Winter", monday), TaskRequest{Task: ruleset.TaskMining}, src))
	if res.Effectiveness.N != 1 || src.asked[0].n != 1 {
		t.Errorf("N = %d; want the minimum 1", res.Effectiveness.N)
	}
}

// ---- O3: recipes ----

func TestO3_AlchemyConsumesItsRecipeWithTheTask(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	p := newPlayer("a", Components{Resolve: 1, Crystals: 1, Herbs: 4})
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskAlchemy}, dice(t))
	re := refused(t, err, "missing_inputs")
	if re.Fields["missing"] != (Components{Herbs: 1}) || !strings.Contains(re.Message, "1🌿") {
		t.Errorf("refusal does not name the missing 1🌿: %s %v", re.Message, re.Fields)
	}
	if p.Components != (Components{Resolve: 1, Crystals: 1, Herbs: 4}) {
		t.Error("refused alchemy changed holdings")
	}
	p.Components.Herbs = 7
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskAlchemy}, dice(t, 12)))
	if p.Components != (Components{Herbs: 2, Reagents: 1}) || res.Consumed != (Components{Crystals: 1, Herbs: 5}) {
		t.Errorf("after alchemy: holds %s, consumed %s; want 2🌿 1⚗️, consumed 1💎 5🌿", p.Components, res.Consumed)
	}
}

func TestO3_TheHeartNeedsTwoResolve(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	p := newPlayer("a", Components{Resolve: 1, Blood: 1, Reagents: 1})
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskHeart}, dice(t))
	re := refused(t, err, "missing_inputs")
	if re.Fields["missing"] != (Components{Resolve: 1}) {
		t.Errorf("the Heart with 1⚡ is missing %v; want 1⚡", re.Fields["missing"])
	}
	p.Components.Resolve = 2
	src := dice(t)
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskHeart}, src))
	if p.Components != (Components{Heart: 1}) || res.Effectiveness != nil || len(src.asked) != 0 {
		t.Errorf("after the Heart: holds %s (want 1❤️‍🔥 only), rolled %v (want no roll)", p.Components, src.asked)
	}
}

// ---- O4: boosts ----

func TestO4_GainsAreBoostedOnlyByARitual(t *testing.T) {
	rs := withRitual(t, load(t), `{"id":"blessing","name":"Blessing of the Quarries","cost":{"herbs":1},
		"effects":[{"kind":"boost","target":"starter","task":"mining"}]}`)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday.Add(time.Hour))
	p := newPlayer("a", Components{Resolve: 5, Herbs: 1})
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskMining}, dice(t, 9)))
	if res.Boosted || res.Gained != (Components{Crystals: 1}) {
		t.Fatalf("unboosted mining E=9 gained %s boosted=%v; want 1💎", res.Gained, res.Boosted)
	}
	g := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "blessing", Gathering: "g1"}, dice(t))).Gathering
	must[Moved](t)(Contribute(g, p, "🌿", env))
	must[Completed](t)(Complete(g, &o, p, []*Player{p}, env))
	res = must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskMining}, dice(t, 9)))
	if !res.Boosted || res.Gained != (Components{Crystals: 2}) {
		t.Errorf("boosted mining E=9 gained %s boosted=%v; want 1💎 + 1💎", res.Gained, res.Boosted)
	}
	res = must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskHerbalism}, dice(t, 4)))
	if res.Boosted {
		t.Error("a mining boost boosted herbalism")
	}
	env.Now = calendar.PhaseAt(env.Now).End // the boost lasts until the phase ends
	res = must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskMining}, dice(t, 9)))
	if res.Boosted {
		t.Error("the boost outlived its phase")
	}
}

// ---- O5: Blood Acquisition ----

func TestO5_BloodAcquisition(t *testing.T) {
	rs := load(t)
	env := envAt(rs, "Calm Spring", monday)
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{Resolve: 3})

	src := dice(t)
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBlood}, src))
	if p.Components != (Components{Resolve: 2}) || !res.Gained.IsZero() || res.Dice != nil || len(src.asked) != 0 {
		t.Errorf("with 0 Cuts: holds %s, gained %s, rolled %v; want 1⚡ spent, nothing rolled or gained", p.Components, res.Gained, src.asked)
	}
	// Nothing gained says why (issue 24 point 5).
	if got := res.Summary(); !strings.Contains(got, "gained nothing: the Obelisk has no Cuts") {
		t.Errorf("with 0 Cuts it reads %q", got)
	}
	o.Cuts, o.Distance = 2, 7
	if res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBlood}, dice(t, 3, 5))); !strings.Contains(res.Summary(), "rolled 2d7: 3, 5; gained nothing: no die showed 1") {
		t.Errorf("2d7 showing 3, 5 reads %q", res.Summary())
	}
	p.Components.Resolve++
	p.Experience[ruleset.TaskBlood]--

	o.Cuts, o.Distance = 3, 7
	src = dice(t, 1, 5, 1)
	res = must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBlood}, src))
	if res.Gained != (Components{Blood: 2}) || !slices.Equal(res.Dice.Values, []int{1, 5, 1}) || res.Dice.N != 3 || res.Dice.K != 7 {
		t.Errorf("3d7 showing 1,5,1 gained %s (dice %+v); want 2🩸", res.Gained, res.Dice)
	}
	for _, d := range src.asked {
		if d != (draw{PurposeBloodDie, 7}) {
			t.Errorf("blood die drawn as %v; want 1d7", d)
		}
	}

	o.Distance = 0
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBlood}, dice(t))
	refused(t, err, "obelisk_at_gates")
	if p.Components.Resolve != 1 || p.Experience[ruleset.TaskBlood] != 2 {
		t.Error("a refused Blood Acquisition cost ⚡ or gave experience")
	}
}

// ---- O6: the Obelisk and its weekly observation ----

func TestO6_ObservationOncePerWeekMovesTheObeliskAndGrantsResolve(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	if o.Distance != 10 || o.Cuts != 0 || len(o.Grebes) != 0 {
		t.Fatalf("the Obelisk starts at %d km, %d Cuts, Grebes %v; want 10 km, none", o.Distance, o.Cuts, o.Grebes)
	}
	a, b, gone := newPlayer("a", Components{}), newPlayer("b", Components{Resolve: 2}), newPlayer("c", Components{})
	gone.Member = false
	roster := []*Player{a, b, gone}
	o.Cuts = 4
	env := envAt(rs, "Calm Spring", monday.Add(50*time.Hour))
	src := dice(t, 4)
	res := must[Observation](t)(Observe(&o, b, env, src))
	for _, p := range roster {
		CatchUp(p, &o.Grants, env.Now)
	}
	if src.asked[0] != (draw{PurposeObservation, 4}) || res.Moved != 4 || o.Distance != 6 || res.Summon != nil {
		t.Errorf("observation with 4 Cuts: drew %v, moved %d to %d km, summon %v; want 1d4, 4 km closer to 6 km, no Grebe", src.asked, res.Moved, o.Distance, res.Summon)
	}
	if a.Components.Resolve != 1 || b.Components.Resolve != 3 || gone.Components.Resolve != 0 {
		t.Errorf("after the observation: a %s, b %s, non-player %s; want every player +1⚡", a.Components, b.Components, gone.Components)
	}

	// A second observation that week, by anyone, is refused with the next week's start.
	env.Now = monday.Add(7*24*time.Hour - time.Second)
	_, err := Observe(&o, a, env, dice(t))
	re := refused(t, err, "already_observed")
	next := monday.Add(7 * 24 * time.Hour)
	if re.Fields["possible_at"] != next || !strings.Contains(re.Message, "Player b") || !strings.Contains(re.Message, "Mon, 07 Dec 2026 00:00:00 UTC") {
		t.Errorf("second observation refusal: %s %v; want who observed and Mon 7 Dec 00:00 UTC", re.Message, re.Fields)
	}
	CatchUp(a, &o.Grants, env.Now)
	if a.Components.Resolve != 1 || o.Distance != 6 || o.Grants.Seq != 1 {
		t.Error("the refused observation changed state")
	}

	// Next week: allowed again; the Obelisk never goes below 0 km.
	env.Now = next
	res = must[Observation](t)(Observe(&o, a, env, dice(t, 4)))
	o.LastObservation.Week = "" // and once more, to cross 0
	res = must[Observation](t)(Observe(&o, a, env, dice(t, 4)))
	if o.Distance != 0 || res.Moved != 2 {
		t.Errorf("from 2 km a roll of 4 moved %d to %d km; want 2 km to 0", res.Moved, o.Distance)
	}
}

func TestO6_ObservationDieIsTheCutsLessOneInWinter(t *testing.T) {
	rs := load(t)
	for _, c := range []struct {
		cuts   int
		season string
		n      int
	}{{0, "Calm Spring", 1}, {1, "Calm Spring", 1}, {3, "Calm Spring", 3}, {3, "Winter", 2}, {1, "Winter", 1}, {0, "Winter", 1}, {2, "Long night", 2}} {
		o := NewObelisk(rs.Obelisk)
		o.Cuts = c.cuts
		src := dice(t, 1)
		res := must[Observation](t)(Observe(&o, newPlayer("a", Components{}), envAt(rs, c.season, monday), src))
		if res.Roll.N != c.n || src.asked[0].n != c.n {
			t.Errorf("%d Cuts in %s: 1d%d; want 1d%d", c.cuts, c.season, res.Roll.N, c.n)
		}
	}
}

// ---- O7: Grebes ----

func TestO7_AnOddObservationRollSummonsANumberedGrebe(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	o.Cuts = 6
	p := newPlayer("a", Components{})
	for i, face := range []int{3, 2, 5} {
		env := envAt(rs, "Calm Spring", monday.AddDate(0, 0, 7*i))
		must[Observation](t)(Observe(&o, p, env, dice(t, face)))
	}
	if got := o.AidingObelisk(); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("after rolls 3, 2, 5 the Grebes aiding the Obelisk are %v; want 1, 2", got)
	}
}

func TestO7_TheSixthGrebeCeasesToExist(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk) // 0 Cuts: 1d1, always 1, always odd
	p := newPlayer("a", Components{})
	var last Observation
	for i := range 6 {
		last = must[Observation](t)(Observe(&o, p, envAt(rs, "Calm Spring", monday.AddDate(0, 0, 7*i)), dice(t, 1)))
	}
	if got := o.AidingObelisk(); !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("Grebes aiding the Obelisk %v; want 1-5", got)
	}
	if last.Summon == nil || !last.Summon.CeasedToExist || last.Summon.Number != 6 {
		t.Errorf("the sixth summon %+v; want Grebe 6, ceased to exist", last.Summon)
	}
}

func TestO7_ABanishedPlayerBefriendsAGrebe(t *testing.T) {
	rs := load(t)
	o := NewObelisk(rs.Obelisk)
	o.Grebes = []Grebe{{Number: 1}, {Number: 2}}
	o.Summoned = 2
	env := envAt(rs, "Calm Spring", monday)
	p := newPlayer("a", Components{Resolve: 5})
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBefriend, Grebe: 1}, dice(t))
	refused(t, err, "not_banished")
	must[Banished](t)(Banish(p, 48*time.Hour, "prop-1", monday))
	_, err = Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBefriend, Grebe: 7}, dice(t))
	refused(t, err, "no_such_grebe")

	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBefriend, Grebe: 2}, dice(t, 10)))
	if res.Success || p.Grebe != 0 || p.Components.Resolve != 4 {
		t.Errorf("Effectiveness 10 befriended (%v) — it must be greater than 10; ⚡ %d", res.Success, p.Components.Resolve)
	}
	res = must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBefriend, Grebe: 2}, dice(t, 11)))
	if !res.Success || p.Grebe != 2 || !slices.Equal(o.AidingObelisk(), []int{1}) {
		t.Errorf("Effectiveness 11: success %v, player's Grebe %d, aiding Obelisk %v", res.Success, p.Grebe, o.AidingObelisk())
	}
	_, err = Perform(&o, p, env, TaskRequest{Task: ruleset.TaskBefriend, Grebe: 1}, dice(t))
	refused(t, err, "has_grebe")
}

// ---- O8: ritual types and Start a Gathering ----

func TestO8_RitualTypesComeFromRulesetData(t *testing.T) {
	rs := load(t)
	if len(rs.Obelisk.RitualTypes) != 0 {
		t.Fatalf("seed 002 names no ritual type; the default data has %v", rs.Obelisk.RitualTypes)
	}
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{Resolve: 2})
	_, err := Perform(&o, p, envAt(rs, "Calm Spring", monday), TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1"}, dice(t))
	refused(t, err, "unknown_ritual_type")
	if p.Components.Resolve != 2 {
		t.Error("refused start cost ⚡")
	}
	rs = withRitual(t, rs, cutTheObelisk)
	env := envAt(rs, "Calm Spring", monday.Add(30*time.Hour))
	res := must[TaskResult](t)(Perform(&o, p, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1", Message: "msg-9"}, dice(t)))
	g := res.Gathering
	if p.Components.Resolve != 1 || p.Experience[ruleset.TaskGathering] != 1 {
		t.Errorf("starting a Gathering is a task: ⚡ %d, experience %d", p.Components.Resolve, p.Experience[ruleset.TaskGathering])
	}
	if g.Status != StatusOpen || g.Starter != "a" || g.Message != "msg-9" || g.Ritual.Cost != (Components{Crystals: 2, Herbs: 1}) ||
		!g.Ends.Equal(monday.Add(4*24*time.Hour)) || g.Period != "2026-W49-I" {
		t.Errorf("new Gathering %+v", g)
	}
}

func TestO8_NamedTargetWhenTheRitualNeedsOne(t *testing.T) {
	rs := withRitual(t, load(t), `{"id":"pardon","name":"Pardon","cost":{"heart":1},"effects":[{"kind":"end-banishment","target":"named"}]}`)
	rs = withRitual(t, rs, cutTheObelisk)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	p := newPlayer("a", Components{Resolve: 3})
	_, err := Perform(&o, p, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "pardon", Gathering: "g1"}, dice(t))
	refused(t, err, "target_required")
	_, err = Perform(&o, p, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1", Named: "b"}, dice(t))
	refused(t, err, "no_target")
	if p.Components.Resolve != 3 {
		t.Error("refused starts cost ⚡")
	}
}

// ---- O9: contributing and withdrawing ----

func TestO9_ContributeRevokesOneAndWithdrawGivesItBack(t *testing.T) {
	rs := withRitual(t, load(t), cutTheObelisk)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	starter := newPlayer("s", Components{Resolve: 1})
	g := must[TaskResult](t)(Perform(&o, starter, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1"}, dice(t))).Gathering
	a := newPlayer("a", Components{Crystals: 3})

	m := must[Moved](t)(Contribute(g, a, "💎", env))
	if a.Components.Crystals != 2 || m.Contributed != (Components{Crystals: 1}) || m.Covered {
		t.Errorf("after contributing 💎: holds %s, contributed %s", a.Components, m.Contributed)
	}
	_, err := Contribute(g, a, "crystals", env)
	refused(t, err, "already_contributing")
	_, err = Contribute(g, a, "🌿", env)
	refused(t, err, "no_component")
	_, err = Contribute(g, a, "🍕", env)
	refused(t, err, "unknown_component")
	_, err = Withdraw(g, a, "🌿", env)
	refused(t, err, "not_contributing")

	must[Moved](t)(Withdraw(g, a, "💎", env))
	if a.Components.Crystals != 3 || !g.Contributed().IsZero() {
		t.Errorf("after withdrawing: holds %s, gathering has %s", a.Components, g.Contributed())
	}
	_, err = Withdraw(g, a, "💎", env)
	refused(t, err, "not_contributing")
	must[Moved](t)(Contribute(g, a, "💎", env)) // a former Contributor may contribute again
	kinds := []string{}
	for _, e := range g.Ledger {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []string{EntryContributed, EntryWithdrew, EntryContributed}) {
		t.Errorf("ledger %v", kinds)
	}
}

// ---- O10: completion and failure ----

func TestO10_OnlyTheStarterCompletesOnceWhileTheCostIsCovered(t *testing.T) {
	rs := withRitual(t, load(t), `{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":2,"herbs":1},
		"prerequisites":[{"kind":"max-distance","amount":9}],"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"herbs":2}}]}`)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	s := newPlayer("s", Components{Resolve: 1, Herbs: 1})
	a, b := newPlayer("a", Components{Crystals: 1}), newPlayer("b", Components{Crystals: 1})
	g := must[TaskResult](t)(Perform(&o, s, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1"}, dice(t))).Gathering
	roster := []*Player{s, a, b}
	must[Moved](t)(Contribute(g, a, "💎", env))
	must[Moved](t)(Contribute(g, s, "🌿", env))
	_, err := Complete(g, &o, s, roster, env)
	re := refused(t, err, "cost_not_covered")
	if re.Fields["missing"] != (Components{Crystals: 1}) {
		t.Errorf("missing %v; want 1💎", re.Fields["missing"])
	}
	must[Moved](t)(Contribute(g, b, "💎", env))
	_, err = Complete(g, &o, a, roster, env)
	refused(t, err, "not_starter")
	_, err = Complete(g, &o, s, roster, env)
	refused(t, err, "prerequisite_unmet") // the Obelisk is 10 km away
	o.Distance = 9
	c := must[Completed](t)(Complete(g, &o, s, roster, env))
	if o.Cuts != 1 || g.Status != StatusCompleted || c.Spent != (Components{Crystals: 2, Herbs: 1}) {
		t.Errorf("after completion: %d Cuts, status %s, spent %s", o.Cuts, g.Status, c.Spent)
	}
	if a.Components != (Components{Herbs: 2}) || s.Components != (Components{Herbs: 2}) || b.Components != (Components{Herbs: 2}) {
		t.Errorf("grant to contributors: a %s, s %s, b %s; want 2🌿 each and the contributions spent", a.Components, s.Components, b.Components)
	}
	_, err = Complete(g, &o, s, roster, env)
	refused(t, err, "gathering_completed")
	_, err = Withdraw(g, a, "💎", env)
	refused(t, err, "gathering_completed")
	if o.Cuts != 1 {
		t.Error("a second completion applied the effect again")
	}
}

func TestO10_AtThePhaseEndAGatheringFailsAndRefundsEveryContributor(t *testing.T) {
	rs := withRitual(t, load(t), cutTheObelisk)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday.Add(96*time.Hour+time.Hour)) // Friday 01:00: Phase II
	s := newPlayer("s", Components{Resolve: 1, Herbs: 2})
	a := newPlayer("a", Components{Crystals: 2, Herbs: 1})
	g := must[TaskResult](t)(Perform(&o, s, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1"}, dice(t))).Gathering
	if !g.Ends.Equal(monday.AddDate(0, 0, 7)) {
		t.Fatalf("a Phase II Gathering ends %v; want the next Monday 00:00", g.Ends)
	}
	before := map[string]Components{"s": s.Components, "a": a.Components}
	must[Moved](t)(Contribute(g, a, "💎", env))
	must[Moved](t)(Contribute(g, a, "🌿", env))
	must[Moved](t)(Contribute(g, s, "🌿", env))
	must[Moved](t)(Withdraw(g, a, "🌿", env))
	must[Moved](t)(Contribute(g, a, "🌿", env))

	_, err := Fail(g, []*Player{s, a}, g.Ends.Add(-time.Second))
	refused(t, err, "not_due")
	env.Now = g.Ends
	_, err = Contribute(g, s, "🌿", env)
	refused(t, err, "gathering_failed")
	_, err = Complete(g, &o, s, []*Player{s, a}, env)
	refused(t, err, "gathering_failed")

	f := must[Failed](t)(Fail(g, []*Player{s, a}, g.Ends.Add(3*time.Hour))) // the job ran late
	if !f.Applied || g.Status != StatusFailed || s.Components != before["s"] || a.Components != before["a"] {
		t.Errorf("after failure: s %s (was %s), a %s (was %s)", s.Components, before["s"], a.Components, before["a"])
	}
	f = must[Failed](t)(Fail(g, []*Player{s, a}, g.Ends.Add(4*time.Hour)))
	if f.Applied || s.Components != before["s"] || a.Components != before["a"] {
		t.Error("failing twice refunded twice")
	}
	for _, e := range g.Ledger {
		if e.Kind == EntryRefunded && !e.At.Equal(g.Ends) {
			t.Errorf("refund dated %v; want the phase end %v (T4)", e.At, g.Ends)
		}
	}
	if o.Cuts != 0 {
		t.Error("a failed Gathering applied its effect")
	}
}

// ---- O11: banishment ----

func TestO11_WhatABanishedPlayerCannotDo(t *testing.T) {
	rs := withRitual(t, load(t), cutTheObelisk)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	s := newPlayer("s", Components{Resolve: 3, Crystals: 2, Herbs: 1})
	x := newPlayer("x", Components{Resolve: 3, Crystals: 3, Herbs: 3})
	y := newPlayer("y", Components{Crystals: 1})
	g := must[TaskResult](t)(Perform(&o, s, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g1"}, dice(t))).Gathering
	must[Moved](t)(Contribute(g, x, "💎", env))
	must[Banished](t)(Banish(x, 72*time.Hour, "prop-1", monday))

	_, err := Perform(&o, x, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "cut-the-obelisk", Gathering: "g2"}, dice(t))
	refused(t, err, "banished")
	_, err = Contribute(g, x, "🌿", env)
	refused(t, err, "banished")
	must[Moved](t)(Withdraw(g, x, "💎", env)) // withdrawing is not forbidden
	refused(t, CheckTrade(x, y, Components{Crystals: 1}, Components{}, env), "banished")
	refused(t, CheckTrade(y, x, Components{Crystals: 1}, Components{}, env), "banished")
	must[Banished](t)(Banish(y, 24*time.Hour, "prop-2", monday))
	if err := CheckTrade(x, y, Components{Crystals: 1}, Components{}, env); err != nil {
		t.Errorf("two banished players may trade: %v", err)
	}
	must[TaskResult](t)(Perform(&o, x, env, TaskRequest{Task: ruleset.TaskMining}, dice(t, 9))) // tasks are not forbidden

	must[Banished](t)(Banish(s, 24*time.Hour, "prop-3", monday))
	must[Moved](t)(Contribute(g, newPlayer("z", Components{Crystals: 2, Herbs: 1}), "💎", env))
	_, err = Complete(g, &o, s, nil, env)
	refused(t, err, "banished")
}

func TestO11_BanishmentEndsByCommandAfterItsDuration(t *testing.T) {
	p := newPlayer("x", Components{})
	_, err := Banish(p, 0, "prop-1", monday)
	refused(t, err, "invalid_duration")
	b := must[Banished](t)(Banish(p, 72*time.Hour, "prop-1", monday))
	if !b.EndsAt.Equal(monday.Add(72 * time.Hour)) {
		t.Errorf("banishment ends %v", b.EndsAt)
	}
	re := refused(t, EndBanishment(p, monday.Add(72*time.Hour-time.Second)), "banishment_not_over")
	if re.Fields["possible_at"] != monday.Add(72*time.Hour) {
		t.Errorf("refusal says %v; want the moment it becomes possible", re.Fields)
	}
	if err := EndBanishment(p, monday.Add(72*time.Hour)); err != nil || p.Banished() {
		t.Errorf("ending after exactly the duration: %v, banished %v", err, p.Banished())
	}
	refused(t, EndBanishment(p, monday.Add(80*time.Hour)), "not_banished")
	gone := newPlayer("g", Components{})
	gone.Member = false
	_, err = Banish(gone, time.Hour, "prop-2", monday)
	refused(t, err, "not_a_player")
}

func TestO11_ARitualCanEndABanishment(t *testing.T) {
	rs := withRitual(t, load(t), `{"id":"pardon","name":"Pardon","cost":{"heart":1},"effects":[{"kind":"end-banishment","target":"named"}]}`)
	o := NewObelisk(rs.Obelisk)
	env := envAt(rs, "Calm Spring", monday)
	s := newPlayer("s", Components{Resolve: 1, Heart: 1})
	x := newPlayer("x", Components{})
	must[Banished](t)(Banish(x, 30*24*time.Hour, "prop-1", monday))
	g := must[TaskResult](t)(Perform(&o, s, env, TaskRequest{Task: ruleset.TaskGathering, RitualType: "pardon", Gathering: "g1", Named: "x"}, dice(t))).Gathering
	if ids := g.Players(); !slices.Equal(ids, []string{"s", "x"}) {
		t.Errorf("the Gathering concerns %v", ids)
	}
	must[Moved](t)(Contribute(g, s, "❤️‍🔥", env))
	must[Completed](t)(Complete(g, &o, s, []*Player{s, x}, env))
	if x.Banished() {
		t.Error("the Pardon did not end the banishment")
	}
}

// ---- O12: seasons ----

func TestO12_SeasonsAndTheirParts(t *testing.T) {
	rs := load(t)
	if !slices.Equal(calendar.Seasons, []string{"Calm Spring", "Winter", "Long night"}) {
		t.Fatalf("seasons %v", calendar.Seasons)
	}
	// A game started on a Monday in Calm Spring is in Winter the next week.
	if s := calendar.SeasonAt("Calm Spring", monday, monday.AddDate(0, 0, 7)); s != "Winter" {
		t.Fatalf("second week is %s", s)
	}
	// "During late Winter" (Phase II only): an amended modifier.
	rs.Obelisk.Tasks.Herbalism.SeasonModifiers = []ruleset.SeasonModifier{{Season: "Winter", Part: ruleset.SeasonLate, Modifier: -4}}
	o := NewObelisk(rs.Obelisk)
	p := newPlayer("a", Components{Resolve: 3})
	for _, c := range []struct {
		at     time.Time
		season string
		n      int
	}{{monday.Add(24 * time.Hour), "Winter", 24}, {monday.Add(5 * 24 * time.Hour), "Winter", 21}, {monday.Add(5 * 24 * time.Hour), "Long night", 26}} {
		res := must[TaskResult](t)(Perform(&o, p, envAt(rs, c.season, c.at), TaskRequest{Task: ruleset.TaskHerbalism}, dice(t, 1)))
		if res.Effectiveness.N != c.n {
			t.Errorf("herbalism in %s at %v: 1d%d (%v); want 1d%d", c.season, c.at, res.Effectiveness.N, res.Effectiveness.Modifiers, c.n)
		}
	}
	// A season that cannot be determined is Calm Spring: no Winter modifier.
	src := dice(t, 1)
	must[TaskResult](t)(Perform(&o, newPlayer("b", Components{Resolve: 1}), envAt(rs, "", monday), TaskRequest{Task: ruleset.TaskMining}, src))
	if src.asked[0].n != 24 {
		t.Errorf("mining in an undetermined season rolled 1d%d; want 1d24 (Calm Spring)", src.asked[0].n)
	}
}
