package proving

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	rob "croupier/internal/rules/obelisk"
	"croupier/internal/ruleset"
)

// componentLedger is what the log says each Obelisk player holds, by
// player and component: every event's changes (a join's ⚡, tasks' costs,
// recipes and yields, contributions, withdrawals, refunds, what a
// departure destroyed), trades, which move components from one player to
// another, and the grants to every member (an observation's ⚡, a ritual's
// every-player effect), which the log records once each, numbered: a
// stint (from its join's grants_seq to its departure's) has every grant
// numbered after its start and up to its end (docs/rules-obelisk.md). The
// one place that knows how the log records a change of components: adapt
// it when the events change.
func (s *Snapshot) componentLedger(c *Checks) map[string]map[string]int {
	l := map[string]map[string]int{}
	add := func(player, comp string, n int) {
		if l[player] == nil {
			l[player] = map[string]int{}
		}
		l[player][comp] += n
	}
	grants := map[int]rob.Components{}
	grant := func(entry string, g *rob.Grant) {
		if g == nil {
			return
		}
		_, dup := grants[g.Seq]
		c.check(!dup, "entry %s: grant %d is in the log twice", entry, g.Seq)
		grants[g.Seq] = g.EveryMember
	}
	type stint struct {
		player   string
		from, to int
		open     bool
	}
	var stints []*stint
	current := map[string]*stint{}
	seqOf := func(entry string, ev struct {
		Type   string
		Player string
		Data   json.RawMessage
	}) int {
		var d struct {
			Seq *int `json:"grants_seq"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil || d.Seq == nil {
			c.check(false, "entry %s: %s of %s says no grants_seq", entry, ev.Type, ev.Player)
			return 0
		}
		return *d.Seq
	}
	for _, e := range s.Entries {
		for _, ev := range e.Events {
			var d struct {
				Changes *[]rob.Delta `json:"changes"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				d.Changes = nil
			}
			if d.Changes != nil {
				for _, x := range *d.Changes {
					add(x.Player, x.Component, x.Amount)
				}
			}
			evd := struct {
				Type   string
				Player string
				Data   json.RawMessage
			}{ev.Type, ev.Player, ev.Data}
			switch ev.Type {
			case "obelisk_observed":
				var o rob.Observation
				if err := json.Unmarshal(ev.Data, &o); err != nil {
					c.check(false, "entry %s: cannot decode its observation: %v", e.ID, err)
					continue
				}
				grant(e.ID, o.Grant)
			case "gathering_completed":
				var done rob.Completed
				if err := json.Unmarshal(ev.Data, &done); err != nil {
					c.check(false, "entry %s: cannot decode its completed Gathering: %v", e.ID, err)
					continue
				}
				for _, ef := range done.Effects {
					grant(e.ID, ef.Grant)
				}
			case "components_granted":
				// A stint starts: the grants numbered after it are its own.
				st := &stint{player: ev.Player, from: seqOf(e.ID, evd), open: true}
				stints = append(stints, st)
				current[ev.Player] = st
			case "components_destroyed":
				st := current[ev.Player]
				if st == nil {
					c.check(false, "entry %s: %s left with no stint in the log", e.ID, ev.Player)
					continue
				}
				st.to, st.open = seqOf(e.ID, evd), false
				delete(current, ev.Player)
			}
			switch {
			case ev.Type == "trade_executed":
				var tr struct {
					From string `json:"from"`
					To   string `json:"to"`
					Give struct {
						Components ruleset.Components `json:"components"`
					} `json:"give"`
					Take struct {
						Components ruleset.Components `json:"components"`
					} `json:"take"`
				}
				if err := json.Unmarshal(ev.Data, &tr); err != nil {
					c.check(false, "entry %s: cannot decode its trade: %v", e.ID, err)
					continue
				}
				for id, n := range componentMap(tr.Give.Components) {
					add(tr.From, id, -n)
					add(tr.To, id, n)
				}
				for id, n := range componentMap(tr.Take.Components) {
					add(tr.To, id, -n)
					add(tr.From, id, n)
				}
			}
		}
	}
	for k := 1; k <= len(grants); k++ {
		_, ok := grants[k]
		c.check(ok, "the log has %d grants but not grant %d", len(grants), k)
	}
	for _, st := range stints {
		to := st.to
		if st.open {
			to = len(grants)
		}
		for k := st.from + 1; k <= to; k++ {
			for id, n := range componentMap(grants[k]) {
				add(st.player, id, n)
			}
		}
	}
	return l
}

