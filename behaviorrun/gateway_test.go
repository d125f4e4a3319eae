package behaviorrun_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memharness/memharness/behaviorrun"
	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/llm/gateway/gatewaytest"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runstore"
)

// childMethod's model calls come from a child through the model gateway:
// one extraction call per user at construction, one prediction call per
// instance, each step bound to the model and context the runner lent it.
type childMethod struct {
	g     *gateway.Gateway
	child *gatewaytest.Child
}

func (m *childMethod) Name() string { return "child" }

func (m *childMethod) step(ctx context.Context, scope gateway.Scope, purpose, prompt string) (string, error) {
	bind := m.g.Bind(ctx, scope)
	text, _, err := m.child.Chat(ctx, bind.ID(), purpose, prompt)
	bind.Release()
	if err != nil && bind.Err() != nil {
		err = fmt.Errorf("%v: %w", err, bind.Err())
	}
	return text, err
}

func (m *childMethod) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	text, err := m.step(ctx, gateway.Scope{Model: env.Builder(), SampleID: "child/" + u.User + "/build", Affinity: u.User},
		"extract", "Extract what "+u.User+" likes.")
	return predict.Memory{Text: text, Calls: 1}, err
}

func (m *childMethod) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	text, err := m.step(ctx, gateway.Scope{Model: env.Model, Purpose: predict.PurposePredict, SampleID: inst.ID,
		Unit: "child/" + inst.ID, Affinity: inst.User}, "", "Notes: "+mem.Text+"\nWill "+inst.User+" like it? Answer Yes or No.")
	if err != nil {
		return predict.Outcome{}, err
	}
	return predict.Outcome{Pred: text, Valid: true, Attempts: 1, Raw: text}, nil
}

// TestGatewayCallsLandInTheRunsUsage runs a method whose calls come from a
// child through the gateway, with several workers at once (so several
// scopes are bound and the child names its own): every call is in the
// run's usage journal, with the sample and user it served, and in
// usage.json under its purpose; a resumed run makes none.
func TestGatewayCallsLandInTheRunsUsage(t *testing.T) {
	stack := llm.NewMeter(sim.New(sim.Config{}, sim.Readers{}))
	g, err := gateway.Start(context.Background(), gateway.Options{Model: stack, Method: "child"})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	m := &childMethod{g: g, child: gatewaytest.NewChild(g.ChildEnv())}
	dir := t.TempDir()
	st, err := runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := behaviorrun.New(st)
	us := users(3, 2)
	plan := run.Plan([]predict.Method{m}, us, predict.Env{Model: stack}, 0)
	out, err := run.Predict(context.Background(), plan, behaviorrun.PredictOptions{Workers: 3})
	if err != nil || out.Stopped != nil {
		t.Fatalf("predict: %v, stopped %v", err, out.Stopped)
	}
	usage, err := run.Account(false)
	if err != nil {
		t.Fatal(err)
	}
	if usage["child.extract"].Calls != 3 || usage[predict.PurposePredict].Calls != 6 {
		t.Fatalf("usage.json: extract %d calls, predict %d; want 3 and 6 (%+v)", usage["child.extract"].Calls, usage[predict.PurposePredict].Calls, usage)
	}
	if done, errored, err := run.Finish(plan.Order); err != nil || done != 6 || errored != 0 {
		t.Fatalf("finish: %d done, %d errored, %v", done, errored, err)
	}
	recs := st.Usage()
	if len(recs) != 9 {
		t.Fatalf("journal holds %d calls, want 9", len(recs))
	}
	for _, rec := range recs {
		c := rec.Content
		if c == nil {
			t.Fatalf("call %s has no content in the record", rec.Purpose)
		}
		user := c.Affinity
		switch rec.Purpose {
		case "child.extract":
			if c.SampleID != "child/"+user+"/build" {
				t.Errorf("extraction for %s recorded under sample %q", user, c.SampleID)
			}
		case predict.PurposePredict:
			if !strings.HasPrefix(c.SampleID, "d/"+user+"/") {
				t.Errorf("prediction for %s recorded under sample %q", user, c.SampleID)
			}
		default:
			t.Errorf("unexpected purpose %q", rec.Purpose)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	before := stack.Snapshot().Total.Calls
	st, err = runstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run = behaviorrun.New(st)
	plan = run.Plan([]predict.Method{m}, us, predict.Env{Model: stack}, 0)
	if len(plan.Jobs) != 0 {
		t.Fatalf("resumed plan has %d jobs, want none", len(plan.Jobs))
	}
	if got := stack.Snapshot().Total.Calls; got != before {
		t.Fatalf("the resumed run made %d calls", got-before)
	}
}
