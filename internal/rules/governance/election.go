package governance

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/players"
)

// Candidacy is a reputable player's message standing for Judge in one UTC
// week (seed 000 Judgement, RULINGS G5).
type Candidacy struct {
	ID        string     `json:"id"`
	Candidate string     `json:"candidate"`
	Message   MessageRef `json:"message"`
	CreatedAt time.Time  `json:"created_at"`
	Week      string     `json:"week"` // ISO week id, e.g. "2026-W49"; the election is at its end
}

// Stand records a candidacy by p at now. Only a reputable player (RULINGS
// P4) may stand, once per week: a second message by the same player would
// only split their own 👍. existing are the candidacies already made (any
// week).
func Stand(existing []Candidacy, id string, p *players.Player, msg MessageRef, now time.Time, cfg Config) (Candidacy, error) {
	if id == "" {
		return Candidacy{}, rules.Refuse("invalid_id", "A candidacy needs an id.")
	}
	if p == nil || !p.Member {
		return Candidacy{}, players.NotAPlayer()
	}
	if err := msg.check("candidacy"); err != nil {
		return Candidacy{}, err
	}
	if err := mustBeReputable(p, now, cfg, "stand for Judge"); err != nil {
		return Candidacy{}, err
	}
	week := calendar.WeekAt(now)
	for _, c := range existing {
		if c.ID == id {
			return Candidacy{}, rules.Refuse("duplicate_id", "A candidacy %q already exists.", id)
		}
		if c.Candidate == p.ID && c.Week == week.String() {
			return Candidacy{}, rules.Refuse("already_candidate", "You already stand for Judge this week (%s, candidacy %s).", week, c.ID).
				With("candidacy", c.ID)
		}
	}
	return Candidacy{ID: id, Candidate: p.ID, Message: msg, CreatedAt: now, Week: week.String()}, nil
}

// Ballot is one candidacy with the reactions on its message at the week's
// end. A deleted message has no reactions left, so it cannot be popular.
type Ballot struct {
	Candidacy Candidacy `json:"candidacy"`
	Reactions Reactions `json:"reactions"`
}

// Standing is how one candidacy fared.
type Standing struct {
	Candidacy string   `json:"candidacy"`
	Candidate string   `json:"candidate"`
	Up        int      `json:"up"`        // players with 👍 only
	Down      int      `json:"down"`      // players with 👎 only or both (G1)
	UpVoters  []string `json:"up_voters"` // a sample of at most StandingVoters
	Popular   bool     `json:"popular"`
	Note      string   `json:"note,omitempty"` // why it could not win, if not for its votes
}

// Election is the outcome of a week's Judge election.
type Election struct {
	Week     string `json:"week"`
	Previous string `json:"previous,omitempty"` // the Judge before
	Judge    string `json:"judge,omitempty"`    // the Judge after ("" none)
	// Winner is the winning candidacy's id, "" if none was popular.
	Winner    string     `json:"winner,omitempty"`
	Changed   bool       `json:"changed"`
	Standings []Standing `json:"standings"`
	// Candidacies is how many candidacies of the week were counted (the
	// standings keep at most MaxStandings of them).
	Candidacies int    `json:"candidacies"`
	Reason      string `json:"reason"`
}

// An election keeps at most MaxStandings standings (the winner and the
// candidacies with the most 👍, in candidacy order) and StandingVoters names
// of each, so its result stays small however many stood (issue 22);
// Candidacies counts them all.
const (
	MaxStandings   = 100
	StandingVoters = 10
)

// keepStandings is ss (in candidacy order) less all but the MaxStandings
// with the most 👍 (ties: the earlier), always keeping ss[best].
func keepStandings(ss []Standing, best int) []Standing {
	if len(ss) <= MaxStandings {
		return ss
	}
	rank := make([]int, len(ss))
	for i := range rank {
		rank[i] = i
	}
	order.Stable(rank, func(a, b int) int { return cmp.Compare(ss[b].Up, ss[a].Up) })
	keep := map[int]bool{}
	if best >= 0 {
		keep[best] = true
	}
	for _, i := range rank {
		if len(keep) == MaxStandings {
			break
		}
		keep[i] = true
	}
	out := make([]Standing, 0, MaxStandings)
	for i, s := range ss {
		if keep[i] {
			out = append(out, s)
		}
	}
	return out
}

// Elect decides the Judge election of week (RULINGS G5) from the reactions
// on its candidacies when the week ends; isPlayer answers for that moment
// (nil: already filtered). A candidacy is popular if more players gave it
// 👍 than 👎, reading a player with both as against like G1; among popular
// candidacies the one with the most 👍 wins, ties going to the earliest
// candidacy. A candidate who is no longer a player cannot win. With no
// popular candidacy the current Judge stays (including none). Ballots of
// other weeks are ignored.
func Elect(week calendar.Week, current string, ballots []Ballot, isPlayer func(id string) bool) Election {
	e := Election{Week: week.String(), Previous: current, Judge: current, Standings: []Standing{}}
	bs := slices.Clone(ballots)
	order.Stable(bs, func(a, b Ballot) int {
		return cmp.Or(a.Candidacy.CreatedAt.Compare(b.Candidacy.CreatedAt), strings.Compare(a.Candidacy.ID, b.Candidacy.ID))
	})
	best := -1
	for _, b := range bs {
		cd := b.Candidacy
		if cd.Week != week.String() {
			continue
		}
		c := countReactions(b.Reactions, isPlayer)
		s := Standing{Candidacy: cd.ID, Candidate: cd.Candidate, Up: len(c.up), Down: len(c.down) + len(c.both), UpVoters: slices.Clone(c.up[:min(len(c.up), StandingVoters)])}
		s.Popular = s.Up > s.Down
		if s.Popular && isPlayer != nil && !isPlayer(cd.Candidate) {
			s.Popular = false
			s.Note = "the candidate is no longer a player"
		}
		e.Standings = append(e.Standings, s)
		// Strictly more 👍 replaces the leader: ballots run earliest first,
		// so a tie keeps the earlier candidacy.
		if s.Popular && (best < 0 || s.Up > e.Standings[best].Up) {
			best = len(e.Standings) - 1
		}
	}
	var w Standing
	if best >= 0 {
		w = e.Standings[best]
	}
	e.Candidacies = len(e.Standings)
	e.Standings = keepStandings(e.Standings, best)
	switch {
	case e.Candidacies == 0:
		e.Reason = fmt.Sprintf("no candidacies in %s; the Judge stays", week)
	case best < 0:
		e.Reason = fmt.Sprintf("no popular candidacy in %s (each needs more 👍 than 👎 from players); the Judge stays", week)
	default:
		e.Winner, e.Judge = w.Candidacy, w.Candidate
		e.Changed = w.Candidate != current
		e.Reason = fmt.Sprintf("%s is elected with %d 👍 against %d 👎, the most among popular candidacies (ties go to the earliest)", w.Candidate, w.Up, w.Down)
	}
	return e
}

// Seat applies an election to the court at the week's end: the winner, if
// they are not already the Judge, takes office at that moment.
func Seat(c *Court, e Election, at time.Time) {
	if c == nil || !e.Changed {
		return
	}
	c.seat(e.Judge, at)
}
