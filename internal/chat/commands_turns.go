package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// The turns ruleset's commands (seed 003) with their own options and
// buttons, in two groups, /turns (status, propose, vote) and /case
// (recuse, rule, appeal, vote): a proposal's and an appeal's reply carries For and Against
// buttons that cast the presser's vote; case numbers, rule numbers and
// open proposals autocomplete. Its other commands (pool-enter, pool-leave,
// judgment-request, turns-active, round-start) are the catalogue's
// (catalogue.go).

// The autocomplete kinds of this file.
const (
	// CompleteRules: the numbered rules in force (number, with its text).
	CompleteRules Completion = "turns-rules"
	// CompleteOpenProposals: the open rule-change proposals.
	CompleteOpenProposals Completion = "turns-open-proposals"
	// CompleteCases: the game's cases (number, with its statement).
	CompleteCases Completion = "turns-cases"
	// CompleteOpenAppeals: the cases with an open appeal.
	CompleteOpenAppeals Completion = "turns-open-appeals"
)

var voteChoices = []Choice{{Label: "for", Value: "for"}, {Label: "against", Value: "against"}}
var truthChoices = []Choice{{Label: "TRUE", Value: "TRUE"}, {Label: "FALSE", Value: "FALSE"}}

func caseOpt(c Completion) Option {
	return Option{Name: "case", Description: "The case's number", Type: Integer, Required: true, Complete: c}
}

func turnsCommands() []Command {
	return []Command{
		{Name: "turns status", Runs: []string{"turns"}, Description: "The turn, what comes next, the points and the pool", Handler: turnsStatus},
		{Name: "turns propose", Runs: []string{"turns-propose"}, Description: "Propose a rule change: enact, amend or repeal a rule",
			Options: []Option{
				{Name: "op", Description: "enact a new rule, amend or repeal one", Required: true,
					Choices: []Choice{{Label: "enact", Value: nomic.RuleEnacted}, {Label: "amend", Value: nomic.RuleAmended}, {Label: "repeal", Value: nomic.RuleRepealed}}},
				{Name: "rule", Description: "The rule amended or repealed", Type: Integer, Complete: CompleteRules},
				{Name: "text", Description: "The rule's new text (enact, amend)"},
				{Name: "note", Description: "What the proposal does, in your words"}},
			Handler: turnsPropose},
		{Name: "turns vote", Runs: []string{"turns-vote"}, Description: "Vote for or against a rule-change proposal",
			Options: []Option{{Name: "proposal", Description: "The proposal (P1...)", Required: true, Complete: CompleteOpenProposals},
				{Name: "vote", Description: "for or against", Required: true, Choices: voteChoices}},
			Handler: turnsVote},
		{Name: "case recuse", Runs: []string{"judge-recuse"}, Description: "Recuse yourself as a case's Judge (within 48 hours)",
			Options: []Option{caseOpt(CompleteCases)}, Handler: judgeRecuse},
		{Name: "case rule", Runs: []string{"judge-rule"}, Description: "Rule on your case: TRUE or FALSE, with reasons",
			Options: []Option{caseOpt(CompleteCases), {Name: "ruling", Description: "TRUE or FALSE", Required: true, Choices: truthChoices},
				{Name: "reasons", Description: "Your reasons"}},
			Handler: judgeRule},
		{Name: "case appeal", Runs: []string{"ruling-appeal"}, Description: "Appeal a case's ruling: a new TRUE or FALSE with reasons",
			Options: []Option{caseOpt(CompleteCases), {Name: "ruling", Description: "TRUE or FALSE", Required: true, Choices: truthChoices},
				{Name: "reasons", Description: "Your reasons and arguments", Required: true}},
			Handler: rulingAppeal},
		{Name: "case vote", Runs: []string{"appeal-vote"}, Description: "Vote for or against a case's open appeal",
			Options: []Option{caseOpt(CompleteOpenAppeals), {Name: "vote", Description: "for (support the appeal) or against", Required: true, Choices: voteChoices}},
			Handler: appealVote},
	}
}

var turnsCompletions = map[Completion]CompletionFunc{
	CompleteRules: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		rs, err := turns.Rules(ctx, s, inv.Game)
		if err != nil {
			return nil, err
		}
		var cs []Choice
		for _, r := range rs {
			if !r.Repealed {
				cs = append(cs, Choice{Label: clip(fmt.Sprintf("%d: %s", r.Number, r.Text), 100), Value: strconv.Itoa(r.Number)})
			}
		}
		return filterChoices(cs, partial), nil
	},
	CompleteOpenProposals: func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		st, err := turns.TurnsStatus(ctx, s, inv.Game)
		if err != nil {
			return nil, err
		}
		var cs []Choice
		for _, p := range st.Proposals {
			cs = append(cs, Choice{Label: clip(fmt.Sprintf("%s by %s (turn %s)", p.ID, p.ProposerName, p.Turn), 100), Value: p.ID})
		}
		return filterChoices(cs, partial), nil
	},
	CompleteCases:       completeCases(false),
	CompleteOpenAppeals: completeCases(true),
}

