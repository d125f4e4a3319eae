package bench

import (
	"encoding/csv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	units "github.com/memharness/memharness/reports/unit"
)

// checkCSVContract walks every CSV below root and holds it to the
// harness's contract: unique column names, the provenance columns, no
// undefined numbers (a missing value is empty), every share declared in
// percent (a *_percent column or a unit column), and every unit cell in the
// reports' unit vocabulary.
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
		unit := slices.Index(h, "unit")
		// Long format (one metric per row, its name in a metric column)
		// holds numbers of different kinds in one column: only a unit
		// column can say what each is.
		if slices.Contains(h, "metric") && unit < 0 {
			t.Errorf("%s: long-format file (a metric column) has no unit column (header %v)", p, h)
		}
		if unit >= 0 {
			for i, row := range rows[1:] {
				if !units.Valid(row[unit]) {
					t.Errorf("%s:%d: unit %q is not in the vocabulary %v (row %v)", p, i+2, row[unit], units.All(), row)
				}
			}
		}
		for _, c := range h {
			share := strings.Contains(c, "rate") || strings.Contains(c, "share") || strings.Contains(c, "acc") ||
				strings.Contains(c, "f1") || strings.Contains(c, "score") || c == "op" || c == "bwt" ||
				c == "diag" || c == "final" || strings.HasPrefix(c, "delta")
			if share && unit < 0 && !strings.HasSuffix(c, "_percent") && !strings.HasSuffix(c, "_points") {
				t.Errorf("%s: share column %q does not say its unit", p, c)
			}
			if strings.Contains(c, "cost") && unit < 0 && !strings.HasSuffix(c, "_usd") {
				t.Errorf("%s: money column %q does not say its currency", p, c)
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
// method), a small OmniBehavior run (Table 1, PraMem's ablation, review and
// evolution studies), a two-variant sweep and a small LifeMem run on the
// embedded default and checks every CSV they write. CSV_CONTRACT_DIR checks
// a `make bench` output as well.
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
	omni := filepath.Join(t.TempDir(), "omni.yaml")
	os.WriteFile(omni, []byte(`name: omni
task: omnibehavior
seed: 3
dataset:
  name: omnibehavior
  max_users: 3
  test_per_user: 4
  questions: binary
  synthetic: {users: 3, seed: 2}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: pramem, kind: pramem, pramem: {rounds: 2}}
  - {name: pramem_r1, kind: pramem, pramem: {rounds: 2, eval_round: 1}}
  - {name: pramem_no_consensus, kind: pramem, pramem: {rounds: 2, no_consensus: true}}
  - {name: pramem_no_groundedness, kind: pramem, pramem: {rounds: 2, no_groundedness: true}}
report: {bootstrap: 10}
`), 0o644)
	sweep := filepath.Join(t.TempDir(), "sweep.yaml")
	os.WriteFile(sweep, []byte(`name: sw
task: movielens
dataset:
  name: movielens
  max_users: 2
  test_per_user: 2
  synthetic: {users: 8, movies: 700, seed: 4}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation, history_tokens: 1000}
report: {bootstrap: 10}
sweep:
  grid:
    methods[0].history_tokens: [300, 1000]
`), 0o644)
	for _, args := range [][]string{{"run", "-c", pred}, {"run", "-c", omni}, {"run", "-c", ll}, {"sweep", "-c", sweep}} {
		if log, code := runCLI(t, append(args, "--out", out)...); code != 0 {
			t.Fatalf("%v: exit %d:\n%s", args, code, log)
		}
	}
	var names []string
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".csv") {
			names = append(names, filepath.Base(p))
		}
		return nil
	})
	for _, want := range []string{"metrics.csv", "table1.csv", "table1_vs_paper.csv", "pramem_table2.csv", "pramem_evolution.csv",
		"lifemem_table2.csv", "lifemem_transfer.csv", "lifemem_costs.csv", "sweep.csv"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s written (CSVs: %v)", want, names)
		}
	}
	if n := checkCSVContract(t, out); n < 10 {
		t.Errorf("only %d CSVs written", n)
	}
}
