// Command purchases is the Croupier (RULINGS C6) as its own Lambda: API
// Gateway sends it only POST /v1/games/{game}/purchases and GET
// /v1/games/{game}/shop (template.yaml PurchasesFunction); every other route
// goes to the actions function through $default. A separate function keeps
// the shop's traffic, logs, alarms and concurrency apart from the rest of
// the API; the handler is the same internal/httpapi, so a request means the
// same thing whichever function answers it. It only wires: environment ->
// DynamoDB store -> game service -> JSON API -> API Gateway adapter.
package main

import "croupier/internal/lambdaapi"

// main serves the JSON API under this function's name (internal/lambdaapi).
func main() { lambdaapi.Main("purchases") }
