package behaviorrun_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runrecord"
	"github.com/memharness/memharness/runstore"
)

// fakeMethod remembers the user's name, answers "1", and fails the
// instances listed in fail; builds counts memory constructions.
type fakeMethod struct {
	name   string
	empty  bool
	fail   map[string]bool
	builds atomic.Int64
}

func (m *fakeMethod) Name() string { return m.name }

func (m *fakeMethod) PrepareUser(_ context.Context, _ predict.Env, u behavior.UserSet) (predict.Memory, error) {
	m.builds.Add(1)
	if m.empty {
		return predict.Memory{Calls: 1}, nil
	}
	return predict.Memory{Text: "user " + u.User, Calls: 1}, nil
}

func (m *fakeMethod) Predict(_ context.Context, _ predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	if m.fail[inst.ID] {
		return predict.Outcome{}, errors.New("boom")
	}
	return predict.Outcome{Pred: "1", Valid: true, Attempts: 1, Raw: mem.Text}, nil
}

func users(n, per int) []behavior.UserSet {
	var out []behavior.UserSet
	for u := range n {
		us := behavior.UserSet{User: fmt.Sprintf("u%d", u)}
		for i := range per {
			us.Instances = append(us.Instances, behavior.Instance{ID: fmt.Sprintf("d/u%d/%d/f", u, i), User: us.User, Index: i})
		}
		out = append(out, us)
	}
	return out
}

