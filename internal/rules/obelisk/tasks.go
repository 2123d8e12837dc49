package obelisk

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// TaskRequest is what a player asks to do as a Task.
type TaskRequest struct {
	Task string `json:"task"` // a ruleset.Task* id
	// Grebe is the Grebe to befriend (Befriend a Grebe).
	Grebe int `json:"grebe,omitempty"`
	// Start a Gathering: the ritual type, the Gathering's id (the module
	// derives it from the command), the chat message that starts it, and
	// the player its effects name, if the ritual type needs one.
	RitualType string `json:"ritual_type,omitempty"`
	Gathering  string `json:"gathering,omitempty"`
	Message    string `json:"message,omitempty"`
	Named      string `json:"named,omitempty"`
}

// Dice is an NdK roll (Blood Acquisition).
type Dice struct {
	N      int   `json:"n"`
	K      int   `json:"k"`
	Values []int `json:"values"`
}

// TaskResult is what a task did: the roll with its N and modifiers, what
// it cost and consumed, and what it gained. The module logs and shows it.
type TaskResult struct {
	Task   string `json:"task"`
	Name   string `json:"name"`
	Player string `json:"player"`
	// Effectiveness is the 1dN of tasks that use it (O2).
	Effectiveness *Roll `json:"effectiveness,omitempty"`
	// Dice is Blood Acquisition's NdK; nil when no die was rolled (0 Cuts).
	Dice      *Dice      `json:"dice,omitempty"`
	Spent     Components `json:"spent"`               // the task's ⚡
	Consumed  Components `json:"consumed,omitzero"`   // the recipe's inputs (O3)
	Gained    Components `json:"gained"`              // what the task yielded, boost included
	Boosted   bool       `json:"boosted,omitempty"`   // the gains were Boosted (O4)
	Exact     string     `json:"exact,omitempty"`     // the exact quantity before rounding up, e.g. "13/8 - 1"
	Grebe     int        `json:"grebe,omitempty"`     // Befriend: the Grebe named
	Success   bool       `json:"success,omitempty"`   // Befriend: Effectiveness > the threshold
	Gathering *Gathering `json:"gathering,omitempty"` // Start a Gathering: the new Gathering
	// Experience is the player's Experience in the task after it.
	Experience int     `json:"experience"`
	Changes    []Delta `json:"changes"`
}

// Summary says the result for people, e.g. "Mining: rolled 13 on 1d24
// (24, experience +0); gained 1💎".
func (r TaskResult) Summary() string {
	var parts []string
	if r.Effectiveness != nil {
		parts = append(parts, r.Effectiveness.String())
	}
	if r.Dice != nil {
		vs := make([]string, len(r.Dice.Values))
		for i, v := range r.Dice.Values {
			vs[i] = strconv.Itoa(v)
		}
		parts = append(parts, fmt.Sprintf("rolled %dd%d: %s", r.Dice.N, r.Dice.K, strings.Join(vs, ", ")))
	}
	switch {
	case r.Task == ruleset.TaskBefriend && r.Success:
		parts = append(parts, fmt.Sprintf("Grebe %d now aids them", r.Grebe))
	case r.Task == ruleset.TaskBefriend:
		parts = append(parts, fmt.Sprintf("Grebe %d stays with the Obelisk", r.Grebe))
	case r.Task == ruleset.TaskGathering && r.Gathering != nil:
		parts = append(parts, "started a Gathering of "+r.Gathering.Ritual.Name)
	case r.Task == ruleset.TaskBlood && r.Dice == nil:
		// NdK with N = Cuts: with none, no die is rolled (O5).
		parts = append(parts, "gained nothing: the Obelisk has no Cuts, so no die is rolled")
	case r.Task == ruleset.TaskBlood && r.Gained.IsZero():
		parts = append(parts, "gained nothing: no die showed 1")
	default:
		gained := "gained " + r.Gained.String()
		if r.Boosted {
			gained += " (Boosted)"
		}
		parts = append(parts, gained)
	}
	return r.Name + ": " + strings.Join(parts, "; ")
}

