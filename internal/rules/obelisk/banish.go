package obelisk

import (
	"time"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
	"croupier/internal/words"
)

// Banished is what an adopted banishment proposal did.
type Banished struct {
	Player   string    `json:"player"`
	Since    time.Time `json:"since"`
	Duration string    `json:"duration"`
	EndsAt   time.Time `json:"ends_at"` // when the player may end it
	// Restarted: the player was already banished; the new banishment
	// replaces the old one.
	Restarted bool `json:"restarted,omitempty"`
}

// CheckBanishmentDuration refuses a Banishment Duration that is not
// positive (a proposal's parameter, checked at submission).
func CheckBanishmentDuration(d time.Duration) error {
	if d <= 0 {
		return rules.Refuse("invalid_duration", "A Banishment Duration must be longer than zero.")
	}
	return nil
}

// Banish applies an adopted banishment proposal to p at now, its adoption
// (RULINGS O11). Reading (RULINGS silent): a player already banished is
// banished anew, from now for the new Duration, since the proposal set "a
// period of time" from its adoption.
func Banish(p *Player, d time.Duration, proposal string, now time.Time) (Banished, error) {
	if err := member(p); err != nil {
		return Banished{}, rules.Refuse("not_a_player", "%s is not a player in this game, so they cannot be banished.", p.Label())
	}
	if err := CheckBanishmentDuration(d); err != nil {
		return Banished{}, err
	}
	res := Banished{Player: p.ID, Since: now, Duration: ruleset.Duration(d).String(), EndsAt: now.Add(d), Restarted: p.Banished()}
	p.Banishment = &Banishment{Since: now, Duration: ruleset.Duration(d), Proposal: proposal}
	return res, nil
}

// EndBanishment ends p's banishment at their request (RULINGS O11): only
// once they have been banished continuously for at least the Duration;
// earlier, refused with the moment it becomes possible.
func EndBanishment(p *Player, now time.Time) error {
	if err := member(p); err != nil {
		return err
	}
	if !p.Banished() {
		return rules.Refuse("not_banished", "You are not banished.")
	}
	if at := p.Banishment.EndsAt(); now.Before(at) {
		return rules.Refuse("banishment_not_over", "You were banished on %s for %s; you can end your banishment from %s.",
			p.Banishment.Since.UTC().Format(time.RFC1123), words.Duration(p.Banishment.Duration.Std()), at.UTC().Format(time.RFC1123)).
			With("possible_at", at.UTC())
	}
	p.Banishment = nil
	return nil
}
