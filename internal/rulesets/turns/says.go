package turns

import (
	"fmt"
	"strings"
	"time"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
)

// How each command's answer reads (engine.Command.Says): names, times in
// the game's zone (America/Chicago, at) and turns by their names ("turn
// 1-2"), as the log's sentences (narrate.go) read.

// quoted is a player's words in quotes, their closing period left to the
// sentence they end ("It is" for "It is.").
func quoted(s string) string {
	return fmt.Sprintf("%q", strings.TrimRight(engine.Clip(s, 300), ". "))
}

func changeWords(c nomic.RuleChange) string {
	switch c.Op {
	case nomic.RuleEnacted:
		return fmt.Sprintf("enact a new rule, %q", engine.Clip(c.Text, 300))
	case nomic.RuleRepealed:
		return fmt.Sprintf("repeal rule %d", c.Rule)
	}
	return fmt.Sprintf("amend rule %d to %q", c.Rule, engine.Clip(c.Text, 300))
}

// proposalWhat is what a proposal does: its rule changes, its data change.
func proposalWhat(p nomic.Proposal) string {
	var ws []string
	for _, c := range p.Changes {
		ws = append(ws, changeWords(c))
	}
	if p.Summary != "" {
		ws = append(ws, "change the ruleset ("+strings.TrimSuffix(p.Summary, ".")+")")
	}
	if len(ws) == 0 {
		return "change nothing"
	}
	return engine.AndList(ws)
}

func saysPropose(a engine.Answer) string {
	var v ProposalView
	a.Decode(&v)
	s := fmt.Sprintf("%s proposed %s: %s", a.Who(v.Proposer, v.ProposerName), v.ID, proposalWhat(v.Proposal))
	if v.Text != "" {
		s += fmt.Sprintf(" (%q)", engine.Clip(v.Text, 200))
	}
	s += fmt.Sprintf("; it is voted on in turn %s", v.Turn)
	if !v.VotingEnds.IsZero() {
		s += ", until " + at(v.VotingEnds)
	}
	return s + "."
}

func saysVote(a engine.Answer) string {
	var v VoteView
	a.Decode(&v)
	what := "proposal " + v.Proposal
	if v.Proposal == "" {
		what = fmt.Sprintf("the appeal %s of case %d", v.Appeal, v.Case)
	}
	s := fmt.Sprintf("%s voted %s %s", a.Who(v.Voter, v.VoterName), v.Vote, what)
	if !v.VotingEnds.IsZero() {
		s += fmt.Sprintf("; the vote stands until voting ends, %s, and may be changed until then", at(v.VotingEnds))
	}
	return s + "."
}

func saysStatus(verb func(PlayerStatus) string) func(engine.Answer) string {
	return func(a engine.Answer) string {
		var v PlayerStatus
		a.Decode(&v)
		state := "inactive"
		if v.Active {
			state = "active"
		}
		pool := "not in the Judicial Pool"
		if v.InPool {
			pool = "in the Judicial Pool"
		}
		who := a.Who(v.Player, v.Name)
		return fmt.Sprintf("%s %s. %s has %s, is %s and %s.", who, verb(v), who, engine.Count(v.Points, "point", "points"), state, pool)
	}
}

// judgeWords says who judges c now and until when.
func judgeWords(a engine.Answer, c CaseView) string {
	switch {
	case c.Administrator:
		return "the administrator judges it"
	case c.Judge != "" && c.RecuseUntil != nil && c.RuleBy != nil:
		return fmt.Sprintf("its Judge is %s, who may recuse until %s and must rule by %s", a.Who(c.Judge, c.JudgeName), at(*c.RecuseUntil), at(*c.RuleBy))
	}
	return "it has no Judge now"
}

func saysRequest(a engine.Answer) string {
	var c CaseView
	a.Decode(&c)
	kind := "a Request for Judgment"
	if c.Paradox {
		kind = "a Request for Judgment stating a paradox"
	}
	s := fmt.Sprintf("%s filed %s, case %d: %s", a.Who(c.Petitioner, c.PetitionerName), kind, c.Number, quoted(c.Statement))
	if len(c.Mentioned) > 0 {
		ns := make([]string, len(c.Mentioned))
		for i, id := range c.Mentioned {
			given := ""
			if i < len(c.MentionedNames) {
				given = c.MentionedNames[i]
			}
			ns[i] = a.Who(id, given)
		}
		s += ", mentioning " + engine.AndList(ns)
	}
	s += "; " + judgeWords(a, c) + "."
	if c.Disputed != "" {
		s += " The Judge considers the rules in effect at " + When(c.DisputedAt) + " (" + c.Disputed + ")."
	}
	return s
}