// completeCases suggests the game's cases, or those with an open appeal.
func completeCases(appealed bool) CompletionFunc {
	return func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		cs, err := turns.Cases(ctx, s, inv.Game)
		if err != nil {
			return nil, err
		}
		var out []Choice
		for _, c := range cs {
			if appealed && !hasOpenAppeal(c) {
				continue
			}
			out = append(out, Choice{Label: clip(fmt.Sprintf("%d: %s", c.Number, c.Statement), 100), Value: strconv.Itoa(c.Number)})
		}
		return filterChoices(out, partial), nil
	}
}

func hasOpenAppeal(c turns.CaseView) bool {
	for _, ap := range c.Appeals {
		if ap.Status == nomic.AppealOpen {
			return true
		}
	}
	return false
}

// catalogueCall runs the catalogue command name with payload p (a pointer
// to the command's payload type): decoded reads its answer. It is not
// generic, so it is linked once (bootstrap size).
func catalogueCall(ctx context.Context, s *game.Service, inv *Invocation, name string, p any) (*game.Result, error) {
	c, ok := s.CommandNamed(name)
	if !ok || c.Call == nil {
		return nil, fmt.Errorf("chat: no command %q", name)
	}
	if want := c.Call.Payload(); reflect.TypeOf(want) != reflect.TypeOf(p) {
		return nil, fmt.Errorf("chat: the payload of %s is a %T, not a %T", name, want, p)
	}
	return c.Call.Run(ctx, s, req(inv), p)
}

// voteButtons cast the presser's vote on a proposal or a case's appeal.
func voteButtons(command, option, value string) []Button {
	return []Button{
		{Label: "👍 For", Style: StyleSuccess, Action: Action{Command: command, Options: map[string]string{option: value, "vote": "for"}}},
		{Label: "👎 Against", Style: StyleDanger, Action: Action{Command: command, Options: map[string]string{option: value, "vote": "against"}}},
	}
}

func turnsStatus(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	st, err := turns.TurnsStatus(ctx, s, inv.Game)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d, %s.", st.Round.Number, turns.Where(st.Turn))
	if st.Round.Over {
		fmt.Fprintf(&b, " The round is over: %s won it.", st.WinnerName)
	} else if st.Next != nil {
		fmt.Fprintf(&b, " Next: %s, %s (in %s). Proposals are adopted by %s.", st.Next.Words(), turns.When(st.Next.At), st.In, st.Mode)
	}
	rep := &Reply{Title: "Turns", Text: b.String()}
	var pts []string
	for _, p := range st.Players {
		pts = append(pts, fmt.Sprintf("%s %d", p.Name, p.Points))
	}
	rep.Fields = []Field{{Name: "Points", Value: orNoneText(game.AndList(pts))}, {Name: "Judicial Pool", Value: orNobody(st.Pool)}}
	for _, p := range st.Proposals {
		rep.Fields = append(rep.Fields, Field{Name: "Proposal " + p.ID, Value: says(s, "turns-propose", p) + " " + turnsVotes(p.VotesFor, p.VotesAgainst)})
	}
	return rep, nil
}