// Perform performs a Task for p (RULINGS O2-O5, O7, O8): it checks that p
// may perform it and holds the ⚡ and the recipe, then takes TaskCost ⚡,
// consumes the recipe, rolls, grants the gains and raises p's Experience in
// the task by 1, all in one call. A refused task changes nothing and costs
// nothing. Effectiveness draws one PurposeEffectiveness die; Blood
// Acquisition draws one PurposeBloodDie per Cut.
func Perform(o *Obelisk, p *Player, env Env, req TaskRequest, src fair.Source) (TaskResult, error) {
	or, err := env.obelisk()
	if err != nil {
		return TaskResult{}, err
	}
	if err := member(p); err != nil {
		return TaskResult{}, err
	}
	t, ok := or.Tasks.Task(req.Task)
	if !ok {
		return TaskResult{}, rules.Refuse("unknown_task", "There is no task %q; the tasks are %s.", req.Task, strings.Join(ruleset.TaskIDs, ", ")).
			With("tasks", ruleset.TaskIDs)
	}
	// What the task itself refuses, before its cost.
	var ritual ruleset.RitualType
	switch req.Task {
	case ruleset.TaskBlood:
		if o.Distance <= 0 {
			return TaskResult{}, rules.Refuse("obelisk_at_gates", "The Obelisk stands at the Gates (0 km): Blood Acquisition rolls dice of as many sides as the Obelisk is km away, and a die needs at least one side.")
		}
	case ruleset.TaskBefriend:
		if err := checkBefriend(o, p, req.Grebe); err != nil {
			return TaskResult{}, err
		}
	case ruleset.TaskGathering:
		if ritual, err = checkStart(or, p, req); err != nil {
			return TaskResult{}, err
		}
	}
	cost := Components{Resolve: or.TaskCost}
	if p.Components.Resolve < or.TaskCost {
		return TaskResult{}, rules.Refuse("no_resolve", "A task needs %d⚡ and you have %d⚡; every player gains ⚡ when the Obelisk is observed.", or.TaskCost, p.Components.Resolve).
			With("need", cost).With("have", p.Components)
	}
	if need := cost.Plus(t.Inputs); !p.Components.Covers(need) {
		short := p.Components.Short(need)
		return TaskResult{}, rules.Refuse("missing_inputs", "%s needs %s (the task's %d⚡ and its recipe %s); you have %s, so %s is missing.",
			t.Name, need, or.TaskCost, t.Inputs, p.Components, short).
			With("need", need).With("have", p.Components).With("missing", short)
	}

	res := TaskResult{Task: req.Task, Name: t.Name, Player: p.ID, Spent: cost, Consumed: t.Inputs}
	changeAll(p, cost, -1, CauseTask, &res.Changes)
	changeAll(p, t.Inputs, -1, CauseRecipe, &res.Changes)
	exp := p.Experience[req.Task]

	switch req.Task {
	case ruleset.TaskMining, ruleset.TaskHerbalism, ruleset.TaskAlchemy:
		r := effectiveness(or, t, exp, env, src)
		res.Effectiveness = &r
		// ceil(E/Divisor - Less), computed exactly in integers, never below 0.
		n := max(ceilDiv(r.Value-t.Less*t.Divisor, t.Divisor), 0)
		res.Exact = fmt.Sprintf("%d/%d", r.Value, t.Divisor)
		if t.Less != 0 {
			res.Exact += fmt.Sprintf(" - %d", t.Less)
		}
		if t.Boost > 0 && boosted(p, req.Task, env) {
			res.Boosted = true
			n += t.Boost
		}
		res.Gained.Add(t.Yields, n)
	case ruleset.TaskHeart:
		res.Gained.Add(t.Yields, t.Fixed)
	case ruleset.TaskBlood:
		// NdK with N = Cuts and K = the distance in whole km; each die
		// showing 1 yields Fixed 🩸 (O5). With 0 Cuts no die is rolled.
		if o.Cuts > 0 {
			d := &Dice{N: o.Cuts, K: o.Distance, Values: make([]int, 0, o.Cuts)}
			for range o.Cuts {
				v := src.Intn(PurposeBloodDie, o.Distance) + 1
				d.Values = append(d.Values, v)
				if v == 1 {
					res.Gained.Add(t.Yields, t.Fixed)
				}
			}
			res.Dice = d
		}
	case ruleset.TaskBefriend:
		r := effectiveness(or, t, exp, env, src)
		res.Effectiveness = &r
		res.Grebe = req.Grebe
		if r.Value > t.Above {
			res.Success = true
			i := slices.IndexFunc(o.Grebes, func(g Grebe) bool { return g.Number == req.Grebe })
			o.Grebes[i].Aids = p.ID
			p.Grebe = req.Grebe
		}
	case ruleset.TaskGathering:
		g := newGathering(req, ritual, p, env)
		res.Gathering = g
	}
	changeAll(p, res.Gained, +1, CauseYield, &res.Changes)
	if p.Experience == nil {
		p.Experience = map[string]int{}
	}
	p.Experience[req.Task] = exp + 1
	res.Experience = exp + 1
	return res, nil
}

// effectiveness rolls 1dN, N = EffectivenessBase + Experience + the
// season's Task Modifiers, at least 1 (O2).
func effectiveness(or *ruleset.ObeliskRules, t *ruleset.Task, exp int, env Env, src fair.Source) Roll {
	mods := append([]Modifier{{Source: "experience", Amount: exp}}, env.seasonal(t.SeasonModifiers)...)
	r := die(or.EffectivenessBase, mods)
	r.Value = src.Intn(PurposeEffectiveness, r.N) + 1
	return r
}

// boosted reports whether a boost of task holds for p now (O4).
func boosted(p *Player, task string, env Env) bool {
	return slices.ContainsFunc(p.Boosts, func(b Boost) bool { return b.Task == task && env.Now.Before(b.Until) })
}

func checkBefriend(o *Obelisk, p *Player, number int) error {
	if !p.Banished() {
		return rules.Refuse("not_banished", "Only a banished player can befriend a Grebe, and you are not banished.")
	}
	if p.Grebe != 0 {
		return rules.Refuse("has_grebe", "Grebe %d already aids you; a player befriends a Grebe only while none aids them.", p.Grebe).With("grebe", p.Grebe)
	}
	aiding := o.AidingObelisk()
	if !slices.Contains(aiding, number) {
		if len(aiding) == 0 {
			return rules.Refuse("no_such_grebe", "No Grebe aids the Obelisk, so there is none to befriend.")
		}
		return rules.Refuse("no_such_grebe", "Grebe %d does not aid the Obelisk; the Grebes aiding it are %s.", number, numbers(aiding)).
			With("grebes", aiding)
	}
	return nil
}

func numbers(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
