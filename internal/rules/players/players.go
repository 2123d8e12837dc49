// Package players holds the rules of membership (seed 002 Players; seed 000
// Inactivity) as pure functions: joining and leaving (RULINGS P1), actions and
// inactivity (P2, P3), and reputability (P4).
package players

import (
	"slices"
	"time"

	"croupier/internal/rules"
	"croupier/internal/words"
)

// Card is one individual copy of a card a player owns (RULINGS C2).
type Card struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Holo bool   `json:"holo,omitempty"`
}

// Pack is an unopened pack in an inventory (RULINGS C5).
type Pack struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

// Inventory is everything a player possesses. Cards are their deck.
type Inventory struct {
	Vertebrae int    `json:"vertebrae"`
	Chips     int    `json:"chips"`
	Cards     []Card `json:"cards"`
	Packs     []Pack `json:"packs"`
}

// Normalized returns inv with empty lists instead of nil ones, so every
// view of an inventory has the same JSON shape.
func (inv Inventory) Normalized() Inventory {
	if inv.Cards == nil {
		inv.Cards = []Card{}
	}
	if inv.Packs == nil {
		inv.Packs = []Pack{}
	}
	return inv
}

// Empty reports whether the inventory holds nothing.
func (inv Inventory) Empty() bool {
	return inv.Vertebrae == 0 && inv.Chips == 0 && len(inv.Cards) == 0 && len(inv.Packs) == 0
}

// DeckEntry is one line of a deck grouped by card: how many copies, how
// many of them holographic, and the copies themselves.
type DeckEntry struct {
	Card   string `json:"card"`
	Value  int    `json:"value,omitempty"`
	Colour string `json:"colour,omitempty"`
	Count  int    `json:"count"`
	Holo   int    `json:"holo"`
	Copies []Card `json:"copies"`
}

// Player is one person's membership in one game: who, since when, and when
// they acted. The record outlives a departure so the 7-day rejoin rule can
// be applied. What a player holds is their ruleset's (economy.Player is
// Gilded Hall's record, which embeds this one: one item per player).
type Player struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Member bool   `json:"member"`
	// JoinedAt starts the current (or last) continuous stint; LeftAt ends the
	// last stint and is zero while Member.
	JoinedAt time.Time `json:"joined_at"`
	LeftAt   time.Time `json:"left_at,omitzero"`
	// JoinPeriod is the period of the current stint's join: everyone is
	// active in the period they join (P3).
	JoinPeriod string `json:"join_period"`
	// ActionPeriods lists the last two distinct periods in which the player
	// performed an action (P2), oldest first: enough to answer P3.
	ActionPeriods []string `json:"action_periods,omitempty"`
	// Preregistered: a moderator's import made this membership for a
	// person who has not joined yet (their holdings carried over); their
	// own join takes it over, holdings and all.
	Preregistered bool `json:"preregistered,omitempty"`
	// NameIndex is the normalized display name under which the engine's
	// name index lists this member (its NAME# item, written and deleted
	// only by this player's own commits), and NameIndexV that item's
	// version; empty when it lists them under none.
	NameIndex  string `json:"name_index,omitempty"`
	NameIndexV int64  `json:"name_index_v,omitempty"`
}

// at is a moment in a refusal: in a game's own zone where it keeps one (a
// turns game's America/Chicago), else RFC 1123 in UTC.
func at(zone *time.Location, t time.Time) string {
	if zone == nil || zone == time.UTC {
		return t.UTC().Format(time.RFC1123)
	}
	return t.In(zone).Format("Mon 2 Jan 2006 15:04 MST")
}

// Core returns the membership itself: a ruleset module's player record
// embeds a Player, and the engine reaches the membership through Core.
func (p *Player) Core() *Player { return p }

// Label is how a text names p: their display name, or their id without
// one.
func (p *Player) Label() string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

// Owed is a giver's pending card from a gift to an inactive player.
type Owed struct {
	Giver  string `json:"giver"`
	Period string `json:"period"`
	Gift   string `json:"gift"` // the gift's command id (its log entry is LOG#<id>)
}

// Join makes id a player at now (RULINGS P1). prev is their earlier record, or
// nil if they never played in this game. Refused while they are a player, or
// if they were one at any time in the past rejoinWait (the error carries the
// moment joining becomes possible). A rejoining player starts empty. Its
// refusals give times in zone, the game's (RULINGS T1, T3).
func Join(prev *Player, id, name string, now time.Time, period string, rejoinWait time.Duration, zone *time.Location) (*Player, error) {
	if prev != nil && prev.Member {
		return nil, rules.Refuse("already_a_player", "You are already a player in this game (since %s).", at(zone, prev.JoinedAt))
	}
	if prev != nil && !prev.LeftAt.IsZero() {
		possible := prev.LeftAt.Add(rejoinWait)
		if now.Before(possible) {
			return nil, rules.Refuse("rejoin_too_soon",
				"You left this game on %s; a person who was a player in the past %s cannot join again until %s.",
				at(zone, prev.LeftAt), words.Duration(rejoinWait), at(zone, possible)).
				With("possible_at", possible.UTC())
		}
	}
	if name == "" && prev != nil {
		name = prev.Name
	}
	return &Player{
		ID:            id,
		Name:          name,
		Member:        true,
		JoinedAt:      now,
		JoinPeriod:    period,
		ActionPeriods: []string{period}, // joining is an action (P2)
	}, nil
}

// Leave ends p's membership at now (RULINGS P1). What they held is their
// ruleset's to destroy (seed 002 Items: an item owned by a non-player is
// destroyed; economy.Leave for Gilded Hall's).
func Leave(p *Player, now time.Time) error {
	if p == nil || !p.Member {
		return NotAPlayer()
	}
	p.Member = false
	p.LeftAt = now
	return nil
}

// NotAPlayer is the refusal for commands that need a current player.
func NotAPlayer() *rules.Error {
	return rules.Refuse("not_a_player", "You are not a player in this game; join it first.")
}

// RecordAction notes that p performed an action in period (RULINGS P2). It
// reports whether the record changed (the first action of a period).
func RecordAction(p *Player, period string) bool {
	n := len(p.ActionPeriods)
	if n > 0 && p.ActionPeriods[n-1] == period {
		return false
	}
	p.ActionPeriods = append(p.ActionPeriods, period)
	if len(p.ActionPeriods) > 2 {
		p.ActionPeriods = slices.Clone(p.ActionPeriods[len(p.ActionPeriods)-2:])
	}
	return true
}

// Inactive reports whether p is inactive in period current, whose previous
// period is previous (RULINGS P3): no action in the previous period, unless
// they joined in the current one.
func Inactive(p *Player, current, previous string) bool {
	if !p.Member || p.JoinPeriod == current {
		return false
	}
	return !slices.Contains(p.ActionPeriods, previous)
}

// Reputable reports whether p is reputable at now (RULINGS P4): a player
// continuously for the previous tenure, or continuously since a moment within
// grace of the game starting.
func Reputable(p *Player, now, gameStart time.Time, tenure, grace time.Duration) bool {
	if !p.Member {
		return false
	}
	return !p.JoinedAt.After(now.Add(-tenure)) || !p.JoinedAt.After(gameStart.Add(grace))
}
