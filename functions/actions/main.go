// Command actions is the Lambda behind the HTTP API (API Gateway HTTP API,
// payload format 2.0): every route of internal/httpapi (join, leave, rolls,
// status...). It only wires (internal/lambdaapi).
package main

import "croupier/internal/lambdaapi"

// main serves the JSON API under this function's name (internal/lambdaapi).
func main() { lambdaapi.Main("actions") }
