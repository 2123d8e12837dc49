package obelisk

import (
	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// An admin's correction of one player's components (RULINGS G3: what no
// rule applies, a ruling or an urgent proposal's intent, the game's
// administrators apply through the audit-logged admin interface, as the
// Gilded Hall's grant and revoke do for its items). A correction names the
// player, the amounts and the reason; its changes carry CauseCorrection, so
// the log explains the holdings it leaves as it explains every other.

// CauseCorrection is the cause of an admin's correction (Delta.Cause).
const CauseCorrection = "correction"

// MaxCorrection bounds one correction's count of each component, to catch
// typos.
const MaxCorrection = 1_000_000

// CheckCounts refuses a correction's count that is negative or oversized
// (grant or revoke says which way), naming the component, and a
// correction of nothing.
func CheckCounts(c Components) error {
	for _, ci := range ruleset.ComponentList {
		if n := c.Get(ci.ID); n < 0 || n > MaxCorrection {
			return rules.Refuse("invalid_request", "%d is not a count of %s: a correction moves 0 to %d of each component (grant or revoke says which way).", n, ci.Name, MaxCorrection)
		}
	}
	if c.IsZero() {
		return rules.Refuse("invalid_request", "A correction needs a count of at least one component, e.g. crystals 2.")
	}
	return nil
}

// Correct grants c to p or, revoking, takes it: all of it or, if p lacks
// any of it, nothing (a count never goes negative; the refusal says what
// is missing). p must be a player: a non-player holds nothing (002 Items).
func Correct(p *Player, c Components, revoke bool) ([]Delta, error) {
	if p == nil || !p.Member {
		return nil, rules.Refuse("not_a_player", "%s is not a player in this game.", label(p))
	}
	if c.IsZero() {
		return nil, rules.Refuse("invalid_request", "A correction needs at least one component and a count.")
	}
	sign := 1
	if revoke {
		if !p.Components.Covers(c) {
			short := p.Components.Short(c)
			return nil, rules.Refuse("insufficient_components", "%s holds %s, so %s cannot be revoked: %s is missing. Nothing was revoked.", p.Label(), p.Components, c, short).
				With("player", p.ID).With("missing", short).With("holding", p.Components)
		}
		sign = -1
	}
	var out []Delta
	changeAll(p, c, sign, CauseCorrection, &out)
	return out, nil
}

func label(p *Player) string {
	if p == nil {
		return "That person"
	}
	return p.Label()
}
