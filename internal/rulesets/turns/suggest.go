package turns

import (
	"context"
	"fmt"
	"strconv"

	engine "croupier/internal/game"
	"croupier/internal/rules/nomic"
)

// The sources of suggested values of the module's arguments
// (engine.Suggest: chat's autocompletion), read from the game as it
// stands. A label is clipped to 100 characters, the most a chat platform
// shows of a suggestion.

// suggestRules suggests the numbered rules in force (the rule a proposal
// amends or repeals): the number, with its text.
var suggestRules = engine.Suggest{Name: "turns-rules", List: func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	rs, err := Rules(ctx, s, q.Game)
	if err != nil {
		return nil, err
	}
	var out []engine.Choice
	for _, r := range rs {
		if !r.Repealed {
			out = append(out, suggestion(fmt.Sprintf("%d: %s", r.Number, r.Text), strconv.Itoa(r.Number)))
		}
	}
	return out, nil
}}

// suggestOpenProposals suggests the open rule-change proposals, with who
// proposed them for which turn.
var suggestOpenProposals = engine.Suggest{Name: "turns-open-proposals", List: func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
	st, err := TurnsStatus(ctx, s, q.Game)
	if err != nil {
		return nil, err
	}
	var out []engine.Choice
	for _, p := range st.Proposals {
		out = append(out, suggestion(fmt.Sprintf("%s by %s (turn %s)", p.ID, p.ProposerName, p.Turn), p.ID))
	}
	return out, nil
}}

// suggestCases suggests the game's cases (number, with its statement);
// suggestOpenAppeals those with an open appeal.
var (
	suggestCases       = engine.Suggest{Name: "turns-cases", List: listCases(false)}
	suggestOpenAppeals = engine.Suggest{Name: "turns-open-appeals", List: listCases(true)}
)

func listCases(appealed bool) func(context.Context, *engine.Service, engine.SuggestQuery) ([]engine.Choice, error) {
	return func(ctx context.Context, s *engine.Service, q engine.SuggestQuery) ([]engine.Choice, error) {
		cs, err := Cases(ctx, s, q.Game)
		if err != nil {
			return nil, err
		}
		var out []engine.Choice
		for _, c := range cs {
			if appealed && !hasOpenAppeal(c) {
				continue
			}
			out = append(out, suggestion(fmt.Sprintf("%d: %s", c.Number, c.Statement), strconv.Itoa(c.Number)))
		}
		return out, nil
	}
}

// hasOpenAppeal reports whether case c has an appeal being voted on.
func hasOpenAppeal(c CaseView) bool {
	for _, ap := range c.Appeals {
		if ap.Status == nomic.AppealOpen {
			return true
		}
	}
	return false
}

func suggestion(label, value string) engine.Choice {
	return engine.Choice{Label: engine.Clip(label, 100), Value: value}
}
