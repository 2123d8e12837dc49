// Command duels is Exoptosis (RULINGS X1-X11) as its own Lambda: API Gateway
// sends it only the duel, battle and match routes (template.yaml
// DuelsFunction: explicit HttpApi routes); every other route goes to the
// actions function through $default. Matches are the chattiest traffic of a
// game (a move every few seconds while one runs), so their function keeps
// its own logs, alarms and concurrency; the handler is the same
// internal/httpapi, so a request means the same thing whichever function
// answers it. It only wires (internal/lambdaapi).
package main

import "croupier/internal/lambdaapi"

// main serves the JSON API under this function's name (internal/lambdaapi).
func main() { lambdaapi.Main("duels") }
