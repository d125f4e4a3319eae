package taubench

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
)

func taskByID(t testing.TB, s *Suite, id string) envs.Task {
	t.Helper()
	for _, task := range s.Tasks() {
		if task.ID == id {
			return task
		}
	}
	t.Fatalf("no task %s", id)
	return envs.Task{}
}

// TestGarbageAgent: 100 steps of junk end cleanly with score 0. A model
// customer that never stops keeps the conversation going so every junk
// message is really played.
func TestGarbageAgent(t *testing.T) {
	s := embeddedSuite(t, Retail)
	task := taskByID(t, s, "test-0") // gold cancels an order: doing nothing scores 0
	rng := rand.New(rand.NewSource(7))
	junk := []string{"", "Action:", "Action: {", "Action: []", "Action: {\"name\": 1}", "Action: {\"name\": \"rm -rf\", \"arguments\": {}}",
		"Action: {\"name\": \"cancel_pending_order\", \"arguments\": {\"order_id\": 7}}", "\x00\xff\xfe", "Action: {\"name\": \"calculate\", \"arguments\": {\"expression\": \"((((\"}}"}
	agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		b := make([]byte, rng.Intn(40))
		rng.Read(b)
		return string(b) + junk[rng.Intn(len(junk))], nil
	})
	chatty := llm.ModelFunc(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{Text: "Sorry, I do not follow."}, nil
	})
	tr, err := envs.Run(context.Background(), s, task, agent, envs.Options{Model: chatty}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Score != 0 || tr.Steps != 100 || tr.End != "max_steps" {
		t.Errorf("score %v after %d steps (%s), want 0 after 100 (max_steps)", tr.Score, tr.Steps, tr.End)
	}
	if tr.Invalid == 0 {
		t.Error("no invalid step counted")
	}
	// With the scripted customer, junk ends the conversation at once.
	tr, err = envs.Run(context.Background(), s, task, agent, envs.Options{}, 100)
	if err != nil || tr.Score != 0 || tr.End != "done" {
		t.Errorf("scripted: %+v %v", tr, err)
	}
}

func TestEpisodeFlow(t *testing.T) {
	s := embeddedSuite(t, Retail)
	task := taskByID(t, s, "test-6") // output "7.25" required, no state change
	for _, tc := range []struct {
		name    string
		actions []string
		score   float64
		missing bool
	}{
		{"answer found", []string{"The total was $7.25."}, 1, false},
		{"commas are removed from replies", []string{"It cost 7.2,5 dollars."}, 1, false},
		{"no answer", []string{"Goodbye."}, 0, true},
		{"wrong state", []string{"Action:\n{\"name\": \"cancel_pending_order\", \"arguments\": {\"order_id\": \"#E1000001\", \"reason\": \"no longer needed\"}}", "7.25 it is."}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := envs.Run(context.Background(), s, task, envs.Replay(tc.actions), envs.Options{}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Score != tc.score || tr.End != "done" {
				t.Errorf("score %v end %s, want %v done", tr.Score, tr.End, tc.score)
			}
		})
	}
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if obs := ep.Observation(); !strings.Contains(obs, "#Available tools") || !strings.Contains(obs, "Customer: My name is Lena Ortiz") {
		t.Errorf("first observation: %.200s", obs)
	}
	st, _ := ep.Step(context.Background(), "Action: {\"name\": \"no_such_tool\", \"arguments\": {}}")
	if !st.Invalid || st.Observation != "Unknown action no_such_tool" {
		t.Errorf("unknown tool: %+v", st)
	}
	st, _ = ep.Step(context.Background(), "Action:\n{\"name\": \"get_order_details\", \"arguments\": {\"order_id\": \"#E1000003\"}}")
	if st.Invalid || !strings.HasPrefix(st.Observation, "API output: {\"order_id\": \"#E1000003\"") {
		t.Errorf("tool step: %+v", st)
	}
	st, _ = ep.Step(context.Background(), "Can you confirm?")
	if st.Done || st.Observation != "Yes, please go ahead." {
		t.Errorf("question step: %+v", st)
	}
	st, _ = ep.Step(context.Background(), "You paid 7.25.")
	if !st.Done || st.Reward != 1 || ep.Score() != 1 {
		t.Errorf("final step: %+v", st)
	}
	st, _ = ep.Step(context.Background(), "hello again")
	if !st.Invalid {
		t.Error("a step after the end must be invalid")
	}
}

