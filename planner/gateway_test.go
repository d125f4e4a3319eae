package planner

import (
	"context"
	"fmt"
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/gateway"
	"github.com/memharness/memharness/llm/gateway/gatewaytest"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/predict"
)

// gatewayMethod is a method whose model calls come from a child over the
// model gateway, as a method of another language's do: for each step it
// binds the gateway to the model the runner (or the planner) lent it, and
// the child (a stand-in for a process) calls the gateway.
type gatewayMethod struct {
	g     *gateway.Gateway
	child *gatewaytest.Child
}

func (m *gatewayMethod) Name() string { return "gwmem" }

// step runs one child step under a binding; a failed step carries the
// model's error, as the harness's side of a child method must.
func (m *gatewayMethod) step(ctx context.Context, model llm.Model, scope gateway.Scope, purpose, prompt string) (string, error) {
	scope.Model = model
	bind := m.g.Bind(ctx, scope)
	text, _, err := m.child.Chat(ctx, bind.ID(), purpose, prompt)
	bind.Release()
	if err != nil {
		if merr := bind.Err(); merr != nil {
			return "", fmt.Errorf("%v: %w", err, merr)
		}
		return "", err
	}
	return text, nil
}

func (m *gatewayMethod) PrepareUser(ctx context.Context, env predict.Env, u behavior.UserSet) (predict.Memory, error) {
	var notes string
	for i, ev := range u.Instances[0].History[:u.Instances[0].PracticeCut] {
		text, err := m.step(ctx, env.Builder(), gateway.Scope{Unit: u.User, Affinity: u.User}, "extract",
			fmt.Sprintf("Extract one fact from record %d: %s -> %s", i, ev.Context, ev.Result))
		if err != nil {
			return predict.Memory{}, err
		}
		notes += text + "\n"
	}
	return predict.Memory{Text: notes, Calls: u.Instances[0].PracticeCut}, nil
}

func (m *gatewayMethod) Predict(ctx context.Context, env predict.Env, mem predict.Memory, inst behavior.Instance) (predict.Outcome, error) {
	text, err := m.step(ctx, env.Model, gateway.Scope{Purpose: predict.PurposePredict, SampleID: inst.ID, Affinity: inst.User}, "",
		"Notes:\n"+mem.Text+"\nWill the user watch it? Answer Yes or No.")
	if err != nil {
		return predict.Outcome{}, err
	}
	return predict.Outcome{Pred: text, Valid: true, Attempts: 1}, nil
}

// TestGatewayCallsAreCountedByThePlan: bench plan rehearses memory
// construction on the sim; the calls a child makes through the gateway
// are counted like a built-in method's, provided the method binds the
// gateway to the model the planner lends it.
func TestGatewayCallsAreCountedByThePlan(t *testing.T) {
	g, err := gateway.Start(context.Background(), gateway.Options{Model: llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		t.Error("the planner called the run's model: a plan must call none")
		return llm.Response{}, fmt.Errorf("not in a plan")
	}), Method: "gwmem"})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	m := &gatewayMethod{g: g, child: gatewaytest.NewChild(g.ChildEnv())}
	var users []behavior.UserSet
	for _, u := range []string{"u1", "u2"} {
		hist := []behavior.Event{
			{Scene: "video", Context: "a cooking video", Result: "watched to the end"},
			{Scene: "video", Context: "a cycling video", Result: "skipped"},
			{Scene: "video", Context: "a baking video", Result: "liked"},
		}
		us := behavior.UserSet{User: u}
		for i := range 2 {
			us.Instances = append(us.Instances, behavior.Instance{
				ID: fmt.Sprintf("t/%s/%d/q", u, i), User: u, Index: i, History: hist, PracticeCut: 3,
				Target: behavior.Event{Scene: "video", Context: "a pastry video"},
			})
		}
		users = append(users, us)
	}
	p := Predict{
		Methods: []predict.Method{m}, Users: users, EvalModel: "sim", BuildModel: "sim",
		StandIn: sim.New(sim.Config{}, sim.Readers{}), Rehearse: 1, NoPrefix: true,
	}
	calls, _, _, err := p.Calls(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plan := Build("gw", calls, nil, Options{Concurrency: 1})
	got := plan.Methods["gwmem"].ByPurpose
	// Construction: 3 extraction calls of the one rehearsed user, scaled
	// to both users; prediction: one call per instance.
	if got["gwmem.extract"].Calls != 6 || got[predict.PurposePredict].Calls != 4 {
		t.Fatalf("planned calls by purpose: extract %v, predict %v; want 6 and 4 (%+v)",
			got["gwmem.extract"].Calls, got[predict.PurposePredict].Calls, got)
	}
	if got["gwmem.extract"].PromptTokens == 0 || got[predict.PurposePredict].PromptTokens == 0 {
		t.Fatalf("planned prompt tokens missing: %+v", got)
	}
}
