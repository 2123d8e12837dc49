package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"croupier/internal/client"
	"croupier/internal/clock"
	"croupier/internal/fair"
	"croupier/internal/rulesets"
	"croupier/internal/store/bolt"
)

const verifyHelp = `Usage: croupier verify --game G [--url U --key K | --data PATH] [--json]
       croupier verify --state --game G [--url U --key K | --store PATH] [--json]

Recomputes every random draw logged in game G from the seeds revealed so far
(RULINGS N2) and checks each revealed seed against the commitment published
before its period. Over HTTP (the default) it fetches /seeds and the whole
/log and recomputes on this machine, trusting no verdict of the server. With
--data it reads a local store file instead (stop the server first: the file
is locked while it runs).

Prints "verified N draws of game G: all match (P pending ...)" and exits 0, or
lists every mismatch (period, command id, index, purpose, logged value,
recomputed value) and exits 1. Draws of periods whose seed is not revealed yet
are pending, not failures.

With --state it audits the game's state instead (issue 25): each log entry
says how its command changed each item it wrote, so the log alone rebuilds
the game. Over HTTP it reads the public log, replays it on this machine and
compares every public view the replay answers (the game, each player, the
ruleset's own views: the Obelisk and its Gatherings; the turns status, rules,
proposals and cases; trades, matches, proposals and the Judge) with the
server's. With --store it replays the store file's log against the items
the file holds (opened for reading only; stop the server first). Prints
"everything matches: N entries, M items" and exits 0, or lists every
difference (the item and its player by name, the view and field, both
values, and the log's last change to the item, after which they diverge)
and exits 1. Items the public log hides are skipped, not failures. Over
HTTP, what the public log does not carry is not compared: the seeds, the
reactions pushed from chat (and the live tallies of open proposals and
elections),
ended periods' activity lists, and the clock's reading in a view.
`

func (e *env) verify(args []string) error {
	fs := e.newFlagSet("verify", verifyHelp)
	g := fs.String("game", e.envOr("CROUPIER_GAME", ""), "game `id` (CROUPIER_GAME)")
	url := fs.String("url", e.envOr("CROUPIER_URL", defaultURL), "server `URL` (CROUPIER_URL)")
	key := fs.String("key", e.envOr("CROUPIER_KEY", devAPIKey), "API `key` (CROUPIER_KEY)")
	data := fs.String("data", "", "read this local store `file` instead of a server")
	storeFile := fs.String("store", "", "the same as --data: a local store `file`")
	server := fs.String("server", "", "the same as --url: the server `URL`")
	state := fs.Bool("state", false, "audit the game's state against its log, not its draws")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this `duration`")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("verify takes no arguments, got %q; name the game with --game", strings.Join(rest, " "))
	}
	if *g == "" {
		return usagef("say which game to verify: --game ID or CROUPIER_GAME")
	}
	if *storeFile != "" {
		if *data != "" && *data != *storeFile {
			return usagef("--store and --data name the same thing; give one")
		}
		*data = *storeFile
	}
	if *server != "" {
		*url = *server
	}
	ctx, cancel := context.WithTimeout(e.ctx, *timeout)
	defer cancel()
	if *state {
		return e.verifyState(ctx, *g, *url, *key, *data, *asJSON)
	}

	var rep fair.Report
	if *data != "" {
		rep, err = verifyLocal(ctx, *data, *g)
	} else {
		var c *client.Client
		c, err = client.New(*url, *key, "")
		if err != nil {
			return usagef("%v", err)
		}
		rep, err = c.Verify(ctx, *g)
		p := &player{e: e, opts: playOpts{json: *asJSON}}
		err = p.report(err)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		fmt.Fprintln(e.stdout, reportText(*g, rep))
	}
	if !rep.OK() {
		return &silentError{code: exitRefused}
	}
	return nil
}

// verifyLocal audits a game straight from a store file.
func verifyLocal(ctx context.Context, path, g string) (fair.Report, error) {
	path = storePath(path)
	// A missing file must not look like an empty game (OpenReadOnly never
	// creates one), and an audit never writes.
	if _, err := os.Stat(path); err != nil {
		return fair.Report{}, fmt.Errorf("no store at %s: %w", path, err)
	}
	st, err := bolt.OpenReadOnly(path)
	if err != nil {
		return fair.Report{}, fmt.Errorf("cannot open the store (if croupier serve is using it, verify over HTTP with --url instead): %w", err)
	}
	defer st.Close()
	// Audit only reads; the clock is not consulted for the verdict.
	svc := rulesets.New(st, clock.Real{})
	rep, err := svc.Audit(ctx, g)
	if err != nil {
		return fair.Report{}, fmt.Errorf("auditing game %s: %w", g, err)
	}
	return rep, nil
}
