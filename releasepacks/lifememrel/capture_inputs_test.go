package lifememrel_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/internal/testfixture"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// captureInput is step 1 of the LifeMem capture (see
// TestFirstPromptsMatchSources): what the release's code is handed.
type captureInput struct {
	Task        string             `json:"task"`
	Instruction string             `json:"instruction"`
	Observation string             `json:"observation"`
	Exemplars   []agent.Trajectory `json:"exemplars"`
	Rules       []string           `json:"rules"`
}

// ownExemplars are trajectories of our own, one per environment, shaped to
// reach the release's quirks: a step with no line break (ToolQA's find
// gives -1), non-ASCII text, an empty observation.
var ownExemplars = map[string]agent.Trajectory{
	"toolqa": {Env: "toolqa", Task: "What was the highest price of coffee on 2002-03-01?", Messages: []llm.Message{
		{Role: "user", Content: "What was the highest price of coffee on 2002-03-01?"},
		{Role: "assistant", Content: "Load the coffee table first.\nLoadDB[coffee]"},
		{Role: "user", Content: "We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency."},
		{Role: "assistant", Content: "Query the day's high — one row.\nSQLInterpreter[SELECT High FROM coffee_data WHERE Date = '2002-03-01';]"},
		{Role: "user", Content: "High: 58.9"},
		{Role: "assistant", Content: "Finish[58.9]"},
		{Role: "user", Content: ""},
	}},
	"scienceworld": {Env: "scienceworld", Task: "Your task is to find a(n) living thing. First, focus on the thing.", Messages: []llm.Message{
		{Role: "user", Content: "Your task is to find a(n) living thing. First, focus on the thing."},
		{Role: "assistant", Content: "look around"},
		{Role: "user", Content: "This room is called the kitchen. In it, you see: \n\tthe agent\n\ta substance called air\n\ta café table"},
		{Role: "assistant", Content: "go to green house"},
		{Role: "user", Content: ""},
	}},
	"apibank": {Env: "apibank", Task: "Set an alarm for 7:30 tomorrow — user Amy, password 1234.", Messages: []llm.Message{
		{Role: "user", Content: "Set an alarm for 7:30 tomorrow — user Amy, password 1234."},
		{Role: "assistant", Content: "[ToolSearcher(keywords='add alarm')]"},
		{Role: "user", Content: "{'name': 'AddAlarm', 'description': 'Add an alarm.'}"},
		{Role: "assistant", Content: "[GetUserToken(username='Amy', password='1234')]"},
	}},
}

// TestWriteLifeMemCaptureInputs writes step 1 of the LifeMem capture.
func TestWriteLifeMemCaptureInputs(t *testing.T) {
	dir := os.Getenv("MEMHARNESS_LIFEMEM_CAPTURE_INPUTS")
	if dir == "" {
		t.Skip("MEMHARNESS_LIFEMEM_CAPTURE_INPUTS not set (step 1 of the LifeMem capture)")
	}
	fix := filepath.Dir(testfixture.Need(t, "envs/lifemem_trainset_samples", "samples.jsonl"))
	samples, err := trainSamples(filepath.Join(fix, "lifemem_trainset_samples", "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"toolqa", "scienceworld", "apibank"} {
		e, err := all.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := e.OpenData(fix, all.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		task := s.Tasks()[0]
		ep, err := s.NewEpisode(t.Context(), task, envs.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		obs := ep.Observation()
		ep.Close()
		rec, ok := samples[name]
		if !ok {
			t.Fatalf("no training sample for %s", name)
		}
		in := captureInput{Task: task.ID, Instruction: task.Instruction, Observation: obs,
			Exemplars: []agent.Trajectory{rec, ownExemplars[name]},
			Rules: []string{"Read the task twice before the first action.", "Prefer one exact call over several guesses — check names first.",
				"Dates: quote them exactly as the task gives them."}}
		b, err := json.MarshalIndent(in, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// trainSamples reads the fixture's LifeMem training records by
// environment (train_<env>.jsonl), the first of each.
func trainSamples(path string) (map[string]agent.Trajectory, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]agent.Trajectory{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			SourceFile string        `json:"source_file"`
			Task       string        `json:"task"`
			Messages   []llm.Message `json:"messages"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, err
		}
		env, ok := strings.CutPrefix(r.SourceFile, "train_")
		if !ok {
			continue
		}
		env, _, _ = strings.Cut(env, ".jsonl")
		if _, seen := out[env]; !seen {
			out[env] = agent.Trajectory{Env: env, Task: r.Task, Messages: r.Messages}
		}
	}
	return out, sc.Err()
}
