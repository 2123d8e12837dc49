package proving_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// The short form's size: by operation counts (never by time). Each round
// crosses Boundaries phase ends with Clients players sending 3*Ops commands
// each per boundary, and Runners runners at every boundary.
var short = proving.Config{
	Clients:    6,
	Runners:    5,
	Boundaries: 10,
	Ops:        5,
	Jitter:     64 * time.Millisecond,
	Faults:     faulty.Rates{Conflict: 0.04, Throttle: 0.03, Timeout: 0.04, LostRead: 0.03},
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

// TestProvingGround is acceptance 2 of issue 11: random command streams
// from many clients plus 4 concurrent RunDue runners at and around every
// phase boundary, with store faults injected, on bolt and DynamoDB Local;
// every invariant holds after every boundary (0 violations).
func TestProvingGround(t *testing.T) {
	t.Parallel()
	soak := soakDuration(t)
	for name, open := range stores() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			total := &proving.Report{Name: name}
			deadline := time.Now().Add(soak)
			for round := 1; ; round++ {
				cfg := short
				cfg.Name = name
				cfg.Store, cfg.Outbox = open(t)
				cfg.Discord = announcetest.New(t, proving.DiscordToken)
				cfg.Seed = uint64(time.Now().UnixNano())
				cfg.Game = fmt.Sprintf("proving-%d", round)
				rep, err := proving.Run(context.Background(), cfg)
				if err != nil {
					t.Fatalf("round %d (seed %d): %v", round, cfg.Seed, err)
				}
				cfg.Store.Close()
				if len(rep.Violations) > 0 {
					t.Errorf("round %d (seed %d): %d violations, listed in the report below", round, cfg.Seed, len(rep.Violations))
				}
				total.Add(rep)
				if soak == 0 || time.Now().After(deadline) || t.Failed() {
					break
				}
			}
			t.Logf("\n%s", total)
			assertExercised(t, total)
		})
	}
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
	for _, k := range faulty.Kinds {
		if r.Faults[k] == 0 {
			t.Errorf("no %s fault was injected", k)
		}
	}
	tot := r.Totals()
	if tot.OK == 0 || tot.Refused == 0 || tot.Unacked == 0 {
		t.Errorf("commands: %d ok, %d refused, %d unacknowledged: each should be > 0", tot.OK, tot.Refused, tot.Unacked)
	}
	if r.PeriodEnds < short.Boundaries || r.Boundaries < short.Boundaries {
		t.Errorf("%d boundaries crossed, %d period ends logged; want at least %d", r.Boundaries, r.PeriodEnds, short.Boundaries)
	}
	if r.Checks == 0 || r.Announced == 0 {
		t.Errorf("%d invariant checks, %d announcements checked", r.Checks, r.Announced)
	}
}
