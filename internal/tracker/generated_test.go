package tracker

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"github.com/a-h/templ/generator"
	parser "github.com/a-h/templ/parser/v2"
)

// Every *.templ compiles to the committed *_templ.go beside it, as `go
// generate ./internal/tracker` writes it with the templ version go.mod
// requires: a template edited without regenerating fails here.
func TestTemplatesGenerated(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates: %v", err)
	}
	for _, f := range files {
		tf, err := parser.Parse(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var b bytes.Buffer
		if _, err := generator.Generate(tf, &b, generator.WithVersion(templ.Version()), generator.WithFileName(f)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := format.Source(b.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(f, ".templ") + "_templ.go"
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./internal/tracker)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./internal/tracker", name)
		}
	}
}
