// Package obelisk holds the rules of the Obelisk (seed 002 Players,
// Banishment, The Obelisk, Grebes, Items, Ritual Components, Tasks, Rituals;
// RULINGS O1-O12) as pure functions: state + request + random source in,
// new state + a result saying what happened (or a *rules.Error) out. No I/O,
// no clock: the caller passes the moment and the Current Season in an Env.
//
// Every die is a draw from a fair.Source, so the module's Drawer logs it
// and players can verify it (RULINGS N2). Every change to a player's
// Ritual Components is a Delta with its Cause, reported in the result, so
// the log says why each count moved.
//
// A refused call leaves every argument untouched: each function checks
// everything first and changes state only once nothing can refuse.
package obelisk

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
	"croupier/internal/ruleset"
)

// Components counts Ritual Components (RULINGS O1).
type Components = ruleset.Components

// Draw purposes, fixed strings so a logged draw says what it decided.
const (
	PurposeEffectiveness = "effectiveness" // a task's 1dN
	PurposeBloodDie      = "blood-die"     // one die of Blood Acquisition's NdK
	PurposeObservation   = "observation"   // the observation's 1dN
)

// Causes of a component change (Delta.Cause).
const (
	CauseJoin         = "join"         // becoming a player (O1)
	CauseTask         = "task"         // the ⚡ a task costs (O2)
	CauseRecipe       = "recipe"       // a recipe's inputs, consumed (O3)
	CauseYield        = "yield"        // what a task gained (O2-O5)
	CauseObservation  = "observation"  // the ⚡ every player gains after an observation (O6)
	CauseContribution = "contribution" // revoked by contributing to a Gathering (O9)
	CauseWithdrawal   = "withdrawal"   // granted back by withdrawing (O9)
	CauseRefund       = "refund"       // granted back when a Gathering fails (O10)
	CauseRitual       = "ritual"       // a completed ritual's grant effect (O8)
	CauseTrade        = "trade"        // a trade between players (O1)
	CauseLeave        = "leave"        // destroyed when their owner ceased to be a player (P1)
	CauseGrant        = "grant"        // game-level grants to every member, caught up with (O6, O8: grant.go)
)

// Delta is one change to one player's count of one component.
type Delta struct {
	Player    string `json:"player"`
	Component string `json:"component"`
	Amount    int    `json:"amount"` // positive: gained; negative: lost
	Cause     string `json:"cause"`
}

// Player is an Obelisk player record: the membership (embedded, so the
// stored item is one flat object, as economy.Player does for Gilded Hall)
// and the player's obelisk state.
type Player struct {
	players.Player
	Components Components `json:"components"`
	// Experience in each task, by task id; absent is 0 (O2).
	Experience map[string]int `json:"experience,omitempty"`
	// Banishment is set while the player is banished (O11).
	Banishment *Banishment `json:"banishment,omitempty"`
	// Grebe is the number of the Grebe aiding the player, 0 for none (O7).
	Grebe int `json:"grebe,omitempty"`
	// Boosts are the player's Boosted tasks (O4), each until a phase end.
	Boosts []Boost `json:"boosts,omitempty"`
	// Grants is the game-level grant the record has caught up to
	// (grant.go: CatchUp).
	Grants Caught `json:"grants"`
}

// Banishment is a player's current banishment (RULINGS O11).
type Banishment struct {
	Since    time.Time        `json:"since"`
	Duration ruleset.Duration `json:"duration"`
	// Proposal is the adopted banishment proposal's id.
	Proposal string `json:"proposal,omitempty"`
}

// EndsAt is the moment the banished player may end it.
func (b Banishment) EndsAt() time.Time { return b.Since.Add(b.Duration.Std()) }

// Boost says a task's gains are Boosted until Until (a phase end; O4).
type Boost struct {
	Task      string    `json:"task"`
	Until     time.Time `json:"until"`
	Gathering string    `json:"gathering,omitempty"` // the Gathering whose ritual granted it
}

// Banished reports whether p is banished.
func (p *Player) Banished() bool { return p.Banishment != nil }

