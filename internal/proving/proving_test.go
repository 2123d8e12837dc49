package proving_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/announce/announcetest"
	"croupier/internal/proving"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/store/faulty"
	"croupier/internal/testenv"
)

// SoakEnv, when set to a duration (make soak: SOAK=30m), makes
// TestProvingGround run round after round on each store until that much
// time has passed, instead of the short form's one round.
const SoakEnv = "CROUPIER_SOAK"

// RoundsEnv, when set to a number N (acceptance 4 of issue 22: 20 rounds
// on bolt, 5 on DynamoDB Local), makes TestProvingGround run N rounds on
// each store (at least; a soak goes on until its duration has passed).
// "bolt=20,dynamodb=5" sets them per store.
const RoundsEnv = "CROUPIER_PROVING_ROUNDS"

// SeedEnv names a seed for every round's command streams (default: the clock).
const SeedEnv = "CROUPIER_PROVING_SEED"

// The short form's size: by operation counts (never by time). Each round
// crosses Boundaries phase ends with Clients players sending 3*Ops commands
// each per boundary, and Runners runners at every boundary.
var short = proving.Config{
	Clients:    4,
	MaxLag:     50 * time.Millisecond,
	Runners:    5,
	Latency:    10 * time.Millisecond,
	Boundaries: 6,
	Ops:        4,
	// A Saturday: the 6 boundaries are a turns' interim start, a phase
	// end, turn 1's beginning and middle, a phase end and turn 1's end.
	Start:  time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC),
	Jitter: 64 * time.Millisecond,
	Faults: faulty.Rates{Conflict: 0.04, Throttle: 0.03, Timeout: 0.04, LostRead: 0.03},
}

// stores opens a fresh store of each kind and the outbox that feeds its
// announcer as production does: the bolt feed's tail, the table's stream.
func stores() map[string]func(t *testing.T) (store.Store, proving.Outbox) {
	return map[string]func(t *testing.T) (store.Store, proving.Outbox){
		"bolt": func(t *testing.T) (store.Store, proving.Outbox) {
			st, err := bolt.Open(filepath.Join(t.TempDir(), "proving.db"))
			if err != nil {
				t.Fatal(err)
			}
			return st, proving.TailOutbox(st)
		},
		"dynamodb": func(t *testing.T) (store.Store, proving.Outbox) {
			client, table := testenv.DynamoTable(t, "proving")
			ob, err := proving.StreamOutbox(context.Background(), client, table)
			if err != nil {
				t.Fatal(err)
			}
			return dynamo.New(client, table), ob
		},
	}
}

// TestProvingGround is acceptance 2 of issue 11 and 4 and 6 of issue 22:
// games of every ruleset at once in one store, random command streams from
// many clients whose clocks lag the scheduler's by up to 50 ms, 5
// concurrent RunDue runners at and around every boundary of every
// ruleset's calendar, with store faults injected, on bolt and DynamoDB
// Local; every invariant holds after every boundary (0 violations).
func TestProvingGround(t *testing.T) {
	t.Parallel()
	soak := soakDuration(t)
	for name, open := range stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rounds := roundsFor(t, name)
			totals := map[string]*proving.Report{}
			deadline := time.Now().Add(soak)
			lost := 0 // rounds in which an acknowledged vote was not counted
			for round := 1; ; round++ {
				cfg := short
				cfg.Name = name
				cfg.Store, cfg.Outbox = open(t)
				cfg.Discord = announcetest.New(t, proving.DiscordToken)
				cfg.Seed = uint64(time.Now().UnixNano())
				if v, err := strconv.ParseUint(os.Getenv(SeedEnv), 10, 64); err == nil {
					// A failing round's seed, to run its streams again (its
					// interleaving still varies: the clients are concurrent).
					cfg.Seed = v
				}
				cfg.Game = fmt.Sprintf("proving-%d", round)
				reps, err := proving.Run(context.Background(), cfg)
				if err != nil {
					t.Fatalf("round %d (seed %d): %v", round, cfg.Seed, err)
				}
				cfg.Store.Close()
				counted := 0
				for _, rep := range reps {
					if len(rep.Violations) > 0 {
						t.Errorf("round %d (seed %d), %s: %d violations, listed in the report below", round, cfg.Seed, rep.Name, len(rep.Violations))
					}
					for _, v := range rep.Violations {
						if strings.Contains(v, "["+proving.InvCounted+"]") {
							counted++
						}
					}
					if totals[rep.Name] == nil {
						totals[rep.Name] = &proving.Report{Name: rep.Name}
					}
					totals[rep.Name].Add(rep)
				}
				if counted > 0 {
					lost++
				}
				if round >= rounds && (soak == 0 || time.Now().After(deadline)) {
					t.Logf("%d rounds; %d of them lost acknowledged votes (RULINGS T5)", round, lost)
					break
				}
			}
			for _, k := range slices.Sorted(maps.Keys(totals)) {
				t.Logf("\n%s", totals[k])
				assertExercised(t, totals[k])
			}
			if len(totals) != len(proving.Rulesets) {
				t.Errorf("reports for %d rulesets, want %d", len(totals), len(proving.Rulesets))
			}
		})
	}
}

