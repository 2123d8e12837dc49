package obelisk

import (
	"fmt"
	"sort"
	"strings"

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

// ParseComponents reads amounts named by component id, emoji or name (as
// chat and the API spell them) into counts: an unknown component, a
// negative or oversized count, or a component named twice is refused,
// and so is a correction of nothing.
func ParseComponents(amounts map[string]int) (Components, error) {
	var c Components
	seen := map[string]string{}
	refs := make([]string, 0, len(amounts))
	for ref := range amounts {
		refs = append(refs, ref)
	}
	sort.Strings(refs) // the same refusal, whatever the map's order
	for _, ref := range refs {
		n := amounts[ref]
		ci, ok := ruleset.Component(strings.TrimSpace(ref))
		if !ok {
			return Components{}, rules.Refuse("unknown_component", "%q is not a Ritual Component; they are %s.", ref, componentList()).
				With("components", ruleset.ComponentIDs())
		}
		if prev, dup := seen[ci.ID]; dup {
			return Components{}, rules.Refuse("invalid_request", "%s is named twice (%q and %q); name each component once.", ci.Name, prev, ref)
		}
		seen[ci.ID] = ref
		if n < 0 || n > MaxCorrection {
			return Components{}, rules.Refuse("invalid_request", "%d is not a count of %s: a correction moves 0 to %d of each component (grant or revoke says which way).", n, ci.Name, MaxCorrection)
		}
		c.Add(ci.ID, n)
	}
	if c.IsZero() {
		return Components{}, rules.Refuse("invalid_request", "A correction needs at least one component and a count, e.g. {\"crystals\": 2}.")
	}
	return c, nil
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

// componentList names the components for a refusal: "⚡ resolve, 💎 crystals, ...".
func componentList() string {
	s := make([]string, len(ruleset.ComponentList))
	for i, c := range ruleset.ComponentList {
		s[i] = fmt.Sprintf("%s %s", c.Emoji, c.ID)
	}
	return strings.Join(s, ", ")
}
