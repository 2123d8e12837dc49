package nomic

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"croupier/internal/rules"
)

// initialRules is seed 003's mutable rules as data: its paragraphs in
// order, after the "Mutable" heading (RULINGS U3). Numbers are not in the
// file: New numbers them from the ruleset's turns.firstRuleNumber (201).
// The rule whose Role is RoleUnanimity is the one whose amendment by the
// end of the round's unanimity turns cancels the switch to simple majority
// (U5). TestU3_InitialRulesAreSeed003 checks the file against the seed.
//
// A string, not a []byte: read-only data, not the writable segment, which
// every Lambda bootstrap that links the rules maps whole (TestBootstrapSizes).
//
//go:embed initial_rules.json
var initialRules string

// RoleUnanimity marks the rule "A rule-change is adopted if and only if the
// vote is unanimous ..." (U5).
const RoleUnanimity = "unanimity"

// RuleText is one rule of the initial rules file.
type RuleText struct {
	Text string `json:"text"`
	Role string `json:"role,omitempty"`
}

// InitialRules returns seed 003's mutable rules in order.
func InitialRules() ([]RuleText, error) {
	var f struct {
		Seed  string     `json:"seed"`
		Kind  string     `json:"kind"`
		Rules []RuleText `json:"rules"`
	}
	if err := json.Unmarshal([]byte(initialRules), &f); err != nil {
		return nil, fmt.Errorf("nomic: initial_rules.json: %w", err)
	}
	return f.Rules, nil
}

// Rule is one numbered mutable rule with its history (U3). A repealed rule
// keeps its number and history; numbers are never reused.
type Rule struct {
	Number   int         `json:"number"`
	Text     string      `json:"text"` // as it stands (the last text before a repeal)
	Role     string      `json:"role,omitempty"`
	Repealed bool        `json:"repealed,omitempty"`
	History  []RuleEvent `json:"history"`
}

// RuleEvent is one change to a rule: by which proposal, in which turn.
// The initial rules are enacted by no proposal, at the game's creation.
type RuleEvent struct {
	Kind     string    `json:"kind"` // RuleEnacted, RuleAmended or RuleRepealed
	Proposal string    `json:"proposal,omitempty"`
	Turn     string    `json:"turn,omitempty"`
	At       time.Time `json:"at"`
	Text     string    `json:"text,omitempty"` // the text it enacted or amended to
}

// Rule change kinds (U3: a proposal enacts, amends or repeals numbered rules).
const (
	RuleEnacted  = "enact"
	RuleAmended  = "amend"
	RuleRepealed = "repeal"
)

// RuleChange is one change a proposal makes to the numbered rules. Enact
// takes the next free number when adopted; amend and repeal name a rule in
// force.
type RuleChange struct {
	Op   string `json:"op"`
	Rule int    `json:"rule,omitempty"`
	Text string `json:"text,omitempty"`
}

// Rule returns the rule with the given number, or nil.
func (s *State) Rule(number int) *Rule {
	for i := range s.Rules {
		if s.Rules[i].Number == number {
			return &s.Rules[i]
		}
	}
	return nil
}

// InForce returns the rules not repealed, by number.
func (s *State) InForce() []Rule {
	var out []Rule
	for _, r := range s.Rules {
		if !r.Repealed {
			out = append(out, r)
		}
	}
	return out
}

// checkChanges refuses rule changes that could not take effect on the
// rules as they stand: an unknown op, empty text, a rule that does not
// exist or is repealed, or two changes to one rule.
func (s *State) checkChanges(cs []RuleChange) error {
	seen := map[int]bool{}
	for i, c := range cs {
		at := fmt.Sprintf("Change %d", i+1)
		switch c.Op {
		case RuleEnacted:
			if c.Rule != 0 {
				return rules.Refuse("invalid_rule_change", "%s enacts a new rule, which takes the next free number when adopted; leave the rule number out (got %d).", at, c.Rule)
			}
		case RuleAmended, RuleRepealed:
			r := s.Rule(c.Rule)
			switch {
			case r == nil:
				return rules.Refuse("unknown_rule", "%s names rule %d, which does not exist.", at, c.Rule).With("rule", c.Rule)
			case r.Repealed:
				return rules.Refuse("rule_repealed", "%s names rule %d, which was repealed.", at, c.Rule).With("rule", c.Rule)
			case seen[c.Rule]:
				return rules.Refuse("invalid_rule_change", "%s changes rule %d a second time; one proposal changes each rule once.", at, c.Rule)
			}
			seen[c.Rule] = true
		default:
			return rules.Refuse("invalid_rule_change", "%s: %q is not a rule change; a change is %q, %q or %q.", at, c.Op, RuleEnacted, RuleAmended, RuleRepealed)
		}
		if c.Op != RuleRepealed && strings.TrimSpace(c.Text) == "" {
			return rules.Refuse("invalid_rule_change", "%s must give the rule's new text.", at)
		}
		if c.Op == RuleRepealed && c.Text != "" {
			return rules.Refuse("invalid_rule_change", "%s repeals rule %d; a repeal has no text.", at, c.Rule)
		}
	}
	return nil
}

