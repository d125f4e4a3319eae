package bench_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/methods/registry"
)

// TestSweepKindOwnOption sweeps the walkthrough's notes over its own
// option keep: each value is a run of its own, labelled by the value
// (its folder, the sweep's swept_key and swept_value), whose memories were
// written from that many records.
func TestSweepKindOwnOption(t *testing.T) {
	reg := registry.Default()
	reg.Register(notesEntry())
	dir := t.TempDir()
	path := filepath.Join(dir, "keeps.yaml")
	if err := os.WriteFile(path, []byte(`name: keeps
task: movielens
seed: 42
dataset:
  name: movielens
  max_users: 2
  test_per_user: 2
  synthetic: {users: 12, movies: 800, seed: 3}
backbone: {kind: sim}
methods:
  - {name: notes, kind: notes, keep: 20}
report: {bootstrap: 0}
sweep:
  grid:
    methods[0].keep: [10, 20, 40]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := bench.Main(context.Background(), []string{"sweep", "-c", path, "--out", dir},
		bench.IO{Out: &out, Err: &out, Getenv: func(string) string { return "" }, Kinds: &bench.Kinds{Predict: reg}}); code != 0 {
		t.Fatalf("bench sweep exit %d:\n%s", code, out.String())
	}
	root := filepath.Join(dir, "keeps")
	for _, keep := range []int{10, 20, 40} {
		variant := filepath.Join(root, "keep="+strconv.Itoa(keep))
		mems, err := filepath.Glob(filepath.Join(variant, "memory", "notes", "*.json"))
		if err != nil || len(mems) != 2 {
			t.Fatalf("variant keep=%d: memories %v (%v), want one per user in its own run\n%s", keep, mems, err, out.String())
		}
		for _, m := range mems {
			b, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			var mem struct {
				Meta map[string]any `json:"meta"`
			}
			if err := json.Unmarshal(b, &mem); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
			if got := mem.Meta["records"]; got != float64(keep) {
				t.Errorf("%s: written from %v records, want keep=%d", m, got, keep)
			}
		}
	}
	f, err := os.Open(filepath.Join(root, "sweep.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[col("variant")]+" "+r[col("swept_key")]+"="+r[col("swept_value")]+" "+r[col("method")])
	}
	want := []string{"keep=10 keep=10 notes", "keep=20 keep=20 notes", "keep=40 keep=40 notes"}
	if !slices.Equal(got, want) {
		t.Errorf("sweep.csv rows %q, want %q", got, want)
	}
}
