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
	// A kind's entry declares the default request settings of its call
	// purposes (predict.Purpose's Release and Own, with the source they are
	// read from): data the bench resolves into the run's sampling, as
	// bench/config did before, not a setting a request is sent with.
	var declared [][2]token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		purposes := []*ast.CompositeLit{}
		if isPurposeType(cl.Type) {
			purposes = append(purposes, cl)
		} else if at, ok := cl.Type.(*ast.ArrayType); ok && isPurposeType(at.Elt) {
			for _, e := range cl.Elts {
				if el, ok := e.(*ast.CompositeLit); ok && el.Type == nil {
					purposes = append(purposes, el) // the element type elided
				}
			}
		}
		for _, p := range purposes {
			for _, e := range p.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Release" || k.Name == "Own") {
						declared = append(declared, [2]token.Pos{kv.Value.Pos(), kv.Value.End()})
					}
				}
			}
		}
		return true
	})
	add := func(n ast.Node, format string, a ...any) {
		for _, r := range declared {
			if n.Pos() >= r[0] && n.Pos() < r[1] {
				return
			}
		}
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
		// A kind's entry declares its purposes' defaults; the bench resolves
		// them into the run's sampling.
		{`_ = predict.Purpose{Name: "x", Own: llm.Params{MaxTokens: 16000}}`, 0},
		{`_ = []predict.Purpose{{Name: "x", Release: llm.Params{Extra: map[string]any{"max_completion_tokens": 1}}}}`, 0},
		{`_ = predict.Purpose{Name: "x", Source: "y"}; _ = llm.Params{MaxTokens: 16000}`, 1},
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

// isPurposeType reports whether a composite literal's type is
// predict.Purpose (or Purpose inside package predict).
func isPurposeType(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name == "Purpose"
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && (x.Name == "predict" || x.Name == "llm") && t.Sel.Name == "Purpose"
	}
	return false
}
