package bench

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/omnibehavior"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/family"
)

// fetchHintRE finds the dataset a `bench data fetch NAME` hint names;
// placeholders (NAME, %s) do not match or are upper case.
var fetchHintRE = regexp.MustCompile(`bench data fetch ([a-z0-9][A-Za-z0-9_.-]*)`)

func checkHints(t *testing.T, where, text string) int {
	t.Helper()
	n := 0
	for _, m := range fetchHintRE.FindAllStringSubmatch(text, -1) {
		n++
		if !isFetchTarget(m[1]) {
			t.Errorf("%s: hint %q names no fetch target (the targets: movielens, %s, %s)",
				where, m[0], strings.Join(releaseFetchNames(), ", "), strings.Join(envDataNames(), ", "))
		}
	}
	return n
}

// TestFetchHintsNameRealTargets collects the fetch hints that missing data
// prints (every environment, both datasets, the CLI) and every literal hint
// in the sources and docs, and checks that each names a real fetch target.
func TestFetchHintsNameRealTargets(t *testing.T) {
	empty := t.TempDir()
	missing := filepath.Join(t.TempDir(), "absent")
	found := 0
	for _, e := range all.Entries() {
		for _, root := range []string{empty, missing} {
			if _, err := e.OpenData(root, all.Options{}); err != nil {
				found += checkHints(t, e.Name+": open "+root, err.Error())
			}
		}
		out, _ := runCLI(t, "data", "verify", e.Name, "--dir", empty)
		found += checkHints(t, "data verify "+e.Name, out)
	}
	if _, err := movielens.Load(missing); err != nil {
		found += checkHints(t, "movielens.Load", err.Error())
	}
	if _, err := omnibehavior.Load(missing, ""); err != nil {
		found += checkHints(t, "omnibehavior.Load", err.Error())
	}
	for _, args := range [][]string{
		{"envs", "check", "--data", empty},
		{"data", "stats", "movielens", "--path", missing},
		{"data", "verify", "movielens", "--dir", empty},
		{"data", "fetch", "omnibehavior"},
	} {
		out, _ := runCLI(t, args...)
		found += checkHints(t, strings.Join(args, " "), out)
	}
	if found < len(all.Entries()) {
		t.Errorf("only %d hints collected from missing data; the collection is broken", found)
	}

	// Literal hints anywhere in the repository's sources, docs and configs.
	root := filepath.Join("..")
	literal := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "runs" || n == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "hints_test.go" {
			return nil // this file's own examples
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".yaml", ".sh":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		literal += checkHints(t, p, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if literal == 0 {
		t.Error("no literal hint found in the repository; the walk is broken")
	}
}

func TestDataPathHint(t *testing.T) {
	_, notFound := movielens.Load(filepath.Join(t.TempDir(), "absent"))
	_, obNotFound := omnibehavior.Load(filepath.Join(t.TempDir(), "absent"), "")
	other := os.ErrPermission
	tests := []struct {
		name string
		err  error
		how  string
		want string // "" when the error passes unchanged
	}{
		{"movielens, data verb", notFound, family.DataPathFlag, "pass that location with --path DIR"},
		{"movielens, run verb", notFound, family.RunPathFlag, "pass that location with --set dataset.path=DIR"},
		{"omnibehavior, run verb", obNotFound, family.RunPathFlag, "pass that location with --set dataset.path=DIR"},
		{"other error", other, family.RunPathFlag, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := family.DataPathHint(tc.err, tc.how)
			if tc.want == "" {
				if got != tc.err {
					t.Errorf("changed %v into %v", tc.err, got)
				}
				return
			}
			if !strings.HasSuffix(got.Error(), tc.want+" (or dataset.path in the config)") && !strings.HasSuffix(got.Error(), tc.want) {
				t.Errorf("%q does not end with %q", got, tc.want)
			}
			if strings.Count(got.Error(), "--") != 1 {
				t.Errorf("%q names more than one flag", got)
			}
		})
	}
}