// Components checks that every Obelisk player holds exactly the
// components the log accounts for, none negative, and a player who left
// none.
func (s *Snapshot) Components(c *Checks) {
	c.inv = InvComponents
	l := s.componentLedger(c)
	// A stored record may be behind the grants to every member: every
	// reader catches it up (rob.CatchUp), and so does this check.
	var ob rob.Obelisk
	if data, ok := s.Module["OBELISK"]; ok {
		if err := json.Unmarshal(data, &ob); err != nil {
			c.check(false, "decoding the Obelisk: %v", err)
		}
	}
	for _, id := range sortedKeys(s.PlayerItems) {
		var p rob.Player
		if err := json.Unmarshal(s.PlayerItems[id], &p); err != nil {
			c.check(false, "decoding player %s: %v", id, err)
			continue
		}
		rob.CatchUp(&p, &ob.Grants, s.Now)
		held := componentMap(p.Components)
		for _, comp := range ruleset.ComponentIDs() {
			c.check(held[comp] >= 0, "%s holds %d %s", id, held[comp], comp)
			c.check(held[comp] == l[id][comp], "%s holds %d %s; the log accounts for %d", id, held[comp], comp, l[id][comp])
			if !p.Member {
				c.check(held[comp] == 0, "%s has left but holds %d %s", id, held[comp], comp)
			}
		}
		delete(l, id)
	}
	for _, id := range sortedKeys(l) {
		for comp, n := range l[id] {
			c.check(n == 0, "the log gives %d %s to %s, who has no player record", n, comp, id)
		}
	}
}

// Gatherings checks that every Gathering was completed or failed exactly
// once: a closed one has one completion or failure in the log, an open one
// none, and (settled) none is open past the end of its phase (O10).
func (s *Snapshot) Gatherings(c *Checks, settled bool) {
	c.inv = InvGatherings
	closings := map[string][]string{}
	started := map[string]bool{}
	for _, e := range s.Entries {
		for _, ev := range e.Events {
			var d struct {
				ID        string `json:"id"`
				Gathering string `json:"gathering"`
			}
			switch ev.Type {
			case "gathering_started", "gathering_completed", "gathering_failed":
				if err := json.Unmarshal(ev.Data, &d); err != nil {
					c.check(false, "entry %s: cannot decode its %s event: %v", e.ID, ev.Type, err)
					continue
				}
			}
			switch ev.Type {
			case "gathering_started":
				started[d.ID] = true
			case "gathering_completed", "gathering_failed":
				closings[d.Gathering] = append(closings[d.Gathering], ev.Type+" in "+e.ID)
			}
		}
	}
	var ids []string
	for sk := range s.Module {
		if strings.HasPrefix(sk, "GATHERING#") {
			ids = append(ids, sk)
		}
	}
	sort.Strings(ids)
	for _, sk := range ids {
		var gt rob.Gathering
		if err := json.Unmarshal(s.Module[sk], &gt); err != nil {
			c.check(false, "decoding %s: %v", sk, err)
			continue
		}
		n := len(closings[gt.ID])
		c.check(started[gt.ID], "Gathering %s has an item but no gathering_started in the log", gt.ID)
		switch gt.Status {
		case rob.StatusOpen:
			c.check(n == 0, "Gathering %s is open but the log closed it: %s", gt.ID, strings.Join(closings[gt.ID], ", "))
			if settled {
				c.check(s.Now.Before(gt.Ends), "Gathering %s is still open after the end of its phase (%s; the clock says %s)", gt.ID, gt.Ends.Format(time.RFC3339), s.Now.Format(time.RFC3339))
			}
		default:
			c.check(n == 1, "Gathering %s (%s) was closed %d times: %s", gt.ID, gt.Status, n, strings.Join(closings[gt.ID], ", "))
		}
		delete(closings, gt.ID)
	}
	for id, cl := range closings {
		c.check(false, "the log closes Gathering %s, which has no item: %s", id, strings.Join(cl, ", "))
	}
}