// Grebe is one Grebe: its number and whom it aids ("" = the Obelisk; else
// a player's id).
type Grebe struct {
	Number int    `json:"number"`
	Aids   string `json:"aids,omitempty"`
}

// Obelisk is the game-wide state (RULINGS O6, O7).
type Obelisk struct {
	Distance int     `json:"distance"` // km from the Gates
	Cuts     int     `json:"cuts"`
	Grebes   []Grebe `json:"grebes,omitempty"` // the Grebes that exist, by number
	// Summoned counts the Grebes ever summoned, so the next is Summoned+1;
	// a Grebe that ceased to exist at once (the cap) keeps its number.
	Summoned int `json:"summoned"`
	// LastObservation is the latest weekly observation (O6).
	LastObservation *Observed `json:"last_observation,omitempty"`
	// Grants are the grants to every member (O6's ⚡, O8's every-player
	// effects), which player records catch up with (grant.go).
	Grants Grants `json:"grants"`
}

// Observed records an observation: who, when and in which week.
type Observed struct {
	Week       string    `json:"week"` // ISO week, e.g. "2026-W49"
	Player     string    `json:"player"`
	PlayerName string    `json:"player_name,omitempty"`
	At         time.Time `json:"at"`
}

// NewObelisk is the Obelisk at the beginning of the game: StartDistance km
// away, no Cuts, no Grebes (O6).
func NewObelisk(o *ruleset.ObeliskRules) Obelisk {
	return Obelisk{Distance: o.StartDistance}
}

// AidingObelisk lists the numbers of the Grebes aiding the Obelisk.
func (o *Obelisk) AidingObelisk() []int {
	var out []int
	for _, g := range o.Grebes {
		if g.Aids == "" {
			out = append(out, g.Number)
		}
	}
	return out
}

// moveCloser moves the Obelisk km closer, not below 0, and returns how far
// it moved (002 The Obelisk).
func (o *Obelisk) moveCloser(km int) int {
	moved := min(km, o.Distance)
	o.Distance -= moved
	return moved
}

// Summon is one Grebe summoned to aid the Obelisk.
type Summon struct {
	Number int `json:"number"`
	// CeasedToExist: MaxGrebes already aided the Obelisk, so this one ceased
	// to exist at once (O7).
	CeasedToExist bool `json:"ceased_to_exist,omitempty"`
}

// summon brings one Grebe to aid the Obelisk, subject to the cap. Reading
// (RULINGS silent on numbering): the extra Grebe is summoned, so it takes
// the next number, and then ceases to exist; numbers are never reused.
func (o *Obelisk) summon(max int) Summon {
	o.Summoned++
	s := Summon{Number: o.Summoned}
	if len(o.AidingObelisk()) >= max {
		s.CeasedToExist = true
		return s
	}
	o.Grebes = append(o.Grebes, Grebe{Number: s.Number})
	return s
}

// Env is the moment a rule is applied at and what the rules read there.
type Env struct {
	RS  *ruleset.Ruleset
	Now time.Time
	// Season is the Current Season at Now (calendar.SeasonAt); a season
	// that cannot be determined is Calm Spring (002 Seasons).
	Season string
	// GameStart is when the game (round) started, for reputability (P4).
	GameStart time.Time
}

func (e Env) obelisk() (*ruleset.ObeliskRules, error) {
	if e.RS == nil || e.RS.Obelisk == nil {
		id := "(none)"
		if e.RS != nil {
			id = e.RS.ID
		}
		return nil, rules.Refuse("not_in_ruleset", "This game's ruleset (%s) has no Obelisk.", id)
	}
	return e.RS.Obelisk, nil
}

// season is the Current Season, Calm Spring when it cannot be determined.
func (e Env) season() string {
	if slices.Contains(calendar.Seasons, e.Season) {
		return e.Season
	}
	return calendar.Seasons[0]
}

// phase is the phase of Now.
func (e Env) phase() calendar.Phase { return calendar.PhaseAt(e.Now) }

