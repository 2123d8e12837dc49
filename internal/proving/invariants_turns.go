package proving

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
)

// turnsGame is what the invariants read of a turns game: its game item's
// round, and the players (their TPLAYER# items, and a list the game item
// of an older game holds until its players are moved out).
type turnsGame struct {
	Round   nomic.Round    `json:"round"`
	Players []nomic.Player `json:"players"`
}

func (s *Snapshot) turnsGame(c *Checks) (turnsGame, bool) {
	var tg turnsGame
	data, ok := s.Module["TURNS"]
	if !ok {
		return tg, false
	}
	err := json.Unmarshal(data, &tg)
	c.check(err == nil, "decoding the turns game item: %v", err)
	legacy := tg.Players
	tg.Players = nil
	moved := map[string]bool{}
	for sk, data := range s.Module {
		id, ok := strings.CutPrefix(sk, "TPLAYER#")
		if !ok {
			continue
		}
		var p struct {
			nomic.Player
			Round int `json:"round"`
		}
		if err := json.Unmarshal(data, &p); err != nil {
			c.check(false, "decoding the turns player item of %s: %v", id, err)
			continue
		}
		if p.Round < tg.Round.Number { // points of an earlier round read as 0 (U6)
			p.Points = 0
		}
		moved[p.ID] = true
		tg.Players = append(tg.Players, p.Player)
	}
	for _, p := range legacy {
		if !moved[p.ID] {
			tg.Players = append(tg.Players, p)
		}
	}
	return tg, err == nil
}

// activityMargin: a voter whose activity changed (turns-active, leave)
// between their vote and this long after the turn's end may rightly not
// be counted (U4: the votes of active players count); the lag of the
// clients' clocks is well within it.
const activityMargin = 100 * time.Millisecond

// Counted checks RULINGS T5 on every decided proposal and appeal: each
// acknowledged vote is counted exactly once in its turn end's tally, as
// the voter's last acknowledged vote on it (a client sends a vote until it
// is answered before its next, so acknowledgement order is commit order).
// A voter whose vote was left unanswered, or whose activity changed after
// the vote, is not checked (nothing says what their standing vote was).
func (s *Snapshot) Counted(c *Checks, obs Observed) {
	c.inv = InvCounted
	tg, ok := s.turnsGame(c)
	if !ok {
		return
	}
	standing := map[ballot]string{}
	castAt := map[ballot]time.Time{}
	for _, a := range obs.Acks {
		if !isVote(a.Command) {
			continue
		}
		var v struct {
			Proposal string `json:"proposal"`
			Appeal   string `json:"appeal"`
			Voter    string `json:"voter"`
			Vote     string `json:"vote"`
		}
		if err := json.Unmarshal(a.Body, &v); err != nil {
			c.check(false, "%s's %s (key %s): cannot decode the answer %s: %v", a.Actor, a.Command, a.Key, a.Body, err)
			continue
		}
		b := ballot{v.Proposal + v.Appeal, v.Voter}
		standing[b] = v.Vote
		if e, ok := s.ByKey[game.CommandID(a.Actor, a.Key)]; ok && e.At.After(castAt[b]) {
			castAt[b] = e.At
		} else if !ok {
			castAt[b] = time.Time{} // the acknowledged invariant names it
		}
	}
	unanswered := map[ballot]bool{}
	for _, a := range obs.Unanswered {
		unanswered[ballot{a.Target, a.Actor}] = true
	}
	// When each player's activity changed.
	changed := map[string][]time.Time{}
	for _, e := range s.Entries {
		if e.Command == "turns-active" || e.Command == "leave" {
			changed[e.Actor] = append(changed[e.Actor], e.At)
		}
	}
	excused := func(b ballot, end time.Time) bool {
		for _, at := range changed[b.voter] {
			if !at.Before(castAt[b].Add(-activityMargin)) && at.Before(end.Add(activityMargin)) {
				return true
			}
		}
		return false
	}
	type tally struct {
		what    string
		id      string
		end     time.Time
		res     *nomic.Result
		ordinal int
	}
	var tallies []tally
	for sk, data := range s.Module {
		switch {
		case strings.HasPrefix(sk, "TPROP#"):
			var p nomic.Proposal
			if err := json.Unmarshal(data, &p); err != nil {
				c.check(false, "decoding %s: %v", sk, err)
				continue
			}
			if p.Result != nil && p.Round == tg.Round.Number {
				tallies = append(tallies, tally{"proposal " + p.ID, p.ID, nomic.TurnOf(tg.Round.Start, p.Ordinal).End, p.Result, p.Ordinal})
			}
		case strings.HasPrefix(sk, "TCASE#"):
			var cs nomic.Case
			if err := json.Unmarshal(data, &cs); err != nil {
				c.check(false, "decoding %s: %v", sk, err)
				continue
			}
			for _, ap := range cs.Appeals {
				if ap.Result != nil && ap.Round == tg.Round.Number {
					tallies = append(tallies, tally{fmt.Sprintf("appeal %s of case %d", ap.ID, cs.Number), ap.ID, nomic.TurnOf(tg.Round.Start, ap.Ordinal).End, ap.Result, ap.Ordinal})
				}
			}
		}
	}
	sort.Slice(tallies, func(i, j int) bool { return tallies[i].id < tallies[j].id })
	for _, tl := range tallies {
		res := tl.res
		if len(res.ForVoters)+len(res.AgainstVoters) == 0 && res.For+res.Against > 0 {
			// A turn end in steps keeps counts in the result; the votes it
			// counted are the TVOTE# items it did not void.
			cp := *res
			cp.ForVoters, cp.AgainstVoters = countedVotes(c, s.Module, tl.id)
			res = &cp
		}
		c.check(res.For == len(res.ForVoters) && res.Against == len(res.AgainstVoters), "%s: the tally says %d for and %d against but lists %d and %d voters", tl.what, res.For, res.Against, len(res.ForVoters), len(res.AgainstVoters))
		seen := map[string]int{}
		for _, v := range append(slices.Clone(res.ForVoters), res.AgainstVoters...) {
			seen[v]++
		}
		for v, n := range seen {
			c.check(n == 1, "%s: %s is counted %d times", tl.what, v, n)
		}
		for _, b := range sortedBallots(standing, tl.id) {
			if unanswered[b] {
				continue
			}
			want := standing[b]
			got := ""
			switch {
			case slices.Contains(res.ForVoters, b.voter):
				got = "for"
			case slices.Contains(res.AgainstVoters, b.voter):
				got = "against"
			}
			if got == "" && excused(b, tl.end) {
				continue
			}
			c.check(got == want, "%s (turn ending %s): %s's vote %s was acknowledged but the tally counts %s (%d for, %d against)",
				tl.what, tl.end.Format(time.RFC3339), b.voter, want, orNone(got), res.For, res.Against)
		}
	}
}

