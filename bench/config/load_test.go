package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// noEnv is an empty environment, so tests do not depend on the caller's.
func noEnv(string) string { return "" }

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// wantErr checks that err prints exactly the given lines.
func wantErr(t *testing.T, err error, lines ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want:\n%s", strings.Join(lines, "\n"))
	}
	if got, want := err.Error(), strings.Join(lines, "\n"); got != want {
		t.Errorf("error mismatch\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		file string
		sets []string
		want []string
	}{
		{"unknown_key", nil, []string{
			`testdata/unknown_key.yaml:5: unknown field "histroy_tokens" in methods[1] (did you mean "history_tokens"?)`,
		}},
		{"type_error", nil, []string{
			`testdata/type_error.yaml:2: backbone.concurrency: cannot use "lots" as an integer`,
			`testdata/type_error.yaml:3: backbone.timeout: invalid duration "soon" (want e.g. "30s", "2m" or a number of seconds)`,
			`testdata/type_error.yaml:6: methods[0].top_k: cannot use a list as an integer`,
		}},
		{"invalid", nil, []string{
			`testdata/invalid.yaml:2: dataset.language: unknown value "fr" (want en, zh)`,
			`testdata/invalid.yaml:4: backbone.concurrency: must be between 1 and 4096, got 0`,
			`testdata/invalid.yaml:6: methods[0].kind: unknown method kind "ragg" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`testdata/invalid.yaml:8: methods[1].history_tokens: must be -1 (no history), 0 (the kind's default) or positive, got -5`,
			`testdata/invalid.yaml:9: methods[2].name: duplicate method name "truncation" (also methods[1]); give each a distinct name (defaulted from methods[2].kind)`,
			`testdata/invalid.yaml:10: methods[2].top_k: is not used by kind "truncation"`,
			`testdata/invalid.yaml:12: report.level: must be strictly between 0 and 1, got 1.5`,
		}},
		{"duplicate", nil, []string{
			`testdata/duplicate.yaml:4: duplicate key "seed" in the config (first at testdata/duplicate.yaml:1)`,
		}},
		{"list", nil, []string{`testdata/list.yaml:1: a config must be a mapping of keys, not a list`}},
		{"two_docs", nil, []string{`testdata/two_docs.yaml:2: a config file holds one YAML document; found a second`}},
		{"syntax", nil, []string{`testdata/syntax.yaml:1: did not find expected '-' indicator`}},
		{"secrets", nil, []string{
			`testdata/secrets.yaml:4: backbone.base_urls[0]: URL https://user:xxxxx@example.com/v1 carries credentials; put the key in OPENAI_API_KEY instead`,
			`testdata/secrets.yaml:4: backbone.base_urls[1]: want an http(s) URL, got "ftp://x"`,
		}},
		{"openai_missing", nil, []string{
			`testdata/openai_missing.yaml:1: backbone.base_urls: the openai backbone needs base_urls or OPENAI_BASE_URL`,
			`testdata/openai_missing.yaml:1: backbone.model: the openai backbone needs a model (or OPENAI_MODEL)`,
			`testdata/openai_missing.yaml:2: embedder.model: the openai embedder needs a model`,
			`testdata/openai_missing.yaml:2: embedder.base_url: the openai embedder needs base_url (or an openai backbone, or OPENAI_BASE_URL)`,
		}},
		{"anchors_bad", nil, []string{
			`testdata/anchors_bad.yaml:2: unknown field "topk" in methods[0] (did you mean "top_k"?)`,
			`testdata/anchors_bad.yaml:2: unknown field "topk" in methods[1] (did you mean "top_k"?)`,
		}},
		{"sweep_badkey", nil, []string{
			`testdata/sweep_badkey.yaml:5: sweep key "methods[0].histroy_tokens": unknown field "histroy_tokens" in methods[0] (did you mean "history_tokens"?)`,
		}},
		{"sweep_malformed", nil, []string{
			`testdata/sweep_malformed.yaml:4: unknown field "grids" in sweep (did you mean "grid"?)`,
			`testdata/sweep_malformed.yaml:7: sweep.variants[0].name: "a/b" is not a safe variant name (use letters, digits, '.', '_' and '-', no "__")`,
			`testdata/sweep_malformed.yaml:7: sweep.variants[0]: a variant needs a name`,
			`testdata/sweep_malformed.yaml:8: sweep.variants[1]: a variant needs a name`,
			`testdata/sweep_malformed.yaml:10: unknown field "sett" in sweep.variants[2] (did you mean "set"?)`,
			`testdata/sweep_malformed.yaml:11: sweep.variants[3]: duplicate variant name "c" (first at testdata/sweep_malformed.yaml:9)`,
		}},
		// A --set value is checked like a file value, and placed at the flag.
		{"minimal", []string{"backbone.concurrency=many"}, []string{
			`--set backbone.concurrency=many: backbone.concurrency: cannot use "many" as an integer`,
		}},
		{"minimal", []string{"methods[0].kind=ragg"}, []string{
			`--set methods[0].kind=ragg: methods[0].kind: unknown method kind "ragg" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
		}},
		{"minimal", []string{"dataset.synthetic.users=-3"}, []string{
			`--set dataset.synthetic.users=-3: dataset.synthetic.users: must be between 0 and 100000, got -3`,
		}},
		{"minimal", []string{"methods[1]={kind: rag, histroy_tokens: 1}"}, []string{
			`--set methods[1]={kind: rag, histroy_tokens: 1}: unknown field "histroy_tokens" in methods[1] (did you mean "history_tokens"?)`,
		}},
		{"minimal", []string{"noeq", "a..b=1"}, []string{
			`--set noeq: want key=value`,
			`--set a..b=1: key "a..b": empty field name`,
		}},
		{"minimal", []string{"backbone.modle=x"}, []string{
			`--set backbone.modle=x: unknown field "modle" in backbone (did you mean "model"?)`,
		}},
		// Spending ceilings: not negative, and a cost needs prices.
		{"minimal", []string{"eval.max_tokens=-1", "eval.max_cost=-0.5"}, []string{
			`--set eval.max_cost=-0.5: eval.max_cost: must not be negative, got -0.5`,
			`--set eval.max_tokens=-1: eval.max_tokens: must be at least 0, got -1`,
		}},
		{"minimal", []string{"eval.max_cost=2"}, []string{
			`--set eval.max_cost=2: eval.max_cost: needs backbone.prices to price the calls`,
		}},
		{"minimal", []string{"methods.kind=x"}, []string{`--set methods.kind=x: methods is a list; use methods[N]`}},
		{"minimal", []string{"methods[0]kind=x"}, []string{`--set methods[0]kind=x: key "methods[0]kind": missing '.' after ']'`}},
		{"minimal", []string{"methods[x]=1"}, []string{`--set methods[x]=1: key "methods[x]": list index "x" is not a non-negative integer`}},
		{"minimal", []string{"[0]=1"}, []string{`--set [0]=1: key "[0]": must start with a field name`}},
		{"minimal", []string{"seed=["}, []string{`--set seed=[: value is not valid YAML: line 1: did not find expected node content`}},
		{"minimal", []string{"backbone.model.x=1"}, []string{`--set backbone.model.x=1: backbone.model is a single value; it has no field "x"`}},
		{"minimal", []string{"backbone.timeout.x=1"}, []string{`--set backbone.timeout.x=1: backbone.timeout is a single value; it has no field "x"`}},
		{"minimal", []string{"methods[3].kind=rag"}, []string{
			`--set methods[3].kind=rag: index 3 is out of range: methods has 1 entries (use [1] to add one)`,
		}},
		{"minimal", []string{"sweep.grid=1"}, []string{
			`--set sweep.grid=1: unknown field "sweep" in the config (the sweep block cannot be set from the command line)`,
		}},
		{"minimal", []string{"methods=5"}, []string{`--set methods=5: methods: cannot use "5" as a list`}},
		{"minimal", []string{"methods=5", "methods[0].kind=rag"}, []string{
			`--set methods[0].kind=rag: methods is "5", not a list`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file+strings.Join(tt.sets, ","), func(t *testing.T) {
			cfg, err := Options{Getenv: noEnv}.Load("testdata/"+tt.file+".yaml", tt.sets)
			if cfg != nil {
				t.Errorf("got a config along with the error")
			}
			wantErr(t, err, tt.want...)
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("testdata/nope.yaml", nil)
	if err == nil || !strings.Contains(err.Error(), "read config") || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("got %v, want a read error naming the file", err)
	}
}

func TestLoadAnchors(t *testing.T) {
	cfg, err := Options{Getenv: noEnv}.Load("testdata/anchors.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, m := range cfg.Methods {
		got = append(got, m.Name+"/"+m.Kind+"/"+string(rune('0'+m.TopK)))
	}
	if want := "rag-a/rag/3 rag-b/rag/5"; strings.Join(got, " ") != want {
		t.Errorf("methods = %v, want %s", got, want)
	}
}

func TestLoadEmptyFile(t *testing.T) {
	// An empty config is well-formed YAML but has no method to run.
	wantErr(t, loadString(t, "", nil), `CFG: methods: at least one method is required`)
}

func TestTypeErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"backbone: {sim: {threshold: high}}", `CFG:1: backbone.sim.threshold: cannot use "high" as a number`},
		{"dataset: {synthetic: {seed: -1}}", `CFG:1: dataset.synthetic.seed: cannot use "-1" as a non-negative integer`},
		{"backbone: 3", `CFG:1: backbone: cannot use "3" as a mapping`},
		{"backbone: {base_urls: http://a}", `CFG:1: backbone.base_urls: cannot use "http://a" as a list`},
		{"prompt: {templates: [a]}", `CFG:1: prompt.templates: cannot use a list as a mapping`},
		{"backbone: {params: {temperature: {x: 1}}}", `CFG:1: backbone.params.temperature: cannot use a mapping as a number`},
		{"seed: 99999999999999999999", `CFG:1: seed: cannot use "99999999999999999999" as an integer`},
		{"backbone: {<<: 3}", `CFG:1: backbone: a merge (<<) needs a mapping, not "3"`},
		{"? [a]\n: 1", `CFG:1: keys must be plain names, not a list`},
	}
	for _, tt := range tests {
		wantErr(t, loadString(t, tt.text+"\nmethods: [{kind: rag}]\n", nil), tt.want)
	}
}

func TestValidationRanges(t *testing.T) {
	tests := []struct{ text, want string }{
		{"backbone: {sim: {threshold: 1.5}}", `CFG:1: backbone.sim.threshold: must be between 0 and 1, got 1.5`},
		{"backbone: {prices: {prompt_per_1m: -1}}", `CFG:1: backbone.prices.prompt_per_1m: must not be negative, got -1`},
		{"backbone: {prices: {prompt_per_1m: .inf}}", `CFG:1: backbone.prices.prompt_per_1m: must be a finite number, got +Inf`},
		{"backbone: {prices: {completion_per_1m: 1e308}}", `CFG:1: backbone.prices.completion_per_1m: must be at most 1e+06 US dollars per million tokens, got 1e+308`},
		{"backbone: {prices: {prompt_per_1m: 1}}\neval: {max_cost: .inf}", `CFG:2: eval.max_cost: must be a finite number, got +Inf`},
		{"dataset: {synthetic: {users: 50000000}}", `CFG:1: dataset.synthetic.users: must be between 0 and 100000, got 50000000`},
		{"report: {bootstrap: 2000000000}", `CFG:1: report.bootstrap: must be between 0 and 1000000, got 2000000000`},
		{"task: locomo\ndataset: {name: locomo}\nreport: {category_names: paper}", `CFG:3: report.category_names: unknown value "paper" (want locomo-code, mem0)`},
		{"task: longmemeval\ndataset: {name: longmemeval}\nreport:\n  category_names: mem0", `CFG:4: report.category_names: is read by LoCoMo's task only (this task's questions carry no LoCoMo categories)`},
		{"report: {count_adversarial: true}", `CFG:1: report.count_adversarial: is read by LoCoMo's task only (this task has no adversarial category)`},
		{"task: locomo\ndataset: {name: locomo}\nreport: {count_adversarial: maybe}", `CFG:3: report.count_adversarial: cannot use "maybe" as true or false`},
		{"backbone: {params: {top_p: 0}}", `CFG:1: backbone.params.top_p: must be in (0, 1], got 0`},
		{"backbone: {sim: {persistent_invalid_rate: 2}}", `CFG:1: backbone.sim.persistent_invalid_rate: must be between 0 and 1, got 2`},
		{"task: nosuchtask", `CFG:1: task: unknown value "nosuchtask" (want movielens, omnibehavior, lifemem, locomo, longmemeval)`},
		{"name: my run", `CFG:1: name: "my run" is not a safe file name (use letters, digits, '.', '_' and '-')`},
		{"prompt: {templates: {predict: missing.txt}}", `CFG:1: prompt.templates.predict: template file: stat CFGDIR/missing.txt: no such file or directory`},
		{"methods: [{kind: truncation, name: A}, {kind: rag, name: a}]", `CFG:1: methods[1].name: duplicate method name "a" (also methods[0] as "A"; names that differ only in case share a folder on macOS); give each a distinct name`},
	}
	for _, tt := range tests {
		text := tt.text
		if !strings.HasPrefix(text, "methods:") {
			text += "\nmethods: [{kind: rag}]\n"
		}
		path := writeConfig(t, text)
		_, err := Options{Getenv: noEnv}.Load(path, nil)
		if err != nil {
			msg := strings.ReplaceAll(err.Error(), path, "CFG")
			err = errorString(strings.ReplaceAll(msg, filepath.Dir(path), "CFGDIR"))
		}
		wantErr(t, err, tt.want)
	}
}
