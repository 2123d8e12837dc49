// Package lambdadue is the handler of every scheduled function (phase-end,
// timeouts, tally, judge-election): they differ only in their schedule. Each
// runs all due work (game.Service.RunDue): every piece is applied as of its
// own due moment and is idempotent (RULINGS T4), so a late, retried or
// duplicated invocation, or two functions running at once, give the same
// single result. After every run it reports how overdue the oldest due work
// still is (OverdueMetric), which template.yaml's OverdueWorkAlarm watches.
package lambdadue

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"croupier/internal/config"
	"croupier/internal/game"
	"croupier/internal/store"
)

// Main is the whole main function of the scheduled function called name:
// it builds the service from the environment (config.FromEnv) and serves
// Handler to Lambda. A bad configuration ends the process (config.Fatal), so
// the failure shows in the function's log at its first invocation.
func Main(name string) {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		config.Fatal(err)
	}
	log := cfg.Logger(os.Stderr)
	svc, _, err := cfg.Service(context.Background(), os.Getenv, log)
	if err != nil {
		config.Fatal(err)
	}
	// Lambda sends stdout to the function's log group, where CloudWatch
	// Logs extracts the metric line.
	lambda.Start(Handler(name, svc, log, Metrics{Out: os.Stdout, Table: cfg.Table}))
}

// Trigger is what a payload may say about why we run; it is only logged.
type Trigger struct {
	// The Input template.yaml gives the Scheduler.
	Schedule      string `json:"schedule"`
	ScheduledTime string `json:"scheduled_time"`
	Attempt       string `json:"attempt"`
	// An EventBridge scheduled event (sam local generate-event cloudwatch scheduled-event).
	DetailType string `json:"detail-type"`
	Time       string `json:"time"`
}

// Handler adapts RunDue to the Lambda signature. Work that failed (e.g.
// Discord could not be read) stays due; the invocation then fails, so
// Lambda's asynchronous retries (template.yaml EventInvokeConfig) run it
// again and a last failure lands in the dead-letter queue. Whatever the
// outcome, the run then writes the overdue-work metric line to m.
func Handler(name string, svc *game.Service, log *slog.Logger, m Metrics) func(context.Context, json.RawMessage) (game.DueReport, error) {
	return func(ctx context.Context, payload json.RawMessage) (game.DueReport, error) {
		var t Trigger
		if err := json.Unmarshal(payload, &t); err != nil {
			log.WarnContext(ctx, "payload not recognised; running due work anyway", "err", err.Error())
		}
		log.InfoContext(ctx, name+" triggered", "schedule", t.Schedule, "scheduled_time", t.ScheduledTime,
			"attempt", t.Attempt, "detail_type", t.DetailType, "event_time", t.Time)
		start := svc.Clock().Now()
		rep, err := svc.RunDue(ctx)
		reportOverdue(ctx, name, svc.Store(), start, log, m)
		if err != nil {
			log.ErrorContext(ctx, "due work failed", "err", err.Error(), "transitions", rep.Transitions, "done", rep.Done)
			return rep, fmt.Errorf("%s: %w", name, err)
		}
		if len(rep.Failed) > 0 {
			log.ErrorContext(ctx, "some due work failed; it stays due", "failed", rep.Failed, "transitions", rep.Transitions, "done", rep.Done)
			return rep, fmt.Errorf("%s: %d piece(s) of due work failed and stay due: %v", name, len(rep.Failed), rep.Failed)
		}
		log.InfoContext(ctx, "due work done", "transitions", rep.Transitions, "expired", rep.Expired, "done", rep.Done)
		return rep, nil
	}
}

// The overdue-work metric, written after every run as one line of
// CloudWatch Embedded Metric Format: CloudWatch Logs turns the line into a
// metric, with no API call and no permission. template.yaml's
// OverdueWorkAlarm names the same namespace, metric and dimension
// (internal/e2e TestTemplate checks it).
const (
	// MetricNamespace is Croupier's CloudWatch namespace.
	MetricNamespace = "Croupier"
	// OverdueMetric is how long, in seconds, the oldest piece of due work
	// had been due when a run began and was still due after it (0: none).
	OverdueMetric = "OverdueWorkAgeSeconds"
	// TableDimension is the metric's one dimension, the table's name: two
	// stacks in one account (staging, production) keep apart.
	TableDimension = "Table"
	// OverdueGrace: work due less than this before the run began is not
	// counted. The every-minute schedules take such work within a minute,
	// and the due index, a GSI read eventually consistent, may still list
	// an item the run has just done.
	OverdueGrace = time.Minute
)

// Metrics is where the metric line goes (stdout on Lambda) and the table it
// is about.
type Metrics struct {
	Out   io.Writer
	Table string
}

// reportOverdue reads the oldest item of the due index due at least
// OverdueGrace before start and writes the metric line. A failed read is
// logged and writes no line: the alarm treats missing data as breaching.
func reportOverdue(ctx context.Context, name string, st store.Store, start time.Time, log *slog.Logger, m Metrics) {
	items, err := st.QueryDue(ctx, start.Add(-OverdueGrace), 1)
	if err != nil {
		log.ErrorContext(ctx, "reading overdue work failed; no overdue metric this run", "err", err.Error())
		return
	}
	var oldest *store.Item
	if len(items) > 0 {
		oldest = &items[0]
		log.WarnContext(ctx, "due work overdue", "key", oldest.Key.String(), "due", oldest.Due,
			"overdue_seconds", int64(start.Sub(oldest.Due)/time.Second))
	}
	line, err := OverdueLine(name, m.Table, start, oldest)
	if err == nil {
		_, err = m.Out.Write(line)
	}
	if err != nil {
		log.ErrorContext(ctx, "writing the overdue metric failed", "err", err.Error())
	}
}

// OverdueLine is the EMF line of one run that began at start: the age of
// oldest (nil: nothing overdue, age 0) in whole seconds, for table, and, as
// plain properties a Logs Insights query can read, the function and the
// overdue item.
func OverdueLine(function, table string, start time.Time, oldest *store.Item) ([]byte, error) {
	line := map[string]any{
		"_aws": map[string]any{
			"Timestamp": start.UnixMilli(),
			"CloudWatchMetrics": []any{map[string]any{
				"Namespace":  MetricNamespace,
				"Dimensions": [][]string{{TableDimension}},
				"Metrics":    []any{map[string]string{"Name": OverdueMetric, "Unit": "Seconds"}},
			}},
		},
		TableDimension: table,
		OverdueMetric:  int64(0),
		"function":     function,
	}
	if oldest != nil {
		line[OverdueMetric] = int64(max(start.Sub(oldest.Due), 0) / time.Second)
		line["overdue_item"] = oldest.Key.String()
		line["overdue_since"] = oldest.Due.UTC().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(line)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
