package main

// exoptosisCommands are the play commands of duels, battles and matches.
func exoptosisCommands() map[string]playCmd { return map[string]playCmd{} }
