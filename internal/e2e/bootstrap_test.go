package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"croupier/internal/lambdarun"
)

// MaxBootstrap is the largest bootstrap any function may have (issue 16,
// acceptance 6): what AWS runs, linux/arm64 with the production flags. A
// bigger bootstrap is a slower cold start and a costlier deployment; one
// that grows past it means something links more than the function uses
// (docs/operations.md "Bootstraps" says what was cut and how to look).
const MaxBootstrap = 10 << 20

// Every functions/<name> builds for AWS within MaxBootstrap.
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
		if fi.Size() > MaxBootstrap {
			t.Errorf("functions/%s: bootstrap of %d bytes (%.2f MiB), at most %d (10 MiB)", name, fi.Size(), float64(fi.Size())/(1<<20), MaxBootstrap)
		}
	}
}

// No function links text/template (html/template is built on it): its
// reflective method calls (reflect.Value.Method) make the linker keep every
// exported method of every type the binary puts in an interface, 2 MiB of
// the tracker when its pages were templates.
func TestBootstrapsLinkNoTemplates(t *testing.T) {
	root := repoRoot(t)
	cmd := exec.Command("go", "list", "-deps", "-tags", "lambda.norpc,nethttpomithttp2", "./functions/...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "text/template" || pkg == "html/template" {
			t.Errorf("a function links %s (go list -deps ./functions/...)", pkg)
		}
	}
}
