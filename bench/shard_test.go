package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memharness/memharness/backbone"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/runrecord"
)

func TestShardsPartitionAndBalance(t *testing.T) {
	for _, tc := range []struct{ units, shards int }{{1, 1}, {7, 3}, {12, 4}, {5, 8}, {100, 7}} {
		t.Run(fmt.Sprintf("%d_units_%d_shards", tc.units, tc.shards), func(t *testing.T) {
			owner := make([]int, tc.units)
			sizes := make([]int, tc.shards)
			for i := range owner {
				owner[i] = -1
			}
			for s := range tc.shards {
				spec := &family.Shard{Index: s, Count: tc.shards}
				for u := range tc.units {
					if spec.Owns(u) {
						if owner[u] >= 0 {
							t.Fatalf("unit %d in shards %d and %d", u, owner[u], s)
						}
						owner[u] = s
						sizes[s]++
					}
				}
			}
			lo, hi := tc.units, 0
			for u, o := range owner {
				if o < 0 {
					t.Fatalf("unit %d in no shard", u)
				}
			}
			for _, n := range sizes {
				lo, hi = min(lo, n), max(hi, n)
			}
			if hi-lo > 1 {
				t.Errorf("shard sizes %v differ by more than one unit", sizes)
			}
		})
	}
}

func TestShardFromFlagsAndSchedulers(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string // "" = not sharded; "err" = an error
	}{
		{"none", nil, ""},
		{"explicit", map[string]string{"BENCH_SHARD": "2/5"}, "2/5"},
		{"explicit out of range", map[string]string{"BENCH_SHARD": "5/5"}, "err"},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, "3/4"},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, "3/4"},
		{"slurm gap", map[string]string{"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, "err"},
		{"kubernetes", map[string]string{"JOB_COMPLETION_INDEX": "1", "BENCH_SHARD_COUNT": "3"}, "1/3"},
		{"kubernetes without count", map[string]string{"JOB_COMPLETION_INDEX": "1"}, "err"},
		{"explicit wins", map[string]string{"BENCH_SHARD": "0/2", "JOB_COMPLETION_INDEX": "1", "BENCH_SHARD_COUNT": "3"}, "0/2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok, err := family.ShardFromEnv(func(k string) string { return tt.env[k] })
			switch {
			case tt.want == "err":
				if err == nil {
					t.Fatalf("got %v, want an error", s)
				}
			case err != nil:
				t.Fatal(err)
			case tt.want == "":
				if ok {
					t.Fatalf("sharded as %v without a setting", s)
				}
			case !ok || s.String() != tt.want:
				t.Fatalf("got %v (ok %v), want %s", s, ok, tt.want)
			}
		})
	}
	for _, bad := range []string{"3", "a/b", "-1/2", "2/2", "0/0"} {
		if _, err := family.ParseShard(bad); err == nil {
			t.Errorf("family.ParseShard(%q) accepted", bad)
		}
	}
}

const shardedConfig = `name: sh
task: movielens
seed: 9
dataset:
  name: movielens
  max_users: 5
  test_per_user: 4
  synthetic: {users: 10, movies: 800, seed: 4}
backbone: {kind: sim, sim: {latency: LATENCY}}
eval: {concurrency: 2}
methods:
  - {name: truncation, kind: truncation, history_tokens: 2000}
  - {name: rag, kind: rag, history_tokens: 2000, top_k: 3}
  - {name: mem0, kind: mem0, history_tokens: 2000}
  - {name: pramem, kind: pramem, pramem: {rounds: 2}}
report: {bootstrap: 30}
`

// compareRuns checks that two run directories hold byte-identical sample
// logs and report CSVs.
func compareRuns(t *testing.T, a, b string, files ...string) {
	t.Helper()
	for _, f := range files {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v / %v", f, err1, err2)
			continue
		}
		if !bytes.Equal(x, y) {
			xl, yl := strings.Split(string(x), "\n"), strings.Split(string(y), "\n")
			for i := 0; i < len(xl) && i < len(yl); i++ {
				if xl[i] != yl[i] {
					t.Errorf("%s differs between the single-process and the merged run, first at line %d:\n%s\n%s", f, i+1, xl[i], yl[i])
					break
				}
			}
			if len(xl) != len(yl) {
				t.Errorf("%s: %d vs %d lines", f, len(xl), len(yl))
			}
		}
	}
}

func TestMergedShardsEqualOneProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sh.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(shardedConfig, "LATENCY", "0s", 1)), 0o644)
	one, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	if log, code := runCLI(t, "merge", filepath.Join(sharded, "sh")); code == 0 || !strings.Contains(log, "no shards") {
		t.Errorf("merge without shards: exit %d\n%s", code, log)
	}
	for i := range 3 {
		if log, code := runCLI(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/3", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
		if i == 1 {
			log, code := runCLI(t, "merge", filepath.Join(sharded, "sh"))
			if code == 0 || !strings.Contains(log, "shard 2/3 missing") {
				t.Errorf("merge with a missing shard: exit %d\n%s", code, log)
			}
		}
	}
	log, code := runCLI(t, "merge", filepath.Join(sharded, "sh"))
	if code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	if !strings.Contains(log, "run sh: planned ") {
		t.Errorf("merge says nothing of planned against spent:\n%s", log)
	}
	compareRuns(t, filepath.Join(one, "sh"), filepath.Join(sharded, "sh"),
		runrecord.SamplesFile, runrecord.PlanFile, "report/metrics.csv", "report/table.md", "report/index.md", "report/confusion_mem0.csv")
	// Prompts live in the call record (compared below), not prompts.jsonl.
	for _, dir := range []string{one, sharded} {
		if _, err := os.Stat(filepath.Join(dir, "sh", runrecord.PromptsFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %s written (%v)", dir, runrecord.PromptsFile, err)
		}
	}
	compareUsage(t, "merged", filepath.Join(one, "sh"), filepath.Join(sharded, "sh"))
	// Sample units only: a memory built in more than one shard journals
	// its construction calls differently (usage.json differs the same way).
	compareCallRecords(t, filepath.Join(one, "sh"), filepath.Join(sharded, "sh"), "sample:")
	// Merging twice changes nothing.
	before, _ := os.ReadFile(filepath.Join(sharded, "sh", runrecord.SamplesFile))
	if log, code := runCLI(t, "merge", filepath.Join(sharded, "sh")); code != 0 {
		t.Fatalf("second merge exit %d:\n%s", code, log)
	}
	after, _ := os.ReadFile(filepath.Join(sharded, "sh", runrecord.SamplesFile))
	if !bytes.Equal(before, after) {
		t.Error("a second merge changed samples.jsonl")
	}
}

func TestMergedLifelongShardsEqualOneProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  ood: [fever]
  methods:
    - {name: react, kind: react}
    - {name: synapse, kind: synapse, top_k: 2}
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	one, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	for i := range 2 {
		if log, code := runCLI(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
	}
	log, code := runCLI(t, "merge", filepath.Join(sharded, "ll"))
	if code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	if !strings.Contains(log, "run ll: planned ") {
		t.Errorf("merge says nothing of planned against spent:\n%s", log)
	}
	compareRuns(t, filepath.Join(one, "ll"), filepath.Join(sharded, "ll"), runrecord.PlanFile,
		"report/lifemem_table2.csv", "report/lifemem_matrix.csv", "report/lifemem_ood.csv",
		"lifelong/lifemem/cells/02/webshop.json", "lifelong/synapse/cells/01/scienceworld.json")
	compareCallRecords(t, filepath.Join(one, "ll"), filepath.Join(sharded, "ll"), "")
}

// TestKilledShardResumesToTheSameMerge kills one shard part-way (SIGKILL of
// a real process), re-runs it, merges, and expects the single-process result.
func TestKilledShardResumesToTheSameMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sh.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(shardedConfig, "LATENCY", "15ms", 1)), 0o644)
	one, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", one); code != 0 {
		t.Fatalf("single run exit %d:\n%s", code, log)
	}
	want, _ := os.ReadFile(filepath.Join(one, "sh", runrecord.SamplesFile))
	perShard := bytes.Count(want, []byte("\n")) / 2

	args := strings.Join([]string{"run", "-c", cfg, "--out", sharded, "--shard", "0/2"}, "\x1f")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+args)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(family.Shard{Index: 0, Count: 2}.Dir(filepath.Join(sharded, "sh")), runrecord.SamplesFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if bytes.Count(b, []byte("\n")) >= perShard/3 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("shard made no progress:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if out, code := runCLI(t, "merge", filepath.Join(sharded, "sh")); code == 0 {
		t.Errorf("merge of a killed shard succeeded:\n%s", out)
	}
	for i := range 2 {
		if out, code := runCLI(t, "run", "-c", cfg, "--out", sharded, "--shard", fmt.Sprintf("%d/2", i)); code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, out)
		}
	}
	if out, code := runCLI(t, "merge", filepath.Join(sharded, "sh")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, out)
	}
	compareRuns(t, filepath.Join(one, "sh"), filepath.Join(sharded, "sh"), runrecord.SamplesFile, "report/metrics.csv")
	compareUsage(t, "killed, resumed and merged", filepath.Join(one, "sh"), filepath.Join(sharded, "sh"))
	// Sample units only: a memory built in more than one shard journals
	// its construction calls differently (usage.json differs the same way).
	compareCallRecords(t, filepath.Join(one, "sh"), filepath.Join(sharded, "sh"), "sample:")
}

func TestEndpointsFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "endpoints.txt")
	os.WriteFile(good, []byte("# one vLLM per node\nhttp://node1:8000/v1\n\n  http://node2:8000/v1  # second\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("http://ok:1/v1\nnode3:8000\n"), 0o644)
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, []byte("# nothing\n"), 0o644)
	tests := []struct {
		name, file, direct, want, errHas string
	}{
		{"none", "", "http://a/v1", "http://a/v1", ""},
		{"file", good, "", "http://node1:8000/v1,http://node2:8000/v1", ""},
		{"file after direct", good, "http://a/v1", "http://a/v1,http://node1:8000/v1,http://node2:8000/v1", ""},
		{"bad line", bad, "", "", "bad.txt:2"},
		{"empty", empty, "", "", "lists no endpoint"},
		{"missing", filepath.Join(dir, "nope"), "", "", "OPENAI_BASE_URLS_FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"OPENAI_BASE_URLS_FILE": tt.file, "OPENAI_BASE_URL": tt.direct}
			getenv, err := backbone.WithEndpointsFile(func(k string) string { return env[k] })
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v, want %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := getenv("OPENAI_BASE_URL"); got != tt.want {
				t.Errorf("OPENAI_BASE_URL = %q, want %q", got, tt.want)
			}
		})
	}
}

// A shard's slice can show two methods answering alike where the whole
// run does not: the identical-answers warning is judged over the merged
// samples, so the merged report equals one process's (the smoke config in
// four shards, as the Slurm check runs it).
func TestMergedShardsJudgeIdenticalAnswersOverTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	one, sharded := filepath.Join(dir, "one"), filepath.Join(dir, "sharded")
	if log, code := runCLI(t, "run", "-c", "../configs/smoke.yaml", "--out", one); code != 0 {
		t.Fatalf("one process exit %d:\n%s", code, log)
	}
	for i := range 4 {
		log, code := runCLI(t, "run", "-c", "../configs/smoke.yaml", "--out", sharded, "--shard", fmt.Sprintf("%d/4", i))
		if code != 0 {
			t.Fatalf("shard %d exit %d:\n%s", i, code, log)
		}
		if strings.Contains(log, "identical answers") {
			t.Errorf("shard %d judged identical answers on its slice:\n%s", i, log)
		}
	}
	if log, code := runCLI(t, "merge", filepath.Join(sharded, "smoke")); code != 0 {
		t.Fatalf("merge exit %d:\n%s", code, log)
	}
	compareRuns(t, filepath.Join(one, "smoke"), filepath.Join(sharded, "smoke"),
		runrecord.WarningsFile, "report/table.md", "report/index.md")
}
