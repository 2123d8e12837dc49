package turns

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/nomic"
)

// evData is every field an event of this module may carry: the rules'
// events (nomic.Event) and the views the commands log. A sentence reads
// what it needs and tolerates the rest missing (the log outlives code).
type evData struct {
	nomic.Event
	ID         string    `json:"id"`
	Number     int       `json:"number"`
	Proposer   string    `json:"proposer"`
	Petitioner string    `json:"petitioner"`
	Statement  string    `json:"statement"`
	Voter      string    `json:"voter"`
	Vote       string    `json:"vote"`
	Appeal     string    `json:"appeal"`
	By         string    `json:"by"`
	Value      string    `json:"value"`
	Judge      string    `json:"judge"`
	Admin      bool      `json:"administrator_judges"`
	Summary    string    `json:"summary"`
	Changes    []any     `json:"changes"`
	Middle     time.Time `json:"middle"`
	End        time.Time `json:"end"`
	Round      int       `json:"round"`
	Paradox    bool      `json:"paradox"`
}

func decode(ev engine.Event) evData {
	var d evData
	_ = json.Unmarshal(ev.Data, &d) // any shape: what decodes is used
	if d.Player == "" {
		d.Player = ev.Player
	}
	return d
}

func at(t time.Time) string {
	if t.IsZero() {
		return "a time not yet known"
	}
	return calendar.When(calendar.Chicago(), t)
}

func judgeName(id string, name func(string) string) string {
	if id == "" {
		return "the administrator"
	}
	return name(id)
}

func names(ids []string, name func(string) string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return strings.Join(out, ", ")
}

// after returns what follows the first " is " in s (a result's reason).
func after(s, sep string) string {
	if _, rest, ok := strings.Cut(s, sep); ok {
		return strings.TrimSuffix(rest, ".")
	}
	return ""
}

type sentence func(d evData, name func(string) string) string

func narration(announce bool, f sentence) engine.Narration {
	return engine.Narration{Announce: announce, Sentence: func(ev engine.Event, name func(string) string) string {
		return f(decode(ev), name)
	}}
}

