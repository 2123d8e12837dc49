// Command votes is governance as its own Lambda (issue 5): API Gateway
// sends it the governance routes of internal/httpapi — proposals, requests
// for justice, rulings, votes of confidence, the Judge's office,
// candidacies, and the reactions and message events bridges push
// (template.yaml VotesFunction lists them); every other route still goes to
// the actions function through $default. The handler is the same
// internal/httpapi, so a request means the same whichever function answers.
//
// It only wires: environment -> DynamoDB store -> game service (with the
// Discord reaction reader when DISCORD_BOT_TOKEN is set, so open proposals'
// live counts read Discord; otherwise the pushed reactions) -> JSON API ->
// API Gateway adapter. Proposals and rulings are announced from the
// table's stream (functions/announce).
package main

import "croupier/internal/lambdaapi"

// main serves the JSON API under this function's name (internal/lambdaapi).
func main() { lambdaapi.Main("votes") }
