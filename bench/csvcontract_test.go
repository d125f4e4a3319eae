package bench

import (
	"encoding/csv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkCSVContract walks every CSV below root and holds it to the
// harness's contract: unique column names, the provenance columns, no
// undefined numbers (a missing value is empty), and every share declared
// in percent (a *_percent column or a unit column).
func checkCSVContract(t *testing.T, root string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".csv") {
			return err
		}
		n++
		f, err := os.Open(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		defer f.Close()
		r := csv.NewReader(f)
		rows, err := r.ReadAll()
		if err != nil || len(rows) == 0 {
			t.Errorf("%s: %v (%d rows)", p, err, len(rows))
			return nil
		}
		h := rows[0]
		for i, c := range h {
			if slices.Index(h, c) != i {
				t.Errorf("%s: column %q appears twice", p, c)
			}
		}
		for _, want := range []string{"backbone", "model", "data_source", "harness_version"} {
			if !slices.Contains(h, want) {
				t.Errorf("%s: no provenance column %s (header %v)", p, want, h)
			}
		}
		hasUnit := slices.Contains(h, "unit")
		for _, c := range h {
			share := strings.Contains(c, "rate") || strings.Contains(c, "share") || strings.Contains(c, "acc") ||
				strings.Contains(c, "f1") || strings.Contains(c, "score") || c == "op"
			if share && !hasUnit && !strings.HasSuffix(c, "_percent") && !strings.HasSuffix(c, "_points") {
				t.Errorf("%s: share column %q does not say its unit", p, c)
			}
		}
		for i, row := range rows[1:] {
			for j, v := range row {
				switch strings.ToLower(v) {
				case "nan", "inf", "+inf", "-inf", "null", "none":
					t.Errorf("%s:%d: %s is %q; a missing value is empty", p, i+2, h[j], v)
				}
			}
		}
		return nil
	})
	return n
}

// TestCSVContract runs a small prediction run (every baseline and memory
// method) and a small LifeMem run on the embedded default and checks every
// CSV they write. CSV_CONTRACT_DIR checks a `make bench` output as well.
func TestCSVContract(t *testing.T) {
	if dir := os.Getenv("CSV_CONTRACT_DIR"); dir != "" {
		t.Logf("%d CSVs checked in %s", checkCSVContract(t, dir), dir)
	}
	out := t.TempDir()
	pred := filepath.Join(t.TempDir(), "acc.yaml")
	os.WriteFile(pred, []byte(strings.Replace(everyMethodConfig, "  - {name: summary,", "  - {name: truncation, kind: truncation, history_tokens: 2000}\n  - {name: summary,", 1)), 0o644)
	ll := filepath.Join(t.TempDir(), "ll.yaml")
	os.WriteFile(ll, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  ood: [fever]
  methods:
    - {name: react, kind: react}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	for _, cfg := range []string{pred, ll} {
		if log, code := runCLI(t, "run", "-c", cfg, "--out", out); code != 0 {
			t.Fatalf("%s: exit %d:\n%s", cfg, code, log)
		}
	}
	if n := checkCSVContract(t, out); n < 10 {
		t.Errorf("only %d CSVs written", n)
	}
}
