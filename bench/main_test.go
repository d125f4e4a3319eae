package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/runrecord"
)

func TestHelpOnEveryVerb(t *testing.T) {
	for _, v := range verbs() {
		for _, args := range [][]string{{v.name, "--help"}, {v.name, "-h"}, {"help", v.name}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				out, errOut, code := runCLISplit(t, args...)
				if code != 0 || errOut != "" {
					t.Errorf("exit %d, stderr %q (help belongs on stdout)", code, errOut)
				}
				if !strings.Contains(out, "Usage: bench "+v.name) {
					t.Errorf("help text:\n%s", out)
				}
				for _, line := range strings.Split(out, "\n") {
					if strings.Count(line, "(default") > 1 {
						t.Errorf("a flag states its default twice: %q", line)
					}
				}
			})
		}
	}
}

// TestHelpAndUsageStreams: asked-for help goes to stdout with exit 0; usage
// errors go to stderr with exit 2.
func TestHelpAndUsageStreams(t *testing.T) {
	tests := []struct {
		args       []string
		code       int
		onStdout   bool
		wantInText string
	}{
		{[]string{"--help"}, 0, true, "Verbs:"},
		{[]string{"-h"}, 0, true, "Verbs:"},
		{[]string{"help"}, 0, true, "Verbs:"},
		{nil, 2, false, "Verbs:"},
		{[]string{"frobnicate"}, 2, false, `unknown verb "frobnicate"`},
		{[]string{"help", "frobnicate"}, 2, false, `unknown verb "frobnicate"`},
		{[]string{"report", "--bogus"}, 2, false, "flag provided but not defined: -bogus"},
		{[]string{"envs", "frob"}, 2, false, `unknown action "frob"`},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, code := runCLISplit(t, tc.args...)
			text, other := errOut, out
			if tc.onStdout {
				text, other = out, errOut
			}
			if code != tc.code || !strings.Contains(text, tc.wantInText) || other != "" {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
		})
	}
}

func TestCLIErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\ntask: movielens\nmethods:\n  - {kind: truncation, histroy_tokens: 10}\n"), 0o644)
	nodata := filepath.Join(dir, "nodata.yaml")
	os.WriteFile(nodata, []byte("name: nodata\ntask: movielens\nbackbone: {kind: sim}\ndataset: {name: movielens, path: "+filepath.Join(dir, "none")+"}\nmethods:\n  - {kind: truncation}\n"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"run without config", []string{"run"}, 2, "-c CONFIG is required"},
		{"config given without -c", []string{"run", "configs/x.yaml"}, 2, "did you mean: bench run -c configs/x.yaml"},
		{"unknown key names file and line", []string{"run", "-c", bad, "--out", dir}, 1, "bad.yaml:4"},
		{"bad --set path", []string{"run", "-c", bad, "--set", "nope.x=1"}, 1, "nope"},
		{"missing dataset names the fetch command", []string{"data", "stats", "movielens", "--path", filepath.Join(dir, "none")}, 1, "bench data fetch movielens"},
		{"missing dataset: the data verb takes --path", []string{"data", "stats", "movielens", "--path", filepath.Join(dir, "none")}, 1, "pass that location with --path DIR"},
		{"missing omnibehavior: the data verb takes --path", []string{"data", "stats", "omnibehavior", "--path", filepath.Join(dir, "none")}, 1, "pass that location with --path DIR"},
		{"unknown dataset", []string{"data", "stats", "imagenet"}, 1, `unknown dataset "imagenet"`},
		{"missing dataset: the run verb takes --set dataset.path", []string{"run", "-c", nodata, "--out", dir}, 1, "pass that location with --set dataset.path=DIR"},
		{"report on a non-run", []string{"report", dir}, 1, "not a run directory"},
		{"cache stats on an empty dir", []string{"cache", "stats", "--dir", dir}, 0, "no cache files"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d (want %d), output:\n%s\nwant it to contain %q", code, tc.code, out, tc.want)
			}
		})
	}
}

