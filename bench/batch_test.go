package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/batch"
	"github.com/memharness/memharness/llm/sim"
)

// withoutKeys re-encodes every JSON object of a JSON-lines or JSON file
// without the named keys, at any depth.
func withoutKeys(t *testing.T, data []byte, keys ...string) string {
	t.Helper()
	var strip func(v any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range keys {
				delete(x, k)
			}
			for k, e := range x {
				x[k] = strip(e)
			}
		case []any:
			for i, e := range x {
				x[i] = strip(e)
			}
		}
		return v
	}
	var out strings.Builder
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(strip(v))
		out.Write(append(b, '\n'))
	}
	return out.String()
}

// TestBatchRunEqualsLiveRun runs the same config live and with its
// questions and summaries sent through batches (the embedded stand-in):
// samples.jsonl (latency apart), every CSV and usage.json (latency and the
// batch count apart) are equal; a re-run takes everything from the cache.
func TestBatchRunEqualsLiveRun(t *testing.T) {
	cfg := writeConfig(t, "0s")
	live, batched := t.TempDir(), t.TempDir()
	if log, code := runCLI(t, "run", "-c", cfg, "--out", live); code != 0 {
		t.Fatalf("live run exit %d:\n%s", code, log)
	}
	args := []string{"run", "-c", cfg, "--out", batched, "--set", "backbone.batch.purposes=[predict,summary]",
		"--set", "backbone.batch.sim_delay=5ms", "--set", "eval.concurrency=12"}
	if log, code := runCLI(t, args...); code != 0 {
		t.Fatalf("batch run exit %d:\n%s", code, log)
	}
	a, b := filepath.Join(live, "tiny"), filepath.Join(batched, "tiny")
	read := func(dir, name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if x, y := withoutKeys(t, read(a, "samples.jsonl"), "latency_ms"), withoutKeys(t, read(b, "samples.jsonl"), "latency_ms"); x != y {
		t.Errorf("samples.jsonl differs beyond latency")
	}
	usageKeys := []string{"latency_total_ms", "latency_mean_ms", "batched_calls"}
	if x, y := withoutKeys(t, read(a, "usage.json"), usageKeys...), withoutKeys(t, read(b, "usage.json"), usageKeys...); x != y {
		t.Errorf("usage.json differs beyond latency and batches:\n%s\n%s", x, y)
	}
	var usage map[string]struct {
		Live    int `json:"live_calls"`
		Batched int `json:"batched_calls"`
	}
	if err := json.Unmarshal(read(b, "usage.json"), &usage); err != nil {
		t.Fatal(err)
	}
	if u := usage["predict"]; u.Batched == 0 || u.Batched != u.Live {
		t.Errorf("predict: %d of %d live calls batched, want all", u.Batched, u.Live)
	}
	if u := usage["summary"]; u.Batched != u.Live {
		t.Errorf("summary: %d of %d live calls batched", u.Batched, u.Live)
	}
	csvs, _ := filepath.Glob(filepath.Join(a, "report", "*.csv"))
	if len(csvs) == 0 {
		t.Fatal("the live run wrote no CSV")
	}
	for _, f := range csvs {
		name := filepath.Base(f)
		if !bytes.Equal(read(a, "report/"+name), read(b, "report/"+name)) {
			t.Errorf("report/%s differs", name)
		}
	}
	if !strings.Contains(string(read(b, "report/index.md")), "Calls answered by provider batches") {
		t.Errorf("the report does not say which calls batches answered")
	}
	log, code := runCLI(t, "batch", "status", b)
	if code != 0 || !strings.Contains(log, "0 wave(s) in flight") || !strings.Contains(log, "done completed") {
		t.Errorf("bench batch status exit %d:\n%s", code, log)
	}
	journal, _ := batch.Dirs(filepath.Join(b, "batches"))
	before := read(journal[0], batch.JournalName)
	if log, code := runCLI(t, args...); code != 0 || !strings.Contains(log, "0 live model calls") {
		t.Fatalf("re-run exit %d:\n%s", code, log)
	}
	if !bytes.Equal(before, read(journal[0], batch.JournalName)) {
		t.Errorf("the re-run sent batches again")
	}
}

// TestBatchOfflineRoundTripThroughTheCLI: with provider offline a run
// gathers every ready question into its first wave and stops; bench batch
// export writes it as a run-batch input file, a reply for no waiting
// request is refused, and the imported output lets the re-run finish.
func TestBatchOfflineRoundTripThroughTheCLI(t *testing.T) {
	cfg := writeConfig(t, "0s")
	out := t.TempDir()
	args := []string{"run", "-c", cfg, "--out", out, "--set", "backbone.batch.purposes=[predict]", "--set", "backbone.batch.provider=offline"}
	log, code := runCLI(t, args...)
	if code == 0 || !strings.Contains(log, "bench batch export") {
		t.Fatalf("an offline wave: exit %d:\n%s", code, log)
	}
	run := filepath.Join(out, "tiny")
	in := filepath.Join(t.TempDir(), "requests.jsonl")
	if log, code := runCLI(t, "batch", "export", run, "--purpose", "predict", "-o", in); code != 0 {
		t.Fatalf("export exit %d:\n%s", code, log)
	}
	data, err := os.ReadFile(in)
	if err != nil || len(data) == 0 {
		t.Fatalf("export wrote nothing: %v", err)
	}
	// Answer it as vllm run-batch would, with the embedded reader reading
	// each body's prompt.
	reader := sim.New(sim.Config{Threshold: 0.5, Seed: 1}, sim.Readers{})
	var results bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	n := 0
	for sc.Scan() {
		var line batch.InputLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		var body struct {
			Messages []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(line.Body, &body); err != nil {
			t.Fatal(err)
		}
		resp, err := reader.Generate(context.Background(), llm.Request{Purpose: "predict", Messages: body.Messages})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(map[string]any{"id": "vllm", "custom_id": line.CustomID, "error": nil,
			"response": map[string]any{"status_code": 200, "body": batch.CompletionBody(resp)}})
		results.Write(append(out, '\n'))
		n++
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, append(bytes.Clone(results.Bytes()), []byte(`{"custom_id":"mh-elsewhere","response":{"status_code":200,"body":{}}}`+"\n")...), 0o644)
	if log, code := runCLI(t, "batch", "import", run, bad); code == 0 || !strings.Contains(log, `"mh-elsewhere"`) {
		t.Errorf("an unknown reply was not refused: exit %d:\n%s", code, log)
	}
	good := filepath.Join(t.TempDir(), "results.jsonl")
	os.WriteFile(good, results.Bytes(), 0o644)
	if log, code := runCLI(t, "batch", "import", run, good); code != 0 || !strings.Contains(log, "imported") {
		t.Fatalf("import exit %d:\n%s", code, log)
	}
	// The first wave held every question, so the imported answers finish
	// the run without another wave.
	log, code = runCLI(t, args...)
	if code != 0 || !strings.Contains(log, "96/96 samples done") {
		t.Fatalf("the re-run after the import: exit %d:\n%s", code, log)
	}
	waves, err := batch.Dirs(filepath.Join(run, "batches"))
	if err != nil || len(waves) != 1 {
		t.Fatalf("batch directories %v %v", waves, err)
	}
	states, _ := batch.ReadJournal(waves[0])
	if len(states) != 1 || states[0].Step != batch.StepImported || states[0].OK != n || n != 96 {
		t.Errorf("the re-run did not finish on the one imported wave of %d answers: %+v\n%s", n, states, log)
	}
}

// TestBatchCeiling: the spending ceiling holds for batched calls (each
// reserves its bound before it joins a wave, so no wave can pass it), the
// batch price is what is spent, and a resumed run ends with the
// uninterrupted live run's samples.
func TestBatchCeiling(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ceil.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(ceilingConfig, "KIND", "sim", 1)), 0o644)
	live, batched := filepath.Join(dir, "live"), filepath.Join(dir, "batched")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", live); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	_, cost := totals(t, filepath.Join(live, "ceil"))
	batch := []string{"--set", "backbone.batch.purposes=[predict]", "--set", "backbone.prices.batch_discount=0.5", "--set", "backbone.batch.sim_delay=1ms"}
	args := append([]string{"run", "-c", cfg, "--out", batched, "--set", fmt.Sprintf("eval.max_cost=%.6f", cost/2)}, batch...)
	log, code := runCLI(t, args...)
	if code != exitCeiling || !strings.Contains(log, "stopped at ceiling: eval.max_cost $") {
		t.Fatalf("exit %d, want %d:\n%s", code, exitCeiling, log)
	}
	if _, spent := totals(t, filepath.Join(batched, "ceil")); spent > cost/2 {
		t.Errorf("the stopped run spent $%v, past the ceiling $%v", spent, cost/2)
	}
	args = append([]string{"run", "-c", cfg, "--out", batched, "--set", "eval.max_cost=0"}, batch...)
	if log, code := runCLI(t, args...); code != 0 {
		t.Fatalf("resume exit %d:\n%s", code, log)
	}
	// The same answers (costs differ: the batch price).
	a, _ := os.ReadFile(filepath.Join(live, "ceil", "samples.jsonl"))
	b, _ := os.ReadFile(filepath.Join(batched, "ceil", "samples.jsonl"))
	sorted := func(s string) string {
		lines := strings.Split(s, "\n")
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	if len(a) == 0 || sorted(withoutKeys(t, a, "latency_ms", "cost")) != sorted(withoutKeys(t, b, "latency_ms", "cost")) {
		x, y := sorted(withoutKeys(t, a, "latency_ms", "cost")), sorted(withoutKeys(t, b, "latency_ms", "cost"))
		for i, l := range strings.Split(x, "\n") {
			if m := strings.Split(y, "\n"); i < len(m) && m[i] != l {
				t.Errorf("the resumed batch run's samples differ from the live run's:\n%s\n%s", l, m[i])
				break
			}
		}
	}
	usage := readUsage(t, filepath.Join(batched, "ceil"))
	liveUsage := readUsage(t, filepath.Join(live, "ceil"))
	u, l := usage["predict"], liveUsage["predict"]
	if u.Cost == nil || l.Cost == nil || math.Abs(*u.Cost-*l.Cost/2) > 1e-6 || u.BatchedCalls == 0 || u.BatchedCalls != u.LiveCalls {
		t.Errorf("predict: %d of %d live calls batched, $%v, want half the live run's $%v", u.BatchedCalls, u.LiveCalls, u.Cost, l.Cost)
	}
}

// TestBatchLifelongRunEqualsLiveRun: on the lifelong path, LifeMem's
// construction steps sent through batches leave every CSV as the live run
// writes it.
func TestBatchLifelongRunEqualsLiveRun(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 2
  methods:
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	live, batched := filepath.Join(dir, "live"), filepath.Join(dir, "batched")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", live); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", batched, "--set", "backbone.batch.purposes=[lifemem.summary,lifemem.assign]",
		"--set", "backbone.batch.linger=5ms"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	csvs, _ := filepath.Glob(filepath.Join(live, "ll", "report", "*.csv"))
	if len(csvs) == 0 {
		t.Fatal("no CSV")
	}
	for _, f := range csvs {
		a, _ := os.ReadFile(f)
		b, _ := os.ReadFile(filepath.Join(batched, "ll", "report", filepath.Base(f)))
		if !bytes.Equal(a, b) {
			t.Errorf("report/%s differs", filepath.Base(f))
		}
	}
	usage := readUsage(t, filepath.Join(batched, "ll"))
	if u := usage["lifemem.summary"]; u.BatchedCalls == 0 || u.BatchedCalls != u.LiveCalls || usage["agent.act"].BatchedCalls != 0 {
		t.Errorf("batched calls: summary %d of %d, act %d", u.BatchedCalls, u.LiveCalls, usage["agent.act"].BatchedCalls)
	}
}

// TestBatchWaveGathersEveryReadyQuestion: with two workers a wave holds
// every question of the run, not two: a worker whose call parks gives its
// slot back, so the next question starts and joins the same wave. Offline,
// the first wave written (and exported) holds every question too.
func TestBatchWaveGathersEveryReadyQuestion(t *testing.T) {
	cfg := writeConfig(t, "0s")
	for _, provider := range []string{"sim", "offline"} {
		t.Run(provider, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"run", "-c", cfg, "--out", out, "--set", "backbone.batch.purposes=[predict]",
				"--set", "eval.concurrency=2", "--set", "backbone.batch.linger=1s"}
			if provider == "offline" {
				args = append(args, "--set", "backbone.batch.provider=offline")
			}
			log, code := runCLI(t, args...)
			if provider == "sim" && code != 0 || provider == "offline" && !strings.Contains(log, "bench batch export") {
				t.Fatalf("exit %d:\n%s", code, log)
			}
			run := filepath.Join(out, "tiny")
			dirs, err := batch.Dirs(filepath.Join(run, "batches"))
			if err != nil || len(dirs) != 1 {
				t.Fatalf("batch directories %v %v", dirs, err)
			}
			states, err := batch.ReadJournal(dirs[0])
			if err != nil || len(states) == 0 {
				t.Fatalf("journal: %v %v", states, err)
			}
			// Every (method, question) pair is one sample with its own
			// request; the sim's redraws of invalid answers come later.
			questions := 3 * 8 * 4
			if n := len(states[0].Requests); n != questions {
				t.Errorf("the first wave holds %d requests, want every one of the %d questions (%d waves)", n, questions, len(states))
			}
			if provider == "offline" {
				exported := filepath.Join(t.TempDir(), "requests.jsonl")
				if log, code := runCLI(t, "batch", "export", run, "--purpose", "predict", "-o", exported); code != 0 {
					t.Fatalf("export exit %d:\n%s", code, log)
				}
				data, _ := os.ReadFile(exported)
				if n := bytes.Count(data, []byte("\n")); n != questions {
					t.Errorf("the export holds %d requests, want %d", n, questions)
				}
			}
		})
	}
}

