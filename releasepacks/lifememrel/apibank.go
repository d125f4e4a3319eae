package lifememrel

import (
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

const apibankEvaluator = "api-bank/evaluator.py"

// apibankBuilder is LifeMem's API-Bank loop (api-bank/evaluator.py): the
// system message is api_call_prompt + INSIGHT + the insights + the
// examples heading + the examples + api_call_prompt2, the user message is
// the task; then the model's replies, and "Here's the execution result: "
// + the tool output, or the no-valid-call error, as user turns. The
// examples are "Here are two examples:\n" and the retrieved trajectories
// as "User: …\n" / "Assistant: …\n" lines, the first closed by a Finish
// line; without retrieved trajectories EXAMPLE stands in (the release's
// memory-free variant is not in the code: an assumption). Insights are
// the memory service's rules text (serviceRules).
func apibankBuilder(tr Trees, _ envs.Suite, _ Options) (agent.Prompter, error) {
	t := tr[NameLifeMem]
	var parts [4]string
	for i, n := range []string{"api_call_prompt", "INSIGHT", "api_call_prompt2", "EXAMPLE"} {
		v, err := lookupStr(t, apibankEvaluator, "", n)
		if err != nil {
			return nil, err
		}
		parts[i] = v.Str
	}
	head, insight, tail, example := parts[0], parts[1], parts[2], parts[3]
	lit := func(prefix string) string {
		for _, l := range t.Py(apibankEvaluator).Literals {
			if strings.HasPrefix(l.Value.Str, prefix) && !l.Value.FString {
				return l.Value.Str
			}
		}
		return ""
	}
	examplesHead, twoExamples := lit("Here're some examples"), lit("Here are two examples")
	finish, result, noCall := lit("Assistant: [Finish()]"), lit("Here's the execution result"), lit("Error! No valid")
	if examplesHead == "" || twoExamples == "" || finish == "" || result == "" || noCall == "" {
		return nil, fmt.Errorf("%s: the examples headings, the Finish line, the result prefix or the no-call error is missing", apibankEvaluator)
	}
	return lifememClient{&prompter{
		label: fmt.Sprintf("%s@%.7s API-Bank evaluator", LifeMem.Repository, lifememAPIBank),
		build: func(in agent.PromptInput) ([]llm.Message, error) {
			examples := example
			if len(in.Exemplars) > 0 {
				var b strings.Builder
				b.WriteString(twoExamples)
				for i, ex := range in.Exemplars {
					for _, m := range ex.Messages {
						switch m.Role {
						case "user":
							b.WriteString("User: " + m.Content + "\n")
						case "assistant":
							b.WriteString("Assistant: " + m.Content + "\n")
						}
					}
					if i == 0 {
						b.WriteString(finish)
					}
				}
				examples = b.String()
			}
			system := head + insight + serviceRules(in.Rules) + examplesHead + examples + tail
			msgs := []llm.Message{{Role: "system", Content: system}, {Role: "user", Content: in.Task.Instruction}}
			for _, turn := range in.Turns[1:] {
				switch {
				case turn.Role == "agent":
					msgs = append(msgs, llm.Message{Role: "assistant", Content: turn.Text})
				case turn.Invalid:
					msgs = append(msgs, llm.Message{Role: "user", Content: noCall})
				case strings.HasPrefix(turn.Text, result):
					// The API-Bank environment already words its
					// results as the evaluator does.
					msgs = append(msgs, llm.Message{Role: "user", Content: turn.Text})
				default:
					msgs = append(msgs, llm.Message{Role: "user", Content: result + turn.Text})
				}
			}
			return msgs, nil
		},
	}}, nil
}

// lifememClient adds the release's get_response clean-up
// (ScienceWorld/examples/llm.py, api-bank/utils.py) to a Prompter: the
// model's text goes through process, then loses every "Assistant: ".
type lifememClient struct{ *prompter }

// ParseReply implements agent.ReplyParser.
func (lifememClient) ParseReply(reply string) string { return lifememProcess(reply) }

// lifememProcess is process(result) then .replace("Assistant: ", ""):
// with both "<" and ">" in the text, the span between the first "<" and
// the first ">" (empty when that ">" comes first), else the text.
func lifememProcess(s string) string {
	if i, j := strings.Index(s, "<"), strings.Index(s, ">"); i >= 0 && j >= 0 {
		if j > i {
			s = s[i+1 : j]
		} else {
			s = ""
		}
	}
	return strings.ReplaceAll(s, "Assistant: ", "")
}
