// Command mktable creates Croupier's DynamoDB table (dynamo.CreateTable) on
// an endpoint such as DynamoDB Local, for `make invoke`. An existing table is
// left as it is.
//
//	go run ./internal/e2e/cmd/mktable -endpoint http://127.0.0.1:8000 -table croupier
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"croupier/internal/store/dynamo"
)

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL, e.g. http://127.0.0.1:8000 (required)")
	table := flag.String("table", "croupier", "table name")
	flag.Parse()
	if *endpoint == "" {
		fmt.Fprintln(os.Stderr, "mktable: -endpoint is required (e.g. http://127.0.0.1:8000); mktable never creates tables on AWS (template.yaml does)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := dynamo.NewClient(ctx, *endpoint)
	if err == nil {
		err = dynamo.CreateTable(ctx, client, *table)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mktable:", err)
		os.Exit(1)
	}
	fmt.Printf("mktable: table %s ready on %s\n", *table, *endpoint)
}
