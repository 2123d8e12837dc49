// Command invoke runs a function's bootstrap under the Lambda Runtime
// Interface Emulator and invokes it with event files, printing each result:
// `make invoke` without SAM or Docker.
//
//	invoke -rie .tools/bin/aws-lambda-rie -bootstrap build/host/actions/bootstrap \
//	    -env TABLE_NAME=croupier-local -env DYNAMODB_ENDPOINT=http://127.0.0.1:8000 \
//	    events/actions/create-game.json events/actions/join.json
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"croupier/internal/lambdarun"
)

type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, " ") }
func (e *envFlag) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("%q is not NAME=value", v)
	}
	*e = append(*e, v)
	return nil
}

func main() {
	rie := flag.String("rie", ".tools/bin/aws-lambda-rie", "path of aws-lambda-rie")
	bootstrap := flag.String("bootstrap", "", "the function's bootstrap binary, built for this machine (required)")
	verbose := flag.Bool("v", false, "print the emulator's and function's output even when all went well")
	var env envFlag
	flag.Var(&env, "env", "NAME=value for the function's environment (repeatable)")
	flag.Parse()
	if *bootstrap == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: invoke -bootstrap <path> [-env NAME=value]... <event.json>...")
		os.Exit(2)
	}
	if err := run(*rie, *bootstrap, env, flag.Args(), *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "invoke:", err)
		os.Exit(1)
	}
}

func run(rie, bootstrap string, env, events []string, verbose bool) error {
	f, err := lambdarun.Start(rie, bootstrap, env)
	if err != nil {
		return err
	}
	defer f.Stop()
	failed := false
	for _, path := range events {
		payload, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := f.Invoke(ctx, payload)
		cancel()
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s\n--- emulator and function output ---\n%s", err, f.Output())
			return fmt.Errorf("invoking with %s failed", path)
		}
		var pretty bytes.Buffer
		if json.Indent(&pretty, res, "", "  ") != nil {
			pretty.Reset()
			pretty.Write(res)
		}
		fmt.Printf("== %s\n%s\n", path, pretty.String())
		if bytes.Contains(res, []byte(`"errorType"`)) {
			failed = true
		}
	}
	if verbose || failed {
		fmt.Printf("--- emulator and function output ---\n%s", f.Output())
	}
	return nil
}