// TestStages runs plan → predict → account → finish, then resumes the same
// store and checks that only the failed sample is planned again and no
// memory is rebuilt.
func TestStages(t *testing.T) {
	dir := t.TempDir()
	good := &fakeMethod{name: "good", fail: map[string]bool{"d/u1/0/f": true}}
	empty := &fakeMethod{name: "empty", empty: true}
	methods := []predict.Method{good, empty}
	us := users(2, 3)

	st, err := runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := behaviorrun.New(st)
	plan := run.Plan(methods, us, predict.Env{}, 0)
	if len(plan.Order) != 12 || len(plan.Jobs) != 12 || plan.Already() != 0 {
		t.Fatalf("plan: %d ordered, %d jobs, %d already; want 12, 12, 0", len(plan.Order), len(plan.Jobs), plan.Already())
	}
	if plan.Order[0] != "good/d/u0/0/f" || plan.Order[6] != "empty/d/u0/0/f" {
		t.Errorf("plan order starts %v", plan.Order[:7])
	}
	var seen atomic.Int64
	out, err := run.Predict(context.Background(), plan, behaviorrun.PredictOptions{Workers: 3, OnSample: func(runrecord.Sample) { seen.Add(1) }})
	if err != nil || out.Stopped != nil {
		t.Fatalf("predict: %v, stopped %v", err, out.Stopped)
	}
	if seen.Load() != 12 {
		t.Errorf("OnSample called %d times, want 12", seen.Load())
	}
	if _, err := run.Account(false); err != nil {
		t.Fatal(err)
	}
	done, errored, err := run.Finish(plan.Order)
	if err != nil || done != 11 || errored != 1 {
		t.Fatalf("finish: %d done, %d errored, %v; want 11, 1", done, errored, err)
	}
	if got, err := run.EmptyMemories(); err != nil || !slices.Equal(got["empty"], []string{"u0", "u1"}) || len(got) != 1 {
		t.Errorf("empty memories %v (%v), want empty: [u0 u1]", got, err)
	}
	if good.builds.Load() != 2 {
		t.Errorf("good built %d memories, want one per user (2)", good.builds.Load())
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	good.fail = nil
	run = behaviorrun.New(st)
	plan = run.Plan(methods, us, predict.Env{}, 0)
	if len(plan.Jobs) != 1 || plan.Jobs[0].ID != "good/d/u1/0/f" {
		t.Fatalf("resumed plan: %d jobs (%v), want the failed sample only", len(plan.Jobs), plan.Jobs)
	}
	if _, err := run.Predict(context.Background(), plan, behaviorrun.PredictOptions{}); err != nil {
		t.Fatal(err)
	}
	if good.builds.Load() != 2 {
		t.Errorf("resume rebuilt a stored memory: %d builds", good.builds.Load())
	}
	// The resumed process built nothing, yet warns as the first did.
	if got, err := run.EmptyMemories(); err != nil || !slices.Equal(got["empty"], []string{"u0", "u1"}) {
		t.Errorf("after resume: empty memories %v (%v), want empty: [u0 u1]", got, err)
	}
}

// TestEndpointDown checks that an endpoint going down stops the stage with
// Stopped set, calls OnStop once, and leaves the samples unattempted.
func TestEndpointDown(t *testing.T) {
	st, err := runstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run := behaviorrun.New(st)
	plan := run.Plan([]predict.Method{downMethod{}}, users(1, 4), predict.Env{}, 0)
	var stops atomic.Int64
	out, err := run.Predict(context.Background(), plan, behaviorrun.PredictOptions{Workers: 2, OnStop: func(error) { stops.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(out.Stopped, llm.ErrEndpointDown) || stops.Load() != 1 {
		t.Errorf("stopped %v, OnStop %d times; want ErrEndpointDown once", out.Stopped, stops.Load())
	}
	if done, _ := st.Counts(); done != 0 {
		t.Errorf("%d samples stored, want 0", done)
	}
}

type downMethod struct{}

func (downMethod) Name() string { return "down" }
func (downMethod) PrepareUser(context.Context, predict.Env, behavior.UserSet) (predict.Memory, error) {
	return predict.Memory{}, nil
}
func (downMethod) Predict(context.Context, predict.Env, predict.Memory, behavior.Instance) (predict.Outcome, error) {
	return predict.Outcome{}, fmt.Errorf("generate: %w", llm.ErrEndpointDown)
}

func TestMemoryEmpty(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  predict.Memory
		want bool
	}{
		{"memoryless", predict.Memory{}, false},
		{"stored zero", predict.Memory{Meta: map[string]any{"stored": float64(0)}}, true},
		{"stored some", predict.Memory{Meta: map[string]any{"stored": 3}}, false},
		{"no documents", predict.Memory{Meta: map[string]any{"documents": float64(0)}}, true},
		{"pramem alerts only", predict.Memory{Meta: map[string]any{"user_exp": 0, "model_exp": 2}}, false},
		{"pramem nothing", predict.Memory{Meta: map[string]any{"user_exp": 0, "model_exp": 0}}, true},
		{"calls, no text", predict.Memory{Calls: 2, Text: "  "}, true},
		{"calls and text", predict.Memory{Calls: 2, Text: "likes cats"}, false},
	} {
		if got := behaviorrun.MemoryEmpty(tc.mem); got != tc.want {
			t.Errorf("%s: MemoryEmpty = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestIssueOrderHoldsFollowersForTheirLeader(t *testing.T) {
	// One user, two records; truncation and RAG share a prefix class, the
	// long-context method is its own.
	users := []string{"u", "u", "u", "u", "u", "u"}
	records := []int{1, 2, 1, 2, 1, 2}
	methods := []string{"truncation", "truncation", "rag", "rag", "long", "long"}
	classes := map[string]string{"truncation": "history 8000", "rag": "history 8000", "long": "history 32000"}
	order, after := behaviorrun.IssueOrder(users, records, methods, 1, classes)
	if order[0] != 0 || after[0] != -1 {
		t.Fatalf("first question %d waits for %d, want 0 waiting for none", order[0], after[0])
	}
	want := map[int]int{2: 0, 3: 1, 1: 0, 4: 0, 5: 0} // RAG after truncation of its record; leaders after the first
	for i, w := range want {
		if after[i] != w {
			t.Errorf("question %d (%s, record %d) waits for %d, want %d", i, methods[i], records[i], after[i], w)
		}
	}
	pos := make([]int, len(order))
	for k, i := range order {
		pos[i] = k
	}
	for i, l := range after {
		if l >= 0 && pos[l] >= pos[i] {
			t.Errorf("question %d is sent before %d, which it waits for", i, l)
		}
	}
}

// callingMethod asks the env's model once to build a user's memory and
// once per question.
type callingMethod struct{ name string }

func (m callingMethod) Name() string { return m.name }

func (m callingMethod) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	if _, err := env.Model.Generate(ctx, llm.Request{Purpose: "build", Messages: []llm.Message{{Role: "user", Content: u.User}}}); err != nil {
		return predict.Memory{}, err
	}
	return predict.Memory{Text: "memory of " + u.User, Calls: 1}, nil
}

func (m callingMethod) Predict(ctx context.Context, env predict.Env, _ predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	if _, err := env.Model.Generate(ctx, llm.Request{Purpose: predict.PurposePredict, SampleID: m.name + "/" + inst.ID, Accept: func(llm.Response) bool { return true }}); err != nil {
		return predict.Outcome{}, err
	}
	return predict.Outcome{Pred: "1", Valid: true, Attempts: 1, Calls: 1}, nil
}

// TestSendOrderMemoriesFirstAndNumbered runs two methods of one prefix
// class and checks the journal: every call numbered once, every memory's
// construction sent before the first question, each follower sent after
// its leader's answer, and a resumed run numbering on after the first.
func TestSendOrderMemoriesFirstAndNumbered(t *testing.T) {
	dir := t.TempDir()
	methods := []predict.Method{callingMethod{"truncation"}, callingMethod{"rag"}}
	classes := map[string]string{"truncation": "history 8000", "rag": "history 8000"}
	meter := llm.NewMeter(llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Text: "1"}, nil
	}))
	run := func(us []behavior.UserSet) []llm.CallRecord {
		st, err := runstore.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		r := behaviorrun.New(st)
		plan := r.Plan(methods, us, predict.Env{Model: meter}, 0)
		if _, err := r.Predict(context.Background(), plan, behaviorrun.PredictOptions{Workers: 4, PrefixClasses: classes}); err != nil {
			t.Fatal(err)
		}
		return st.Usage()
	}
	recs := run(users(3, 2))
	if len(recs) != 6+12 {
		t.Fatalf("%d calls journalled, want 18", len(recs))
	}
	seqs := map[int64]bool{}
	var lastBuild int64
	firstPredict := int64(1 << 62)
	answered := map[string]int64{}
	sent := map[string]int64{}
	for _, c := range recs {
		if c.SendSeq <= 0 || seqs[c.SendSeq] || c.AnsweredBeforeSend < c.SendSeq {
			t.Errorf("call %+v: send number missing, repeated or answered before sent", c)
		}
		seqs[c.SendSeq] = true
		if c.Purpose == "build" {
			lastBuild = max(lastBuild, c.SendSeq)
			continue
		}
		firstPredict = min(firstPredict, c.SendSeq)
		answered[c.SampleID], sent[c.SampleID] = c.AnsweredBeforeSend, c.SendSeq
	}
	if lastBuild >= firstPredict {
		t.Errorf("a memory was built (call %d) after the first question went out (call %d)", lastBuild, firstPredict)
	}
	for id, s := range sent {
		if len(id) < 4 || id[:4] != "rag/" {
			continue
		}
		leader := "truncation/" + id[4:]
		if answered[leader] >= s {
			t.Errorf("%s sent as call %d, before its leader %s was answered (after call %d)", id, s, leader, answered[leader])
		}
	}
	// A resumed run with one more user numbers on after the first run.
	more := run(users(4, 2))
	for _, c := range more[len(recs):] {
		if c.SendSeq <= int64(len(recs)) {
			t.Errorf("resumed call numbered %d, want after %d", c.SendSeq, len(recs))
		}
	}
}
