package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"croupier/internal/lambdarun"
)

// MaxBootstrap is the largest bootstrap any function may have (issue 16,
// acceptance 6): what AWS runs, linux/arm64 with the production flags. A
// bigger bootstrap is a slower cold start and a costlier deployment; one
// that grows past it means something links more than the function uses
// (docs/operations.md "Bootstraps" says what was cut and how to look).
const MaxBootstrap = 10 << 20

// Every functions/<name> builds for AWS within MaxBootstrap, and none
// links a template executor (noTemplateExecutor).
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
		t.Logf("%-15s %6.2f MiB (%d bytes)", name, float64(fi.Size())/(1<<20), fi.Size())
		noTemplateExecutor(t, name, bin)
		if fi.Size() > MaxBootstrap {
			t.Errorf("functions/%s: bootstrap of %d bytes (%.2f MiB), at most %d (10 MiB)", name, fi.Size(), float64(fi.Size())/(1<<20), MaxBootstrap)
		}
	}
}

// noTemplateExecutor fails when bin links text/template's executor: its
// reflective method calls (reflect.Value.Method) make the linker keep
// every exported method of every type the binary puts in an interface,
// 2 MiB of the tracker when its pages were html/template. The tracker's
// templ runtime imports html/template (to convert to and from it) but
// calls nothing that executes a template, so the linker leaves the
// executor out; a bootstrap holding its functions' names means something
// now executes templates.
func noTemplateExecutor(t *testing.T, name, bin string) {
	t.Helper()
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	// Function names stay in the binary's line table, -s -w or not.
	if !bytes.Contains(b, []byte("runtime.gopanic")) {
		t.Fatalf("functions/%s: no function names found in the bootstrap: the check reads nothing", name)
	}
	if bytes.Contains(b, []byte("text/template.(*state).evalCall")) {
		t.Errorf("functions/%s links text/template's executor (text/template.(*state).evalCall)", name)
	}
}
