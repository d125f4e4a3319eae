package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// repoGoFiles parses every non-test Go file of the repository (skipping
// hidden folders and testdata) and calls fn with its path relative to the
// root.
func repoGoFiles(t *testing.T, fset *token.FileSet, fn func(rel string, f *ast.File)) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fn(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Package-level variables run their initialisers in every process that
// links the package, whatever command it runs, so none may compile a
// regular expression or parse a template there: use New, or sync.OnceValue
// around the work. cmd/perf is a separate developer tool, not linked into
// bench.
func TestNoStartupCompiles(t *testing.T) {
	fset := token.NewFileSet()
	seen := 0
	repoGoFiles(t, fset, func(rel string, f *ast.File) {
		seen++
		if strings.HasPrefix(rel, "cmd/perf/") {
			return
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					ast.Inspect(v, func(n ast.Node) bool {
						if _, lazy := n.(*ast.FuncLit); lazy {
							return false // runs later, when called
						}
						call, ok := n.(*ast.CallExpr)
						if !ok {
							return true
						}
						sel, ok := call.Fun.(*ast.SelectorExpr)
						if !ok {
							return true
						}
						pkg, ok := sel.X.(*ast.Ident)
						if !ok {
							return true
						}
						switch pkg.Name + "." + sel.Sel.Name {
						case "regexp.MustCompile", "regexp.Compile", "regexp.MustCompilePOSIX", "regexp.CompilePOSIX", "template.Must":
							t.Errorf("%s: package-level %s.%s runs at every start-up; compile it at first use (lazyre.New or sync.OnceValue)",
								fset.Position(call.Pos()), pkg.Name, sel.Sel.Name)
						}
						return true
					})
				}
			}
		}
	})
	if seen < 100 {
		t.Fatalf("parsed %d files; the walk missed the repository", seen)
	}
}

// Compiling at first use moves a bad pattern's panic from start-up to the
// first command that needs it. This test puts the check back before any
// run: every lazyre.New in the repository whose argument is a string
// literal must compile.
func TestRepositoryPatternsCompile(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	repoGoFiles(t, fset, func(_ string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "lazyre" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			expr, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
				return true
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
			}
			checked++
			return true
		})
	})
	// The repository holds some sixty literal patterns; finding none means
	// the walk looked in the wrong place.
	if checked < 20 {
		t.Fatalf("checked %d patterns; the walk missed the repository", checked)
	}
	t.Logf("%d literal patterns compile", checked)
}
