package obelisk

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"

	"pgregory.net/rapid"
)

// machine is a random Obelisk game at the rules level: its state, and what
// the test expects of it (holdings rebuilt from the reported changes).
type machine struct {
	rs      *ruleset.Ruleset
	seed    fair.Seed
	start   time.Time
	now     time.Time
	step    int
	obelisk Obelisk
	players []*Player
	gs      []*Gathering

	// expected holdings: the start plus every reported Delta.
	expect map[string]Components
	// per Gathering, the deltas of its contributions, withdrawals and refunds.
	gDeltas     map[string][]Delta
	completions map[string]int
}

// allowed is which causes each operation may report.
var allowed = map[string][]string{
	"task":       {CauseTask, CauseRecipe, CauseYield},
	"observe":    {CauseObservation},
	"trade":      {CauseTrade},
	"contribute": {CauseContribution},
	"withdraw":   {CauseWithdrawal},
	"complete":   {CauseRitual},
	"fail":       {CauseRefund},
	"rejoin":     {CauseLeave, CauseJoin},
}

func newMachine(t *rapid.T) *machine {
	rs, err := ruleset.Load("obelisk")
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range []string{
		`{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"crystals":2,"herbs":1},
		  "effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"herbs":1}}]}`,
		`{"id":"beacon","name":"Beacon","cost":{"resolve":1,"reagents":1},"prerequisites":[{"kind":"min-contributors","amount":1}],
		  "effects":[{"kind":"move-away","amount":2},{"kind":"summon-grebes","amount":2},{"kind":"grant","target":"every-player","components":{"crystals":1}},
		  {"kind":"boost","target":"starter","task":"herbalism"}]}`,
		`{"id":"pardon","name":"Pardon","cost":{"blood":1},"effects":[{"kind":"end-banishment","target":"named"},{"kind":"dismiss-grebes","amount":1},{"kind":"remove-cuts","amount":1}]}`,
	} {
		var id struct{ ID string }
		_ = json.Unmarshal([]byte(rt), &id)
		if rs, err = ruleset.Amend(rs, []byte(`[{"op":"add","path":"/obelisk/ritualTypes/`+id.ID+`","value":`+rt+`}]`)); err != nil {
			t.Fatal(err)
		}
	}
	var seed fair.Seed
	copy(seed[:], rapid.SliceOfN(rapid.Byte(), fair.SeedSize, fair.SeedSize).Draw(t, "seed"))
	m := &machine{rs: rs, seed: seed, start: monday, now: monday, obelisk: NewObelisk(rs.Obelisk),
		expect: map[string]Components{}, gDeltas: map[string][]Delta{}, completions: map[string]int{}}
	n := rapid.IntRange(2, 5).Draw(t, "players")
	count := rapid.IntRange(0, 8)
	for i := range n {
		p := newPlayer(fmt.Sprint("p", i), Components{})
		Join(p, rs, &m.obelisk.Grants)
		p.Components = p.Components.Plus(Components{Crystals: count.Draw(t, "crystals"), Herbs: count.Draw(t, "herbs"),
			Reagents: count.Draw(t, "reagents"), Blood: count.Draw(t, "blood"), Heart: count.Draw(t, "heart"), Resolve: count.Draw(t, "resolve")})
		m.players = append(m.players, p)
		m.expect[p.ID] = p.Components
	}
	return m
}

func (m *machine) env() Env {
	return Env{RS: m.rs, Now: m.now, Season: calendar.SeasonAt("Calm Spring", m.start, m.now), GameStart: gameStart}
}

