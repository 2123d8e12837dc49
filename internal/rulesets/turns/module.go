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
			{Name: "turns-propose", Institution: InstTurns, Action: true, What: "rule-change proposals",
				Summary: "Submit a rule-change proposal: enact, amend or repeal a rule (e.g. amend 205 \"new text\")", Call: engine.Method(SubmitProposal, engine.Creates), Says: saysPropose},
			{Name: "turns-vote", Institution: InstTurns, Action: true, What: "votes on proposals",
				Summary: "Vote for or against a rule-change proposal", Call: engine.Method(CastVote), Says: saysVote},
			{Name: "turns-active", Institution: InstTurns, Action: true, What: "declarations of activity",
				Summary: "Declare yourself active (true) or inactive (false)", Call: engine.Method(SetActive), Says: saysStatus(func(v PlayerStatus) string {
					if v.Active {
						return "is active now"
					}
					return "is inactive now"
				})},
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
			Summary: "Request judgment: a statement to be judged TRUE or FALSE", Call: engine.Method(RequestJudgment, engine.Creates), Says: saysRequest},
		{Name: "judge-recuse", Institution: InstJudiciary, Action: true, Draws: true, What: "recusals", Summary: "Recuse yourself as a case's Judge (within 48 hours)", Call: engine.Method(Recuse), Says: saysRecuse},
		{Name: "judge-rule", Institution: InstJudiciary, Action: true, What: "rulings", Summary: "Rule on your case: TRUE or FALSE, with reasons", Call: engine.Method(Rule), Says: saysRule},
		{Name: "ruling-appeal", Institution: InstJudiciary, Action: true, What: "appeals", Summary: "Appeal a case's ruling: a new TRUE or FALSE with reasons", Call: engine.Method(AppealRuling, engine.Creates), Says: saysAppeal},
		{Name: "appeal-vote", Institution: InstJudiciary, Action: true, What: "votes on appeals", Summary: "Vote for or against a case's open appeal", Call: engine.Method(VoteOnAppeal), Says: saysVote},
		{Name: kindDeadline, Institution: InstJudiciary, Scheduled: true, Draws: true, AfterEnd: true, What: "Judges' deadlines"},
	}}
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
