// Package turns is the turn-based nomic (seed 003) as a module of the
// engine: turns and rounds on the America/Chicago calendar, the numbered
// mutable rules, rule-change proposals and their votes, points, and the
// judicial system (RULINGS U1-U11). Its rules are the pure functions of
// internal/rules/nomic; this package stores their state in parts (the game
// item, the rules, each proposal, vote and case: store.go), runs them
// inside the engine's transaction, and applies the scheduled effects as of
// their moments (due.go). It has no seasons (T2) and no Gilded Hall
// governance: its proposals and judiciary are its own (R3).
package turns

import (
	engine "croupier/internal/game"
	"croupier/internal/rules/calendar"
	"croupier/internal/rules/nomic"
)

// ID is the ruleset id of the turn-based nomic.
const ID = "turns"

// The module's institutions.
const (
	// InstTurns is the turns, the rules, proposals, votes and points.
	InstTurns = "turns"
	// InstJudiciary is the Requests for Judgment, the pool and appeals.
	InstJudiciary = "judiciary"
)

// The module's views.
var (
	viewTurns = engine.View{Name: "turns", Institution: InstTurns, What: "turns, rules, proposals and points"}
	viewCases = engine.View{Name: "cases", Institution: InstJudiciary, What: "cases and the Judicial Pool"}
)

// Module returns the turn-based nomic as the engine runs it.
func Module() engine.Module {
	return engine.Module{ID: ID, Title: "turns", Components: []engine.Component{Turns(), Judiciary()}, PlayerView: playerView, PeriodName: periodName, Round: roundView}
}

// Turns is the component of turns, rules, proposals, votes and points.
func Turns() engine.Component {
	return engine.Component{Name: InstTurns, Views: []engine.View{viewTurns}, Due: []engine.DueWork{turnsWork},
		Events:      events(),
		AtPeriodEnd: []engine.AtHook{{Run: startAtPeriodEnd}},
		OnLeave:     onLeave,
		Commands: []engine.Command{
			{Name: "turns-propose", Institution: InstTurns, Action: true, What: "rule-change proposals", Chat: "turns propose",
				Summary: "Submit a rule-change proposal: enact, amend or repeal a rule", Call: engine.Method(SubmitProposal, engine.Creates), Says: saysPropose,
				Help: "One change: the op, the rule's number (amend, repeal) and its new text (enact, amend),\n" +
					"as in turns-propose amend 205 \"new text\" or turns-propose enact --text \"new text\".\n" +
					"Several at once are --changes; a change to the ruleset's numbers (R4) is --data, a JSON Patch.\n" +
					"The active players vote on it until the turn ends (turns-vote, U3).",
				Args: []engine.Arg{
					{Name: "op", Type: engine.FieldString, Positional: true, Description: "Enact a new rule, amend or repeal one", Choices: opChoices},
					{Name: "rule", Type: engine.FieldInteger, Positional: true, Min: engine.Bound(1), Description: "The rule amended or repealed", Suggest: &suggestRules},
					{Name: "text", Type: engine.FieldString, Positional: true, Description: "The rule's new text (enact, amend)"},
					{Name: "note", Type: engine.FieldString, Description: "What the proposal does, in your words"},
					{Name: "changes", Type: engine.FieldJSON, Description: `Several rule changes: [{"op":"amend","rule":205,"text":"..."}]`},
					{Name: "data", Type: engine.FieldJSON, Description: `A patch of the ruleset's numbers: [{"op":"replace","path":"/turns/winPoints","value":150}]`},
					{Name: "message", Type: engine.FieldJSON, NotInChat: true, Description: "The chat message whose 👍/👎 reactions are votes (platform, channel, message)"},
				}},
			{Name: "turns-vote", Institution: InstTurns, Action: true, What: "votes on proposals", Chat: "turns vote", Private: true,
				Summary: "Vote for or against a rule-change proposal", Call: engine.Method(CastVote), Says: saysVote,
				Help: "Your vote stands until the proposal's turn ends; a new vote replaces it (U4).",
				Args: []engine.Arg{
					{Name: "proposal", Type: engine.FieldString, Required: true, Positional: true, Description: "The proposal (P1...)", Suggest: &suggestOpenProposals},
					{Name: "vote", Type: engine.FieldString, Required: true, Positional: true, Description: "For or against it", Choices: voteChoices},
				}},
			{Name: "turns-active", Institution: InstTurns, Action: true, What: "declarations of activity",
				Summary: "Declare yourself active (true) or inactive (false)", Call: engine.Method(SetActive), Says: saysStatus(func(v PlayerStatus) string {
					if v.Active {
						return "is active now"
					}
					return "is inactive now"
				}),
				Args: []engine.Arg{{Name: "active", Type: engine.FieldBoolean, Required: true, Positional: true, Description: "Active (true) or inactive (false)"}}},
			{Name: "round-start", Institution: InstTurns, Admin: true, What: "new rounds",
				Summary: "Start the next round once the current one has a winner (admins)", Call: engine.Bare(StartRound), Says: saysRound},
			{Name: kindBegin, Institution: InstTurns, Scheduled: true, AfterEnd: true, What: "turn beginnings"},
			{Name: kindMiddle, Institution: InstTurns, Scheduled: true, AfterEnd: true, What: "turn middles"},
			{Name: kindEnd, Institution: InstTurns, Scheduled: true, AfterEnd: true, What: "turn ends"},
			{Name: kindMove, Institution: InstTurns, Scheduled: true, AfterEnd: true, What: "players moved out of the game item"},
		}}
}

