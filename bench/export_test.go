package bench_test

// bench export on the embedded runs: every file of every format validates
// against the formats' published schemas (../shared/fixtures/interop), its
// numbers equal the run report's, and exporting again writes the same bytes.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/internal/testfixture"
)

type interopSchemas struct {
	log, sample, eee, instance *jsonschema.Schema
}

func loadInteropSchemas(t *testing.T) interopSchemas {
	t.Helper()
	dir := testfixture.Need(t, "interop")
	c := jsonschema.NewCompiler()
	add := func(rel string) string {
		f, err := os.Open(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		url := "file:///interop/" + rel
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return url
	}
	logURL := add("inspect/log-schema.json")
	eeeURL := add("every_eval_ever/eval.schema.json")
	instURL := add("every_eval_ever/instance_level_eval.schema.json")
	var s interopSchemas
	var err error
	for _, x := range []struct {
		dst **jsonschema.Schema
		loc string
	}{{&s.log, logURL}, {&s.sample, logURL + "#/$defs/EvalSample"}, {&s.eee, eeeURL}, {&s.instance, instURL}} {
		if *x.dst, err = c.Compile(x.loc); err != nil {
			t.Fatalf("compile %s: %v", x.loc, err)
		}
	}
	return s
}

// secretKey is set as OPENAI_API_KEY while the runs run: no export may hold it.
const secretKey = "sk-export-test-0123456789abcdef"

func benchMain(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	getenv := func(k string) string {
		if k == "OPENAI_API_KEY" {
			return secretKey
		}
		return ""
	}
	if code := bench.Main(context.Background(), args, bench.IO{Out: &out, Err: &out, Getenv: getenv}); code != 0 {
		t.Fatalf("bench %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
	}
	return out.String()
}

// paperSets are the --set overrides that run a paper config small: two users
// with two questions each, two practice rounds (four where methods evaluate
// snapshots, each snapshot's round scaled with them), one test task in the first two environments of the
// stream, no self-learn row, 50 bootstrap resamples. Every method and every
// sweep variant stays, so each method's name and kind goes through the export.
func paperSets(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Task    string
		Methods []struct {
			Kind   string
			Pramem struct {
				Rounds    int
				EvalRound int `yaml:"eval_round"`
			}
		}
		Lifelong struct{ Envs []string }
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sets := []string{"report.bootstrap=50"}
	if cfg.Task == "lifemem" {
		envs := cfg.Lifelong.Envs
		if len(envs) == 0 {
			envs = []string{"alfworld", "scienceworld"} // the paper's stream starts so
		}
		if len(envs) > 2 {
			envs = envs[:2]
		}
		sets = append(sets, "lifelong.tasks_per_env=1", "lifelong.self_learn=false",
			"lifelong.envs=["+strings.Join(envs, ", ")+"]")
	} else {
		sets = append(sets, "dataset.max_users=2", "dataset.test_per_user=2")
	}
	rounds := 2
	for _, m := range cfg.Methods {
		if m.Pramem.EvalRound > 0 {
			rounds = 4 // room for distinct snapshots (20 rounds' 5, 10, 20 become 1, 2, 4)
		}
	}
	for i, m := range cfg.Methods {
		if m.Kind != "pramem" {
			continue
		}
		sets = append(sets, fmt.Sprintf("methods[%d].pramem.rounds=%d", i, rounds))
		if e := m.Pramem.EvalRound; e > 0 && m.Pramem.Rounds > 0 {
			// The same point of the construction, at the smaller size.
			sets = append(sets, fmt.Sprintf("methods[%d].pramem.eval_round=%d", i, max(1, (e*rounds+m.Pramem.Rounds-1)/m.Pramem.Rounds)))
		}
	}
	var args []string
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return args
}

func TestExportFormatsValidateAndRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: runs every paper config at a small size")
	}
	schemas := loadInteropSchemas(t)
	tmp := t.TempDir()
	small := []string{"--set", "report.bootstrap=50"}
	pred := append([]string{"--set", "dataset.max_users=2", "--set", "dataset.test_per_user=2"}, small...)
	type tc struct {
		name string
		dir  string // the run (or sweep) folder to export
		make func()
	}
	cases := []tc{
		{"smoke", filepath.Join(tmp, "a", "smoke"), func() {
			// report.export writes the formats at the end of the run.
			benchMain(t, append([]string{"run", "-c", "../configs/smoke.yaml", "--out", filepath.Join(tmp, "a"),
				"--set", "backbone.kind=sim", "--set", "report.export=[inspect, eee, lmeval]"}, pred...)...)
		}},
		{"sweep_budget", filepath.Join(tmp, "d", "sweep_budget"), func() {
			benchMain(t, append([]string{"sweep", "-c", "../configs/examples/sweep_budget.yaml", "--out", filepath.Join(tmp, "d")}, pred...)...)
		}},
		{"merged shards", filepath.Join(tmp, "e", "smoke"), func() {
			for _, sh := range []string{"0/2", "1/2"} {
				benchMain(t, append([]string{"run", "-c", "../configs/smoke.yaml", "--out", filepath.Join(tmp, "e"), "--shard", sh}, pred...)...)
			}
			benchMain(t, "merge", filepath.Join(tmp, "e", "smoke"))
		}},
	}
	// Every config make bench runs, as make bench runs it (bench suite: a
	// config with a sweep block as a sweep), so a new paper config is
	// covered without a line here.
	paper, err := filepath.Glob("../configs/paper/*.yaml")
	if err != nil || len(paper) == 0 {
		t.Fatalf("no paper configs under ../configs/paper: %v", err)
	}
	for _, cfg := range paper {
		name := strings.TrimSuffix(filepath.Base(cfg), ".yaml")
		out := filepath.Join(tmp, "paper")
		cases = append(cases, tc{"paper/" + name, filepath.Join(out, name), func() {
			benchMain(t, append([]string{"suite", "--out", out, cfg}, paperSets(t, cfg)...)...)
		}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.make()
			key := strings.ReplaceAll(c.name, "/", "_")
			out1, out2 := filepath.Join(tmp, key+"-x1"), filepath.Join(tmp, key+"-x2")
			benchMain(t, "export", c.dir, "--format", "inspect,eee,lmeval", "--out", out1)
			benchMain(t, "export", c.dir, "--format", "inspect,eee,lmeval", "--out", out2)
			runs := []string{c.dir}
			outs := []string{out1}
			if _, err := os.Stat(filepath.Join(c.dir, "manifest.json")); err != nil {
				// A sweep: each variant's run is exported into its own folder.
				// Variants the sim backbone cannot tell apart share one run
				// (same_run.json in each variant's folder names it).
				runs, outs = nil, nil
				var shared []string // runs named by a same_run.json
				variants := 0
				ents, _ := os.ReadDir(c.dir)
				for _, e := range ents {
					dir := filepath.Join(c.dir, e.Name())
					if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
						runs = append(runs, dir)
						outs = append(outs, filepath.Join(out1, e.Name()))
						variants++
					} else if b, err := os.ReadFile(filepath.Join(dir, "same_run.json")); err == nil {
						var same struct{ Run string }
						if err := json.Unmarshal(b, &same); err != nil || same.Run == "" {
							t.Fatalf("%s/same_run.json: %v", dir, err)
						}
						shared = append(shared, filepath.Join(dir, same.Run))
						variants++
					}
				}
				if variants < 2 || len(runs) == 0 {
					t.Fatalf("%s: a sweep of %d variants in %d runs", c.dir, variants, len(runs))
				}
				for _, r := range shared {
					if !slices.Contains(runs, r) {
						t.Errorf("%s: a variant shares run %s, which the sweep does not hold", c.dir, r)
					}
				}
			}
			for i := range runs {
				checkExport(t, schemas, runs[i], outs[i])
			}
			sameTree(t, out1, out2)
			if c.name == "smoke" {
				// The end-of-run export equals the verb's.
				sameTree(t, filepath.Join(c.dir, "export"), out1)
			}
		})
	}
}