// countedVotes is who voted for and against id, as its TVOTE# items say,
// leaving out the votes a turn end voided (their voter was not active).
func countedVotes(c *Checks, module map[string][]byte, id string) (forVoters, againstVoters []string) {
	prefix := "TVOTE#" + id + "#"
	for _, sk := range sortedKeys(module) {
		if !strings.HasPrefix(sk, prefix) {
			continue
		}
		var v struct {
			nomic.Vote
			Void bool `json:"void"`
		}
		if err := json.Unmarshal(module[sk], &v); err != nil {
			c.check(false, "decoding %s: %v", sk, err)
			continue
		}
		switch {
		case v.Void:
		case v.For:
			forVoters = append(forVoters, v.Voter)
		default:
			againstVoters = append(againstVoters, v.Voter)
		}
	}
	return forVoters, againstVoters
}

func orNone(s string) string {
	if s == "" {
		return "no vote of theirs"
	}
	return "it " + s
}

// ballot is one voter's vote on one proposal or appeal.
type ballot struct{ target, voter string }

func sortedBallots(m map[ballot]string, target string) []ballot {
	var out []ballot
	for b := range m {
		if b.target == target {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].voter < out[j].voter })
	return out
}

// Points checks that each turns player's points are what the log explains:
// the sum of the point changes it holds for them.
func (s *Snapshot) Points(c *Checks) {
	c.inv = InvPoints
	tg, ok := s.turnsGame(c)
	if !ok {
		return
	}
	logged := map[string]int{}
	for _, e := range s.Entries {
		for _, ev := range e.Events {
			if ev.Type != "turns_"+nomic.EvPoints {
				continue
			}
			var d nomic.Event
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				c.check(false, "entry %s: cannot decode its %s event: %v", e.ID, ev.Type, err)
				continue
			}
			logged[d.Player] += d.Delta
		}
	}
	for _, p := range tg.Players {
		c.check(p.Points == logged[p.ID], "%s (%s) has %d points; the log's point changes add up to %d", p.Name, p.ID, p.Points, logged[p.ID])
		delete(logged, p.ID)
	}
	for id, n := range logged {
		c.check(n == 0, "the log gives %d points to %s, who is not in the game", n, id)
	}
}