// Judiciary is the judicial system's component (U7-U11).
func Judiciary() engine.Component {
	return engine.Component{Name: InstJudiciary, Views: []engine.View{viewCases}, Commands: []engine.Command{
		{Name: "pool-enter", Institution: InstJudiciary, Action: true, What: "Judicial Pool", Summary: "Enter the Judicial Pool", Call: engine.Bare(EnterPool), Says: saysStatus(func(PlayerStatus) string { return "entered the Judicial Pool" })},
		{Name: "pool-leave", Institution: InstJudiciary, Action: true, What: "Judicial Pool", Summary: "Leave the Judicial Pool", Call: engine.Bare(LeavePool), Says: saysStatus(func(PlayerStatus) string { return "left the Judicial Pool" })},
		{Name: "judgment-request", Institution: InstJudiciary, Action: true, Draws: true, What: "Requests for Judgment",
			Summary: "Request judgment: a statement to be judged TRUE or FALSE", Call: engine.Method(RequestJudgment, engine.Creates), Says: saysRequest,
			Help: "The Judge is drawn at once from the Judicial Pool, less you and every player the statement\n" +
				"mentions; with nobody left, the game's administrator judges (U7).",
			Args: []engine.Arg{
				{Name: "statement", Type: engine.FieldString, Required: true, Positional: true, Description: "The statement to be judged TRUE or FALSE"},
				{Name: "arguments", Type: engine.FieldString, Positional: true, Description: "Your arguments"},
				{Name: "mentions", Type: engine.FieldPlayers, Description: "The players the statement mentions"},
				{Name: "paradox", Type: engine.FieldBoolean, Description: "The statement says that the rules hold a paradox (U11)"},
				{Name: "at", Type: engine.FieldString, Description: "The disputed moment: a time (RFC 3339) or a log entry's id; by default now. The Judge considers the rules in effect then"},
			}},
		{Name: "judge-recuse", Institution: InstJudiciary, Action: true, Draws: true, What: "recusals", Chat: "case recuse",
			Summary: "Recuse yourself as a case's Judge (within 48 hours)", Call: engine.Method(Recuse), Says: saysRecuse,
			Args: []engine.Arg{caseArg(&suggestCases)}},
		{Name: "judge-rule", Institution: InstJudiciary, Action: true, What: "rulings", Chat: "case rule",
			Summary: "Rule on your case: TRUE or FALSE, with reasons", Call: engine.Method(Rule), Says: saysRule,
			Args: []engine.Arg{caseArg(&suggestCases),
				{Name: "ruling", Type: engine.FieldString, Required: true, Positional: true, Description: "Your ruling", Choices: truthChoices},
				{Name: "reasons", Type: engine.FieldString, Positional: true, Description: "Your reasons"},
			}},
		{Name: "ruling-appeal", Institution: InstJudiciary, Action: true, What: "appeals", Chat: "case appeal",
			Summary: "Appeal a case's ruling: a new TRUE or FALSE with reasons", Call: engine.Method(AppealRuling, engine.Creates), Says: saysAppeal,
			Help: "The players vote on it during the next turn (appeal-vote); it replaces the ruling with\n" +
				"at least 2/3 of the votes (U10).",
			Args: []engine.Arg{caseArg(&suggestCases),
				{Name: "ruling", Type: engine.FieldString, Required: true, Positional: true, Description: "The ruling you appeal for", Choices: truthChoices},
				{Name: "reasons", Type: engine.FieldString, Required: true, Positional: true, Description: "Your reasons and arguments"},
			}},
		{Name: "appeal-vote", Institution: InstJudiciary, Action: true, What: "votes on appeals", Chat: "case vote", Private: true,
			Summary: "Vote for or against a case's open appeal", Call: engine.Method(VoteOnAppeal), Says: saysVote,
			Args: []engine.Arg{caseArg(&suggestOpenAppeals),
				{Name: "vote", Type: engine.FieldString, Required: true, Positional: true, Description: "For (support the appeal) or against", Choices: voteChoices},
			}},
		{Name: kindDeadline, Institution: InstJudiciary, Scheduled: true, Draws: true, AfterEnd: true, What: "Judges' deadlines"},
	}}
}

// The values some arguments take.
var (
	opChoices    = []engine.Choice{{Label: "enact", Value: nomic.RuleEnacted}, {Label: "amend", Value: nomic.RuleAmended}, {Label: "repeal", Value: nomic.RuleRepealed}}
	voteChoices  = []engine.Choice{{Label: "for", Value: "for"}, {Label: "against", Value: "against"}}
	truthChoices = []engine.Choice{{Label: "TRUE", Value: nomic.True}, {Label: "FALSE", Value: nomic.False}}
)

// caseArg is the case a judicial command is about, its number suggested
// from sg.
func caseArg(sg *engine.Suggest) engine.Arg {
	return engine.Arg{Name: "case", Type: engine.FieldInteger, Required: true, Positional: true, Min: engine.Bound(1), Description: "The case's number", Suggest: sg}
}

// startAtPeriodEnd creates the game item at the game's first period end,
// if no command has yet: from then on its due time schedules the turns.
func startAtPeriodEnd(t *engine.Tx, _, _ calendar.Period, _ []engine.PlayerRecord, _ *engine.PeriodEnded) error {
	w, err := open(t)
	if err != nil || !w.fresh {
		return err
	}
	return w.save()
}