// TestTransferEnds: the terminal tool ends the episode and is judged.
func TestTransferEnds(t *testing.T) {
	s := embeddedSuite(t, Airline)
	task := taskByID(t, s, "test-9")
	tr, err := envs.Run(context.Background(), s, task, envs.Replay([]string{
		"Action:\n{\"name\": \"transfer_to_human_agents\", \"arguments\": {\"summary\": \"lost bag\"}}",
	}), envs.Options{}, 0)
	if err != nil || tr.End != "done" || tr.Score != 1 {
		t.Errorf("%+v %v", tr, err)
	}
}

// TestModelCustomer checks the request sent to the user simulator.
func TestModelCustomer(t *testing.T) {
	s := embeddedSuite(t, Airline)
	task := taskByID(t, s, "test-7")
	var reqs []llm.Request
	m := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		reqs = append(reqs, req)
		if len(reqs) == 1 {
			return llm.Response{Text: " Which city is MCO? "}, nil
		}
		return llm.Response{Text: Stop}, nil
	})
	tr, err := envs.Run(context.Background(), s, task, envs.Replay([]string{
		"Action:\n{\"name\": \"list_all_airports\", \"arguments\": {}}", "MCO is Orlando.",
	}), envs.Options{Model: m, Seed: 3}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Score != 1 || len(reqs) != 2 || !strings.HasSuffix(tr.Turns[0].Text, "Customer: Which city is MCO?") {
		t.Fatalf("score %v, %d requests, first obs %q", tr.Score, len(reqs), tr.Turns[0].Text)
	}
	last := reqs[1]
	h, ok := last.Hint.(UserSim)
	if !ok || last.Purpose != "taubench.user" || h.Env != "taubench-airline" || !strings.Contains(h.Instruction, "MCO") {
		t.Fatalf("request: purpose %q hint %#v", last.Purpose, last.Hint)
	}
	roles := []string{}
	for _, turn := range h.Turns {
		roles = append(roles, turn.Role)
	}
	if strings.Join(roles, ",") != "agent,user,agent" || h.Turns[2].Text != "MCO is Orlando." {
		t.Errorf("turns %+v", h.Turns)
	}
	if last.Messages[0].Role != "system" || last.Messages[1].Content != greeting || last.Messages[2].Role != "assistant" || *last.Params.Seed != 3 {
		t.Errorf("messages %+v", last.Messages)
	}
}

// TestSourceCustomerPrompt: with SetCustomerPrompt the customer model gets
// that system prompt, and with UserParams exactly those settings (the
// run's customer sampling: none under prompts: release, as τ-bench).
func TestSourceCustomerPrompt(t *testing.T) {
	s := embeddedSuite(t, Airline)
	task := taskByID(t, s, "test-7")
	s.SetCustomerPrompt(func(instruction string) string { return "SOURCE PROMPT for " + instruction })
	var reqs []llm.Request
	m := llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		reqs = append(reqs, req)
		return llm.Response{Text: Stop}, nil
	})
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{Model: m, Seed: 3, UserParams: &llm.Params{}})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	r, _ := record(task)
	if len(reqs) != 1 || reqs[0].Messages[0].Content != "SOURCE PROMPT for "+r.Instruction {
		t.Fatalf("requests %+v", reqs)
	}
	if p := reqs[0].Params; p.Temperature != nil || p.Seed != nil {
		t.Errorf("params %+v, want none", p)
	}
}
