package lifememrel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/internal/testfixture"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// TestFirstPromptsMatchSources compares, per environment, the first
// request a release Prompter assembles with the one the source's own code
// builds, captured with python3 into a scratch folder (never committed).
// MEMHARNESS_LIFEMEM_PACKS names a folder with one sub-folder per source
// (tau-bench/, lifelongagentbench/, lifemem-release/, ...: checkouts or
// fetched copies at the pinned commits); MEMHARNESS_LIFEMEM_CAPTURES a
// folder of <env>.json captures: {"system": ...} (the system message) or
// {"task": ID, "messages": [...]} (the whole first request for that task),
// with the retrieved "exemplars" and "rules" the source was handed, if
// any; ToolQA's also hold the scripted first reply ("thought_reply") and
// the step's second request ("action_messages"), ScienceWorld's the first
// reply ("second_reply") and the second step's request
// ("second_messages"), the environment answering that reply.
//
// The LifeMem release's environments (toolqa, scienceworld, apibank) are
// captured in three steps:
//
//  1. MEMHARNESS_LIFEMEM_CAPTURE_INPUTS=DIR go test ./releasepacks/lifememrel
//     -run TestWriteLifeMemCaptureInputs writes DIR/<env>.json: the first
//     fixture task, its first observation, two retrieved trajectories (a
//     LifeMem training record from the fixtures and one of ours) and three
//     rules;
//  2. python3 testdata/capture/lifemem_capture.py --pack PACKS/lifemem-release
//     --inputs DIR --fixtures ../shared/fixtures/envs --out CAPTURES runs the
//     release's own evaluator and agent code on them (the retrieval service,
//     the model, the simulators and missing libraries stubbed) and writes
//     CAPTURES/<env>.json;
//  3. run this test with both variables set.
//
// Later steps: a capture may hold "later" (the requests of the following
// steps, the episode played with the gold actions) and "data" (a scratch
// data root the task was read from, where the fixtures have none).
// Mind2Web's capture runs Synapse's own eval_sample (agents/mind2web.py)
// with generate_response stubbed to record its messages, on one record of
// the embedded suite whose cleaned_html has whitespace put back between
// tags (as the release's pages have; lxml keeps it), written under "data"
// as mind2web/test_task/test_task_0.json for the harness to read too.
func TestFirstPromptsMatchSources(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real packs and python captures)")
	}
	data := testfixture.Need(t, "envs")
	trees := lifememrel.Trees{}
	for _, s := range lifememrel.Sources {
		dir := filepath.Join(packs, s.Name)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		tr, err := lifememrel.Open(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		trees[s.Name] = tr
	}
	files, _ := filepath.Glob(filepath.Join(caps, "*.json"))
	if len(files) == 0 {
		t.Skip("no captures")
	}
	for _, f := range files {
		name := filepath.Base(f[:len(f)-len(".json")])
		// <env>.act.json captures τ-bench's act variant.
		opts := lifememrel.Options{}
		variant := name
		if n, ok := strings.CutSuffix(name, ".act"); ok {
			name, opts.TauAct = n, true
		}
		t.Run(variant, func(t *testing.T) {
			var c struct {
				System         string             `json:"system"`
				Task           string             `json:"task"`
				Instruction    string             `json:"instruction"`
				Observation    string             `json:"observation"`
				Messages       []llm.Message      `json:"messages"`
				Exemplars      []agent.Trajectory `json:"exemplars"`
				Rules          []string           `json:"rules"`
				ThoughtReply   string             `json:"thought_reply"`
				ActionMessages []llm.Message      `json:"action_messages"`
				SecondReply    string             `json:"second_reply"`
				SecondMessages []llm.Message      `json:"second_messages"`
				// Data is a scratch data root, in the layout OpenData
				// reads, holding the records the capture was made from.
				Data string `json:"data"`
				// Later are the requests of the following steps, the
				// episode played with the gold actions.
				Later [][]llm.Message `json:"later"`
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			e, err := all.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			root := data
			if c.Data != "" {
				root = c.Data
			}
			s, err := e.OpenData(root, all.Options{})
			if err != nil && c.Instruction != "" {
				// No official data here (WebShop's catalogue): the
				// capture names the task itself.
				s = taskOnly{name: name, task: envs.Task{ID: c.Task, Env: name, Instruction: c.Instruction}}
			} else if err != nil {
				t.Skipf("%s: %v", name, err)
			}
			ps, _, err := lifememrel.Prompters(trees, []envs.Suite{s}, opts)
			if err != nil {
				t.Fatal(err)
			}
			p := ps[name]
			if p == nil {
				t.Fatalf("no release prompter for %s", name)
			}
			task := s.Tasks()[0]
			for _, tk := range s.Tasks() {
				if tk.ID == c.Task {
					task = tk
				}
			}
			first := c.Observation
			var ep envs.Episode
			if _, ok := s.(taskOnly); !ok {
				ep, err = s.NewEpisode(t.Context(), task, envs.Options{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				defer ep.Close()
				first = ep.Observation()
			}
			in := agent.PromptInput{Task: task, Turns: []envs.Turn{{Role: "env", Text: first}}, Exemplars: c.Exemplars, Rules: c.Rules}
			got, err := p.Messages(in)
			if err != nil {
				t.Fatal(err)
			}
			if c.ThoughtReply != "" {
				sp, ok := p.(agent.ScratchpadPrompter)
				if !ok {
					t.Fatalf("%s: the capture has a second request but the prompter makes one call per step", name)
				}
				act, err := sp.ActionMessages(in, sp.Thought(c.ThoughtReply))
				if err != nil {
					t.Fatal(err)
				}
				compareMessages(t, "action request", act, c.ActionMessages)
			}
			if c.System != "" {
				if got[0].Role != "system" || got[0].Content != c.System {
					t.Errorf("system message differs from the source's:\n%s", firstDiff(got[0].Content, c.System))
				}
				return
			}
			if c.Task != task.ID {
				t.Fatalf("task %s not found", c.Task)
			}
			compareMessages(t, "first request", got, c.Messages)
			if c.SecondReply != "" && ep != nil {
				// The agent hands the environment its reply trimmed (and
				// records that as its turn); the environment answers.
				action := strings.TrimSpace(c.SecondReply)
				st, err := ep.Step(t.Context(), action)
				if err != nil {
					t.Fatal(err)
				}
				in.Turns = append(in.Turns, envs.Turn{Role: "agent", Text: action}, envs.Turn{Role: "env", Text: st.Observation, Invalid: st.Invalid})
				second, err := p.Messages(in)
				if err != nil {
					t.Fatal(err)
				}
				compareMessages(t, "second step's request", second, c.SecondMessages)
			}
			if len(c.Later) == 0 {
				return
			}
			or, ok := s.(envs.Oracle)
			if !ok {
				t.Fatalf("%s has no gold actions to play the later steps with", name)
			}
			gold, err := or.Gold(task)
			if err != nil {
				t.Fatal(err)
			}
			gep, err := s.NewEpisode(t.Context(), task, envs.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer gep.Close()
			turns := []envs.Turn{{Role: "env", Text: gep.Observation()}}
			for k, want := range c.Later {
				if k >= len(gold) {
					t.Fatalf("%d later requests, %d gold actions", len(c.Later), len(gold))
				}
				st, err := gep.Step(t.Context(), gold[k])
				if err != nil {
					t.Fatal(err)
				}
				turns = append(turns, envs.Turn{Role: "agent", Text: gold[k]}, envs.Turn{Role: "env", Text: st.Observation})
				got, err := p.Messages(agent.PromptInput{Task: task, Turns: turns})
				if err != nil {
					t.Fatal(err)
				}
				compareMessages(t, "request "+itoa(k+2), got, want)
			}
		})
	}
}

// compareMessages reports where got parts from the source's messages.
func compareMessages(t *testing.T, what string, got, want []llm.Message) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the capture holds no messages", what)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d messages, source %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: message %d differs:\n%s", what, i, firstDiff(got[i].Role+": "+got[i].Content, want[i].Role+": "+want[i].Content))
		}
	}
}

