package ruleset

import (
	"fmt"
	"slices"
	"strings"
)

// The Obelisk's numbers and ritual types (seed 002; RULINGS O1-O12). The
// rules that read them are internal/rules/obelisk. What is code and what is
// data: the six Ritual Components, the seven tasks, and the vocabulary of
// ritual prerequisites and effects are what the engine implements (code);
// every number a rule states, and every ritual type, is data here, so a
// proposal can amend it (RULINGS R1, R4, O8).

// Ritual Component ids (RULINGS O1). The list is the seed's; it is not data,
// because tasks, recipes and costs name its members.
const (
	Resolve  = "resolve"  // ⚡
	Crystals = "crystals" // 💎
	Herbs    = "herbs"    // 🌿
	Reagents = "reagents" // ⚗️
	Blood    = "blood"    // 🩸 Blood of Stone
	Heart    = "heart"    // ❤️‍🔥 Infernal Heart
)

// ComponentInfo names a Ritual Component for people.
type ComponentInfo struct {
	ID    string
	Name  string
	Emoji string
	// Tradable: players may trade it (002 Ritual Components: ⚡ "cannot be
	// traded"; RULINGS O1).
	Tradable bool
}

// ComponentList is the Ritual Components in the seed's order.
var ComponentList = []ComponentInfo{
	{Resolve, "Resolve", "⚡", false},
	{Crystals, "Crystals", "💎", true},
	{Herbs, "Herbs", "🌿", true},
	{Reagents, "Reagents", "⚗️", true},
	{Blood, "Blood of Stone", "🩸", true},
	{Heart, "Infernal Heart", "❤️‍🔥", true},
}

// TradableComponents are the components the ruleset's players trade, in
// the seed's order: none for a ruleset without the Obelisk. Every edge
// that asks for a trade's components (chat's /trade offer) reads them
// here, as the trade's check does (rules/obelisk.CheckTrade).
func (r *Ruleset) TradableComponents() []ComponentInfo {
	if r == nil || r.Obelisk == nil {
		return nil
	}
	var out []ComponentInfo
	for _, c := range ComponentList {
		if c.Tradable {
			out = append(out, c)
		}
	}
	return out
}

// Component returns the component with the given id or emoji (with or
// without the variation selector U+FE0F that chat clients add or drop).
func Component(ref string) (ComponentInfo, bool) {
	norm := strings.ReplaceAll(ref, "\ufe0f", "")
	for _, c := range ComponentList {
		if c.ID == ref || strings.ReplaceAll(c.Emoji, "\ufe0f", "") == norm || strings.EqualFold(c.Name, ref) {
			return c, true
		}
	}
	return ComponentInfo{}, false
}

// ComponentIDs lists the component ids in order.
func ComponentIDs() []string {
	out := make([]string, len(ComponentList))
	for i, c := range ComponentList {
		out[i] = c.ID
	}
	return out
}

// Components counts Ritual Components: what a player holds, a recipe's
// inputs, a ritual's cost, a grant. Counts are never negative in valid
// data or state.
type Components struct {
	Resolve  int `json:"resolve,omitempty"`
	Crystals int `json:"crystals,omitempty"`
	Herbs    int `json:"herbs,omitempty"`
	Reagents int `json:"reagents,omitempty"`
	Blood    int `json:"blood,omitempty"`
	Heart    int `json:"heart,omitempty"`
}

func (c *Components) field(id string) *int {
	switch id {
	case Resolve:
		return &c.Resolve
	case Crystals:
		return &c.Crystals
	case Herbs:
		return &c.Herbs
	case Reagents:
		return &c.Reagents
	case Blood:
		return &c.Blood
	case Heart:
		return &c.Heart
	}
	return nil
}

// Get returns the count of component id (0 for an unknown id).
func (c Components) Get(id string) int {
	if p := c.field(id); p != nil {
		return *p
	}
	return 0
}

// Add adds n (possibly negative) of component id. It panics on an unknown
// id: ids come from ComponentList or validated data, never from players
// unchecked.
func (c *Components) Add(id string, n int) {
	p := c.field(id)
	if p == nil {
		panic(fmt.Sprintf("ruleset.Components.Add: unknown component %q", id))
	}
	*p += n
}

// Plus returns c + o.
func (c Components) Plus(o Components) Components {
	for _, id := range ComponentIDs() {
		c.Add(id, o.Get(id))
	}
	return c
}

