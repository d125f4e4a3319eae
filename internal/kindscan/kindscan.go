// Package kindscan finds where Go source names a kind: the check behind
// the rule that outside a kind's own package (and the one line that
// registers it) no code names a built-in kind. The tests of the method
// kinds (bench/kindnames_test.go) and of the environments use it; it
// reads files only and imports nothing of the harness.
package kindscan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
)

// Hit is one place a non-test Go file names a kind.
type Hit struct {
	// File is slash-separated, relative to the scanned root.
	File string
	Line int
	Kind string
}

// Scan walks the Go files below root and reports each string literal equal
// to one of names. Test files, testdata, configs/, docs/ and dot or
// underscore folders are not code under the rule and are skipped; so is
// what exempt (given the slash-separated path relative to root) accepts.
func Scan(root string, names []string, exempt func(file string) bool) ([]Hit, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	fset := token.NewFileSet()
	var hits []Hit
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "shared" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				rel == "configs" || rel == "docs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || exempt(rel) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && want[v] {
				hits = append(hits, Hit{File: rel, Line: fset.Position(lit.Pos()).Line, Kind: v})
			}
			return true
		})
		return nil
	})
	return hits, err
}
