package lambdadue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"croupier/internal/clock"
	"croupier/internal/game"
	"croupier/internal/lambdadue"
	"croupier/internal/rulesets"
	"croupier/internal/store"
	"croupier/internal/store/bolt"
	"croupier/internal/store/dynamo"
	"croupier/internal/testenv"
)

// failingCommits is a store whose commits fail while down is set, as when
// DynamoDB is unavailable: the period end cannot be written and stays due.
type failingCommits struct {
	store.Store
	down atomic.Bool
}

func (f *failingCommits) Commit(ctx context.Context, tx store.Tx) error {
	if f.down.Load() {
		return errors.New("injected: storage unavailable")
	}
	return f.Store.Commit(ctx, tx)
}

// emf is what CloudWatch reads from an Embedded Metric Format line.
type emf struct {
	AWS struct {
		Timestamp         int64
		CloudWatchMetrics []struct {
			Namespace  string
			Dimensions [][]string
			Metrics    []struct{ Name, Unit string }
		}
	} `json:"_aws"`
}

// parseEMF checks line is one EMF document CloudWatch accepts for the
// overdue metric (namespace, dimension and metric declared, each declared
// dimension and metric present as a member of the right type) and returns
// the metric's value and the whole document.
func parseEMF(t *testing.T, line []byte) (float64, map[string]any) {
	t.Helper()
	if n := bytes.Count(line, []byte("\n")); n != 1 || line[len(line)-1] != '\n' {
		t.Fatalf("metric output is not exactly one line: %q", line)
	}
	var doc emf
	var all map[string]any
	if err := json.Unmarshal(line, &doc); err != nil {
		t.Fatalf("metric line is not JSON: %v: %s", err, line)
	}
	if err := json.Unmarshal(line, &all); err != nil {
		t.Fatal(err)
	}
	if len(doc.AWS.CloudWatchMetrics) != 1 {
		t.Fatalf("_aws.CloudWatchMetrics has %d directives, want 1: %s", len(doc.AWS.CloudWatchMetrics), line)
	}
	if doc.AWS.Timestamp <= 0 {
		t.Errorf("_aws.Timestamp %d is not epoch milliseconds", doc.AWS.Timestamp)
	}
	d := doc.AWS.CloudWatchMetrics[0]
	if d.Namespace != lambdadue.MetricNamespace {
		t.Errorf("namespace %q, want %q", d.Namespace, lambdadue.MetricNamespace)
	}
	if len(d.Dimensions) != 1 || len(d.Dimensions[0]) != 1 || d.Dimensions[0][0] != lambdadue.TableDimension {
		t.Errorf("dimensions %v, want [[%s]]", d.Dimensions, lambdadue.TableDimension)
	}
	for _, set := range d.Dimensions {
		for _, dim := range set {
			if _, ok := all[dim].(string); !ok {
				t.Errorf("dimension %q has no string member: %s", dim, line)
			}
		}
	}
	if len(d.Metrics) != 1 || d.Metrics[0].Name != lambdadue.OverdueMetric || d.Metrics[0].Unit != "Seconds" {
		t.Fatalf("metrics %+v, want one %s in Seconds", d.Metrics, lambdadue.OverdueMetric)
	}
	v, ok := all[lambdadue.OverdueMetric].(float64)
	if !ok {
		t.Fatalf("metric %s has no numeric member: %s", lambdadue.OverdueMetric, line)
	}
	return v, all
}

// TestOverdueMetric runs the scheduled handler around a period end whose
// commit fails, on bolt and on DynamoDB Local (the due index is a GSI
// there), as an operator watching the alarm would see it: nothing
// overdue before the end; within the grace after it, still nothing; ten
// minutes late with the store down, the run fails and reports 600 s and the
// item; once the store is back, the run ends the period and reports 0.
func TestOverdueMetric(t *testing.T) {
	t.Run("bolt", func(t *testing.T) {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		overdueScenario(t, b)
	})
	t.Run("dynamodb", func(t *testing.T) {
		client, table := testenv.DynamoTable(t, "lambdadue")
		overdueScenario(t, dynamo.New(client, table))
	})
}

