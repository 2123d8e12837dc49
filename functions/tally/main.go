// Command tally is the Lambda EventBridge Scheduler invokes every minute
// (template.yaml TallyFunction). It runs the game service's due work (RunDue)
// and returns its report as JSON. The minute schedule closes proposals
// (RULINGS G1, G2) and votes of confidence (G4) within a minute of their
// deadlines, which fall at any time of day. RunDue runs all due work, so it
// may also end a period or expire a trade before phase-end gets to it: the
// work is the same whoever runs it first.
//
// As for phase-end, the payload is only logged: each piece of due work is
// applied as of its own due moment and is idempotent (RULINGS T4), so a
// late, retried or duplicated invocation gives the same single result as an
// on-time one.
//
// Reactions: with DISCORD_BOT_TOKEN set, votes read each message's 👍 and 👎
// from Discord's REST API at the deadline (internal/reactions.Discord, API
// root DISCORD_API_BASE or Discord's); without it they read the reactions
// bridges pushed, as they were at the deadline. Results are log entries
// (proposal_adopted, ruling_overturned, judge_elected...), announced from
// the table's stream (functions/announce).
package main

import "croupier/internal/lambdadue"

// main serves the shared scheduled handler under this function's name,
// which its log lines and errors carry.
func main() { lambdadue.Main("tally") }
