package game

import (
	"fmt"
	"strings"
)

// governanceEvents narrate what the governance component emits: proposals
// by their title and human summary (never their amendment's JSON),
// requests for justice and rulings, votes of confidence, the Judge.
func governanceEvents() map[string]Narration {
	return map[string]Narration{
		"proposal_submitted": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("%s submitted %s.", name(Or(f.Str("author"), ev.Player)), proposalText(f))
		}},
		"proposal_withdrawn": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("%s withdrew %s.", name(ev.Player), proposalText(f))
		}},
		"proposal_adopted": {Announce: true, Sentence: proposalClosed("was adopted")},
		"proposal_failed":  {Announce: true, Sentence: proposalClosed("failed")},
		"proposal_amendment_failed": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("The ruleset change of proposal %s could not be applied: %s.", Or(f.Str("proposal"), "?"), Or(f.Str("error"), "no reason given"))
		}},
		// A proposal of a component's kind (an Obelisk banishment) whose
		// effect the rules refused at adoption.
		"proposal_effect_failed": {Announce: true, Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			what := "its effect"
			if k := f.Str("kind"); k != "" {
				what = "its " + Words(k)
			}
			return fmt.Sprintf("Proposal %s by %s was adopted, but %s could not take effect: %s.", Or(f.Str("proposal"), "?"), name(ev.Player), what, strings.TrimSuffix(Or(f.Str("error"), "no reason given"), "."))
		}},
		"justice_requested": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			what := "a request for justice"
			if f.Str("kind") == "question" {
				what = "a question for the Judge"
			} else if f.Str("kind") == "statement" {
				what = "a statement for the Judge to rule on"
			}
			s := fmt.Sprintf("%s made %s", name(Or(f.Str("author"), ev.Player)), what)
			if id := f.Str("id"); id != "" {
				s += " (" + id + ")"
			}
			if t := f.Str("text"); t != "" {
				s += ": “" + Clip(t, 200) + "”"
			}
			return EndSentence(s)
		}},
		"ruling_made":       {Announce: true, Sentence: ruling("⚖️ Ruling")},
		"ruling_overturned": {Announce: true, Sentence: ruling("↩️ Ruling overturned")},
		"ruling_affirmed":   {Announce: true, Sentence: ruling("✅ Ruling affirmed")},
		"confidence_opened": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("%s opened a vote of confidence in ruling %s%s.", name(ev.Player), Or(f.Str("id"), "?"), onRequest(f))
		}},
		"confidence_vote_closed": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			c := f.Obj("confidence")
			s := fmt.Sprintf("The vote of confidence in ruling %s closed", Or(f.Str("id"), "?"))
			if st := c.Str("status"); st != "" {
				s += ": " + Words(st)
			}
			if r := c.Obj("result"); len(r) > 0 {
				s += fmt.Sprintf(", %d to affirm and %d to overturn", r.Int("affirm"), r.Int("overturn"))
			}
			return s + "."
		}},
		"judge_removal_assented": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("%s assented to removing %s as Judge (%s so far).", name(ev.Player), name(f.Str("judge")),
				Count(f.Len("assents"), "assent", "assents"))
		}},
		"judge_removed":  {Announce: true, Sentence: judgeLeft("was removed as Judge")},
		"judge_resigned": {Announce: true, Sentence: judgeLeft("resigned as Judge")},
		"judge_candidacy": {Sentence: func(ev Event, name func(string) string) string {
			f := Fields(ev)
			s := name(Or(f.Str("candidate"), ev.Player)) + " stood for Judge"
			if w := f.Str("week"); w != "" {
				s += " in the election of " + w
			}
			return s + "."
		}},
		"judge_elected":            {Announce: true, Sentence: election, Notify: newJudge},
		"judge_election_no_winner": {Announce: true, Sentence: election},
		"reactions_pushed": {Sentence: func(ev Event, _ func(string) string) string {
			f := Fields(ev)
			return fmt.Sprintf("Reactions to a message were reported: %s, %s.", Count(f.Len("up"), "👍", "👍"), Count(f.Len("down"), "👎", "👎"))
		}},
	}
}

// proposalText names a proposal: "proposal 01J… “More Chips” (chip costs
// 22 Vertebrae, was 25)".
func proposalText(f F) string {
	s := "proposal"
	if id := f.Str("id"); id != "" {
		s += " " + id
	}
	if t := f.Str("title", "text"); t != "" {
		s += " “" + Clip(t, 120) + "”"
	}
	if sum := f.Str("summary"); sum != "" {
		s += " (" + Clip(sum, 300) + ")"
	}
	return s
}

func proposalClosed(outcome string) func(Event, func(string) string) string {
	return func(ev Event, name func(string) string) string {
		f := Fields(ev)
		s := Capitalize(proposalText(f))
		if a := Or(f.Str("author"), ev.Player); a != "" {
			s += " by " + name(a)
		}
		s += " " + outcome
		if r := f.Obj("result"); len(r) > 0 {
			s += fmt.Sprintf(", %d for and %d against", r.Int("for"), r.Int("against"))
		}
		s += "."
		if e := f.Str("amendment_error"); e != "" {
			s += " Its ruleset change could not be applied: " + e
		}
		return s
	}
}

func onRequest(f F) string {
	if r := f.Str("request"); r != "" {
		return " on request " + r
	}
	return ""
}

func ruling(title string) func(Event, func(string) string) string {
	return func(ev Event, name func(string) string) string {
		f := Fields(ev)
		s := title + onRequest(f)
		if j := f.Str("judge"); j != "" {
			s += " by " + name(j)
		}
		if q := f.Str("text"); q != "" {
			s += " (“" + Clip(q, 200) + "”)"
		}
		if a := f.Str("answer"); a != "" {
			s += ": " + Clip(a, 800)
		}
		return s
	}
}

func judgeLeft(what string) func(Event, func(string) string) string {
	return func(ev Event, name func(string) string) string {
		return fmt.Sprintf("%s %s.", name(Or(Fields(ev).Str("judge"), ev.Player)), what)
	}
}

func election(ev Event, name func(string) string) string {
	f := Fields(ev)
	judge := Or(f.Str("judge"), ev.Player)
	week := ""
	if w := f.Str("week"); w != "" {
		week = " of " + w
	}
	switch {
	case judge == "":
		return "The Judge election" + week + " ended without a winner."
	case !f.Bool("changed") && f.Str("previous") == judge:
		return fmt.Sprintf("%s remains Judge after the election%s.", name(judge), week)
	default:
		return fmt.Sprintf("%s was elected Judge%s.", name(judge), week)
	}
}

// newJudge notifies the Judge an election changed to.
func newJudge(ev Event) []string {
	f := Fields(ev)
	if j := Or(f.Str("judge"), ev.Player); j != "" && (f.Bool("changed") || f.Str("previous") != j) {
		return []string{j}
	}
	return nil
}
