package lifememrel

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

const scienceworldEvaluator = "ScienceWorld/examples/evaluator.py"

// scienceworldBuilder is LifeMem's ScienceWorld loop (userConsole in
// ScienceWorld/examples/evaluator.py): ONE user message, SYSTEM_PROMPT +
// the retrieved trajectories ("User: …\n", "Assistant: <…>\n") + INSIGHT +
// the skills + the joining sentence + the look-around observation + the
// task description; then the model's actions (newlines removed) and the
// observations as chat turns. Without retrieved trajectories or skills
// EXAMPLE stands in and INSIGHT is left out (the release has no
// memory-free path; its retrieval block is marked to be commented out:
// an assumption). The skills are the memory service's rules text
// (serviceRules).
func scienceworldBuilder(tr Trees, _ envs.Suite, _ Options) (agent.Prompter, error) {
	t := tr[NameLifeMem]
	var parts [3]string
	for i, n := range []string{"SYSTEM_PROMPT", "INSIGHT", "EXAMPLE"} {
		v, err := lookupStr(t, scienceworldEvaluator, "", n)
		if err != nil {
			return nil, err
		}
		parts[i] = v.Str
	}
	system, insight, example := parts[0], parts[1], parts[2]
	join := ""
	for _, l := range t.Py(scienceworldEvaluator).LiteralsIn("userConsole") {
		if strings.HasPrefix(l.Str, "Now this is") && !l.FString {
			join = l.Str
		}
	}
	if join == "" {
		return nil, fmt.Errorf("%s (userConsole): no joining sentence before the current state", scienceworldEvaluator)
	}
	return lifememClient{&prompter{
		label: fmt.Sprintf("%s@%.7s ScienceWorld evaluator", LifeMem.Repository, lifememScienceWorld),
		build: func(in agent.PromptInput) ([]llm.Message, error) {
			var b strings.Builder
			b.WriteString(system)
			if len(in.Exemplars) == 0 {
				b.WriteString(example)
			}
			for _, ex := range in.Exemplars {
				for _, m := range ex.Messages {
					switch m.Role {
					case "user":
						b.WriteString("User: " + m.Content + "\n")
					case "assistant":
						b.WriteString("Assistant: <" + m.Content + ">\n")
					}
				}
			}
			// The release always writes INSIGHT and the skills after the
			// retrieved trajectories, even when there are no skills.
			if len(in.Exemplars) > 0 || len(in.Rules) > 0 {
				b.WriteString(insight + serviceRules(in.Rules))
			}
			b.WriteString(join + firstState(in.Turns[0].Text, in.Task.Instruction))
			msgs := []llm.Message{{Role: "user", Content: b.String()}}
			for _, turn := range in.Turns[1:] {
				if turn.Role == "agent" {
					msgs = append(msgs, llm.Message{Role: "assistant", Content: strings.ReplaceAll(turn.Text, "\n", "")})
					continue
				}
				msgs = append(msgs, llm.Message{Role: "user", Content: turn.Text})
			}
			return msgs, nil
		},
	}}, nil
}

// firstState is the release's ObservationTmp + TaskDescription: the
// "look around" result and the goal with nothing between them. The
// environment's first observation puts a line break between the two
// (ScienceWorld's step output has no trailing one), which is dropped here.
func firstState(obs, desc string) string {
	if desc != "" {
		if look, ok := strings.CutSuffix(obs, "\n"+desc); ok {
			return look + desc
		}
	}
	return obs
}