func TestDataStatsJSON(t *testing.T) {
	dir := t.TempDir()
	if err := synth.WriteMovieLens(dir, synth.MovieLensConfig{Users: 10, Movies: 700, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	out, code := runCLI(t, "data", "stats", "movielens", "--path", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var st map[string]int64
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &st); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"ratings", "users", "movies", "users_over_300", "min_timestamp", "max_timestamp"} {
		if _, ok := st[k]; !ok {
			t.Errorf("missing key %s in %s", k, out)
		}
	}
	if st["users"] != 10 || st["ratings"] == 0 || st["min_timestamp"] > st["max_timestamp"] {
		t.Errorf("stats = %v", st)
	}
}

func TestSweepRunsEveryVariant(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sw.yaml")
	os.WriteFile(cfg, []byte(`name: sw
task: movielens
dataset: {name: movielens, max_users: 2, test_per_user: 3, synthetic: {users: 6, movies: 700, seed: 2}}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation, history_tokens: 8000}
report: {bootstrap: 20}
sweep:
  grid:
    methods[0].history_tokens: [1000, 4000]
  variants:
    - {name: a, set: {backbone.sim.threshold: 0.5}}
    - {name: b, set: {backbone.sim.threshold: 0.4}}
`), 0o644)
	out, code := runCLI(t, "sweep", "-c", cfg, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "sw", "*", "report", "metrics.csv"))
	if len(entries) != 4 {
		t.Errorf("want 4 variant reports, got %v\n%s", entries, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "sw", "sweep.md")); err != nil {
		t.Error(err)
	}
}

// TestEnvsCheckEmbedded replays every embedded oracle. An environment whose
// prerequisites are missing on this machine (MiniWoB++ without Chromium or
// its npm libraries) must be skipped with the install command, and only then.
func TestEnvsCheckEmbedded(t *testing.T) {
	out, code := runCLI(t, "envs", "check", "--json")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	n := 0
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		n++
		var r struct {
			Env              string
			Tasks, Failed    int
			Skipped, Install string
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("bad line %q: %v", line, err)
		}
		e, err := all.Find(r.Env)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.OpenEmbedded(all.Options{})
		if err != nil {
			t.Fatal(err)
		}
		missing := envs.CheckPrerequisites(s)
		closeSuite(s)
		switch {
		case missing != nil && r.Skipped == "":
			t.Errorf("%s: prerequisites missing (%v) but not skipped: %s", r.Env, missing, line)
		case missing == nil && r.Skipped != "":
			t.Errorf("%s: skipped though nothing is missing: %s", r.Env, line)
		case r.Skipped != "" && (r.Install == "" || !strings.Contains(r.Skipped, r.Install)):
			t.Errorf("%s: skipped without the command that installs what is missing: %s", r.Env, line)
		case r.Skipped == "" && (r.Tasks < 10 || r.Failed != 0):
			t.Errorf("%s: %d tasks, %d failed (embedded suites need ≥ 10 tasks, all solvable)", r.Env, r.Tasks, r.Failed)
		}
	}
	if n != len(all.Entries()) {
		t.Errorf("%d JSON lines for %d environments", n, len(all.Entries()))
	}
}

func TestSweepSharesSimRunsAcrossModelNames(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sw.yaml")
	os.WriteFile(cfg, []byte(`name: sw
task: movielens
dataset: {name: movielens, max_users: 2, test_per_user: 3, synthetic: {users: 6, movies: 700, seed: 2}}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation}
report: {bootstrap: 20}
sweep:
  variants:
    - {name: a, set: {backbone.model: gpt-oss-120b}}
    - {name: b, set: {backbone.model: qwen3, backbone.params.temperature: 0.7}}
`), 0o644)
	out, code := runCLI(t, "sweep", "-c", cfg, "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, `"b" shares the run in`) {
		t.Errorf("second variant was not shared:\n%s", out)
	}
	// One run under a neutral name; the variants' folders only point at it,
	// so no folder named after a model holds results the sim produced.
	if _, err := os.Stat(filepath.Join(dir, "sw", "sim", runrecord.ManifestFile)); err != nil {
		t.Errorf("no shared run in sw/sim: %v", err)
	}
	for _, v := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(dir, "sw", v, runrecord.ManifestFile)); err == nil {
			t.Errorf("variant %s got its own run directory", v)
		}
		var sr sameRun
		b, err := os.ReadFile(filepath.Join(dir, "sw", v, SameRunFile))
		if err != nil || json.Unmarshal(b, &sr) != nil || sr.Run != "../sim" || len(sr.Variants) != 2 {
			t.Errorf("variant %s: %s = %s (%v); want a pointer to ../sim naming both variants", v, SameRunFile, b, err)
		}
	}
	if out, code := runCLI(t, "report", filepath.Join(dir, "sw", "b")); code != 0 || !strings.Contains(out, "shares the run in") {
		t.Errorf("report on a variant folder that shares a run: exit %d\n%s", code, out)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "sw", "sweep.md"))
	if !strings.Contains(string(idx), "same run as a") {
		t.Errorf("sweep.md:\n%s", idx)
	}
}
