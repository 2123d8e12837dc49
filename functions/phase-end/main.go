// Command phase-end is the Lambda EventBridge Scheduler invokes at every
// phase boundary (template.yaml: ScheduleV2 events). It runs the game
// service's due work (RunDue) and returns its report as JSON.
//
// The payload's time is deliberately ignored: each piece of due work is
// applied as of its own due moment and is a compare-and-set on the state it
// expects (RULINGS T4), so a late, retried or duplicated invocation is
// harmless, and any payload (the Scheduler input of template.yaml, an
// EventBridge scheduled event, {}) triggers the same run.
package main

import "croupier/internal/lambdadue"

// main serves the shared scheduled handler under this function's name,
// which its log lines and errors carry.
func main() { lambdadue.Main("phase-end") }
