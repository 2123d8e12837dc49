// Package governance holds the rules of self-government of seed 000
// (Proposals, Urgent and Standard Class, Judgement; RULINGS G1-G5) as pure
// functions over plain, JSON-serialisable data: proposals and their voting
// periods, reaction votes and tallies, the Judge with requests for justice,
// rulings and confidence votes, and Judge elections.
//
// Nothing here reads a clock or does I/O: the moment is always an argument
// (`now`), membership is asked through an isPlayer function evaluated by the
// caller at the moment that matters (the end of a voting period), and
// reactions are whatever a reaction source reported for a message. A
// refusal is a *rules.Error with a stable code.
package governance

import (
	"fmt"
	"slices"
	"time"

	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/ruleset"
)

// Emoji that count as votes (seed 000 Proposals, Judgement). Any other
// reaction is an abstention.
const (
	ThumbsUp   = "👍"
	ThumbsDown = "👎"
)

// MessageRef names the chat message a proposal, request, poll or candidacy
// lives in. Votes are the reactions on that message (RULINGS G1).
type MessageRef struct {
	Platform string `json:"platform"` // e.g. "discord"
	Channel  string `json:"channel"`
	Message  string `json:"message"`
}

// Valid reports whether every part of the reference is present.
func (m MessageRef) Valid() bool { return m.Platform != "" && m.Channel != "" && m.Message != "" }

func (m MessageRef) check(what string) error {
	if !m.Valid() {
		return rules.Refuse("invalid_message",
			"The %s must name its chat message (platform, channel and message id); got platform %q, channel %q, message %q.",
			what, m.Platform, m.Channel, m.Message)
	}
	return nil
}

// Reactions are the people behind the 👍 and 👎 reactions on one message, as
// read when a vote ends. Order and duplicates do not matter; empty ids are
// ignored.
type Reactions struct {
	Up   []string `json:"up"`
	Down []string `json:"down"`
}

// Config is what the governance rules need from a game: its calendar (the
// standard voting period is a phase, G2), its ruleset (durations, and the
// data amendments patch, G3), and its start (reputability, P4).
type Config struct {
	Calendar  calendar.Schedule
	Ruleset   *ruleset.Ruleset
	GameStart time.Time
}

// NewConfig returns the Config of a game running rs since gameStart.
func NewConfig(rs *ruleset.Ruleset, gameStart time.Time) (Config, error) {
	if rs == nil {
		return Config{}, fmt.Errorf("governance: no ruleset")
	}
	cal, err := calendar.For(rs.Calendar)
	if err != nil {
		return Config{}, fmt.Errorf("governance: ruleset %s: %w", rs.ID, err)
	}
	return Config{Calendar: cal, Ruleset: rs, GameStart: gameStart}, nil
}

// duration returns a ruleset duration the caller needs, or a refusal naming
// the missing field: a ruleset without it (e.g. obelisk has no urgent
// proposals) does not have that part of governance.
func (c Config) duration(field string, pick func(ruleset.Durations) ruleset.Duration) (time.Duration, error) {
	if c.Ruleset == nil {
		return 0, rules.Refuse("not_in_ruleset", "This game has no ruleset loaded.")
	}
	d := pick(c.Ruleset.Durations).Std()
	if d <= 0 {
		return 0, rules.Refuse("not_in_ruleset",
			"The ruleset %s has no %s duration, so this part of governance does not exist in it.", c.Ruleset.ID, field).
			With("field", "durations."+field)
	}
	return d, nil
}

// urgentMaxAgainst is the urgent class's limit on votes against (RULINGS
// R4), or false when the ruleset has no 000 governance counts.
func (c Config) urgentMaxAgainst() (int, bool) {
	if c.Ruleset == nil {
		return 0, false
	}
	g := c.Ruleset.Thresholds.Governance
	if g == (ruleset.Governance{}) {
		return 0, false
	}
	return g.UrgentMaxAgainst, true
}

// count is the G1 reading of a message's reactions: a player with 👍 only is
// for, 👎 only is against, both is unclear; non-players are ignored. Each
// list is sorted and free of duplicates, so the outcome does not depend on
// the order or repetition of reactions. A nil isPlayer means the caller has
// already filtered the reactions to players.
type count struct {
	up, down, both, ignored []string
}

func countReactions(r Reactions, isPlayer func(string) bool) count {
	up, down := set(r.Up), set(r.Down)
	var c count
	seen := map[string]bool{}
	for _, id := range append(slices.Clone(up), down...) {
		if seen[id] {
			continue
		}
		seen[id] = true
		if isPlayer != nil && !isPlayer(id) {
			c.ignored = append(c.ignored, id)
			continue
		}
		u, d := slices.Contains(up, id), slices.Contains(down, id)
		switch {
		case u && d:
			c.both = append(c.both, id)
		case u:
			c.up = append(c.up, id)
		default:
			c.down = append(c.down, id)
		}
	}
	for _, l := range []*[]string{&c.up, &c.down, &c.both, &c.ignored} {
		slices.Sort(*l)
		if *l == nil {
			*l = []string{}
		}
	}
	return c
}

// set returns ids sorted, without duplicates or empty strings.
func set(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id != "" {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func when(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 MST") }
