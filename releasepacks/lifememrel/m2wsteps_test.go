package lifememrel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// TestSynapseMind2webStepsAsSource: on every record of the embedded
// Mind2Web suite, each request the harness builds under Synapse's prompt
// holds, after the system message and the exemplar, the messages Synapse's
// own eval_sample builds from the same record (captured by
// testdata/capture/mind2web_steps_capture.py into
// testdata/golden/mind2web-synapse-steps.json, with the same exemplar):
// the same steps asked, the same pages pruned and printed, the same
// earlier actions.
func TestSynapseMind2webStepsAsSource(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", "mind2web-synapse-steps.json"))
	if err != nil {
		t.Fatal(err)
	}
	var source map[string]json.RawMessage
	if err := json.Unmarshal(b, &source); err != nil {
		t.Fatal(err)
	}
	var settings struct {
		TopK     int `json:"top_k_elements"`
		PrevTopK int `json:"previous_top_k_elements"`
	}
	if err := json.Unmarshal(source["_settings"], &settings); err != nil {
		t.Fatal(err)
	}
	if settings.PrevTopK != mind2web.PrevTopK {
		t.Errorf("the source prunes earlier steps around %d candidates, the harness %d", settings.PrevTopK, mind2web.PrevTopK)
	}
	dir, src := pinnedStandIn(t, Synapse)
	tr, err := Open(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mind2web.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if s.TopK() != settings.TopK {
		t.Errorf("the source prunes the current step around %d candidates, the suite %d", settings.TopK, s.TopK())
	}
	ps, _, err := Prompters(Trees{NameSynapse: tr}, []envs.Suite{s}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := ps["mind2web"]
	ex := []agent.Trajectory{{Task: "Website: w\nTask: an earlier task", Messages: []llm.Message{
		{Role: "user", Content: "Task: an earlier task\nTrajectory:\nObservation: `<html> <a id=7 home> Home </a> </html>`"},
		{Role: "assistant", Content: "Action: `CLICK [7]` ([link] Home -> CLICK)"}}}}
	same, all := 0, 0
	for _, task := range s.Tasks() {
		raw, ok := source[task.ID]
		if !ok {
			t.Errorf("%s: not in the capture", task.ID)
			continue
		}
		var want [][]llm.Message
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		gold, err := s.Gold(task)
		if err != nil {
			t.Fatal(err)
		}
		ep, err := s.NewEpisode(t.Context(), task, envs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		turns := []envs.Turn{{Role: "env", Text: ep.Observation()}}
		for step := range want {
			all++
			if step >= len(gold) {
				t.Errorf("%s: the source asks %d steps, the harness has %d gold actions", task.ID, len(want), len(gold))
				break
			}
			msgs, err := p.Messages(agent.PromptInput{Task: task, Turns: turns, Exemplars: ex})
			if err != nil {
				t.Fatalf("%s step %d: %v", task.ID, step, err)
			}
			got := msgs[1+len(ex[0].Messages):]
			if g, w := mustJSON(got), mustJSON(want[step]); g != w {
				t.Errorf("%s step %d differs from the source's request:\nharness %s\nsource  %s", task.ID, step, g, w)
			} else {
				same++
			}
			st, err := ep.Step(t.Context(), gold[step])
			if err != nil {
				t.Fatal(err)
			}
			turns = append(turns, envs.Turn{Role: "agent", Text: gold[step]}, envs.Turn{Role: "env", Text: st.Observation})
		}
		if len(gold) > len(want) {
			t.Errorf("%s: the harness asks %d steps, the source %d", task.ID, len(gold), len(want))
		}
		ep.Close()
	}
	t.Logf("%d of %d requests as the source builds them", same, all)
	if all == 0 {
		t.Fatal("no request compared")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
