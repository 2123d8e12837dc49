package turns

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
)

// RulesThen are the rules in effect at a case's disputed moment (seed 003:
// "When determining a Ruling, the Judge should consider the rules in
// effect at the time of the disputed game action"): which numbered rules
// were in force, and how those that read otherwise now read then. The
// whole text of every rule then is the rules view at the moment
// (turns-rules --at Moment, GET .../turns/rules?at=Moment).
type RulesThen struct {
	// Moment is the disputed moment as a read of the past names it (an
	// RFC 3339 time, or before:<entry> / after:<entry>), At its time.
	Moment string    `json:"moment"`
	At     time.Time `json:"at"`
	// InForce are the numbers of the rules in force then.
	InForce []int `json:"in_force"`
	// Since are the rules that changed since then, each as it read then.
	Since []RuleSince `json:"changed_since"`
}

// RuleSince is a rule that reads otherwise now than at the disputed
// moment.
type RuleSince struct {
	Number int `json:"number"`
	// Change is what happened to it since: enacted (it did not exist
	// then), amended or repealed.
	Change string `json:"change"`
	// Text is what it said then ("" when it did not exist yet).
	Text string `json:"text_then,omitempty"`
}

// rulesThen compares the rules at c's disputed moment with now (the rules
// as they stand, with their histories).
func rulesThen(c *nomic.Case, now []nomic.Rule) *RulesThen {
	at := c.Moment()
	moment := c.Disputed
	if moment == "" {
		moment = engine.Moment{At: c.At}.String()
	}
	rt := &RulesThen{Moment: moment, At: at, InForce: []int{}, Since: []RuleSince{}}
	then := map[int]nomic.Rule{}
	for _, r := range nomic.RulesAt(now, at, c.RulesThen) {
		then[r.Number] = r
		if !r.Repealed {
			rt.InForce = append(rt.InForce, r.Number)
		}
	}
	for _, r := range now {
		was, existed := then[r.Number]
		switch {
		case !existed:
			rt.Since = append(rt.Since, RuleSince{Number: r.Number, Change: nomic.RuleEnacted})
		case was.Repealed:
		case r.Repealed:
			rt.Since = append(rt.Since, RuleSince{Number: r.Number, Change: nomic.RuleRepealed, Text: was.Text})
		case r.Text != was.Text:
			rt.Since = append(rt.Since, RuleSince{Number: r.Number, Change: nomic.RuleAmended, Text: was.Text})
		}
	}
	return rt
}

// Words say the rules in effect then in a sentence: "Rules in effect at
// Tue 1 Dec 12:00 CST: 201-225 (since then rule 210 was amended and rule
// 226 enacted)."
func (r RulesThen) Words() string {
	s := "Rules in effect at " + When(r.At) + ": " + numberRuns(r.InForce)
	var since []string
	for _, c := range r.Since {
		verb := map[string]string{nomic.RuleEnacted: "enacted", nomic.RuleAmended: "amended", nomic.RuleRepealed: "repealed"}[c.Change]
		since = append(since, fmt.Sprintf("rule %d %s", c.Number, verb))
	}
	if len(since) > 0 {
		s += " (since then: " + engine.AndList(since) + ")"
	}
	return s + "."
}

// numberRuns lists rule numbers with runs shortened: "201-214, 216-225".
func numberRuns(ns []int) string {
	if len(ns) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(ns[i]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// RulesThenOf are the rules in effect at case c's disputed moment, read
// from the game's rules now (one read of the rules): for a surface that
// shows a command's answer (chat's reply to a request), which leaves them
// out.
func RulesThenOf(ctx context.Context, s *engine.Service, game string, c nomic.Case) (*RulesThen, error) {
	now, err := Rules(ctx, s, game)
	if err != nil {
		return nil, err
	}
	return rulesThen(&c, now), nil
}
