package game

import (
	"encoding/json"
	"fmt"

	"croupier/internal/rules/governance"
)

// How the 000 governance's answers read (Command.Says).

func saysProposal(a Answer) string {
	var v ProposalView
	a.Decode(&v)
	what := "Proposal " + v.ID
	if v.Title != "" {
		what += fmt.Sprintf(" (%q)", Clip(v.Title, 100))
	}
	by := a.Who(v.Author, "")
	switch v.Status {
	case governance.StatusWithdrawn:
		return fmt.Sprintf("%s withdrew %s.", by, what)
	case governance.StatusOpen:
		s := fmt.Sprintf("%s submitted %s, a %s proposal", by, what, Words(string(v.Class)))
		if v.Kind != "" {
			// A component's kind (a banishment): the player and the
			// duration its parameters name, where it has them.
			s = fmt.Sprintf("%s submitted %s, a %s %s proposal", by, what, Words(string(v.Class)), Words(v.Kind))
			var p F
			if json.Unmarshal(v.Params, &p) == nil {
				if id := p.Str("player"); id != "" {
					s += " of " + a.Who(id, "")
				}
				if d := p.Str("duration"); d != "" {
					s += " for " + d
				}
			}
		}
		if v.Summary != "" {
			s += ": " + v.Summary
		}
		if !v.VotingStart.IsZero() {
			s += fmt.Sprintf("; voting by 👍 and 👎 on its message opens %s", v.VotingStart.UTC().Format("Mon 2 Jan 15:04 UTC"))
		}
		return s + "."
	}
	return fmt.Sprintf("%s by %s is %s.", what, by, Words(string(v.Status)))
}

func saysJustice(a Answer) string {
	var v JusticeRecord
	a.Decode(&v)
	r := v.Request
	s := fmt.Sprintf("%s requested justice (%s %s): %q; the Judge answers it.", a.Who(r.Author, ""), Words(string(r.Kind)), r.ID, Clip(r.Text, 300))
	if d := v.Disputed; d != nil {
		s += " The Judge considers the rules in effect at " + d.At.UTC().Format("Mon 2 Jan 2006 15:04 UTC") + " (" + d.Moment + ")."
	}
	return s
}

func saysRuling(a Answer) string {
	var v RulingView
	a.Decode(&v)
	judge := a.Who(v.Judge, "")
	switch {
	case v.Confidence != nil && v.Confidence.OpenedBy != "":
		return fmt.Sprintf("%s opened a vote of confidence on ruling %s; it is voted by reactions on its poll until %s.",
			a.Who(v.Confidence.OpenedBy, ""), v.ID, v.Confidence.EndsAt.UTC().Format("Mon 2 Jan 15:04 UTC"))
	case v.Overturned:
		return fmt.Sprintf("Ruling %s by %s is overturned: it has no bearing on the rules or the game.", v.ID, judge)
	}
	return fmt.Sprintf("%s ruled on %s's request %s: %s.", judge, a.Who(v.Requester, ""), v.Request, Clip(v.Answer, 300))
}

func saysOffice(what string) func(Answer) string {
	return func(a Answer) string {
		var v JudgeState
		a.Decode(&v)
		if v.Judge == "" {
			return what + " The game has no Judge now."
		}
		s := fmt.Sprintf("%s The Judge is %s", what, a.Who(v.Judge, ""))
		if n := len(v.RemovalAssents); n > 0 {
			s += fmt.Sprintf("; %s to remove them", Count(n, "player assents", "players assent"))
		}
		return s + "."
	}
}

func saysCandidacy(a Answer) string {
	var v governance.Candidacy
	a.Decode(&v)
	return fmt.Sprintf("%s stands for Judge this week: votes are the reactions on the candidacy's message.", a.Who(v.Candidate, ""))
}