func orNoneText(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// turnsVotes is a proposal's or an appeal's standing votes.
func turnsVotes(votesFor, votesAgainst []string) string {
	return fmt.Sprintf("For: %s. Against: %s.", orNobody(votesFor), orNobody(votesAgainst))
}

func orNobody(names []string) string {
	if len(names) == 0 {
		return "nobody"
	}
	return game.AndList(names)
}

// says is the sentence command's declaration says of v, its answer (whose
// turns views name their players).
func says(s *game.Service, command string, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return s.Says(command, b, nil)
}

func turnsPropose(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rule, err := optInt(inv, "rule")
	if err != nil {
		return nil, err
	}
	p, err := decoded[*turns.ProposalView](catalogueCall(ctx, s, inv, "turns-propose", &turns.Propose{Op: inv.Opt("op"), Rule: rule, Text: inv.Opt("text"), Note: inv.Opt("note")}))
	if err != nil {
		return nil, err
	}
	return proposalMessage(s, *p, true), nil
}

// proposalMessage is a proposal's shared message: what it changes and the
// votes standing, with the vote buttons while it is open.
func proposalMessage(s *game.Service, p turns.ProposalView, open bool) *Reply {
	r := &Reply{Title: "Proposal " + p.ID, Text: says(s, "turns-propose", p) + " " + turnsVotes(p.VotesFor, p.VotesAgainst)}
	if open {
		r.Buttons = voteButtons("turns vote", "proposal", p.ID)
	} else {
		r.Text += " Voting is over."
	}
	return r
}

func optInt(inv *Invocation, name string) (int, error) {
	if inv.Opt(name) == "" {
		return 0, nil
	}
	return inv.Int(name)
}

func turnsVote(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	v, err := decoded[*turns.VoteView](catalogueCall(ctx, s, inv, "turns-vote", &turns.Ballot{Proposal: inv.Opt("proposal"), Vote: inv.Opt("vote")}))
	if err != nil {
		return nil, err
	}
	r := &Reply{Ephemeral: true, Text: says(s, "turns-vote", v)}
	// The proposal's message shows the tally after this vote. The open
	// proposals are the game's status, not its whole history.
	if inv.SharedMessage() != nil {
		if st, err := turns.TurnsStatus(ctx, s, inv.Game); err == nil {
			for _, p := range st.Proposals {
				if p.ID == v.Proposal {
					r.Shared = proposalMessage(s, p, true)
				}
			}
		}
	}
	return r, nil
}

func judgeRecuse(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := inv.Int("case")
	if err != nil {
		return nil, err
	}
	c, err := decoded[*turns.CaseView](catalogueCall(ctx, s, inv, "judge-recuse", &turns.CaseRef{Case: n}))
	if err != nil {
		return nil, err
	}
	return &Reply{Title: fmt.Sprintf("Case %d", c.Number), Text: says(s, "judge-recuse", c)}, nil
}

func judgeRule(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := inv.Int("case")
	if err != nil {
		return nil, err
	}
	c, err := decoded[*turns.CaseView](catalogueCall(ctx, s, inv, "judge-rule", &turns.Ruling{Case: n, Ruling: inv.Opt("ruling"), Reasons: inv.Opt("reasons")}))
	if err != nil {
		return nil, err
	}
	return &Reply{Title: fmt.Sprintf("Case %d ruled %s", c.Number, c.Ruling), Text: says(s, "judge-rule", c)}, nil
}

func rulingAppeal(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := inv.Int("case")
	if err != nil {
		return nil, err
	}
	ap, err := decoded[*turns.AppealView](catalogueCall(ctx, s, inv, "ruling-appeal", &turns.Ruling{Case: n, Ruling: inv.Opt("ruling"), Reasons: inv.Opt("reasons")}))
	if err != nil {
		return nil, err
	}
	return appealMessage(s, *ap, nil, nil), nil
}

// appealMessage is an appeal's shared message: the appeal, its voting
// window and the votes standing (names), with the vote buttons while open.
func appealMessage(s *game.Service, ap turns.AppealView, votesFor, votesAgainst []string) *Reply {
	r := &Reply{Title: fmt.Sprintf("Appeal %s of case %d", ap.ID, ap.Case), Text: says(s, "ruling-appeal", ap) + " " + turnsVotes(votesFor, votesAgainst)}
	if ap.Status == nomic.AppealOpen || ap.Status == "" {
		r.Buttons = voteButtons("case vote", "case", strconv.Itoa(ap.Case))
	}
	return r
}

func appealVote(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	n, err := inv.Int("case")
	if err != nil {
		return nil, err
	}
	v, err := decoded[*turns.VoteView](catalogueCall(ctx, s, inv, "appeal-vote", &turns.AppealBallot{Case: n, Vote: inv.Opt("vote")}))
	if err != nil {
		return nil, err
	}
	r := &Reply{Ephemeral: true, Text: says(s, "appeal-vote", v)}
	if inv.SharedMessage() != nil {
		r.Shared = openAppealMessage(ctx, s, inv, n)
	}
	return r, nil
}

// openAppealMessage is the shared message of case n's open appeal as it
// stands now, nil when it cannot be read (the message then stays as it
// was). The game's status holds its live cases and its players' names.
func openAppealMessage(ctx context.Context, s *game.Service, inv *Invocation, n int) *Reply {
	st, err := turns.TurnsStatus(ctx, s, inv.Game)
	if err != nil {
		return nil
	}
	names := map[string]string{}
	for _, p := range st.Players {
		names[p.Player] = p.Name
	}
	name := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
	for _, c := range st.Cases {
		if c.Number != n {
			continue
		}
		for _, ap := range c.Appeals {
			if ap.Status != nomic.AppealOpen {
				continue
			}
			view := turns.AppealView{Appeal: ap, Case: n, ByName: name(ap.By)}
			if ap.Round == st.Round.Number {
				tu := nomic.TurnOf(st.Round.Start, ap.Ordinal)
				view.VotingBegins, view.VotingEnds = tu.Begin, tu.End
			}
			var yes, no []string
			for _, v := range ap.Votes {
				if v.For {
					yes = append(yes, name(v.Voter))
				} else {
					no = append(no, name(v.Voter))
				}
			}
			return appealMessage(s, view, yes, no)
		}
	}
	return nil
}
