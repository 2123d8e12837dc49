package game_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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

// gameRulesImports are the imports of Gilded Hall rules packages that
// internal/game still has, by file, until Gilded Hall moves into its module
// (internal/rulesets/gildedhall, issue 12): the move must empty this list
// (the test then says which entries went stale), and a new import of one
// of these packages by any other file of the engine fails the test.
var gameRulesImports = map[string][]string{
	"croupier/internal/rules/cards":     {"admin.go", "economy.go", "match.go", "queries.go", "service.go"},
	"croupier/internal/rules/economy":   {"admin.go", "economy.go", "service.go", "trades.go"},
	"croupier/internal/rules/exoptosis": {"battle_roster.go", "match.go", "match_leave.go", "match_timeout.go", "match_view.go"},
}

// Acceptance 4 of issue 12, its first half: the engine imports no ruleset
// module (internal/rulesets/...: only the wiring does), and no Gilded Hall
// rules package beyond the allow-list above, which the module move empties.
func TestEngineImportsNoRulesetModule(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files := goFiles(t, root, "internal/game", false)
	if len(files) == 0 {
		t.Fatal("no files parsed in internal/game")
	}
	seen := map[string][]string{}
	for path, f := range files {
		if filepath.Dir(path) != "internal/game" {
			continue // a sub-package is its own package
		}
		name := filepath.Base(path)
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if p == "croupier/internal/rulesets" || strings.HasPrefix(p, "croupier/internal/rulesets/") {
				t.Errorf("%s imports the ruleset module %s: modules import the engine, never the other way", path, p)
			}
			if _, gh := gameRulesImports[p]; gh {
				seen[p] = append(seen[p], name)
				if !slices.Contains(gameRulesImports[p], name) {
					t.Errorf("%s imports the Gilded Hall rules package %s: that belongs in its module (internal/rulesets/gildedhall), not the engine", path, p)
				}
			}
		}
	}
	for p, allowed := range gameRulesImports {
		for _, name := range allowed {
			if !slices.Contains(seen[p], name) {
				t.Errorf("internal/game/%s no longer imports %s: remove it from gameRulesImports", name, p)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(root, "internal/game/catalogue.go")); err != nil {
		t.Fatalf("internal/game/catalogue.go: %v (wrong root?)", err)
	}
}