// sameTree fails unless a and b hold the same files with the same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	n := 0
	filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two exports of the same run", rel)
		}
		n++
		return nil
	})
	if n == 0 {
		t.Errorf("%s: no files", a)
	}
}

func decode(t *testing.T, name string, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

func validate(t *testing.T, s *jsonschema.Schema, name string, v any) {
	t.Helper()
	if err := s.Validate(v); err != nil {
		msg := err.Error()
		if len(msg) > 3000 {
			msg = msg[:3000]
		}
		t.Fatalf("%s does not validate: %s", name, msg)
	}
}

// reportNumbers are the report's numbers of a run, by method and
// "group/name" (metrics.csv; lifemem_matrix.csv as "stage NN/env").
func reportNumbers(t *testing.T, run string) map[string]map[string]float64 {
	t.Helper()
	out := map[string]map[string]float64{}
	put := func(m, k string, v string) {
		if v == "" {
			return
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		if out[m] == nil {
			out[m] = map[string]float64{}
		}
		out[m][k] = f
	}
	read := func(name string, fn func(map[string]string)) bool {
		f, err := os.Open(filepath.Join(run, "report", name))
		if err != nil {
			return false
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows[1:] {
			m := map[string]string{}
			for i, h := range rows[0] {
				m[h] = r[i]
			}
			fn(m)
		}
		return true
	}
	if !read("metrics.csv", func(r map[string]string) { put(r["method"], r["field"]+"/"+r["metric"], r["value"]) }) {
		if !read("lifemem_matrix.csv", func(r map[string]string) { put(r["method"], "stage "+r["stage"]+"/"+r["env"], r["score_percent"]) }) {
			t.Fatalf("%s: no metrics.csv or lifemem_matrix.csv", run)
		}
	}
	return out
}

func checkExport(t *testing.T, s interopSchemas, run, out string) {
	t.Helper()
	want := reportNumbers(t, run)
	seen := map[string]int{}              // format → numbers compared
	found := map[string]map[string]bool{} // format → "method key" compared
	compare := func(format, method, key string, got float64) {
		if w, ok := want[method][key]; ok {
			if got != w {
				t.Errorf("%s: %s %s = %v, report says %v", format, method, key, got, w)
			}
			seen[format]++
			if found[format] == nil {
				found[format] = map[string]bool{}
			}
			found[format][method+" "+key] = true
		}
	}
	samples := 0
	rejected := map[string]bool{}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.Base(p)
		if bytes.Contains(b, []byte(secretKey)) {
			t.Errorf("%s holds the API key", p)
		}
		switch {
		case name == "listing.json":
			// The viewer's manifest: each log's header, by file name.
			listing := decode(t, p, b).(map[string]any)
			if len(listing) == 0 {
				t.Errorf("%s lists no log", p)
			}
			for file, head := range listing {
				validate(t, s.log, p+": "+file, head)
				if _, err := os.Stat(filepath.Join(filepath.Dir(p), file)); err != nil {
					t.Errorf("%s lists %s: %v", p, file, err)
				}
			}
		case strings.HasSuffix(p, ".json") && strings.Contains(p, string(filepath.Separator)+"inspect"+string(filepath.Separator)):
			validate(t, s.log, p, decode(t, p, b))
			if !rejected["inspect"] {
				// The schema is really applied: a log without its model is refused.
				doc := decode(t, p, b).(map[string]any)
				delete(doc["eval"].(map[string]any), "model")
				if s.log.Validate(doc) == nil {
					t.Errorf("%s: a log without eval.model passed the schema", p)
				}
				rejected["inspect"] = true
			}
			var log struct {
				Eval struct {
					TaskArgs struct{ Method string } `json:"task_args"`
				}
				Results struct {
					Scores []struct {
						Name    string
						Metrics map[string]struct{ Value float64 }
					}
				}
				Samples []json.RawMessage
			}
			if err := json.Unmarshal(b, &log); err != nil {
				t.Fatal(err)
			}
			for _, sc := range log.Results.Scores {
				for k, m := range sc.Metrics {
					compare("inspect", log.Eval.TaskArgs.Method, sc.Name+"/"+k, m.Value)
				}
			}
			samples += len(log.Samples)
		case strings.HasSuffix(p, ".eval"):
			zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			var nSamples int
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(rc)
				rc.Close()
				if bytes.Contains(body, []byte(secretKey)) {
					t.Errorf("%s:%s holds the API key", p, f.Name)
				}
				switch {
				case f.Name == "header.json":
					validate(t, s.log, p+":header.json", decode(t, f.Name, body))
				case strings.HasPrefix(f.Name, "samples/"):
					validate(t, s.sample, p+":"+f.Name, decode(t, f.Name, body))
					nSamples++
				}
			}
			if nSamples == 0 {
				t.Errorf("%s: no samples", p)
			}
		case strings.Contains(p, string(filepath.Separator)+"eee"+string(filepath.Separator)) && strings.HasSuffix(name, "_samples.jsonl"):
			sc := bufio.NewScanner(bytes.NewReader(b))
			sc.Buffer(nil, 1<<26)
			for sc.Scan() {
				validate(t, s.instance, p, decode(t, p, sc.Bytes()))
			}
		case strings.Contains(p, string(filepath.Separator)+"eee"+string(filepath.Separator)) && strings.HasSuffix(name, ".json"):
			validate(t, s.eee, p, decode(t, p, b))
			if !rejected["eee"] {
				doc := decode(t, p, b).(map[string]any)
				doc["evaluation_results"].([]any)[0].(map[string]any)["score_details"] = map[string]any{"score": "high"}
				if s.eee.Validate(doc) == nil {
					t.Errorf("%s: a record with a text score passed the schema", p)
				}
				rejected["eee"] = true
			}
			var rec struct {
				ModelInfo struct {
					AdditionalDetails struct {
						MemoryMethod string `json:"memory_method"`
					} `json:"additional_details"`
				} `json:"model_info"`
				EvaluationResults []struct {
					ID           string                  `json:"evaluation_result_id"`
					ScoreDetails struct{ Score float64 } `json:"score_details"`
				} `json:"evaluation_results"`
			}
			if err := json.Unmarshal(b, &rec); err != nil {
				t.Fatal(err)
			}
			m := rec.ModelInfo.AdditionalDetails.MemoryMethod
			for _, r := range rec.EvaluationResults {
				compare("eee", m, strings.TrimPrefix(r.ID, m+"/"), r.ScoreDetails.Score)
			}
		case strings.HasPrefix(name, "results_") && strings.HasSuffix(name, ".json"):
			var res struct {
				Results map[string]map[string]any
				Configs map[string]struct {
					Metadata struct {
						Method string `json:"memory_method"`
					}
				}
			}
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			for task, ms := range res.Results {
				method := res.Configs[task].Metadata.Method
				for k, v := range ms {
					metricName, ok := strings.CutSuffix(k, ",none")
					f, isNum := v.(float64)
					if !ok || !isNum || strings.HasSuffix(metricName, "_stderr") {
						continue
					}
					for key := range want[method] {
						group, mname, _ := strings.Cut(key, "/")
						if lmTask(run, group, mname) == task+"|"+metricName {
							compare("lmeval", method, key, f)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if samples == 0 {
		t.Errorf("%s: the Inspect logs hold no samples", out)
	}
	for _, f := range []string{"inspect", "eee", "lmeval"} {
		if seen[f] == 0 {
			t.Errorf("%s: no %s number matched the report", out, f)
		}
		var missing []string
		for m, ks := range want {
			for k := range ks {
				if !found[f][m+" "+k] {
					missing = append(missing, m+" "+k)
				}
			}
		}
		if len(missing) > 0 {
			slices.Sort(missing)
			t.Errorf("%s: %d report numbers missing from the %s export, e.g. %q", out, len(missing), f, missing[:min(5, len(missing))])
		}
	}
}

// lmTask is where the lm-eval export files a report number: "task|metric".
func lmTask(run, group, name string) string {
	var man struct{ Name, Variant string }
	b, _ := os.ReadFile(filepath.Join(run, "manifest.json"))
	json.Unmarshal(b, &man)
	task := man.Name
	if man.Variant != "" {
		task += "/" + man.Variant
	}
	safe := func(s string) string {
		return strings.Map(func(c rune) rune {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
				return c
			}
			return '_'
		}, s)
	}
	if stage, ok := strings.CutPrefix(group, "stage "); ok {
		return safe(task+"_"+name) + "|score_stage_" + stage
	}
	return safe(task+"_"+group) + "|" + name
}