// inSeason reports whether the Current Season is season, and in its early
// (Phase I) or late (Phase II) part if part says so (RULINGS O12).
func (e Env) inSeason(season, part string) bool {
	if e.season() != season {
		return false
	}
	switch part {
	case ruleset.SeasonEarly:
		return e.phase().Number == 1
	case ruleset.SeasonLate:
		return e.phase().Number == 2
	}
	return true
}

// Modifier is one term added to a die's N.
type Modifier struct {
	Source string `json:"source"` // "experience", or the season ("Winter", "early Winter")
	Amount int    `json:"amount"`
}

// Roll is a 1dN roll and how N came about: N = max(1, Base + the
// modifiers).
type Roll struct {
	Base      int        `json:"base"`
	Modifiers []Modifier `json:"modifiers,omitempty"`
	N         int        `json:"n"`
	Value     int        `json:"value"`
}

// String says the roll for people, e.g. "rolled 7 on 1d16 (24 + experience 0 + Winter -8)".
func (r Roll) String() string {
	terms := []string{fmt.Sprint(r.Base)}
	for _, m := range r.Modifiers {
		terms = append(terms, fmt.Sprintf("%s %+d", m.Source, m.Amount))
	}
	return fmt.Sprintf("rolled %d on 1d%d (%s)", r.Value, r.N, strings.Join(terms, ", "))
}

// seasonal returns the season modifiers in force.
func (e Env) seasonal(ms []ruleset.SeasonModifier) []Modifier {
	var out []Modifier
	for _, m := range ms {
		if e.inSeason(m.Season, m.Part) {
			src := m.Season
			if m.Part != "" {
				src = m.Part + " " + m.Season
			}
			out = append(out, Modifier{Source: src, Amount: m.Modifier})
		}
	}
	return out
}

// die computes N = max(1, base + modifiers) and returns the roll without
// its value.
func die(base int, mods []Modifier) Roll {
	n := base
	for _, m := range mods {
		n += m.Amount
	}
	return Roll{Base: base, Modifiers: mods, N: max(n, 1)}
}

// change adds n of component id to p and records it.
func change(p *Player, id string, n int, cause string, out *[]Delta) {
	if n == 0 {
		return
	}
	p.Components.Add(id, n)
	*out = append(*out, Delta{Player: p.ID, Component: id, Amount: n, Cause: cause})
}

// changeAll adds (sign +1) or removes (sign -1) every component of c.
func changeAll(p *Player, c Components, sign int, cause string, out *[]Delta) {
	for _, id := range ruleset.ComponentIDs() {
		change(p, id, sign*c.Get(id), cause, out)
	}
}

// ceilDiv is ceil(a/b) for b > 0, for any sign of a.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

func member(p *Player) error {
	if p == nil || !p.Member {
		return players.NotAPlayer()
	}
	return nil
}

// Join makes p's obelisk state that of a new player: nothing but the
// ruleset's JoinEnergy ⚡ (O1; rejoining starts empty, P1), caught up to
// the grants made so far, none of which is theirs (grant.go). p.Player is
// the membership players.Join returned.
func Join(p *Player, rs *ruleset.Ruleset, g *Grants) []Delta {
	p.Components = Components{}
	p.Experience = nil
	p.Banishment = nil
	p.Grebe = 0
	p.Boosts = nil
	p.Grants = g.Mark()
	var out []Delta
	change(p, ruleset.Resolve, rs.Thresholds.JoinEnergy, CauseJoin, &out)
	return out
}

// Leave destroys what p held (002 Items: an item owned by a non-player is
// destroyed; P1) and ends what they were part of: a Grebe aiding them
// ceases to exist (reading: a Grebe aids a player, and there is no player
// left to aid), their banishment and boosts end with their membership.
// The membership itself is players.Leave's; the caller has caught p up
// (CatchUp) with the grants made while they were a member.
func Leave(p *Player, o *Obelisk) []Delta {
	var out []Delta
	changeAll(p, p.Components, -1, CauseLeave, &out)
	if p.Grebe != 0 {
		o.Grebes = slices.DeleteFunc(o.Grebes, func(g Grebe) bool { return g.Number == p.Grebe })
	}
	p.Grebe = 0
	p.Banishment = nil
	p.Boosts = nil
	return out
}
