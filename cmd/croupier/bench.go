package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"croupier/internal/benchmark"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	"croupier/internal/lambdarun"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
)

const benchHelp = `Usage: croupier bench [--n N] [--dynamodb-endpoint URL] [--functions --rie PATH] [--past-entries N]

Measures what an operator pays for: each command's latency through the real
HTTP API (loopback, sequential) and its cost in store requests, items and
AWS-priced capacity units, on the embedded store and, given an endpoint, on
DynamoDB (DynamoDB Local: make dynamodb-start prints the endpoint). Exoptosis
duels are played move by move, and the Discord interactions handler is timed
from signed request to reply for a purchase and for match moves. A turns
game of 100 players measures a proposal, a vote, a Request for Judgment and
a turn end. A Gilded Hall game of 1,000 players and 100,000 log entries
(built through the engine on bolt, copied to DynamoDB) measures a player's
status read at random past moments (--past-players, --past-entries,
--past-samples). With
--functions it also builds every functions/<name> (size of the linux/arm64
bootstrap) and cold-starts each under the Lambda Runtime Interface Emulator
(Init Duration). Last, a cost table prices each command per million, all-in
at list prices (internal/benchmark/cost.go names them and their date).
"make bench" runs all of it.

Environment: CROUPIER_DYNAMODB_ENDPOINT (--dynamodb-endpoint), CROUPIER_RIE (--rie).
`

