package prediction_test

// The behaviour-prediction walkthrough of docs/EXTENDING.md: a new memory
// method written in this file and run end to end by package prediction —
// the run `bench run` hands a prediction config to, stage by stage — on the
// embedded default (sim backbone, synthetic MovieLens).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/datasets/movielens"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
	"github.com/memharness/memharness/prediction"
	"github.com/memharness/memharness/reports"
	"github.com/memharness/memharness/runlog"
	"github.com/memharness/memharness/runstore"
)

// notes asks the build model, once per user, for a few lines about the
// user's habits over the history before the first test action, and answers
// every question through the baselines' evaluation path with those lines
// appended as memory. Its construction request carries no hint: the sim
// answers it from the prompt text, like any method it has never seen.
type notes struct {
	eval predict.Evaluator
}

func newNotes(spec predict.Spec) (*notes, error) {
	spec.Kind = predict.KindTruncation // the evaluation path: 8K history + memory
	ev, err := predict.NewEvaluator(spec)
	if err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return &notes{eval: ev}, nil
}

func (m *notes) Name() string { return m.eval.Name() }

func (m *notes) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if len(u.Instances) == 0 {
		return predict.Memory{}, nil
	}
	first := u.Instances[0]
	// Only what happened before the user's first test action: the rest is
	// the future the questions are about.
	past := first.History[:first.PracticeCut]
	records, err := m.eval.Prompts(env).Records(past[max(0, len(past)-40):])
	if err != nil {
		return predict.Memory{}, fmt.Errorf("notes: %s: %w", u.User, err)
	}
	resp, err := env.Builder().Generate(ctx, llm.Request{
		Purpose:  "notes.build",
		SampleID: m.Name() + "/" + u.User,
		Messages: []llm.Message{{Role: "user", Content: "Here are a user's latest records:\n" + records +
			"\nWrite a few short lines on this user's habits and tastes."}},
	})
	if err != nil {
		return predict.Memory{}, fmt.Errorf("notes: %s: %w", u.User, err)
	}
	text := strings.TrimSpace(resp.Text)
	return predict.Memory{Text: text, Tokens: env.TokenCounter().Count(text), Calls: 1, Usage: resp.Usage}, nil
}

func (m *notes) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	block := ""
	if mem.Text != "" {
		block = "Notes on this user:\n" + mem.Text
	}
	return m.eval.Predict(ctx, env, inst, block, "")
}

// TestExtendingPredictionMethod runs the new method beside the truncation
// baseline through the prediction run's stages, as bench run does: plan,
// predict (building each user's memory on its first sample), account,
// finish, report.
func TestExtendingPredictionMethod(t *testing.T) {
	data := t.TempDir()
	if err := synth.WriteMovieLens(data, synth.MovieLensConfig{Users: 12, Movies: 800, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	ds, err := movielens.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	users, err := movielens.BuildInstances(ds, movielens.Options{MaxUsers: 3, TestPerUser: 4, Seed: 42, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := newNotes(predict.Spec{Name: "notes", Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	base, err := registry.New(predict.Spec{Name: "truncation", Kind: predict.KindTruncation, Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	methods := []predict.Method{base, mine}

	dir := t.TempDir()
	st, err := runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.WriteJSON(runlog.ManifestFile, runlog.Manifest{Name: "extending", Backbone: "sim", Model: sim.Name,
		DataSource: "synthetic MovieLens-1M (seed 3)", Methods: []string{base.Name(), mine.Name()}}); err != nil {
		t.Fatal(err)
	}
	meter := llm.NewMeter(sim.New(sim.Config{}))
	env := predict.Env{Model: meter}

	run := prediction.New(st)
	plan := run.Plan(methods, users, env, 0)
	if want := 2 * 3 * 4; len(plan.Jobs) != want {
		t.Fatalf("planned %d samples, want %d", len(plan.Jobs), want)
	}
	out, err := run.Predict(context.Background(), plan, prediction.PredictOptions{Workers: 2, Meter: meter})
	if err != nil || out.Stopped != nil {
		t.Fatalf("predict: %v, stopped %v", err, out.Stopped)
	}
	usage, err := run.Account(false)
	if err != nil {
		t.Fatal(err)
	}
	done, errored, err := run.Finish(plan.Order)
	if err != nil || done != len(plan.Order) || errored != 0 {
		t.Fatalf("finish: %d of %d done, %d errored, %v", done, len(plan.Order), errored, err)
	}
	if empty, err := run.EmptyMemories(); err != nil || len(empty) != 0 {
		t.Errorf("empty memories %v (%v)", empty, err)
	}
	// Usage is accounted by purpose: one construction call per user.
	if u := usage["notes.build"]; u.Calls != 3 || u.PromptTokens == 0 || u.CompletionTokens == 0 {
		t.Errorf("notes.build usage %+v, want 3 calls (one note per user)", u)
	}
	for _, u := range users {
		var mem predict.Memory
		if ok, err := st.ReadJSON(prediction.MemoryPath(mine.Name(), u.User), &mem); err != nil || !ok || mem.Text == "" {
			t.Errorf("%s: stored memory %+v (%v, %v)", u.User, mem, ok, err)
		}
	}
	arts, err := prediction.Report(dir, reports.Options{Iters: 20})
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := os.ReadFile(filepath.Join(dir, "report", "metrics.csv"))
	if err != nil {
		t.Fatalf("%v (artefacts %v)", err, arts)
	}
	found := false
	for _, line := range strings.Split(string(metrics), "\n") {
		if strings.Contains(line, ",movie_rating,accuracy_all,") {
			t.Log(line)
			found = found || strings.HasPrefix(line, "notes,")
		}
	}
	if !found {
		t.Errorf("metrics.csv has no notes rows:\n%s", metrics)
	}
}
