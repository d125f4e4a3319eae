package bench

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// TestKindOfOnesOwnReleaseSampling: under prompts: release a kind
// registered from outside sends the Release settings its entry declares
// for its purpose, under own its Own ones — even for the purpose name the
// built-in kinds share ("predict"), whose defaults are theirs, not its.
func TestKindOfOnesOwnReleaseSampling(t *testing.T) {
	pack, pins, _ := standinPack(t)
	f := func(v float64) *float64 { return &v }
	reg := registry.Default()
	reg.Register(predict.Entry{
		Kind: "tally",
		// The baselines' evaluation path under a kind of its own.
		New: func(s predict.Spec) (predict.Method, error) {
			s.Kind = predict.KindTruncation
			return predict.New(s)
		},
		Keys: []string{"history_tokens"},
		Purposes: []predict.Purpose{{Name: predict.PurposePredict, ReleaseFrom: runrecord.FromSource, Source: "tally's own code",
			Release: llm.Params{Temperature: f(0.2), MaxTokens: 66}, Own: llm.Params{Temperature: f(0.4), MaxTokens: 88}}},
	})
	kinds := &Kinds{Predict: reg}
	for _, tt := range []struct {
		prompts     string
		temperature float64
		maxTokens   float64
	}{
		{config.PromptsRelease, 0.2, 66},
		{config.PromptsOwn, 0.4, 88},
	} {
		t.Run(tt.prompts, func(t *testing.T) {
			var rc recorder
			srv := rc.server(t)
			dir := t.TempDir()
			cfgPath := filepath.Join(dir, "tally.yaml")
			release := ""
			if tt.prompts == config.PromptsRelease {
				release = "prompt: {release_dir: " + pack + "}\n"
			}
			body := `name: tally
task: movielens
prompts: ` + tt.prompts + `
` + release + `dataset: {name: movielens, max_users: 2, test_per_user: 2, synthetic: {users: 2, movies: 1500, seed: 7}}
backbone: {kind: openai, model: m, base_urls: [` + srv.URL + `], max_retries: 0}
eval: {max_invalid_rate: 1} # the stub answers are not ratings; this test reads the requests
methods:
  - {name: tally, kind: tally}
report: {bootstrap: 0}
`
			if err := os.WriteFile(cfgPath, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Options{Getenv: func(string) string { return "" }, Known: kinds.Known()}.Load(cfgPath, nil)
			if err != nil {
				t.Fatal(err)
			}
			var errb strings.Builder
			stdio := IO{Out: io.Discard, Err: &errb, Getenv: func(string) string { return "" }, Kinds: kinds}
			if _, err := executeRun(t.Context(), stdio, family.Run{Config: cfg, ConfigPath: cfgPath, Dir: filepath.Join(dir, "tally"), Out: dir, ReleasePins: pins}); err != nil {
				t.Fatalf("run: %v\n%s", err, errb.String())
			}
			if len(rc.bodies) == 0 {
				t.Fatal("no requests")
			}
			for _, b := range rc.bodies {
				if b["temperature"] != tt.temperature || b["max_tokens"] != tt.maxTokens {
					t.Fatalf("request temperature %v max_tokens %v, want the entry's %s settings %v and %v", b["temperature"], b["max_tokens"], tt.prompts, tt.temperature, tt.maxTokens)
				}
			}
			man, err := runrecord.ReadManifest(filepath.Join(dir, "tally", runrecord.ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			want := runrecord.FromOwn
			if tt.prompts == config.PromptsRelease {
				want = runrecord.FromSource
			}
			if pv := man.Provenance["tally/predict"]; pv.Sampling != want {
				t.Errorf("provenance tally/predict %+v, want sampling from %s", pv, want)
			}
		})
	}
}
