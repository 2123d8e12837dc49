package proving_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/game"
	"croupier/internal/jsondelta"
	"croupier/internal/proving"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"

	"pgregory.net/rapid"
)

// PastCommandsEnv sizes TestPastIsWhatWasSeen: how many commands each
// ruleset's game runs, N on every store or "bolt=N,dynamodb=M"
// (pastCommands by default).
const PastCommandsEnv = "CROUPIER_PAST_COMMANDS"

// pastCommands are the default sizes of a game, by store: 2,000 commands
// on bolt (10 to 35 s a ruleset on two loaded cores), 1,000 on DynamoDB
// Local, where each command's reads cost more (a turns game of 2,000
// commands takes over three minutes there).
var pastCommands = map[string]int{"bolt": 2000, "dynamodb": 1000}

// pastSeed is rapid's seed when -rapid.seed (or RAPID_SEED) names none: a
// fixed one, so the test plays the same games every run.
const pastSeed = 2026_12_02

// TestPastIsWhatWasSeen is acceptance 1 of issue 25 (RULINGS T6), for each
// ruleset on bolt and on DynamoDB Local: a game of thousands of commands
// (the proving ground's clients, through its store faults, retrying with
// their keys; 2,000 commands on bolt and 1,000 on DynamoDB Local unless
// CROUPIER_PAST_COMMANDS says otherwise), the clock moving on
// by drawn steps across the game's boundaries, the due work run on time or
// late; at 50 moments drawn among them, once the work due by then has run,
// every view a reader has (the game, the players, each player, and the
// ruleset's own: trades, matches, proposals, justice and the Judge; the
// Obelisk and its Gatherings; a turns game's status, rules, proposals and
// cases) is recorded live. At the end every view read through the past at
// each moment (game.Service.Past) is byte for byte the recorded one, and
// the log explains the store (Explain finds no difference).
//
// rapid draws each game's parameters (its players, how often the faults
// strike, the seed of its clients' choices and the plan of its clock) from
// a fixed seed (pastSeed, unless -rapid.seed says otherwise), one game a
// ruleset and store (-rapid.checks for more).
func TestPastIsWhatWasSeen(t *testing.T) {
	t.Parallel()
	fixRapid(t, map[string]string{"rapid.seed": fmt.Sprint(pastSeed), "rapid.checks": "1", "rapid.nofailfile": "true"})
	for name, open := range pastStores() {
		commands := pastCommandsFor(t, name)
		for _, rs := range proving.Rulesets {
			t.Run(name+"/"+rs, func(t *testing.T) {
				t.Parallel()
				game := 0
				rapid.Check(t, func(rt *rapid.T) {
					game++
					st := open(t)
					defer st.Close()
					pastIsWhatWasSeen(t, rt, st, rs, fmt.Sprintf("past-%s-%d", rs, game), commands)
				})
			})
		}
	}
}

