package game_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"croupier/internal/testenv"
)

// goFiles parses every non-test Go file under dir (imports only unless
// full), by its path relative to the repository root.
func goFiles(t *testing.T, root, dir string, full bool) map[string]*ast.File {
	t.Helper()
	mode := parser.ImportsOnly
	if full {
		mode = parser.SkipObjectResolution
	}
	out := map[string]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, mode)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Acceptance 4 of issue 12, its second half: nothing registers itself from
// an init() (DESIGN "Rulesets as modules": modules and their commands, due
// kinds, hooks, chat commands and status codes are values listed once, in
// the nakama-common style). No non-test file under internal/, cmd/ or
// functions/ has a func init() at all, not even for a constant table: a
// table is a package variable's literal (or a function building it),
// which reads as what it is. Tests may still use init() for test-only
// fixtures.
func TestNoInitFunctions(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range []string{"internal", "cmd", "functions"} {
		for path, f := range goFiles(t, root, dir, true) {
			n++
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
					t.Errorf("%s has a func init(): list what it registers where its package assembles its lists instead", path)
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("parsed only %d files: is the repository root %s right?", n, root)
	}
}

// The Gilded Hall rules packages: the engine must not depend on them.
var gildedHallRules = []string{"croupier/internal/rules/cards", "croupier/internal/rules/economy", "croupier/internal/rules/exoptosis"}

// Acceptance 4 of issue 12, its first half, as go list sees it: the engine
// depends, directly or not, on no ruleset module (internal/rulesets/...:
// only the wiring imports them), on no shared institution
// (internal/institutions/...: components the modules include, over the
// engine's module API) and on no Gilded Hall rules package (they are the
// gildedhall module's).
func TestEngineImportsNoRulesetModule(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	deps := goList(t, root, "{{join .Deps \"\\n\"}}", "./internal/game")
	if !slices.Contains(deps, "croupier/internal/store") {
		t.Fatalf("go list found no dependency on the store among %v: is the query right?", deps)
	}
	for _, p := range deps {
		if p == "croupier/internal/rulesets" || strings.HasPrefix(p, "croupier/internal/rulesets/") {
			t.Errorf("internal/game depends on the ruleset module %s: modules import the engine, never the other way", p)
		}
		if strings.HasPrefix(p, "croupier/internal/institutions/") {
			t.Errorf("internal/game depends on the institution %s: institutions import the engine, never the other way", p)
		}
		if slices.Contains(gildedHallRules, p) {
			t.Errorf("internal/game depends on the Gilded Hall rules package %s: that belongs to its module (internal/rulesets/gildedhall)", p)
		}
	}
	// And the module does use them: the check is about where they are used.
	mod := goList(t, root, "{{join .Imports \"\\n\"}}", "./internal/rulesets/gildedhall")
	for _, p := range gildedHallRules {
		if !slices.Contains(mod, p) {
			t.Errorf("internal/rulesets/gildedhall does not import %s: where did Gilded Hall's rules go?", p)
		}
	}
}

// goList runs go list -f format on pkg in root and returns its lines.
func goList(t *testing.T, root, format, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", format, pkg)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}