// applyChanges makes an adopted proposal's rule changes, in order. A
// change whose rule an earlier adoption repealed cannot take effect and is
// reported in notes; the others still do. It reports whether the
// unanimity rule was amended or repealed.
func (s *State) applyChanges(p *Proposal, at time.Time) (evs []Event, notes []string, unanimity bool) {
	for _, c := range p.Changes {
		ev := RuleEvent{Kind: c.Op, Proposal: p.ID, Turn: p.Turn, At: at, Text: c.Text}
		switch c.Op {
		case RuleEnacted:
			n := s.NextRule - 1
			if s.NextRule == 0 {
				for _, r := range s.Rules {
					n = max(n, r.Number)
				}
			}
			s.NextRule = n + 2
			s.Rules = append(s.Rules, Rule{Number: n + 1, Text: c.Text, History: []RuleEvent{ev}})
			evs = append(evs, Event{Kind: EvRuleChanged, At: at, Rule: n + 1, Proposal: p.ID, Reason: c.Op, Turn: p.Turn,
				Text: fmt.Sprintf("Rule %d is enacted by proposal %s.", n+1, p.ID)})
		default:
			r := s.Rule(c.Rule)
			if r == nil || r.Repealed {
				notes = append(notes, fmt.Sprintf("rule %d was repealed before this proposal was adopted, so its %s does not apply", c.Rule, c.Op))
				continue
			}
			if c.Op == RuleAmended {
				r.Text = c.Text
			} else {
				r.Repealed, ev.Text = true, ""
			}
			r.History = append(r.History, ev)
			unanimity = unanimity || r.Role == RoleUnanimity
			verb := map[string]string{RuleAmended: "amended", RuleRepealed: "repealed"}[c.Op]
			evs = append(evs, Event{Kind: EvRuleChanged, At: at, Rule: r.Number, Proposal: p.ID, Reason: c.Op, Turn: p.Turn,
				Text: fmt.Sprintf("Rule %d is %s by proposal %s.", r.Number, verb, p.ID)})
		}
	}
	return evs, notes, unanimity
}

// RulesAt is rules (as they stand, with their histories) as they stood at
// a moment: each rule with the events of its history that had applied
// then, its text the last it was enacted or amended to by then, repealed
// if its last event then was a repeal; a rule not yet enacted is left
// out. The events that had applied are those at or before at, or, where
// then names the rule, as many as then says (a moment named by a log
// entry: the adoptions of one turn end share a time, and only the log
// tells which had applied at the entry).
func RulesAt(rules []Rule, at time.Time, then []RuleAt) []Rule {
	counted := map[int]int{}
	for _, r := range then {
		counted[r.Rule] = r.Events
	}
	out := []Rule{}
	for _, r := range rules {
		n, ok := counted[r.Number]
		if !ok && then != nil {
			n = 0 // the log had no such rule at the entry
		} else if !ok {
			for n < len(r.History) && !r.History[n].At.After(at) {
				n++
			}
		}
		n = min(n, len(r.History))
		if n == 0 {
			continue
		}
		was := Rule{Number: r.Number, Role: r.Role, Text: r.Text, History: slices.Clone(r.History[:n])}
		for _, ev := range was.History {
			switch ev.Kind {
			case RuleEnacted, RuleAmended:
				if ev.Text != "" {
					was.Text = ev.Text
				}
				was.Repealed = false
			case RuleRepealed:
				was.Repealed = true
			}
		}
		out = append(out, was)
	}
	return out
}