// Minus returns c - o.
func (c Components) Minus(o Components) Components {
	for _, id := range ComponentIDs() {
		c.Add(id, -o.Get(id))
	}
	return c
}

// Covers reports whether c holds at least o of every component.
func (c Components) Covers(o Components) bool {
	for _, id := range ComponentIDs() {
		if c.Get(id) < o.Get(id) {
			return false
		}
	}
	return true
}

// Short returns the components c lacks to cover o (zero when it covers).
func (c Components) Short(o Components) Components {
	var out Components
	for _, id := range ComponentIDs() {
		if d := o.Get(id) - c.Get(id); d > 0 {
			out.Add(id, d)
		}
	}
	return out
}

// IsZero reports whether c counts nothing.
func (c Components) IsZero() bool { return c == Components{} }

// String shows the counts with emoji, e.g. "1💎 5🌿"; "nothing" when zero.
func (c Components) String() string {
	var parts []string
	for _, ci := range ComponentList {
		if n := c.Get(ci.ID); n != 0 {
			parts = append(parts, fmt.Sprintf("%d%s", n, ci.Emoji))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " ")
}

// Task ids (seed 002 Tasks; RULINGS O2-O5, O7, O8).
const (
	TaskMining    = "mining"
	TaskHerbalism = "herbalism"
	TaskAlchemy   = "alchemy"
	TaskHeart     = "heart"    // Beating of the Infernal Heart
	TaskBlood     = "blood"    // Blood Acquisition
	TaskBefriend  = "befriend" // Befriend a Grebe
	TaskGathering = "gathering"
)

// TaskIDs lists the tasks in the seed's order.
var TaskIDs = []string{TaskMining, TaskHerbalism, TaskAlchemy, TaskHeart, TaskBlood, TaskBefriend, TaskGathering}

// ObeliskRules is the ruleset data of the Obelisk (seed 002).
type ObeliskRules struct {
	// StartDistance is the Obelisk's distance from the Gates, in km, at the
	// beginning of the game (10; RULINGS O6).
	StartDistance int `json:"startDistance"`
	// MaxGrebes is the most Grebes that aid the Obelisk at once (5; O7).
	MaxGrebes int `json:"maxGrebes"`
	// TaskCost is the ⚡ a task needs and costs (1; O2).
	TaskCost int `json:"taskCost"`
	// EffectivenessBase is N of Effectiveness = 1dN before modifiers (24; O2).
	EffectivenessBase int `json:"effectivenessBase"`
	// Observation is the weekly observation of the Obelisk (O6, O7).
	Observation Observation `json:"observation"`
	// Tasks holds each task's numbers.
	Tasks ObeliskTasks `json:"tasks"`
	// RitualTypes are the rituals a Gathering can be of (O8). Seed 002 names
	// none, so the default data has none; amendments add them.
	RitualTypes []RitualType `json:"ritualTypes,omitempty"`
}

// Observation holds the numbers of the weekly observation (RULINGS O6).
type Observation struct {
	// Resolve is the ⚡ every player gains after an observation (1).
	Resolve int `json:"resolve"`
	// SeasonModifiers change N of the observation die (Winter: -1, O12).
	SeasonModifiers []SeasonModifier `json:"seasonModifiers,omitempty"`
}

// Season parts a SeasonModifier may be limited to (002 Seasons: "During
// early/late [season]"; RULINGS O12).
const (
	SeasonEarly = "early" // Phase I of the season's week
	SeasonLate  = "late"  // Phase II
)

// SeasonModifier adds Modifier to a die's N during Season (in its early or
// late part only, if Part says so).
type SeasonModifier struct {
	Season   string `json:"season"`
	Part     string `json:"part,omitempty"`
	Modifier int    `json:"modifier"`
}

// ObeliskTasks holds the numbers of each task (RULINGS O2-O5, O7).
type ObeliskTasks struct {
	Mining    Task `json:"mining"`
	Herbalism Task `json:"herbalism"`
	Alchemy   Task `json:"alchemy"`
	Heart     Task `json:"heart"`
	Blood     Task `json:"blood"`
	Befriend  Task `json:"befriend"`
	Gathering Task `json:"gathering"`
}

// Task returns the numbers of task id.
func (t *ObeliskTasks) Task(id string) (*Task, bool) {
	switch id {
	case TaskMining:
		return &t.Mining, true
	case TaskHerbalism:
		return &t.Herbalism, true
	case TaskAlchemy:
		return &t.Alchemy, true
	case TaskHeart:
		return &t.Heart, true
	case TaskBlood:
		return &t.Blood, true
	case TaskBefriend:
		return &t.Befriend, true
	case TaskGathering:
		return &t.Gathering, true
	}
	return nil, false
}

// Task is one task's numbers. Which fields a task uses is fixed by the task
// (see validateObelisk): a yield task (mining, herbalism, alchemy) gains
// ceil(Effectiveness/Divisor - Less) of Yields, never below 0; the Heart
// gains Fixed of Yields; Blood Acquisition gains Fixed of Yields per die
// showing 1; Befriend a Grebe succeeds when Effectiveness > Above.
type Task struct {
	Name    string `json:"name"`
	Yields  string `json:"yields,omitempty"` // a component id
	Divisor int    `json:"divisor,omitempty"`
	Less    int    `json:"less,omitempty"`
	Fixed   int    `json:"fixed,omitempty"`
	Above   int    `json:"above,omitempty"`
	// Inputs is the recipe the task consumes on top of TaskCost (O3).
	Inputs Components `json:"inputs,omitzero"`
	// Boost is what a boosted task gains in addition (Mining 1💎,
	// Herbalism 2🌿; O4), of Yields.
	Boost int `json:"boost,omitempty"`
	// SeasonModifiers are Task Modifiers by season (Mining in Winter: -8).
	SeasonModifiers []SeasonModifier `json:"seasonModifiers,omitempty"`
}

// RitualType is a ritual a Gathering can be of (RULINGS O8): every
// Prerequisite must hold for a completion, the contributions must cover
// Cost, and the Effects are applied in order.
type RitualType struct {
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Prerequisites []Prerequisite `json:"prerequisites,omitempty"`
	Cost          Components     `json:"cost"`
	Effects       []Effect       `json:"effects"`
}

// RitualType returns the ritual type with the given id.
func (o *ObeliskRules) RitualType(id string) (RitualType, bool) {
	for _, rt := range o.RitualTypes {
		if rt.ID == id {
			return rt, true
		}
	}
	return RitualType{}, false
}

// Prerequisite kinds: the closed vocabulary of what a ritual may require
// when it is completed.
const (
	PrereqMinCuts         = "min-cuts"         // the Obelisk has at least Amount Cuts
	PrereqMaxCuts         = "max-cuts"         // at most Amount Cuts
	PrereqMinDistance     = "min-distance"     // the Obelisk is at least Amount km away
	PrereqMaxDistance     = "max-distance"     // at most Amount km away
	PrereqMinGrebes       = "min-grebes"       // at least Amount Grebes aid the Obelisk
	PrereqMaxGrebes       = "max-grebes"       // at most Amount Grebes aid the Obelisk
	PrereqSeason          = "season"           // the Current Season is Season (its Part only, if set)
	PrereqMinContributors = "min-contributors" // at least Amount distinct players contributed (not withdrawn)
)

// PrerequisiteKinds lists the prerequisite vocabulary.
var PrerequisiteKinds = []string{PrereqMinCuts, PrereqMaxCuts, PrereqMinDistance, PrereqMaxDistance,
	PrereqMinGrebes, PrereqMaxGrebes, PrereqSeason, PrereqMinContributors}

// Prerequisite is one condition of a ritual type.
type Prerequisite struct {
	Kind   string `json:"kind"`
	Amount int    `json:"amount,omitempty"`
	Season string `json:"season,omitempty"`
	Part   string `json:"part,omitempty"`
}

// Effect kinds: the closed vocabulary of what a completed ritual does.
const (
	EffectAddCuts       = "add-cuts"       // the Obelisk gains Amount Cuts
	EffectRemoveCuts    = "remove-cuts"    // loses Amount Cuts (not below 0)
	EffectMoveAway      = "move-away"      // moves Amount km away from the Gates
	EffectMoveCloser    = "move-closer"    // moves Amount km closer (not below 0)
	EffectSummonGrebes  = "summon-grebes"  // Amount Grebes come to aid the Obelisk (the cap applies)
	EffectDismissGrebes = "dismiss-grebes" // the Amount most recent Grebes aiding the Obelisk cease to exist
	EffectGrant         = "grant"          // Target gains Components
	EffectBoost         = "boost"          // Target's Task is Boosted until the phase ends
	EffectEndBanishment = "end-banishment" // Target ceases to be banished
)

// EffectKinds lists the effect vocabulary.
var EffectKinds = []string{EffectAddCuts, EffectRemoveCuts, EffectMoveAway, EffectMoveCloser,
	EffectSummonGrebes, EffectDismissGrebes, EffectGrant, EffectBoost, EffectEndBanishment}

// Effect targets: whom a grant, boost or end of banishment concerns.
const (
	TargetStarter      = "starter"      // the player who started the Gathering
	TargetContributors = "contributors" // every player with a contribution not withdrawn
	TargetEveryPlayer  = "every-player" // every player of the game
	TargetNamed        = "named"        // the player the starter named when starting it
)

// Targets lists the effect targets.
var Targets = []string{TargetStarter, TargetContributors, TargetEveryPlayer, TargetNamed}

// Effect is one effect of a ritual type.
type Effect struct {
	Kind       string     `json:"kind"`
	Amount     int        `json:"amount,omitempty"`
	Target     string     `json:"target,omitempty"`
	Components Components `json:"components,omitzero"`
	Task       string     `json:"task,omitempty"`
}

// NeedsTarget reports whether a Gathering of rt must name a player when it
// starts (an effect's target is TargetNamed).
func (rt RitualType) NeedsTarget() bool {
	return slices.ContainsFunc(rt.Effects, func(e Effect) bool { return e.Target == TargetNamed })
}

// maxRitualAmount bounds one prerequisite's or effect's amount, to catch
// typos in amendments (a ritual adding 10000 Cuts would make Blood
// Acquisition roll 10000 dice).
const maxRitualAmount = 100

func (r *Ruleset) validateObelisk(v *validator) {
	o := r.Obelisk
	if o == nil {
		if r.ID == "obelisk" {
			v.add("obelisk", "the obelisk ruleset needs its obelisk section (seed 002's numbers)")
		}
		return
	}
	positive := func(field string, n int) {
		if n <= 0 {
			v.add(field, "must be greater than 0, got %d", n)
		}
	}
	nonNeg := func(field string, n int) {
		if n < 0 {
			v.add(field, "must not be negative, got %d", n)
		}
	}
	nonNeg("obelisk.startDistance", o.StartDistance)
	nonNeg("obelisk.maxGrebes", o.MaxGrebes)
	positive("obelisk.taskCost", o.TaskCost)
	positive("obelisk.effectivenessBase", o.EffectivenessBase)
	nonNeg("obelisk.observation.resolve", o.Observation.Resolve)
	validateSeasonModifiers(v, "obelisk.observation.seasonModifiers", o.Observation.SeasonModifiers)

	components := func(field string, c Components) {
		for _, id := range ComponentIDs() {
			nonNeg(field+"."+id, c.Get(id))
		}
	}
	yields := func(field, id string) {
		if !slices.Contains(ComponentIDs(), id) {
			v.add(field, "%q is not a component id (want one of %s)", id, strings.Join(ComponentIDs(), ", "))
		}
	}
	for _, id := range TaskIDs {
		t, _ := o.Tasks.Task(id)
		at := "obelisk.tasks." + id
		if t.Name == "" {
			v.add(at+".name", "must not be empty")
		}
		components(at+".inputs", t.Inputs)
		validateSeasonModifiers(v, at+".seasonModifiers", t.SeasonModifiers)
		nonNeg(at+".boost", t.Boost)
		nonNeg(at+".less", t.Less)
		nonNeg(at+".above", t.Above)
		switch id {
		case TaskMining, TaskHerbalism, TaskAlchemy:
			yields(at+".yields", t.Yields)
			positive(at+".divisor", t.Divisor)
		case TaskHeart, TaskBlood:
			yields(at+".yields", t.Yields)
			positive(at+".fixed", t.Fixed)
		}
	}

	for i, rt := range o.RitualTypes {
		at := fmt.Sprintf("obelisk.ritualTypes[%d]", i)
		v.listID(at, "ritual type", rt.ID, slices.IndexFunc(o.RitualTypes, func(q RitualType) bool { return q.ID == rt.ID }) < i)
		if rt.Name == "" {
			v.add(at+".name", "must not be empty")
		}
		components(at+".cost", rt.Cost)
		if rt.Cost.IsZero() {
			v.add(at+".cost", "a ritual must cost at least one component")
		}
		if len(rt.Effects) == 0 {
			v.add(at+".effects", "a ritual must have at least one effect")
		}
		for k, p := range rt.Prerequisites {
			pat := fmt.Sprintf("%s.prerequisites[%d]", at, k)
			switch p.Kind {
			case PrereqSeason:
				if !slices.Contains(seasonNames, p.Season) {
					v.add(pat+".season", "%q is not a season (want %s)", p.Season, strings.Join(seasonNames, ", "))
				}
				if p.Part != "" && p.Part != SeasonEarly && p.Part != SeasonLate {
					v.add(pat+".part", "%q is not a part of a season (want %q, %q or nothing)", p.Part, SeasonEarly, SeasonLate)
				}
				if p.Amount != 0 {
					v.add(pat+".amount", "a season prerequisite takes season (and part), not amount")
				}
			case PrereqMinCuts, PrereqMaxCuts, PrereqMinDistance, PrereqMaxDistance, PrereqMinGrebes, PrereqMaxGrebes, PrereqMinContributors:
				if p.Amount < 0 || p.Amount > maxRitualAmount {
					v.add(pat+".amount", "must be between 0 and %d, got %d", maxRitualAmount, p.Amount)
				}
				if p.Season != "" || p.Part != "" {
					v.add(pat, "kind %q takes amount, not season or part", p.Kind)
				}
			default:
				v.add(pat+".kind", "%q is not a prerequisite (want one of %s)", p.Kind, strings.Join(PrerequisiteKinds, ", "))
			}
		}
		for k, e := range rt.Effects {
			eat := fmt.Sprintf("%s.effects[%d]", at, k)
			target := func(need bool) {
				switch {
				case need && !slices.Contains(Targets, e.Target):
					v.add(eat+".target", "%q is not a target (want one of %s)", e.Target, strings.Join(Targets, ", "))
				case !need && e.Target != "":
					v.add(eat+".target", "kind %q has no target", e.Kind)
				}
			}
			switch e.Kind {
			case EffectAddCuts, EffectRemoveCuts, EffectMoveAway, EffectMoveCloser, EffectSummonGrebes, EffectDismissGrebes:
				if e.Amount < 1 || e.Amount > maxRitualAmount {
					v.add(eat+".amount", "must be between 1 and %d, got %d", maxRitualAmount, e.Amount)
				}
				target(false)
				if !e.Components.IsZero() || e.Task != "" {
					v.add(eat, "kind %q takes amount only", e.Kind)
				}
			case EffectGrant:
				target(true)
				components(eat+".components", e.Components)
				if e.Components.IsZero() {
					v.add(eat+".components", "a grant must grant at least one component")
				}
				for _, id := range ComponentIDs() {
					if e.Components.Get(id) > maxRitualAmount {
						v.add(eat+".components."+id, "must be at most %d, got %d", maxRitualAmount, e.Components.Get(id))
					}
				}
				if e.Amount != 0 || e.Task != "" {
					v.add(eat, "kind %q takes target and components only", e.Kind)
				}
			case EffectBoost:
				target(true)
				if t, ok := o.Tasks.Task(e.Task); !ok || t.Boost == 0 {
					v.add(eat+".task", "%q is not a task with a boost (want one of %s)", e.Task, strings.Join(boostable(o), ", "))
				}
				if e.Amount != 0 || !e.Components.IsZero() {
					v.add(eat, "kind %q takes target and task only", e.Kind)
				}
			case EffectEndBanishment:
				target(true)
				if e.Amount != 0 || !e.Components.IsZero() || e.Task != "" {
					v.add(eat, "kind %q takes target only", e.Kind)
				}
			default:
				v.add(eat+".kind", "%q is not an effect (want one of %s)", e.Kind, strings.Join(EffectKinds, ", "))
			}
		}
	}
}

// seasonNames are seed 002's seasons (internal/rules/calendar.Seasons, which
// this package cannot import).
var seasonNames = []string{"Calm Spring", "Winter", "Long night"}

func validateSeasonModifiers(v *validator, field string, ms []SeasonModifier) {
	for i, m := range ms {
		at := fmt.Sprintf("%s[%d]", field, i)
		if !slices.Contains(seasonNames, m.Season) {
			v.add(at+".season", "%q is not a season (want %s)", m.Season, strings.Join(seasonNames, ", "))
		}
		if m.Part != "" && m.Part != SeasonEarly && m.Part != SeasonLate {
			v.add(at+".part", "%q is not a part of a season (want %q, %q or nothing)", m.Part, SeasonEarly, SeasonLate)
		}
	}
}

func boostable(o *ObeliskRules) []string {
	var out []string
	for _, id := range TaskIDs {
		if t, _ := o.Tasks.Task(id); t.Boost > 0 {
			out = append(out, id)
		}
	}
	return out
}
