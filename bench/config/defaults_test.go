package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/memharness/memharness/methods/predict"
)

func TestBackboneFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		sets []string
		want Backbone
		emb  string // embedder.base_url with embedder.kind=openai
	}{
		{"auto without endpoint is sim", nil, nil,
			Backbone{Kind: "sim", Model: "sim"}, ""},
		{"auto with endpoint is openai", map[string]string{"OPENAI_BASE_URL": "http://h1/v1, http://h2/v1", "OPENAI_MODEL": "qwen"}, nil,
			Backbone{Kind: "openai", Model: "qwen", BaseURLs: []string{"http://h1/v1", "http://h2/v1"}}, "http://h1/v1"},
		{"explicit sim ignores the endpoint", map[string]string{"OPENAI_BASE_URL": "http://h1/v1"}, []string{"backbone.kind=sim"},
			Backbone{Kind: "sim", Model: "sim"}, "http://h1/v1"},
		{"file URLs win over env", map[string]string{"OPENAI_BASE_URL": "http://h1/v1"},
			[]string{"backbone.base_urls=[http://mine/v1]", "backbone.model=gpt"},
			Backbone{Kind: "openai", Model: "gpt", BaseURLs: []string{"http://mine/v1"}}, "http://mine/v1"},
		{"OPENAI_MODEL names the served model", map[string]string{"OPENAI_BASE_URL": "http://h1/v1", "OPENAI_MODEL": "qwen"},
			[]string{"backbone.model=gpt"},
			Backbone{Kind: "openai", Model: "qwen", BaseURLs: []string{"http://h1/v1"}}, "http://h1/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sets := append([]string{"embedder.kind=openai", "embedder.model=e"}, tt.sets...)
			cfg, err := Options{Getenv: env(tt.env)}.Load("testdata/minimal.yaml", sets)
			if err != nil {
				if tt.emb == "" && strings.Contains(err.Error(), "embedder.base_url") {
					return // sim without any endpoint: the openai embedder has nowhere to go
				}
				t.Fatal(err)
			}
			b := cfg.Backbone
			got := Backbone{Kind: b.Kind, Model: b.Model, BaseURLs: b.BaseURLs}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("backbone (-want +got)\n%s", diff)
			}
			if cfg.Embedder.BaseURL != tt.emb {
				t.Errorf("embedder.base_url = %q, want %q", cfg.Embedder.BaseURL, tt.emb)
			}
		})
	}
}

func TestDerivedDefaults(t *testing.T) {
	text := "task: omnibehavior\ndataset: {language: zh}\nmethods: [{kind: summary}, {kind: rag, name: r}]\n"
	cfg, err := Options{Getenv: noEnv}.Load(writeConfig(t, text), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{cfg.Dataset.Name, cfg.Prompt.Language, cfg.Methods[0].Name, cfg.Report.Baseline}
	if diff := cmp.Diff([]string{"omnibehavior", "zh", "summary", "summary"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if cfg.Dataset.Synthetic.Seed != DefaultSeed || cfg.Seed != DefaultSeed {
		t.Errorf("seeds = %d, %d; want %d", cfg.Seed, cfg.Dataset.Synthetic.Seed, DefaultSeed)
	}
}

func TestValidateProgrammatic(t *testing.T) {
	// Validate works on a config built in code; errors name fields, no file.
	cfg := defaults()
	cfg.fill(noEnv)
	wantErr(t, cfg.Validate(), "methods: at least one method is required")

	cfg.Methods = append(cfg.Methods, cfgMethod("rag", "a"), cfgMethod("rag", "a/b"))
	cfg.Methods[0].Retriever = "tfidf"
	cfg.Report.Baseline = "zz"
	cfg.Report.Export = []string{"inspect", "helm"}
	cfg.Eval.MaxAttempts = 0
	cfg.Eval.Repeats, cfg.Eval.Reducer = 3, "pass@4"
	cfg.Backbone.MaxConcurrency = 8
	cfg.Embedder.Dim = -1
	wantErr(t, cfg.Validate(),
		"backbone.max_concurrency: must be between concurrency (16) and 4096, got 8",
		"embedder.dim: must be at least 1, got -1",
		"eval.max_attempts: must be between 1 and 100, got 0",
		`eval.reducer: reducer "pass@4": k must be a whole number from 1 to the 3 repeats`,
		`methods[0].retriever: unknown value "tfidf" (want bm25, embedding)`,
		`methods[1].name: "a/b" is not a safe file name (use letters, digits, '.', '_' and '-')`,
		`report.baseline: no method is named "zz"`,
		`report.export[1]: unknown format "helm" (known: inspect, eee, lmeval)`,
	)
}

func cfgMethod(kind, name string) predict.Spec { return predict.Spec{Kind: kind, Name: name} }
