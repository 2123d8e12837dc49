package obelisk

import (
	"slices"
	"time"

	"croupier/internal/ruleset"
)

// A grant to every player (the ⚡ after an observation, O6; a ritual's
// effect on every player, O8/O10) is a game-level fact, recorded once on
// the Obelisk, never a write of every player record: nothing may grow with
// the game in one commit (DynamoDB: 100 operations a transaction). Each
// player record keeps the grant it has caught up to and catches up when it
// is read (CatchUp), so every path sees the same holdings.
//
// Who qualifies: the members at the moment of the grant. Joining sets the
// new stint's mark to the grants as they stand (JoinGrants), so a player
// who joins after a grant never gets it, and a rejoin gets nothing from
// before it. Leaving catches up first, then destroys everything (Leave).
//
// The log is bounded as the records are: Total is the running sum of
// every component granted, so a catch-up owes Total minus the Total the
// record last saw (O(1), whatever the number of grants).

// Grants is the game-level record of what every member was granted.
type Grants struct {
	// Seq numbers the grants made, from 1; 0 is none yet.
	Seq int `json:"seq"`
	// Total is the running sum of the components granted to every member
	// by grants 1..Seq.
	Total Components `json:"total"`
	// Boosts are the every-player boosts still running (O4, O8), at most
	// one per task (the latest), each with the grant that made it.
	Boosts []GrantBoost `json:"boosts,omitempty"`
	// Unbanished is the latest grant that ended every player's banishment
	// (O8, O11): a member banished before it is no longer banished.
	Unbanished *GrantMoment `json:"unbanished,omitempty"`
}

// GrantBoost is an every-player boost (O4) and the grant that made it.
type GrantBoost struct {
	Boost
	Seq int `json:"seq"`
}

// GrantMoment is one grant's number and when it was made.
type GrantMoment struct {
	Seq int       `json:"seq"`
	At  time.Time `json:"at"`
}

// Caught is what a player record has caught up to: the grant number and
// the running Total as it stood then.
type Caught struct {
	Seq   int        `json:"seq"`
	Total Components `json:"total"`
}

// Grant is one game-level grant, as the log records it: its number, why,
// and what every member at that moment gains (a log-reader applies
// EveryMember to each current player at that entry; docs/rules-obelisk.md).
type Grant struct {
	Seq         int        `json:"seq"`
	Cause       string     `json:"cause"`
	EveryMember Components `json:"every_member"`
	// Boost, EndBanishment: the other every-player effects (O8).
	Boost         *Boost    `json:"boost,omitempty"`
	EndBanishment bool      `json:"end_banishment,omitempty"`
	At            time.Time `json:"at"`
}

// GrantComponents records a grant of c to every member at now, and says it.
func (g *Grants) GrantComponents(c Components, cause string, now time.Time) Grant {
	g.Seq++
	g.Total = g.Total.Plus(c)
	return Grant{Seq: g.Seq, Cause: cause, EveryMember: c, At: now}
}

// GrantBoost records that every member's task is Boosted until until.
func (g *Grants) GrantBoost(b Boost, now time.Time) Grant {
	g.Seq++
	g.Boosts = slices.DeleteFunc(slices.Clone(g.Boosts), func(x GrantBoost) bool { return x.Task == b.Task || !now.Before(x.Until) })
	g.Boosts = append(g.Boosts, GrantBoost{Boost: b, Seq: g.Seq})
	return Grant{Seq: g.Seq, Cause: CauseRitual, Boost: &b, At: now}
}

// GrantEndBanishment records that every member's banishment ends at now.
func (g *Grants) GrantEndBanishment(now time.Time) Grant {
	g.Seq++
	g.Unbanished = &GrantMoment{Seq: g.Seq, At: now}
	return Grant{Seq: g.Seq, Cause: CauseRitual, EndBanishment: true, At: now}
}

// Mark is the record of a new stint: caught up to every grant made so far,
// so it gets none of them (a joiner was not a member then).
func (g *Grants) Mark() Caught { return Caught{Seq: g.Seq, Total: g.Total} }

// CatchUp gives p what the grants made since p's mark owe a member, and
// moves the mark. It is idempotent and never goes back: a record already
// caught up further than g (g read before a newer grant) is left as it is.
// A non-member is owed nothing (002 Items: a non-player owns nothing; a
// rejoin starts from the grants of its join). The changes it returns carry
// CauseGrant.
func CatchUp(p *Player, g *Grants, now time.Time) []Delta {
	if p == nil || !p.Member || p.Grants.Seq >= g.Seq {
		return nil
	}
	var out []Delta
	owed := g.Total.Minus(p.Grants.Total)
	for _, id := range ruleset.ComponentIDs() {
		change(p, id, owed.Get(id), CauseGrant, &out)
	}
	for _, b := range g.Boosts {
		if b.Seq > p.Grants.Seq && now.Before(b.Until) {
			p.Boosts = append(slices.DeleteFunc(p.Boosts, func(x Boost) bool { return x.Task == b.Task || !now.Before(x.Until) }), b.Boost)
		}
	}
	if u := g.Unbanished; u != nil && u.Seq > p.Grants.Seq && p.Banished() && !p.Banishment.Since.After(u.At) {
		p.Banishment = nil
	}
	p.Grants = g.Mark()
	return out
}
