package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/memharness/memharness"

// floors gives each top-level directory of the module its floor: a
// package may import its own directory's packages and any lower floor,
// never a sibling on its floor nor anything above. A new top-level
// directory fails the test until it is given a floor here.
var floors = map[string]int{
	// kinds is the one registry mechanism, used from the environments up.
	"internal": 0, "kinds": 1,
	"metrics": 1, "llm": 1, // the model path needs nothing of the run's
	"runrecord": 2, // the run log records llm's call records
	"datasets":  3,
	// runstore is the run directory on disk, below both runners and the
	// merge of their shards.
	"runstore": 3,
	"envs":     4,
	"methods":  5,
	// reports read the run logs and show environments as their entries
	// describe them (names, plot labels, Table 2 categories).
	"reports": 5,
	// accounting is the one usage path of both runners, just below them.
	"accounting":   6,
	"releasepacks": 7, "lifelong": 7, "behaviorrun": 7, "planner": 7,
	// export writes a finished run in other tools' formats: it reads the
	// run's files (lifelong's cells among them) and never runs anything.
	"export": 8,
	// The config is the composition of every runner's options (it embeds
	// lifelong.Config and reads the release packs; it checks report.export's
	// formats), so it sits above the runners and below what turns a config
	// into a run: the backbone, the task families, and the command line.
	"bench/config": 9,
	// The progress line needs nothing of the harness.
	"bench/progress": 0,
	"backbone":       10,
	"family":         11,
	"bench":          12,
	"cmd":            13,
	"deploy":         13,
}

// top is the unit of floors a package path (relative to the module)
// belongs to: its module directory ("envs/wikienv" → "envs"), or the
// config and progress-line packages, which have floors of their own below
// the command line that holds them.
func top(rel string) string {
	for _, unit := range []string{"bench/config", "bench/progress"} {
		if rel == unit || strings.HasPrefix(rel, unit+"/") {
			return unit
		}
	}
	top, _, _ := strings.Cut(rel, "/")
	return top
}

// allowed reports whether package from may import package to, both given
// relative to the module root; ok is false when a directory has no floor.
func allowed(from, to string) (allow, ok bool) {
	tf, tt := top(from), top(to)
	ff, ok1 := floors[tf]
	ft, ok2 := floors[tt]
	if !ok1 || !ok2 {
		return false, false
	}
	if apart[tf] == tt {
		return false, true
	}
	return tf == tt || ft < ff, true
}

// apart are pairs kept apart whatever their floors: reports read run logs
// and never reach the model path.
var apart = map[string]string{"reports": "llm"}

func TestAllowed(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"envs/wikienv", "internal/bm25", true},
		{"envs/wikienv", "envs", true},
		{"envs/wikienv", "methods/retrieval", false},
		{"datasets/trajectories", "methods/agent", false},
		{"datasets/trajectories", "envs", false},
		{"methods/agent", "datasets/trajectories", true},
		{"llm/sim", "llm/hint", true},
		{"llm", "reports", false}, // siblings on one floor stay apart
		{"reports", "llm", false}, // reports never call a model
		{"internal/pyfmt", "internal/pystr", true},
		{"internal/bm25", "llm", false},
		{"metrics", "runrecord", false},
		{"lifelong", "methods/agent", true},
		{"behaviorrun", "bench", false},
		{"bench", "behaviorrun", true},
		{"cmd/bench", "bench", true},
		{"bench", "cmd/bench", false},
		{"behaviorrun", "accounting", true},
		{"accounting", "behaviorrun", false},
		{"accounting", "methods/predict", true},
		{"behaviorrun", "runstore", true},
		{"runstore", "reports", false},
		{"family/behavior", "bench/config", true},
		{"bench/config", "family", false},
		{"bench", "family/behavior", true},
		{"family", "bench", false},
		{"family/lifelongagents", "backbone", true},
		{"backbone", "family", false},
		{"bench/config", "lifelong", true},
	}
	for _, tt := range tests {
		got, ok := allowed(tt.from, tt.to)
		if !ok || got != tt.want {
			t.Errorf("allowed(%s, %s) = %v (known %v), want %v", tt.from, tt.to, got, ok, tt.want)
		}
	}
}

// TestNoUpwardImports parses the imports of every non-test Go file of the
// module and checks each import of a module package against the floors.
func TestNoUpwardImports(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above the test: %v", err)
	}
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// testdata is not code; shared/ (a device checkout's
			// read-only material) and dot directories are not the module.
			if path != root && (name == "testdata" || name == "shared" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, im := range f.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil {
				return err
			}
			to, inModule := strings.CutPrefix(p, module+"/")
			if !inModule {
				continue
			}
			// testfixture finds the shared fixtures beside the checkout:
			// for tests only, never a dependency of the harness itself.
			if to == "internal/testfixture" && rel != to {
				t.Errorf("%s imports %s: only _test.go files may", fset.Position(im.Pos()), to)
			}
			allow, ok := allowed(rel, to)
			switch {
			case !ok:
				t.Errorf("%s imports %s: give %q or %q a floor in this test", fset.Position(im.Pos()), to, top(rel), top(to))
			case !allow:
				t.Errorf("%s imports %s: floor %d (%s) may not import floor %d (%s)", fset.Position(im.Pos()), to, floors[top(rel)], top(rel), floors[top(to)], top(to))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("parsed only %d files under %s: wrong root?", files, root)
	}
}

// TestPackageDocs checks that every package of the module says what it is
// for: some non-test file carries a doc comment "Package <name> ..." (or
// "Command <name> ..." for a main package).
func TestPackageDocs(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]bool{} // directory → has a package doc
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
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
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		if strings.HasSuffix(name, "_test.go") {
			// A directory of tests only is a package too: its doc
			// belongs in a doc.go that go doc shows.
			docs[filepath.Dir(path)] = docs[filepath.Dir(path)] || false
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		want := "Package " + f.Name.Name + " "
		if f.Name.Name == "main" {
			want = "Command " + filepath.Base(dir) + " "
		}
		docs[dir] = docs[dir] || (f.Doc != nil && strings.HasPrefix(f.Doc.Text(), want))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir, ok := range docs {
		if !ok {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: no package doc comment saying what the package is for (add a doc.go)", rel)
		}
	}
}
