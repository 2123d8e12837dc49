package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/nomic"
	"croupier/internal/rulesets/turns"
)

// The turns ruleset (seed 003) in chat. Its commands are its catalogue's,
// offered as their declarations say (catalogue.go): /turns propose, /turns
// vote, /case recuse, rule, appeal and vote, /pool-enter... with their
// options, choices and suggestions. What a declaration cannot say is here:
// the /turns status board, and the presenters that give a proposal's and
// an appeal's reply its title and For and Against buttons (which cast the
// presser's vote) and update that shared message after a vote.

func turnsCommands() []Command {
	return []Command{
		{Name: "turns status", Runs: []string{"turns"}, Past: true, Description: "The turn, what comes next, the points and the pool", Handler: turnsStatus},
	}
}

var turnsPresenters = map[string]Presenter{
	"turns-propose": func(_ context.Context, s *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if p, ok := turnsAnswer[turns.ProposalView](res); ok {
			*r = *proposalMessage(s, p, true)
		}
	},
	// The proposal's message shows the tally after this vote. The open
	// proposals are the game's status, not its whole history.
	"turns-vote": func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply) {
		v, ok := turnsAnswer[turns.VoteView](res)
		if !ok || inv.SharedMessage() == nil {
			return
		}
		if st, err := turns.TurnsStatus(ctx, s, inv.Game); err == nil {
			for _, p := range st.Proposals {
				if p.ID == v.Proposal {
					r.Shared = proposalMessage(s, p, true)
				}
			}
		}
	},
	// A request's case, with the rules in effect at its disputed moment
	// (seed 003: the Judge considers them).
	"judgment-request": func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply) {
		if c, ok := turnsAnswer[turns.CaseView](res); ok && c.Number > 0 {
			r.Title = fmt.Sprintf("Case %d", c.Number)
			if rt, err := turns.RulesThenOf(ctx, s, inv.Game, c.Case); err == nil {
				r.Text += " " + rt.Words()
			}
		}
	},
	"judge-recuse": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if c, ok := turnsAnswer[turns.CaseView](res); ok {
			r.Title = fmt.Sprintf("Case %d", c.Number)
		}
	},
	"judge-rule": func(_ context.Context, _ *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if c, ok := turnsAnswer[turns.CaseView](res); ok {
			r.Title = fmt.Sprintf("Case %d ruled %s", c.Number, c.Ruling)
		}
	},
	"ruling-appeal": func(_ context.Context, s *game.Service, _ *Invocation, res *game.Result, r *Reply) {
		if ap, ok := turnsAnswer[turns.AppealView](res); ok {
			*r = *appealMessage(s, ap, nil, nil)
		}
	},
	"appeal-vote": func(ctx context.Context, s *game.Service, inv *Invocation, res *game.Result, r *Reply) {
		if v, ok := turnsAnswer[turns.VoteView](res); ok && inv.SharedMessage() != nil {
			r.Shared = openAppealMessage(ctx, s, inv, v.Case)
		}
	},
}

// turnsAnswer decodes a command's answer; false when it is not a T (the reply
// then keeps the declaration's sentence alone).
func turnsAnswer[T any](res *game.Result) (T, bool) {
	var v T
	return v, json.Unmarshal(res.Body, &v) == nil
}

// voteButtons cast the presser's vote on a proposal or a case's appeal:
// command is the chat path of the vote's command.
func voteButtons(command, option, value string) []Button {
	return []Button{
		{Label: "👍 For", Style: StyleSuccess, Action: Action{Command: command, Options: map[string]string{option: value, "vote": "for"}}},
		{Label: "👎 Against", Style: StyleDanger, Action: Action{Command: command, Options: map[string]string{option: value, "vote": "against"}}},
	}
}

// turnsChatPath is the chat path of catalogue command name (its declaration's).
func turnsChatPath(s *game.Service, name string) string {
	if c, ok := s.CommandNamed(name); ok {
		return c.ChatName()
	}
	return name
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

// proposalMessage is a proposal's shared message: what it changes and the
// votes standing, with the vote buttons while it is open.
func proposalMessage(s *game.Service, p turns.ProposalView, open bool) *Reply {
	r := &Reply{Title: "Proposal " + p.ID, Text: says(s, "turns-propose", p) + " " + turnsVotes(p.VotesFor, p.VotesAgainst)}
	if open {
		r.Buttons = voteButtons(turnsChatPath(s, "turns-vote"), "proposal", p.ID)
	} else {
		r.Text += " Voting is over."
	}
	return r
}

// appealMessage is an appeal's shared message: the appeal, its voting
// window and the votes standing (names), with the vote buttons while open.
func appealMessage(s *game.Service, ap turns.AppealView, votesFor, votesAgainst []string) *Reply {
	r := &Reply{Title: fmt.Sprintf("Appeal %s of case %d", ap.ID, ap.Case), Text: says(s, "ruling-appeal", ap) + " " + turnsVotes(votesFor, votesAgainst)}
	if ap.Status == nomic.AppealOpen || ap.Status == "" {
		r.Buttons = voteButtons(turnsChatPath(s, "appeal-vote"), "case", strconv.Itoa(ap.Case))
	}
	return r
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