// pastIsWhatWasSeen plays one timeline of ruleset rs on st and compares
// the past at each of its moments with what was seen then.
func pastIsWhatWasSeen(t *testing.T, rt *rapid.T, st store.Store, rs, g string, commands int) {
	ctx := context.Background()
	players := rapid.IntRange(3, 6).Draw(rt, "players")
	strike := rapid.Float64Range(0.5, 2).Draw(rt, "faults, times the proving ground's rates")
	seed := rapid.Uint64().Draw(rt, "seed")
	rates := short.Faults
	rates.Conflict *= strike
	rates.Throttle *= strike
	rates.Timeout *= strike
	rates.LostRead *= strike
	plan := rand.New(rand.NewPCG(seed, 25))
	type seen struct {
		at    time.Time
		views []byte
	}
	var record []seen
	start := time.Now()
	res, err := proving.Timeline{Store: st, Ruleset: rs, Game: g, Clients: players, Commands: commands, Moments: 50,
		Faults: rates, Seed: seed, Start: short.Start,
		Draw: func(_ string, n int) int { return plan.IntN(n) },
		Look: func(ctx context.Context, live *game.Service, at time.Time, ids []string) error {
			v, err := proving.Views(ctx, live, rs, g, ids)
			record = append(record, seen{at, v})
			return err
		},
	}.Run(ctx)
	if err != nil {
		rt.Fatalf("playing the game: %v", err)
	}
	played := time.Since(start)
	tot := res.Report.Totals()
	if tot.OK < commands/10 || tot.Refused == 0 || tot.Unacked == 0 {
		rt.Errorf("%d commands: %d acknowledged, %d refused, %d unanswered attempts: want at least a tenth acknowledged, and some of each", commands, tot.OK, tot.Refused, tot.Unacked)
	}
	if len(record) != 50 {
		rt.Fatalf("%d moments looked at, want 50", len(record))
	}
	distinct := map[string]bool{}
	for _, r := range record {
		distinct[string(r.views)] = true
	}
	if len(distinct) < 25 {
		rt.Errorf("only %d of the 50 moments saw a game different from the others': the game hardly changed", len(distinct))
	}
	start = time.Now()
	failed := 0
	for _, r := range record {
		past, asOf, err := res.Live.Past(ctx, g, game.Moment{At: r.at})
		if err != nil {
			rt.Fatalf("reading the past at %s: %v", r.at.Format(time.RFC3339Nano), err)
		}
		got, err := proving.Views(ctx, past, rs, g, res.Players)
		if err != nil {
			rt.Fatalf("reading the views at %s: %v", r.at.Format(time.RFC3339Nano), err)
		}
		if !bytes.Equal(got, r.views) {
			failed++
			if failed <= 3 {
				rt.Errorf("at %s (as of entry %s) the past differs from what was seen then, at %v:\n%s", r.at.Format(time.RFC3339Nano), asOf.Entry,
					jsondelta.Differences(r.views, got, 12), excerpt(r.views, got))
			}
		}
	}
	if failed > 0 {
		rt.Errorf("%d of the 50 moments read through the past differ from what was seen then", failed)
	}
	diffs, _, err := res.Live.Explain(ctx, g)
	if err != nil || len(diffs) > 0 {
		rt.Errorf("the log does not explain the state: %v %+v", err, diffs)
	}
	snap, err := proving.Read(ctx, st, g, res.Moments[len(res.Moments)-1])
	if err != nil {
		rt.Fatal(err)
	}
	scheduled := map[string]int{}
	for _, e := range snap.Entries {
		if e.Actor == game.SchedulerActor {
			scheduled[e.Command]++
		}
	}
	if scheduled["period-end"] < 2 {
		rt.Errorf("the game crossed %d period ends, want at least 2 (the past across boundaries)", scheduled["period-end"])
	}
	var cmds []string
	for _, name := range slices.Sorted(maps.Keys(res.Report.Commands)) {
		c := res.Report.Commands[name]
		cmds = append(cmds, fmt.Sprintf("%s %d/%d", name, c.OK, c.Refused))
	}
	var sched []string
	for _, name := range slices.Sorted(maps.Keys(scheduled)) {
		sched = append(sched, fmt.Sprintf("%s %d", name, scheduled[name]))
	}
	t.Logf("%s: commands acknowledged/refused: %s; scheduled work logged: %s", rs, strings.Join(cmds, ", "), strings.Join(sched, ", "))
	t.Logf("%s: %d commands (%d acknowledged, %d refused, %d unanswered attempts) by %d players with faults at %.2f times the proving ground's, in %s; the 50 moments read through the past in %s",
		rs, commands, tot.OK, tot.Refused, tot.Unacked, players, strike, played.Round(time.Second), time.Since(start).Round(time.Millisecond))
}

// pastCommandsFor is how many commands $CROUPIER_PAST_COMMANDS asks of
// each game on the store named.
func pastCommandsFor(t *testing.T, store string) int {
	v := os.Getenv(PastCommandsEnv)
	if v == "" {
		return pastCommands[store]
	}
	for _, part := range strings.Split(v, ",") {
		k, n, ok := strings.Cut(part, "=")
		if !ok {
			n, k = k, store
		}
		if k != store {
			continue
		}
		c, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || c < 50 {
			t.Fatalf("%s=%q: want a number of commands (at least 50), or store=commands,...", PastCommandsEnv, v)
		}
		return c
	}
	return pastCommands[store]
}

// excerpt is the first line where two indented JSON documents differ,
// with the lines around it.
func excerpt(want, got []byte) string {
	w, g := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		if i < len(w) && i < len(g) && bytes.Equal(w[i], g[i]) {
			continue
		}
		from := max(0, i-6)
		var b bytes.Buffer
		fmt.Fprintf(&b, "seen then (from line %d):\n%s\nthe past:\n%s", from+1, bytes.Join(w[from:min(len(w), i+6)], []byte("\n")), bytes.Join(g[from:min(len(g), i+6)], []byte("\n")))
		return b.String()
	}
	return ""
}

// pastStores opens a fresh store of each kind.
func pastStores() map[string]func(t *testing.T) store.Store {
	return map[string]func(t *testing.T) store.Store{
		"bolt": func(t *testing.T) store.Store {
			st, err := bolt.Open(filepath.Join(t.TempDir(), "past.db"))
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		"dynamodb": func(t *testing.T) store.Store {
			client, table := testenv.DynamoTable(t, "past")
			return dynamo.New(client, table)
		},
	}
}

// fixRapid sets rapid's flags the command line left unset, for the test
// and its parallel subtests, and restores them after.
func fixRapid(t *testing.T, values map[string]string) {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for name, v := range values {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("rapid has no flag %s", name)
		}
		if set[name] || name == "rapid.seed" && f.Value.String() != "0" {
			continue // the command line's (or RAPID_SEED's)
		}
		old := f.Value.String()
		if err := f.Value.Set(v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Value.Set(old) })
	}
}