// firstDiff shows where two texts part.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(i-80, 0)
	return "at byte " + itoa(i) + "\n got: " + quote(got[lo:min(i+120, len(got))]) + "\nwant: " + quote(want[lo:min(i+120, len(want))])
}

func itoa(i int) string     { return strconv.Itoa(i) }
func quote(s string) string { return strconv.Quote(s) }

// TestCustomerPromptMatchesSource compares τ-bench's customer system
// prompt with LLMUserSimulationEnv.build_system_prompt's output, captured
// in MEMHARNESS_LIFEMEM_CAPTURES/customer/taubench-customer.json.
func TestCustomerPromptMatchesSource(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real packs and python captures)")
	}
	b, err := os.ReadFile(filepath.Join(caps, "customer", "taubench-customer.json"))
	if err != nil {
		t.Skip("no customer capture")
	}
	var c struct{ Instruction, Customer string }
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameTauBench), lifememrel.TauBench)
	if err != nil {
		t.Fatal(err)
	}
	f, err := lifememrel.TauCustomerPrompt(lifememrel.Trees{lifememrel.NameTauBench: tr})
	if err != nil {
		t.Fatal(err)
	}
	if got := f(c.Instruction); got != c.Customer {
		t.Errorf("customer prompt differs:\n%s", firstDiff(got, c.Customer))
	}
}