func (m *machine) drawer(t *rapid.T) *fair.Drawer {
	m.step++
	d, err := fair.NewDrawer(m.seed, "game", calendar.PhaseAt(m.now).ID(), fmt.Sprint("cmd-", m.step))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// player draws a player and catches them up with the game-level grants, as
// the engine does whenever it reads a player record.
func (m *machine) player(t *rapid.T, label string) *Player {
	p := rapid.SampledFrom(m.players).Draw(t, label)
	m.catchUp(t, p)
	return p
}

// catchUp applies what the grants owe p: only ever grant changes, which
// the grants themselves explain (granted, below).
func (m *machine) catchUp(t *rapid.T, p *Player) {
	for _, d := range CatchUp(p, &m.obelisk.Grants, m.now) {
		if d.Cause != CauseGrant || d.Player != p.ID {
			t.Fatalf("a catch-up reported %+v", d)
		}
	}
}

func (m *machine) catchUpAll(t *rapid.T) {
	for _, p := range m.players {
		m.catchUp(t, p)
	}
}

// granted applies a game-level grant as a log-reader does: every member at
// that moment gains its components.
func (m *machine) granted(g *Grant) {
	if g == nil {
		return
	}
	for _, p := range m.players {
		if p.Member {
			m.expect[p.ID] = m.expect[p.ID].Plus(g.EveryMember)
		}
	}
}

func (m *machine) snapshot() string {
	b, _ := json.Marshal(struct {
		O  Obelisk
		P  []*Player
		G  []*Gathering
		Nw time.Time
	}{m.obelisk, m.players, m.gs, m.now})
	return string(b)
}

// outcome checks one operation: a refusal is a *rules.Error that changed
// nothing; a success's changes are all of causes the operation may report,
// and are applied to the expected holdings.
func (m *machine) outcome(t *rapid.T, op, before string, changes []Delta, err error) bool {
	if err != nil {
		var re *rules.Error
		if !errors.As(err, &re) || re.Code == "" || re.Message == "" {
			t.Fatalf("%s failed with %v, not a rule refusal", op, err)
		}
		if after := m.snapshot(); after != before {
			t.Fatalf("refused %s (%s) changed state:\nbefore %s\nafter  %s", op, re.Code, before, after)
		}
		return false
	}
	for _, d := range changes {
		if !slices.Contains(allowed[op], d.Cause) {
			t.Fatalf("%s reported a change caused by %q: %+v", op, d.Cause, d)
		}
		if d.Cause == CauseTrade && d.Component == ruleset.Resolve {
			t.Fatalf("⚡ was traded: %+v", d)
		}
		c := m.expect[d.Player]
		c.Add(d.Component, d.Amount)
		m.expect[d.Player] = c
	}
	return true
}

func (m *machine) Task(t *rapid.T) {
	m.task(t, rapid.SampledFrom(ruleset.TaskIDs).Draw(t, "task"))
}

// StartGathering is the task too, drawn more often so that gatherings have
// time to collect contributions.
func (m *machine) StartGathering(t *rapid.T) { m.task(t, ruleset.TaskGathering) }

func (m *machine) task(t *rapid.T, task string) {
	p := m.player(t, "player")
	req := TaskRequest{Task: task}
	switch req.Task {
	case ruleset.TaskBefriend:
		req.Grebe = rapid.IntRange(0, m.obelisk.Summoned+1).Draw(t, "grebe")
	case ruleset.TaskGathering:
		req.RitualType = rapid.SampledFrom([]string{"cut-the-obelisk", "beacon", "pardon", "nonesuch"}).Draw(t, "ritual")
		req.Gathering = fmt.Sprint("g", len(m.gs)+1)
		if req.RitualType == "pardon" {
			req.Named = m.player(t, "named").ID
		}
	}
	before, d := m.snapshot(), m.drawer(t)
	res, err := Perform(&m.obelisk, p, m.env(), req, d)
	if !m.outcome(t, "task", before, res.Changes, err) {
		return
	}
	// Every die in the result is a logged, verifiable draw.
	var faces []int
	if res.Effectiveness != nil {
		faces = append(faces, res.Effectiveness.Value)
	}
	if res.Dice != nil {
		faces = append(faces, res.Dice.Values...)
	}
	recs := d.Records()
	if len(recs) != len(faces) {
		t.Fatalf("%s: %d draws logged for %d dice", req.Task, len(recs), len(faces))
	}
	for i, r := range recs {
		if v, err := fair.Draw(m.seed, r.Input); err != nil || v+1 != faces[i] {
			t.Fatalf("%s: die %d shows %d but the logged draw recomputes to %d (%v)", req.Task, i, faces[i], v+1, err)
		}
	}
	if res.Gathering != nil {
		m.gs = append(m.gs, res.Gathering)
	}
}

func (m *machine) Observe(t *rapid.T) {
	p := m.player(t, "observer")
	before := m.snapshot()
	res, err := Observe(&m.obelisk, p, m.env(), m.drawer(t))
	if m.outcome(t, "observe", before, nil, err) {
		if res.Grant == nil || res.Grant.EveryMember.Resolve != res.Resolve || res.Grant.Seq != m.obelisk.Grants.Seq {
			t.Fatalf("the observation's grant %+v; want every member +%d⚡ as grant %d", res.Grant, res.Resolve, m.obelisk.Grants.Seq)
		}
		m.granted(res.Grant)
	}
}

// Rejoin is a leave and a new stint of one player (the 7-day wait aside):
// the leaver keeps the grants made while they were a member until they
// leave, and the new stint gets none made before it.
func (m *machine) Rejoin(t *rapid.T) {
	p := m.player(t, "rejoiner")
	before := m.snapshot()
	ch := Leave(p, &m.obelisk)
	ch = append(ch, Join(p, m.rs, &m.obelisk.Grants)...)
	m.outcome(t, "rejoin", before, ch, nil)
}

func (m *machine) components(t *rapid.T, label string) Components {
	n := rapid.IntRange(0, 2)
	resolve := 0
	if rapid.IntRange(0, 9).Draw(t, label+"-names-resolve") == 0 {
		resolve = 1 // now and then an offer names ⚡, which is refused
	}
	return Components{Resolve: resolve, Crystals: n.Draw(t, label+"-crystals"),
		Herbs: n.Draw(t, label+"-herbs"), Blood: n.Draw(t, label+"-blood")}
}

func (m *machine) Trade(t *rapid.T) {
	a, b := m.player(t, "a"), m.player(t, "b")
	if a == b && rapid.IntRange(0, 9).Draw(t, "self") > 0 {
		b = m.players[(slices.Index(m.players, a)+1)%len(m.players)]
	}
	give, take := m.components(t, "give"), m.components(t, "take")
	before := m.snapshot()
	ch, err := Swap(a, b, give, take, m.env())
	if m.outcome(t, "trade", before, ch, err) && (give.Resolve != 0 || take.Resolve != 0) {
		t.Fatal("a trade naming ⚡ took place")
	}
}

func (m *machine) gathering(t *rapid.T) *Gathering {
	if len(m.gs) == 0 {
		t.Skip("no gathering yet")
	}
	var open []*Gathering
	for _, g := range m.gs {
		if g.Status == StatusOpen && m.now.Before(g.Ends) {
			open = append(open, g)
		}
	}
	if len(open) > 0 && rapid.IntRange(0, 9).Draw(t, "an open one") > 0 {
		return rapid.SampledFrom(open).Draw(t, "open gathering")
	}
	return rapid.SampledFrom(m.gs).Draw(t, "gathering")
}

// component is mostly one the ritual costs, sometimes any.
func (m *machine) component(t *rapid.T, g *Gathering) string {
	var cost []ruleset.ComponentInfo
	for _, c := range ruleset.ComponentList {
		if g.Ritual.Cost.Get(c.ID) > 0 {
			cost = append(cost, c)
		}
	}
	if rapid.IntRange(0, 4).Draw(t, "any component") == 0 {
		cost = ruleset.ComponentList
	}
	c := rapid.SampledFrom(cost).Draw(t, "component")
	if rapid.Bool().Draw(t, "by emoji") {
		return c.Emoji
	}
	return c.ID
}

func (m *machine) Contribute(t *rapid.T) {
	g := m.gathering(t)
	for range rapid.IntRange(1, 3).Draw(t, "contributions") {
		p, c := m.player(t, "contributor"), m.component(t, g)
		before := m.snapshot()
		mv, err := Contribute(g, p, c, m.env())
		if m.outcome(t, "contribute", before, mv.Changes, err) {
			m.gDeltas[g.ID] = append(m.gDeltas[g.ID], mv.Changes...)
		}
	}
}

func (m *machine) Withdraw(t *rapid.T) {
	g := m.gathering(t)
	p, c := m.player(t, "withdrawer"), m.component(t, g)
	before := m.snapshot()
	mv, err := Withdraw(g, p, c, m.env())
	if m.outcome(t, "withdraw", before, mv.Changes, err) {
		m.gDeltas[g.ID] = append(m.gDeltas[g.ID], mv.Changes...)
	}
}

func (m *machine) Complete(t *rapid.T) {
	g := m.gathering(t)
	by := m.player(t, "completer")
	if rapid.IntRange(0, 4).Draw(t, "by another") > 0 {
		by = m.players[slices.IndexFunc(m.players, func(p *Player) bool { return p.ID == g.Starter })]
	}
	m.catchUpAll(t) // the roster is read, so caught up
	covered, before := g.Covered(), m.snapshot()
	c, err := Complete(g, &m.obelisk, by, m.players, m.env())
	if m.outcome(t, "complete", before, c.Changes, err) {
		for _, e := range c.Effects {
			m.granted(e.Grant)
		}
		if !covered {
			t.Fatalf("gathering %s completed while its cost was not covered", g.ID)
		}
		m.completions[g.ID]++
	}
}

// Wait lets time pass; at each phase end crossed, the due failures are
// applied as of that end (some of them twice, as a late or repeated job
// would, RULINGS T4).
func (m *machine) Wait(t *rapid.T) {
	to := m.now.Add(time.Duration(rapid.SampledFrom([]int{1, 2, 6, 12, 24, 72}).Draw(t, "hours")) * time.Hour)
	for {
		end := calendar.PhaseAt(m.now).End
		if end.After(to) {
			break
		}
		m.now = end
		for _, g := range m.gs {
			if g.Status != StatusOpen || g.Ends.After(m.now) {
				continue
			}
			for range rapid.IntRange(1, 2).Draw(t, "applications") {
				m.catchUpAll(t)
				before := m.snapshot()
				f, err := Fail(g, m.players, m.now)
				if m.outcome(t, "fail", before, f.Changes, err) {
					m.gDeltas[g.ID] = append(m.gDeltas[g.ID], f.Changes...)
				}
			}
		}
	}
	m.now = to
}

func (m *machine) Banish(t *rapid.T) {
	p := m.player(t, "banished")
	if rapid.IntRange(0, 7).Draw(t, "banish now") > 0 {
		return // banishment proposals are adopted now and then, not at every step
	}
	before := m.snapshot()
	_, err := Banish(p, time.Duration(rapid.IntRange(0, 96).Draw(t, "hours"))*time.Hour, "prop", m.now)
	m.outcome(t, "banish", before, nil, err)
}

func (m *machine) EndBanishment(t *rapid.T) {
	p := m.player(t, "ending")
	before := m.snapshot()
	m.outcome(t, "end-banishment", before, nil, EndBanishment(p, m.now))
}

func (m *machine) Check(t *rapid.T) {
	aiding := 0
	for _, g := range m.obelisk.Grebes {
		if g.Aids == "" {
			aiding++
		} else if i := slices.IndexFunc(m.players, func(p *Player) bool { return p.ID == g.Aids }); i < 0 || m.players[i].Grebe != g.Number {
			t.Fatalf("Grebe %d aids %s, who does not say so", g.Number, g.Aids)
		}
	}
	if aiding > m.rs.Obelisk.MaxGrebes || m.obelisk.Distance < 0 || m.obelisk.Cuts < 0 {
		t.Fatalf("Obelisk %+v", m.obelisk)
	}
	for _, p := range m.players {
		// A view catches a record up in memory, writing nothing.
		p = clonePlayer(p)
		CatchUp(p, &m.obelisk.Grants, m.now)
		for _, id := range ruleset.ComponentIDs() {
			if p.Components.Get(id) < 0 {
				t.Fatalf("%s holds %d %s", p.ID, p.Components.Get(id), id)
			}
		}
		// Every component change is explained by a reported Delta.
		if p.Components != m.expect[p.ID] {
			t.Fatalf("%s holds %s; the reported changes explain %s", p.ID, p.Components, m.expect[p.ID])
		}
	}
	for _, g := range m.gs {
		if m.completions[g.ID] > 1 {
			t.Fatalf("gathering %s completed %d times", g.ID, m.completions[g.ID])
		}
		if (g.Status == StatusCompleted) != (m.completions[g.ID] == 1) {
			t.Fatalf("gathering %s is %s after %d completions", g.ID, g.Status, m.completions[g.ID])
		}
		seen := map[[2]string]bool{}
		for _, x := range g.Contributions {
			k := [2]string{x.Player, x.Component}
			if seen[k] || x.Amount != 1 {
				t.Fatalf("gathering %s holds %+v twice or more than one", g.ID, x)
			}
			seen[k] = true
		}
		if g.Status != StatusOpen && len(g.Contributions) > 0 {
			t.Fatalf("gathering %s is %s but holds contributions", g.ID, g.Status)
		}
		// Outstanding contributions are what its deltas took and did not give back.
		net := map[[2]string]int{}
		for _, d := range m.gDeltas[g.ID] {
			net[[2]string{d.Player, d.Component}] -= d.Amount
		}
		if g.Status == StatusFailed {
			for k, n := range net {
				if n != 0 {
					t.Fatalf("failed gathering %s left %s %d %s short of what they held before contributing", g.ID, k[0], n, k[1])
				}
			}
		}
		if g.Status == StatusOpen {
			for k, n := range net {
				want := 0
				if seen[k] {
					want = 1
				}
				if n != want {
					t.Fatalf("open gathering %s: %s net %d %s, contributions %v", g.ID, k[0], n, k[1], g.Contributions)
				}
			}
			for k := range seen {
				if net[k] != 1 {
					t.Fatalf("open gathering %s holds %v but the deltas say %d", g.ID, k, net[k])
				}
			}
		}
	}
}

// TestO1_O12_RandomGamesKeepTheInvariants runs random Obelisk games at the
// rules level (issue 13, acceptance 2, without the engine's idempotency
// keys): no negative count, ⚡ never traded, every change explained by a
// reported cause of the operation that made it, a refusal changes nothing,
// a gathering completes at most once and only while covered, a failed
// gathering gives every contributor back exactly what they put in, and
// every die is a draw that recomputes from the seed.
func clonePlayer(p *Player) *Player {
	b, _ := json.Marshal(p)
	var out Player
	_ = json.Unmarshal(b, &out)
	return &out
}

func TestO1_O12_RandomGamesKeepTheInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := newMachine(t)
		t.Repeat(rapid.StateMachineActions(m))
	})
}
