package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs/all"
)

// checkProvenanceOnce reads every Markdown report of repDir except index.md
// and checks that the run's provenance (its backbone line) is stated once,
// at the top, and that no table heading repeats it.
func checkProvenanceOnce(t *testing.T, repDir string) {
	t.Helper()
	mds, _ := filepath.Glob(filepath.Join(repDir, "*.md"))
	n := 0
	for _, p := range mds {
		if filepath.Base(p) == "index.md" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		md := string(b)
		n++
		if c := strings.Count(md, "backbone: "); c != 1 {
			t.Errorf("%s states the backbone %d times, want once:\n%s", filepath.Base(p), c, md)
		}
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "### ") && strings.Contains(l, "backbone: ") {
				t.Errorf("%s: a table heading repeats the provenance: %q", filepath.Base(p), l)
			}
		}
		if !strings.HasPrefix(md, "# ") {
			t.Errorf("%s does not open with its heading:\n%s", filepath.Base(p), md)
		}
	}
	if n == 0 {
		t.Fatalf("no Markdown report in %s", repDir)
	}
}

func TestMarkdownStatesProvenanceOnce(t *testing.T) {
	t.Run("prediction run", func(t *testing.T) {
		dir, _ := writeReport(t)
		checkProvenanceOnce(t, filepath.Join(dir, "report"))
	})
	t.Run("lifelong run", func(t *testing.T) {
		dir := copyTree(t, filepath.Join("testdata", "lifemem", "run"))
		if _, err := Write(dir, Options{Envs: all.Entries()}); err != nil {
			t.Fatal(err)
		}
		checkProvenanceOnce(t, filepath.Join(dir, "report"))
	})
}