func saysRecuse(a engine.Answer) string {
	var c CaseView
	a.Decode(&c)
	who := "The Judge"
	for i := len(c.Appointments) - 1; i >= 0; i-- {
		if ap := c.Appointments[i]; ap.Ended == nomic.JudgeRecused {
			who = a.Who(ap.Judge, c.ActorName)
			break
		}
	}
	return fmt.Sprintf("%s recused from case %d; %s.", who, c.Number, judgeWords(a, c))
}

func saysRule(a engine.Answer) string {
	var c CaseView
	a.Decode(&c)
	if len(c.Rulings) == 0 {
		return fmt.Sprintf("Case %d has no ruling yet.", c.Number)
	}
	r := c.Rulings[len(c.Rulings)-1]
	who := a.Who(r.By, c.ActorName)
	if r.Administrator || r.By == "" {
		who = "The administrator"
	}
	s := fmt.Sprintf("%s ruled case %d %s", who, c.Number, r.Value)
	if r.Reasons != "" {
		s += ": " + quoted(r.Reasons)
	}
	return s + ". The ruling may be appealed."
}

func saysAppeal(a engine.Answer) string {
	var v AppealView
	a.Decode(&v)
	s := fmt.Sprintf("%s appealed the ruling of case %d for %s (appeal %s)", a.Who(v.By, v.ByName), v.Case, v.Value, v.ID)
	if v.Reasons != "" {
		s += ": " + quoted(v.Reasons)
	}
	s += fmt.Sprintf(". It is voted on in turn %s", v.Turn)
	if !v.VotingBegins.IsZero() {
		s += fmt.Sprintf(", from %s until %s", at(v.VotingBegins), at(v.VotingEnds))
	}
	return s + "; 2/3 of those voting uphold it."
}

func saysRound(a engine.Answer) string {
	var v RoundView
	a.Decode(&v)
	s := fmt.Sprintf("Round %d has begun", v.Round.Number)
	if !v.Turn.Begin.IsZero() {
		first := fmt.Sprintf("%d-1", v.Round.Number)
		if v.Turn.ID != "" {
			first = v.Turn.ID
		}
		s += fmt.Sprintf("; turn %s begins %s", first, at(v.Turn.Begin))
		if v.Turn.ID != "" && v.Turn.Part != nomic.BeforeFirstTurn {
			s = fmt.Sprintf("Round %d has begun; it is turn %s, which ends %s", v.Round.Number, v.Turn.ID, at(v.Turn.End))
		}
	}
	return s + "."
}

// When is a moment in the game's zone, as every text of a turns game
// gives it ("Thu 12 Mar 22:00 CDT").
func When(t time.Time) string { return at(t) }

// PartWords is a part of a turn as people say it ("first half"), never
// the rules' term (first_half): the one wording of every surface.
func PartWords(part string) string {
	switch part {
	case nomic.BeforeFirstTurn:
		return "before its first turn"
	case nomic.FirstHalf:
		return "first half"
	case nomic.LatterHalf:
		return "latter half"
	case nomic.Interim:
		return "interim"
	}
	return engine.Words(part)
}

// Where says where the round is at ti, as every surface says it: "turn
// 1-2, first half", "turn 1-2, latter half", "the interim after turn 1-2",
// "before turn 1-1".
func Where(ti nomic.TurnInfo) string {
	switch {
	case ti.ID == "" || ti.Part == nomic.BeforeFirstTurn:
		return "before turn " + nomic.TurnID(ti.Round, 1)
	case ti.Part == nomic.Interim:
		return "the interim after turn " + ti.ID
	}
	return "turn " + ti.ID + ", " + PartWords(ti.Part)
}

// Words says what the scheduled effect is, by its turn's name or its
// case ("turn 1-2 reaches its middle").
func (d due) Words() string { return MomentWords(d.Kind, d.Turn, d.Case) }

// MomentWords says a scheduled moment of a turns game, of kind (the due
// kinds: turn-begin ...) in turn or of case cs, as every surface says it:
// "turn 1-2 begins", "turn 1-2 reaches its middle", "turn 1-2 ends",
// "the Judge of case 5301 must have ruled".
func MomentWords(kind, turn string, cs int) string {
	switch kind {
	case kindBegin:
		return "turn " + turn + " begins"
	case kindMiddle:
		return "turn " + turn + " reaches its middle"
	case kindEnd:
		return "turn " + turn + " ends"
	case kindDeadline:
		return fmt.Sprintf("the Judge of case %d must have ruled", cs)
	}
	return engine.Words(strings.ReplaceAll(kind, "-", " "))
}