// taskOnly is an environment known by one task, for captures whose
// environment has no data here.
type taskOnly struct {
	name string
	task envs.Task
}

func (s taskOnly) Name() string       { return s.name }
func (s taskOnly) Tasks() []envs.Task { return []envs.Task{s.task} }
func (s taskOnly) MaxSteps() int      { return 15 }
func (s taskOnly) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return nil, errors.New("no episodes")
}

// TestSynapseMiniwobMatchesSource compares Synapse's MiniWoB++ state
// abstraction and acting requests with those its own Agent.filter and
// Agent.act send (the browser and the model stubbed), captured in
// MEMHARNESS_LIFEMEM_CAPTURES/synapse-miniwob/<family>.json:
// {"task", "utterance", "steps": [{"state", "filter": {"messages",
// "stop"} or null, "obs", "act": {"messages", "stop"}}]}. Where the
// family's exemplar asks for code, the capture's filter request is the
// fallback Synapse sends when that code fails (the stub answers no code).
func TestSynapseMiniwobMatchesSource(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real packs and python captures)")
	}
	files, _ := filepath.Glob(filepath.Join(caps, "synapse-miniwob", "*.json"))
	if len(files) == 0 {
		t.Skip("no synapse-miniwob captures")
	}
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameSynapse), lifememrel.Synapse)
	if err != nil {
		t.Fatal(err)
	}
	trees := lifememrel.Trees{lifememrel.NameSynapse: tr}
	suites := []envs.Suite{taskOnly{name: "miniwob"}}
	abs, err := lifememrel.Abstractors(trees, suites)
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := lifememrel.Prompters(trees, suites, lifememrel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type request struct {
		Messages []llm.Message `json:"messages"`
		Stop     []string      `json:"stop"`
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var c struct {
				Task      string `json:"task"`
				Utterance string `json:"utterance"`
				Steps     []struct {
					State  string   `json:"state"`
					Filter *request `json:"filter"`
					Obs    string   `json:"obs"`
					Act    request  `json:"act"`
				} `json:"steps"`
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			task := envs.Task{ID: c.Task, Env: "miniwob"}
			a, p := abs["miniwob"], ps["miniwob"]
			applies := a.Applies(task)
			if applies != (c.Steps[0].Filter != nil) {
				t.Fatalf("abstraction applies: %v; the source filters: %v", applies, c.Steps[0].Filter != nil)
			}
			var turns []envs.Turn
			for k, st := range c.Steps {
				if st.Filter != nil {
					msgs, stop, err := a.Request(task, k, c.Utterance, st.State)
					if err != nil {
						t.Fatal(err)
					}
					compareMessages(t, fmt.Sprintf("step %d filter", k), msgs, st.Filter.Messages)
					if !slices.Equal(stop, st.Filter.Stop) {
						t.Errorf("step %d filter stop %q, source %q", k, stop, st.Filter.Stop)
					}
				}
				text := "Observation:\n" + st.Obs
				if k == 0 {
					text = "Task: " + c.Utterance + "\n" + text
				} else {
					turns = append(turns, envs.Turn{Role: "agent", Text: "agent.type(\"x\")"})
				}
				turns = append(turns, envs.Turn{Role: "env", Text: text})
				msgs, err := p.Messages(agent.PromptInput{Task: task, Turns: turns, Abstracted: applies})
				if err != nil {
					t.Fatal(err)
				}
				compareMessages(t, fmt.Sprintf("step %d act", k), msgs, st.Act.Messages)
				if !slices.Equal(p.Stop(), st.Act.Stop) {
					t.Errorf("act stop %q, source %q", p.Stop(), st.Act.Stop)
				}
			}
		})
	}
}
