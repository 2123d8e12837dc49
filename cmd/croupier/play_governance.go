package main

// governanceCommands are the play commands of proposals, the Judge and
// elections.
func governanceCommands() map[string]playCmd { return map[string]playCmd{} }
