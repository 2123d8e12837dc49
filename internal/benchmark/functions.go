package benchmark

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"croupier/internal/lambdarun"
)

// Function is one Lambda's deployment measurements.
type Function struct {
	Name string
	// BootstrapBytes is the size of the production build (linux/arm64).
	BootstrapBytes int64
	// InitDurations are the emulator's Init Durations over several cold
	// starts of the host build.
	InitDurations []time.Duration
	Err           error
}

// FunctionsConfig says where things are.
type FunctionsConfig struct {
	Root     string // module root
	RIE      string // aws-lambda-rie path
	Env      []string
	ColdRuns int
	// Event picks the payload for a function's cold starts.
	Event func(name string) ([]byte, error)
}

// MeasureFunctions builds every functions/<name> for linux/arm64 (size) and
// for the host, cold-starts the host build ColdRuns times under the emulator,
// and records the Init Duration of each start.
func MeasureFunctions(ctx context.Context, cfg FunctionsConfig) ([]Function, error) {
	entries, err := os.ReadDir(filepath.Join(cfg.Root, "functions"))
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "croupier-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []Function
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		f := Function{Name: e.Name()}
		out = append(out, f)
		fp := &out[len(out)-1]
		arm, err := lambdarun.BuildFor(ctx, cfg.Root, f.Name, filepath.Join(dir, "arm64"), "linux", "arm64")
		if err != nil {
			fp.Err = err
			continue
		}
		if fi, err := os.Stat(arm); err == nil {
			fp.BootstrapBytes = fi.Size()
		}
		host, err := lambdarun.Build(ctx, cfg.Root, f.Name, filepath.Join(dir, "host"))
		if err != nil {
			fp.Err = err
			continue
		}
		event, err := cfg.Event(f.Name)
		if err != nil {
			fp.Err = err
			continue
		}
		for i := 0; i < max(1, cfg.ColdRuns); i++ {
			d, err := coldStart(ctx, cfg.RIE, host, cfg.Env, event)
			if err != nil {
				fp.Err = err
				break
			}
			fp.InitDurations = append(fp.InitDurations, d)
		}
	}
	return out, nil
}

func coldStart(ctx context.Context, rie, bootstrap string, env []string, event []byte) (time.Duration, error) {
	em, err := lambdarun.Start(rie, bootstrap, env)
	if err != nil {
		return 0, err
	}
	defer em.Stop()
	if _, err := em.Invoke(ctx, event); err != nil {
		return 0, err
	}
	// The REPORT line may trail the response by a moment.
	for i := 0; i < 50; i++ {
		if d, ok := em.InitDuration(); ok {
			return d, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, fmt.Errorf("the emulator reported no Init Duration:\n%s", em.Output())
}

// Print writes the benchmark tables: the HTTP API's commands, the reads of
// the past (Surface "past"), the Discord handler's interactions (Surface
// "discord"), then the functions.
func Print(w io.Writer, rows []Row, fns []Function) {
	var api, dc, past []Row
	for _, r := range rows {
		switch r.Surface {
		case SurfaceDiscord:
			dc = append(dc, r)
		case SurfacePast:
			past = append(past, r)
		default:
			api = append(api, r)
		}
	}
	fmt.Fprintln(w, "Commands through the HTTP API (sequential requests over loopback; units are AWS-priced per command)")
	printRows(w, api)
	if len(past) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Reads of the past through the HTTP API (?at=, sequential over loopback; units are AWS-priced per read, strongly consistent)")
		printRows(w, past)
	}
	if len(dc) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Discord interactions handler (signed interactions over loopback, request to reply; Discord allows 3 s)")
		printRows(w, dc)
		worst := map[string]time.Duration{}
		for _, r := range dc {
			worst[r.Backend] = max(worst[r.Backend], r.P99)
		}
		for _, b := range slices.Sorted(maps.Keys(worst)) {
			fmt.Fprintf(w, "  %s: slowest p99 %s, %.1f%% of the 3 s limit\n", b, ms(worst[b]), 100*worst[b].Seconds()/3)
		}
	}
	if len(fns) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Lambda functions (bootstrap: linux/arm64, lambdarun.BuildFlags; Init Duration: host build under aws-lambda-rie)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "function\tbootstrap\tcold starts\tinit p50\tinit max\t")
	for _, f := range fns {
		if f.Err != nil {
			fmt.Fprintf(tw, "%s\t%s\tfailed: %s\t\t\t\n", f.Name, mib(f.BootstrapBytes), firstLine(f.Err.Error()))
			continue
		}
		d := slices.Clone(f.InitDurations)
		slices.Sort(d)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t\n", f.Name, mib(f.BootstrapBytes), len(d), ms(quantile(d, 0.5)), ms(d[len(d)-1]))
	}
	tw.Flush()
}

func printRows(w io.Writer, rows []Row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "store\tcommand\tn\tp50\tp99\trequests\titems read\titems written\tRCU\tWCU\treported CU\t")
	for _, r := range rows {
		reported := "-"
		if r.ReportedUnits > 0 {
			reported = fmt.Sprintf("%.2f", r.ReportedUnits)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t\n", r.Backend, r.Command, r.N,
			ms(r.P50), ms(r.P99), r.Requests, r.ItemsRead, r.ItemsWritten, r.ReadUnits, r.WriteUnits, reported)
	}
	tw.Flush()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