// TestBatchLifelongEpisodesShareWaves: with the agent's steps batched, the
// test episodes of a cell park side by side (one worker plays them, and
// gives its slot back while a step waits), so a wave holds a step of every
// episode; the CSVs equal the live run's.
func TestBatchLifelongEpisodesShareWaves(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ll.yaml")
	os.WriteFile(cfg, []byte(`name: ll
task: lifemem
backbone: {kind: sim}
lifelong:
  stream: similarity
  envs: [scienceworld, webshop]
  tasks_per_env: 3
  methods:
    - {name: lifemem, kind: lifemem, top_k: 2}
`), 0o644)
	live, batched := filepath.Join(dir, "live"), filepath.Join(dir, "batched")
	if log, code := runCLI(t, "run", "-c", cfg, "--out", live); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	if log, code := runCLI(t, "run", "-c", cfg, "--out", batched, "--set", "backbone.batch.purposes=[agent.act]",
		"--set", "backbone.batch.linger=300ms"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	csvs, _ := filepath.Glob(filepath.Join(live, "ll", "report", "*.csv"))
	if len(csvs) == 0 {
		t.Fatal("no CSV")
	}
	for _, f := range csvs {
		a, _ := os.ReadFile(f)
		b, _ := os.ReadFile(filepath.Join(batched, "ll", "report", filepath.Base(f)))
		if !bytes.Equal(a, b) {
			t.Errorf("report/%s differs", filepath.Base(f))
		}
	}
	dirs, _ := batch.Dirs(filepath.Join(batched, "ll", "batches"))
	most := 0
	for _, d := range dirs {
		states, _ := batch.ReadJournal(d)
		for _, s := range states {
			most = max(most, len(s.Requests))
		}
	}
	if most < 3 {
		t.Errorf("the largest wave holds %d steps, want one of each of a cell's 3 episodes at least", most)
	}
}
