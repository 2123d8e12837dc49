// Command cards serves the card images as their own Lambda (issue 16):
// API Gateway sends it GET /cards/{file} (template.yaml CardsFunction),
// the SVG or PNG of a card of the default ruleset's card table, drawn by
// internal/cardart. The tracker's pages and the chat replies link to them.
// It is apart from the tracker because drawing PNGs needs the fonts and a
// rasterizer, which would take the tracker's bootstrap over 10 MiB; and it
// needs no store: the images depend on the card table only.
//
// It only wires: environment (the log level) -> card table -> cardart
// handler -> API Gateway adapter.
package main

import (
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/cardart"
	"croupier/internal/config"
	"croupier/internal/lambdahttp"
	"croupier/internal/ruleset"
)

func main() {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	rs, err := ruleset.Load(ruleset.Default)
	if err != nil {
		config.Fatal(err)
	}
	cards, err := cardart.NewHandler(rs.Cards)
	if err != nil {
		config.Fatal(err)
	}
	lambda.Start(lambdahttp.New(cards, log))
}
