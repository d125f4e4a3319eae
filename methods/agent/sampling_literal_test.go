package agent_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// samplingFields are llm.Params' sampling fields; samplingKeys the
// request-body keys that may reach it through Params.Extra.
var (
	samplingFields = map[string]bool{"Temperature": true, "TopP": true, "MaxTokens": true, "Seed": true, "Stop": true, "N": true}
	samplingKeys   = map[string]bool{"temperature": true, "top_p": true, "max_tokens": true, "max_completion_tokens": true, "seed": true, "stop": true, "n": true, "response_format": true}
	samplingName   = regexp.MustCompile(`(?i)temperature|top_?p$|max_?tokens|stop_?(seq|tokens|words)`)
)

// samplingLiterals lists, as "file:line: what", every place in src that
// sets a sampling parameter from a literal: an llm.Params composite
// literal with any field set, an assignment of a literal (or of a local
// holding one) to a Params sampling field, a sampling key in a map
// literal, or a constant or variable named after a sampling setting
// holding a literal. Settings come from agent.Sampling instead.
func samplingLiterals(fset *token.FileSet, f *ast.File) []string {
	var out []string
	add := func(n ast.Node, format string, a ...any) {
		out = append(out, fmt.Sprintf("%s: %s", fset.Position(n.Pos()), fmt.Sprintf(format, a...)))
	}
	literal := func(e ast.Expr) bool {
		var lit func(e ast.Expr, depth int) bool
		lit = func(e ast.Expr, depth int) bool {
			switch v := e.(type) {
			case *ast.BasicLit, *ast.CompositeLit:
				return true
			case *ast.UnaryExpr:
				return lit(v.X, depth)
			case *ast.ParenExpr:
				return lit(v.X, depth)
			case *ast.CallExpr:
				// conversions such as float64(1)
				return len(v.Args) == 1 && lit(v.Args[0], depth)
			case *ast.Ident:
				if depth > 3 || v.Obj == nil {
					return false
				}
				switch d := v.Obj.Decl.(type) {
				case *ast.AssignStmt:
					for i, l := range d.Lhs {
						if id, ok := l.(*ast.Ident); ok && id.Name == v.Name && i < len(d.Rhs) {
							return lit(d.Rhs[i], depth+1)
						}
					}
				case *ast.ValueSpec:
					for i, id := range d.Names {
						if id.Name == v.Name && i < len(d.Values) {
							return lit(d.Values[i], depth+1)
						}
					}
				}
			}
			return false
		}
		return lit(e, 0)
	}
	isParams := func(t ast.Expr) bool {
		switch v := t.(type) {
		case *ast.SelectorExpr:
			x, ok := v.X.(*ast.Ident)
			return ok && x.Name == "llm" && v.Sel.Name == "Params"
		case *ast.Ident:
			return v.Name == "Params"
		}
		return false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.CompositeLit:
			if isParams(v.Type) && len(v.Elts) > 0 {
				add(v, "llm.Params literal with fields set")
			}
			for _, e := range v.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.BasicLit); ok && k.Kind == token.STRING && samplingKeys[strings.Trim(k.Value, "`\"")] && literal(kv.Value) {
					add(kv, "sampling key %s set from a literal", k.Value)
				}
			}
		case *ast.AssignStmt:
			for i, l := range v.Lhs {
				sel, ok := l.(*ast.SelectorExpr)
				if !ok || !samplingFields[sel.Sel.Name] || i >= len(v.Rhs) {
					continue
				}
				if literal(v.Rhs[i]) {
					add(v, "%s set from a literal", sel.Sel.Name)
				}
			}
		case *ast.ValueSpec:
			for i, id := range v.Names {
				if samplingName.MatchString(id.Name) && i < len(v.Values) && literal(v.Values[i]) {
					add(id, "%s holds a literal sampling setting", id.Name)
				}
			}
		}
		return true
	})
	return out
}

// TestNoSamplingLiteralsInMethods fails when non-test code under methods/
// sets a sampling parameter itself: every request's temperature, top_p,
// max tokens, seed, n and stop list come from the run's resolved
// sampling (agent.Sampling), whose defaults are the sources' or the
// harness's config, never a method's code.
func TestNoSamplingLiteralsInMethods(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0) // object resolution follows locals to their literals
		if err != nil {
			return err
		}
		files++
		for _, hit := range samplingLiterals(fset, f) {
			t.Error(hit)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("walked %d files under methods/, want the whole tree", files)
	}
}

// TestSamplingLiteralsFound keeps the check able to fail: each source
// below sets a sampling parameter literally and must be caught; the last
// ones take it from the run and must pass.
func TestSamplingLiteralsFound(t *testing.T) {
	for _, tc := range []struct {
		src  string
		hits int
	}{
		{`temp := 0.3; seed := 42; _ = llm.Request{Params: llm.Params{Temperature: &temp, MaxTokens: 512, Seed: &seed}}`, 1},
		{`p := s.For("act", env); p.MaxTokens = 512`, 1},
		{`p := s.For("act", env); v := 0.0; p.Temperature = &v`, 1},
		{`p := s.For("act", env); p.Stop = []string{"\nUser:"}`, 1},
		{`p := s.For("act", env); p.Extra = map[string]any{"n": 1}`, 1},
		{`const defaultTemperature = 0.3; _ = defaultTemperature`, 1},
		{`p := s.For("act", env); p.Stop = pr.Stop(); _ = llm.Params{}`, 0},
		{`p := agent.CloneParams(s.For("act", env)); if stop != nil { p.Stop = stop }`, 0},
	} {
		src := "package x\nfunc f() {\n" + tc.src + "\n}\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := samplingLiterals(fset, f); len(got) != tc.hits {
			t.Errorf("%s: %d hits %v, want %d", tc.src, len(got), got, tc.hits)
		}
	}
}