// events is how each event type this module logs reads (Component.Events);
// announced: turn beginnings and ends, proposals (to vote on), results,
// points, Judges drawn, rulings, appeals and their results, rounds won.
func events() map[string]engine.Narration {
	m := map[string]engine.Narration{}
	add := func(kind string, announce bool, f sentence) { m[eventPrefix+kind] = narration(announce, f) }
	add("turn_began", true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Turn %s begins: proposals for it until its middle, %s; voting until its end, %s.", d.ID, at(d.Middle), at(d.End))
	})
	add("turn_middle", false, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Turn %s reaches its middle: proposals for it are closed; voting goes on until %s.", d.ID, at(d.End))
	})
	add(nomic.EvTurnEnded, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Turn %s ends; the interim begins.", d.Turn)
	})
	add("proposal_submitted", true, func(d evData, name func(string) string) string {
		what := engine.Count(len(d.Changes), "rule change", "rule changes")
		if d.Summary != "" {
			what += ", " + d.Summary
		}
		return fmt.Sprintf("%s submits proposal %s for turn %s (%s); vote for or against it until the turn's end.", name(d.Proposer), d.ID, d.Turn, what)
	})
	add("vote_cast", false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s votes %s proposal %s.", name(d.Voter), d.Vote, d.Proposal)
	})
	add("appeal_vote_cast", false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s votes %s the appeal %s of case %d.", name(d.Voter), d.Vote, d.Appeal, d.Case)
	})
	result := func(d evData, name func(string) string) string {
		s := fmt.Sprintf("Proposal %s by %s is ", d.Proposal, name(d.Player))
		if r := after(d.Text, " is "); r != "" {
			return s + r + "."
		}
		return s + strings.TrimPrefix(d.Kind, "proposal_") + "."
	}
	add(nomic.EvProposalAdopted, true, result)
	add(nomic.EvProposalDefeated, true, result)
	add(nomic.EvProposalVoid, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Proposal %s is void: its round ended before it was decided.", d.Proposal)
	})
	add(nomic.EvPoints, true, func(d evData, name func(string) string) string {
		verb, n := "gains", d.Delta
		if n < 0 {
			verb, n = "loses", -n
		}
		why := map[string]string{nomic.PointsDissent: "voted against a proposal adopted by majority", nomic.PointsDefeat: "proposed a defeated proposal",
			nomic.PointsLateJudge: "did not rule in time as Judge", nomic.PointsRoundStart: "a new round begins"}[d.Reason]
		if why == "" {
			why = d.Reason
		}
		return fmt.Sprintf("%s %s %s (%s): %d in all.", name(d.Player), verb, engine.Count(n, "point", "points"), why, d.Total)
	})
	add(nomic.EvRuleChanged, true, func(d evData, _ func(string) string) string {
		verb := map[string]string{nomic.RuleEnacted: "enacted", nomic.RuleAmended: "amended", nomic.RuleRepealed: "repealed"}[d.Reason]
		return fmt.Sprintf("Rule %d is %s by proposal %s.", d.Rule, verb, d.Proposal)
	})
	add(nomic.EvDataChanged, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Proposal %s changes the ruleset: %s", d.Proposal, d.Text)
	})
	add(nomic.EvDataNotApplied, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Proposal %s's ruleset change could not apply: %s", d.Proposal, d.Text)
	})
	add(nomic.EvSwitchCancelled, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("Proposal %s amended the unanimity rule (rule %d) in time: adoption keeps needing unanimity this round.", d.Proposal, d.Rule)
	})
	add(nomic.EvMajority, true, func(d evData, _ func(string) string) string {
		return fmt.Sprintf("The unanimity rule (rule %d) was not amended by the end of turn %s: from the next turn a simple majority adopts a rule-change.", d.Rule, d.Turn)
	})
	add(nomic.EvJoined, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s takes part in the turns, active.", name(d.Player))
	})
	add(nomic.EvLeft, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s no longer takes part in the turns.", name(d.Player))
	})
	add(nomic.EvActive, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s is active again (not in the Judicial Pool until they enter it).", name(d.Player))
	})
	add(nomic.EvInactive, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s is now inactive.", name(d.Player))
	})
	add(nomic.EvPoolEntered, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s enters the Judicial Pool.", name(d.Player))
	})
	add(nomic.EvPoolLeft, false, func(d evData, name func(string) string) string {
		why := map[string]string{nomic.PoolLeftByChoice: "", nomic.PoolInactive: ": no longer active",
			nomic.PoolDrawn: fmt.Sprintf(": drawn as Judge of case %d", d.Case), nomic.PoolNoVote: fmt.Sprintf(": voted on no proposal in turn %s", d.Turn)}[d.Reason]
		return fmt.Sprintf("%s leaves the Judicial Pool%s.", name(d.Player), why)
	})
	add(nomic.EvPoolReturned, false, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s returns to the Judicial Pool.", name(d.Player))
	})
	add("judgment_requested", true, func(d evData, name func(string) string) string {
		kind := "a Request for Judgment"
		if d.Paradox {
			kind = "a Request for Judgment stating a paradox"
		}
		return engine.EndSentence(fmt.Sprintf("%s files %s, case %d: %q", name(d.Petitioner), kind, d.Number, d.Statement))
	})
	add(nomic.EvJudgeDrawn, true, func(d evData, name func(string) string) string {
		if d.Player == "" {
			return fmt.Sprintf("Case %d: nobody in the Judicial Pool may judge it, so the administrator is its Judge.", d.Case)
		}
		if len(d.Candidates) > 0 { // a draw logged before the pool had slots
			return fmt.Sprintf("Case %d: %s is drawn as Judge from %s.", d.Case, name(d.Player), names(d.Candidates, name))
		}
		size := fmt.Sprintf("%d members", d.PoolSize)
		if d.PoolSize == 1 {
			size = "1 member"
		}
		return fmt.Sprintf("Case %d: %s is drawn as Judge (%d eligible of the Judicial Pool's %s).", d.Case, name(d.Player), d.PoolSize-len(d.Excluded), size)
	})
	add(nomic.EvJudgeEnded, true, func(d evData, name func(string) string) string {
		words := map[string]string{nomic.JudgeRuled: "has ruled", nomic.JudgeRecused: "recuses", nomic.JudgeLate: "did not rule within the deadline",
			nomic.JudgeInactive: "is no longer an active player"}[d.Reason]
		return fmt.Sprintf("Case %d: %s %s.", d.Case, judgeName(d.Player, name), words)
	})
	add(nomic.EvRuled, true, func(d evData, name func(string) string) string {
		return fmt.Sprintf("Case %d is ruled %s by %s.", d.Case, d.Reason, judgeName(d.Player, name))
	})
	add(nomic.EvAppealed, true, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s appeals the ruling on case %d (appeal %s, for %s); it is voted on during turn %s.", name(d.By), d.Case, d.ID, d.Value, d.Turn)
	})
	add(nomic.EvAppealUpheld, true, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s's appeal of case %d is upheld: the case is now ruled %s.", name(d.Player), d.Case, d.Reason)
	})
	add(nomic.EvAppealRejected, true, func(d evData, name func(string) string) string {
		return fmt.Sprintf("%s's appeal of case %d fails; the ruling stands.", name(d.Player), d.Case)
	})
	add(nomic.EvRoundWon, true, func(d evData, name func(string) string) string {
		if d.Reason == nomic.WinParadox {
			return fmt.Sprintf("%s wins the round: their paradox (case %d) was ruled TRUE.", name(d.Player), d.Case)
		}
		return fmt.Sprintf("%s wins the round with the winning points.", name(d.Player))
	})
	add(nomic.EvRoundStarted, true, func(d evData, _ func(string) string) string {
		return "A new round begins: everyone has 0 points."
	})
	return m
}
