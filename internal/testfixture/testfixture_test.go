package testfixture

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMessageNamesTheDataAndHowToGetIt(t *testing.T) {
	tests := []struct {
		rel  string
		want []string
	}{
		{"pramem", []string{"OmniBehavior sample", "fixtures/pramem"}},
		{"envs/taubench/airline", []string{"τ-bench domain data", "fixtures/envs/taubench/airline"}},
		{"envs/lifemem_trainset_samples/samples.jsonl", []string{"LifeMem training-trajectory sample"}},
		{"nosuch/x", []string{"sample data", "fixtures/nosuch/x"}},
	}
	for _, tt := range tests {
		msg := Message(tt.rel)
		for _, w := range append(tt.want, "official repository", "licence", "CI provides it", "beside the checkout") {
			if !strings.Contains(msg, w) {
				t.Errorf("Message(%q) = %q, lacks %q", tt.rel, msg, w)
			}
		}
		if strings.Contains(msg, "checked out") {
			t.Errorf("Message(%q) speaks of a checked-out shared folder: %q", tt.rel, msg)
		}
	}
}

func TestPathIsBesideTheModule(t *testing.T) {
	p := Path("envs/nosuch")
	if !strings.HasSuffix(filepath.ToSlash(p), "/shared/fixtures/envs/nosuch") {
		t.Errorf("Path = %s", p)
	}
}

// TestNoTestLocatesFixturesItself fails while any test outside this
// package finds the shared fixtures on its own or skips with the old
// wording, so every such skip goes through Need and says the same thing.
func TestNoTestLocatesFixturesItself(t *testing.T) {
	root := moduleRoot()
	old := []string{"shared/ folder checked out", "shared fixtures not checked out", "fixtures not present",
		"fixture data absent", "fixtures absent", "shared fixtures"}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "shared" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, "_test.go") || filepath.Dir(path) == filepath.Join(root, "internal", "testfixture") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(n.Value)
				if strings.HasPrefix(s, "../") && strings.Contains(s, "shared/fixtures") {
					t.Errorf("%s: path %q: use testfixture.Need or Path", fset.Position(n.Pos()), s)
				}
				for _, o := range old {
					if strings.Contains(s, o) {
						t.Errorf("%s: old skip wording %q: use testfixture.Need", fset.Position(n.Pos()), s)
						break
					}
				}
			case *ast.CallExpr:
				// filepath.Join(..., "shared", "fixtures", ...)
				for i := 0; i+1 < len(n.Args); i++ {
					a, ok1 := n.Args[i].(*ast.BasicLit)
					b, ok2 := n.Args[i+1].(*ast.BasicLit)
					if ok1 && ok2 && a.Value == `"shared"` && b.Value == `"fixtures"` {
						t.Errorf("%s: joins \"shared\", \"fixtures\": use testfixture.Need or Path", fset.Position(n.Pos()))
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// skipRecorder is a testing.TB that records a skip instead of taking it.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Helper()          {}
func (r *skipRecorder) Skip(args ...any) { r.skipped = fmt.Sprint(args...) }

func TestNeedSkipsWithTheMessage(t *testing.T) {
	r := &skipRecorder{TB: t}
	Need(r, "envs/nosuch-fixture")
	if r.skipped != Message("envs/nosuch-fixture") {
		t.Errorf("skipped with %q", r.skipped)
	}
}