// roundsFor is how many rounds $CROUPIER_PROVING_ROUNDS asks of the store
// named (1 by default).
func roundsFor(t *testing.T, store string) int {
	v := os.Getenv(RoundsEnv)
	if v == "" {
		return 1
	}
	for _, part := range strings.Split(v, ",") {
		k, n, ok := strings.Cut(part, "=")
		if !ok {
			n, k = k, store
		}
		if k != store {
			continue
		}
		r, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || r < 1 {
			t.Fatalf("%s=%q: want a number of rounds, or store=rounds,...", RoundsEnv, v)
		}
		return r
	}
	return 1
}

// soakDuration is $CROUPIER_SOAK, or 0 for the short form.
func soakDuration(t *testing.T) time.Duration {
	v := os.Getenv(SoakEnv)
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("%s=%q is not a positive duration such as 30m", SoakEnv, v)
	}
	return d
}

// assertExercised fails a run that did not exercise what it claims to:
// faults of every kind, the runners, acknowledged and refused commands.
func assertExercised(t *testing.T, r *proving.Report) {
	t.Helper()
	// Faults of every kind, into the game's clients' calls or the shared
	// ones (a short round's clients of one game may see no fault of a kind).
	for _, k := range faulty.Kinds {
		if r.Faults[k]+r.SharedFaults[k] == 0 {
			t.Errorf("%s: no %s fault was injected", r.Name, k)
		}
	}
	tot := r.Totals()
	if tot.OK == 0 || tot.Refused == 0 || tot.Unacked == 0 {
		t.Errorf("%s: commands: %d ok, %d refused, %d unacknowledged: each should be > 0", r.Name, tot.OK, tot.Refused, tot.Unacked)
	}
	// Each ruleset's own invariants were checked, on commands that ran.
	want := map[string][]string{
		"gilded-hall": {proving.InvConservation, proving.InvNames, proving.InvExplained},
		"obelisk":     {proving.InvComponents, proving.InvGatherings, proving.InvNames, proving.InvExplained},
		"turns":       {proving.InvCounted, proving.InvPoints, proving.InvNames, proving.InvExplained},
	}
	for rs, invs := range want {
		if !strings.HasSuffix(r.Name, ", "+rs) {
			continue
		}
		for _, inv := range invs {
			if r.Counted[inv] == 0 {
				t.Errorf("%s: the invariant %s made no check", r.Name, inv)
			}
		}
	}
	if r.PeriodEnds < r.Rounds || r.Boundaries < r.Rounds {
		t.Errorf("%s: %d boundaries crossed, %d period ends logged in %d rounds; want at least one a round", r.Name, r.Boundaries, r.PeriodEnds, r.Rounds)
	}
	if r.Checks == 0 || r.Announced == 0 {
		t.Errorf("%d invariant checks, %d announcements checked", r.Checks, r.Announced)
	}
}