func (e *env) bench(args []string) error {
	fs := e.newFlagSet("bench", benchHelp)
	n := fs.Int("n", 50, "players per command (samples)")
	endpoint := fs.String("dynamodb-endpoint", e.envOr("CROUPIER_DYNAMODB_ENDPOINT", ""), "also measure on the DynamoDB at this `URL`")
	functions := fs.Bool("functions", false, "also measure the Lambda functions (needs --dynamodb-endpoint and the emulator)")
	rie := fs.String("rie", e.envOr("CROUPIER_RIE", ""), "aws-lambda-rie `path` (default .tools/bin/aws-lambda-rie)")
	coldRuns := fs.Int("cold-runs", 5, "cold starts per function")
	pastPlayers := fs.Int("past-players", benchmark.PastPlayers, "players of the past-read benchmark's game")
	pastEntries := fs.Int("past-entries", benchmark.PastEntries, "log entries of the past-read benchmark's game")
	pastSamples := fs.Int("past-samples", benchmark.PastSamples, "random past moments read")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("bench takes no arguments, got %q", strings.Join(rest, " "))
	}
	if *n < 1 || *n > 10000 {
		return usagef("--n must be from 1 to 10000, not %d", *n)
	}
	if *pastPlayers < 1 || *pastEntries < *pastPlayers || *pastSamples < 1 {
		return usagef("--past-players, --past-samples must be at least 1, and --past-entries at least --past-players (each joins): not %d, %d, %d", *pastPlayers, *pastSamples, *pastEntries)
	}
	if *functions && *endpoint == "" {
		return usagef("--functions needs a DynamoDB for the functions to use: --dynamodb-endpoint or CROUPIER_DYNAMODB_ENDPOINT")
	}
	ctx := e.ctx
	// The benchmark's services log through the default logger; one line
	// per command would bury the table.
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	defer slog.SetDefault(prev)

	dir, err := os.MkdirTemp("", "croupier-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := bolt.Open(filepath.Join(dir, "bench.db"))
	if err != nil {
		return err
	}
	rows, err := benchmark.MeasureAPI(ctx, "bolt", st, *n)
	if err == nil {
		var dc []benchmark.Row
		dc, err = benchmark.MeasureDiscord(ctx, "bolt", st, *n)
		rows = append(rows, dc...)
	}
	if err == nil {
		var tr []benchmark.Row
		tr, err = benchmark.MeasureTurns(ctx, "bolt", st, *n)
		rows = append(rows, tr...)
	}
	if err == nil {
		// The same at ten times the players: what a command costs must
		// not grow with them (issue 22).
		var tr []benchmark.Row
		tr, err = benchmark.MeasureTurnsWith(ctx, "bolt", st, *n, 10*benchmark.TurnsPlayers)
		rows = append(rows, tr...)
	}
	st.Close()
	if err != nil {
		return fmt.Errorf("benchmark on bolt: %w", err)
	}
	// A view at a random past moment in a long game (issue 25): built once
	// through the engine on bolt, read there, then copied to DynamoDB.
	pst, err := bolt.Open(filepath.Join(dir, "past.db"))
	if err != nil {
		return err
	}
	defer pst.Close()
	past, err := benchmark.BuildPast(ctx, pst, *pastPlayers, *pastEntries)
	if err != nil {
		return fmt.Errorf("building the past benchmark's game: %w", err)
	}
	latest := ""
	if past.Checkpoints > 0 {
		latest = fmt.Sprintf(", the latest of %d pages, %d KB stored", past.Pages, past.PageBytes>>10)
	}
	fmt.Fprintf(e.stderr, "past: built a game of %d players and %d log entries (%d checkpoints%s) through the engine on bolt in %s\n",
		past.Players, past.Entries, past.Checkpoints, latest, past.Built.Round(time.Second))
	more, err := benchmark.MeasurePast(ctx, "bolt", pst, past, *pastSamples)
	if err != nil {
		return fmt.Errorf("past benchmark on bolt: %w", err)
	}
	rows = append(rows, more...)

	var table string
	if *endpoint != "" {
		client, err := dynamo.NewClient(ctx, *endpoint)
		if err != nil {
			return fmt.Errorf("DynamoDB client for %s: %w", *endpoint, err)
		}
		table = fmt.Sprintf("croupier-bench-%d", time.Now().UnixNano())
		if err := dynamo.CreateTable(ctx, client, table); err != nil {
			return fmt.Errorf("creating table %s at %s: %w", table, *endpoint, err)
		}
		dst := dynamo.NewLoader(client, table)
		more, err := benchmark.MeasureAPI(ctx, "dynamodb", dst, *n)
		if err != nil {
			return fmt.Errorf("benchmark on DynamoDB at %s: %w", *endpoint, err)
		}
		rows = append(rows, more...)
		if more, err = benchmark.MeasureDiscord(ctx, "dynamodb", dst, *n); err != nil {
			return fmt.Errorf("Discord benchmark on DynamoDB at %s: %w", *endpoint, err)
		}
		rows = append(rows, more...)
		if more, err = benchmark.MeasureTurns(ctx, "dynamodb", dst, *n); err != nil {
			return fmt.Errorf("turns benchmark on DynamoDB at %s: %w", *endpoint, err)
		}
		rows = append(rows, more...)
		t0 := time.Now()
		if err := benchmark.CopyPast(ctx, pst, dst, past); err != nil {
			return fmt.Errorf("copying the past benchmark's game to DynamoDB at %s: %w", *endpoint, err)
		}
		fmt.Fprintf(e.stderr, "past: copied the game to DynamoDB in %s\n", time.Since(t0).Round(time.Second))
		if more, err = benchmark.MeasurePast(ctx, "dynamodb", dst, past, *pastSamples); err != nil {
			return fmt.Errorf("past benchmark on DynamoDB at %s: %w", *endpoint, err)
		}
		rows = append(rows, more...)
	}

	var fns []benchmark.Function
	if *functions {
		root, err := lambdarun.ModuleRoot()
		if err != nil {
			return err
		}
		if *rie == "" {
			*rie = filepath.Join(root, ".tools", "bin", "aws-lambda-rie")
		}
		if _, err := os.Stat(*rie); err != nil {
			return fmt.Errorf("the Lambda emulator is not at %s (make tools installs it): %w", *rie, err)
		}
		fns, err = benchmark.MeasureFunctions(ctx, benchmark.FunctionsConfig{
			Root: root, RIE: *rie, ColdRuns: *coldRuns,
			// The Discord function needs a public key to start; the
			// samples in events/discord are signed with the test key and
			// dated, so the window is wide (as internal/e2e sets it).
			Env: []string{"TABLE_NAME=" + table, "DYNAMODB_ENDPOINT=" + *endpoint, "API_KEYS=bench-key as=*",
				"AWS_REGION=us-east-1", "AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local",
				discord.EnvPublicKey + "=" + discordtest.PublicKeyHex(), discord.EnvTimestampWindow + "=876000h"},
			Event: func(name string) ([]byte, error) { return firstEvent(root, name) },
		})
		if err != nil {
			return fmt.Errorf("measuring functions: %w", err)
		}
	}
	benchmark.Print(e.stdout, rows, fns)
	root, err := lambdarun.ModuleRoot()
	if err != nil {
		return err
	}
	model, err := benchmark.TemplateCostModel(root)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	benchmark.PrintCosts(e.stdout, rows, model)
	return nil
}

// firstEvent returns the first (by name) sample payload of a function.
func firstEvent(root, name string) ([]byte, error) {
	files, err := filepath.Glob(filepath.Join(root, "events", name, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no sample event in events/%s/", name)
	}
	sort.Strings(files)
	return os.ReadFile(files[0])
}
