package obelisk

import (
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// Observation is what the weekly observation did (RULINGS O6, O7).
type Observation struct {
	Week   string `json:"week"`
	Player string `json:"player"`
	// Roll is the 1dN: Base is the Cuts (at least 1), then the season's
	// modifiers (Winter: -1); N is at least 1.
	Roll     Roll    `json:"roll"`
	Moved    int     `json:"moved"`    // km closer (not below 0)
	Distance int     `json:"distance"` // km after
	Summon   *Summon `json:"summon,omitempty"`
	// Resolve is the ⚡ each player gained; Grant is that gain, made to
	// every member at once as a game-level grant (grant.go).
	Resolve int    `json:"resolve"`
	Grant   *Grant `json:"grant,omitempty"`
}

// Observe is by's observation of the Obelisk (RULINGS O6, O7): once per
// week (Monday 00:00 UTC to Monday 00:00 UTC) for the whole game, first
// come first served; a second attempt in the week is refused with the
// moment the next week starts. It rolls 1dN (one PurposeObservation draw),
// moves the Obelisk that many km closer, summons a Grebe on an odd roll
// (the cap applies), then grants Observation.Resolve ⚡ to every member: a
// game-level grant on o, which each player record catches up with.
func Observe(o *Obelisk, by *Player, env Env, src fair.Source) (Observation, error) {
	or, err := env.obelisk()
	if err != nil {
		return Observation{}, err
	}
	if err := member(by); err != nil {
		return Observation{}, err
	}
	week := calendar.WeekAt(env.Now)
	if last := o.LastObservation; last != nil && last.Week == week.String() {
		who := last.PlayerName
		if who == "" {
			who = last.Player
		}
		return Observation{}, rules.Refuse("already_observed", "%s already observed the Obelisk this week (%s); the next observation is possible from %s.",
			who, last.At.UTC().Format(time.RFC1123), week.End().UTC().Format(time.RFC1123)).
			With("possible_at", week.End().UTC()).With("observed_by", last.Player)
	}
	// N is the Cuts, at least 1; then the season's modifier, again at
	// least 1 (die floors N at 1).
	r := die(max(o.Cuts, 1), env.seasonal(or.Observation.SeasonModifiers))
	r.Value = src.Intn(PurposeObservation, r.N) + 1
	res := Observation{Week: week.String(), Player: by.ID, Roll: r, Resolve: or.Observation.Resolve}
	res.Moved = o.moveCloser(r.Value)
	res.Distance = o.Distance
	if r.Value%2 == 1 {
		s := o.summon(or.MaxGrebes)
		res.Summon = &s
	}
	var gain Components
	gain.Add(ruleset.Resolve, or.Observation.Resolve)
	gr := o.Grants.GrantComponents(gain, CauseObservation, env.Now)
	res.Grant = &gr
	o.LastObservation = &Observed{Week: week.String(), Player: by.ID, PlayerName: by.Name, At: env.Now}
	return res, nil
}
