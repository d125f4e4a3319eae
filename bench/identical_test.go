package bench_test

// The situation issue reports described: two methods built only from the
// public prediction API, without a reader of their own, that differ only in
// the records their memory shows. On the embedded default they must answer
// differently (the generic prompt reader reads what each prompt shows), and
// two methods that do answer identically everywhere must be warned about.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/runrecord"
)

// recall shows the last 20 records as its memory block and, with keywords,
// the older records that share most words with the target.
type recall struct {
	eval     predict.Evaluator
	keywords bool
}

func newRecall(keywords bool) func(predict.Spec) (predict.Method, error) {
	return func(spec predict.Spec) (predict.Method, error) {
		spec.Kind = predict.KindTruncation
		spec.HistoryTokens = -1 // no window: the memory block is all the prompt shows
		ev, err := predict.NewEvaluator(spec)
		if err != nil {
			return nil, err
		}
		return &recall{eval: ev, keywords: keywords}, nil
	}
}

func (m *recall) Name() string { return m.eval.Name() }

func (m *recall) PrepareUser(context.Context, predict.Env, behavior.UserSet) (predict.Memory, error) {
	return predict.Memory{}, nil
}

func (m *recall) Predict(ctx context.Context, env predict.Env, _ predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	h := inst.History
	recent := h[max(0, len(h)-20):]
	shown := slices.Clone(recent)
	if m.keywords {
		older := slices.Clone(h[:len(h)-len(recent)])
		words := strings.Fields(strings.ToLower(inst.Target.Context))
		score := func(e behavior.Event) int {
			n := 0
			for _, w := range words {
				if len(w) > 3 && strings.Contains(strings.ToLower(e.Context), w) {
					n++
				}
			}
			return n
		}
		slices.SortStableFunc(older, func(a, b behavior.Event) int { return score(b) - score(a) })
		shown = append(older[:min(20, len(older))], recent...)
	}
	block, err := m.eval.Prompts(env).HistoryBlock(shown, 0)
	if err != nil {
		return predict.Outcome{}, err
	}
	return m.eval.Predict(ctx, env, inst, "Records from memory:\n"+block, "")
}

func TestPublicMethodsAnswerFromTheirPrompts(t *testing.T) {
	reg := registry.Default()
	reg.Register(predict.Entry{Kind: "recent", New: newRecall(false)})
	reg.Register(predict.Entry{Kind: "keyed", New: newRecall(true)})
	dir, console := runBench(t, &bench.Kinds{Predict: reg}, "recall", `name: recall
task: movielens
seed: 42
dataset:
  name: movielens
  max_users: 4
  test_per_user: 6
  synthetic: {users: 12, movies: 800, seed: 3}
backbone: {kind: sim}
methods:
  - {name: recent, kind: recent}
  - {name: keyed, kind: keyed}
  - {name: twin, kind: recent}
report: {bootstrap: 20}
`)
	preds := map[string]map[string]string{}
	b, err := os.ReadFile(filepath.Join(dir, "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s struct{ ID, Method, Pred string }
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatal(err)
		}
		if preds[s.Method] == nil {
			preds[s.Method] = map[string]string{}
		}
		preds[s.Method][strings.TrimPrefix(s.ID, s.Method+"/")] = s.Pred
	}
	differ := 0
	for id, p := range preds["recent"] {
		if preds["keyed"][id] != p {
			differ++
		}
	}
	if len(preds["recent"]) != 24 || differ == 0 {
		t.Errorf("recent vs recent + keywords: %d of %d answers differ; want some (the reader must read the memory block)\n%s",
			differ, len(preds["recent"]), console)
	}
	// recent and twin show the same prompts: the run warns, on the console,
	// on its final line and in its report; about that pair only.
	want := fmt.Sprintf("methods recent and twin gave identical answers to all %d samples", len(preds["recent"]))
	if !strings.Contains(console, "warning: "+want) || strings.Contains(console, "keyed and") {
		t.Errorf("console does not warn about exactly the identical pair (%q):\n%s", want, console)
	}
	lines := strings.Split(strings.TrimSpace(console), "\n")
	final := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "run recall: ") && strings.Contains(l, "samples done") {
			final = l
		}
	}
	if !strings.Contains(final, "identical answers") {
		t.Errorf("final line %q does not warn", final)
	}
	for _, f := range []string{runrecord.WarningsFile, filepath.Join("report", "index.md")} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not carry the warning %q", f, want)
		}
	}
	man, err := runrecord.ReadManifest(filepath.Join(dir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(man.DataWarnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
		t.Errorf("the manifest's warnings %q lack %q", man.DataWarnings, want)
	}
}
