// Command timeouts is the Lambda EventBridge Scheduler invokes every minute
// (template.yaml TimeoutsFunction) so that Exoptosis deadlines are met within
// a minute: a turn nobody took for 24 hours is skipped, an expired choice is
// made at random (RULINGS X7), and a battle whose phase ended is set up
// (X10). It runs the game service's due work (RunDue), like phase-end: every
// scheduled function runs all kinds of due work, which differ only in how
// often they are looked for, so no kind can starve behind another.
//
// The payload is only logged: each timer is applied as of its own deadline
// under an idempotency key naming the match and the deadline (RULINGS T4),
// so a late, retried, duplicated or concurrent invocation acts once.
package main

import "croupier/internal/lambdadue"

// main serves the shared scheduled handler under this function's name,
// which its log lines and errors carry.
func main() { lambdadue.Main("timeouts") }