func overdueScenario(t *testing.T, base store.Store) {
	ctx := context.Background()
	st := &failingCommits{Store: base}
	// Monday 2026-11-30 12:00 UTC, in Phase I.
	clk := clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	svc := rulesets.New(st, clk, game.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if _, err := svc.Create(ctx, game.Request{Actor: "discord:1", Key: "create"}, game.CreateGame{ID: "hall"}); err != nil {
		t.Fatal(err)
	}
	g, err := svc.Game(ctx, "hall")
	if err != nil {
		t.Fatal(err)
	}
	end := g.Period.End
	var out bytes.Buffer
	run := lambdadue.Handler("tally", svc, slog.New(slog.NewTextHandler(io.Discard, nil)), lambdadue.Metrics{Out: &out, Table: "croupier-GameTable-X"})

	for _, c := range []struct {
		name    string
		at      time.Time
		down    bool
		wantErr bool
		want    float64
		item    string
	}{
		{"before the period end", end.Add(-time.Hour), false, false, 0, ""},
		{"within the grace, store down", end.Add(lambdadue.OverdueGrace / 2), true, true, 0, ""},
		{"ten minutes late, store down", end.Add(10 * time.Minute), true, true, 600, "GAME#hall/META"},
		{"store back", end.Add(11 * time.Minute), false, false, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk.Set(c.at)
			st.down.Store(c.down)
			out.Reset()
			_, err := run(ctx, json.RawMessage(`{"schedule":"tally"}`))
			if (err != nil) != c.wantErr {
				t.Fatalf("run error %v, want error: %v", err, c.wantErr)
			}
			got, doc := parseEMF(t, out.Bytes())
			if got != c.want {
				t.Errorf("%s = %v, want %v", lambdadue.OverdueMetric, got, c.want)
			}
			if doc[lambdadue.TableDimension] != "croupier-GameTable-X" || doc["function"] != "tally" {
				t.Errorf("table %v, function %v; want croupier-GameTable-X, tally", doc[lambdadue.TableDimension], doc["function"])
			}
			if ts := doc["_aws"].(map[string]any)["Timestamp"].(float64); int64(ts) != c.at.UnixMilli() {
				t.Errorf("Timestamp %v, want the run's start %d", ts, c.at.UnixMilli())
			}
			if item, _ := doc["overdue_item"].(string); item != c.item {
				t.Errorf("overdue_item %q, want %q", item, c.item)
			}
			if c.item != "" && doc["overdue_since"] != end.Format(time.RFC3339Nano) {
				t.Errorf("overdue_since %v, want the period end %s", doc["overdue_since"], end.Format(time.RFC3339Nano))
			}
		})
	}
	if g, err = svc.Game(ctx, "hall"); err != nil || !g.Period.Start.Equal(end) {
		t.Errorf("after the store came back the game is in period %+v (err %v), want the one starting %s", g.Period, err, end)
	}
}

// TestOverdueMetricWithoutIndex: a failed read of the due index writes no
// line (the alarm treats missing data as breaching) rather than a 0 that
// would hide the outage.
func TestOverdueMetricWithoutIndex(t *testing.T) {
	ctx := context.Background()
	b, err := bolt.Open(filepath.Join(t.TempDir(), "croupier.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	svc := rulesets.New(noIndex{b}, clock.NewManual(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)))
	var out bytes.Buffer
	run := lambdadue.Handler("timeouts", svc, slog.New(slog.NewTextHandler(io.Discard, nil)), lambdadue.Metrics{Out: &out, Table: "t"})
	if _, err := run(ctx, json.RawMessage(`{}`)); err == nil {
		t.Error("run succeeded without the due index")
	}
	if out.Len() != 0 {
		t.Errorf("wrote a metric line without reading the index: %s", out.Bytes())
	}
}

type noIndex struct{ store.Store }

func (noIndex) QueryDue(context.Context, time.Time, int) ([]store.Item, error) {
	return nil, errors.New("injected: due index unavailable")
}
