package lifememrel

import (
	"fmt"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

const synapseMind2web = "synapse/agents/mind2web.py"

// mind2webViews is what the prompt needs of the Mind2Web suite: the gold
// steps rebuilt from the task's record (envs/mind2web).
type mind2webViews interface {
	ShownSteps(t envs.Task) ([]int, error)
	TopKObservation(t envs.Task, i, k int) (string, error)
	TargetAction(t envs.Task, i int) (act, repr string, err error)
	TopK() int
}

var _ mind2webViews = (*mind2web.Suite)(nil)

// synapseMind2webPrompter is Synapse's Mind2Web agent in its trajectory
// mode (synapse/agents/mind2web.py, eval_sample without --no_trajectory):
// the system message sys_message, then the retrieved exemplars' messages
// as stored (LifeMem's Mind2Web trajectories are Synapse's memory
// exemplars, built by its build_memory.py), then the episode so far as
// Synapse writes it: every earlier gold step (shown to the agent or
// skipped) as "Observation: `<page>`" pruned around PrevTopK candidates
// and "Action: `<gold action>` (<action_repr>)", the first prefixed by
// "Task: <task>\nTrajectory:\n", and the current step's page pruned
// around the suite's top k. This pruning is Synapse's state abstraction on
// Mind2Web. The reply's first `…` span is the action; the stop sequences
// are the source's.
//
// Skills or insights (other methods' memory) have no place in Synapse's
// prompt; they follow the system message in the harness's words.
//
// Not reproduced: the exemplars are not dropped to fit a context limit (no
// tokenizer here), a step whose positive is missing from cleaned_html
// cannot show the target element from raw_html (not kept), and without
// memory no exemplars are shown (Synapse's no-memory run samples three
// from its own memory, which is built from the training split and not in
// the repository).
type synapseMind2webPrompter struct {
	*prompter
}

var backticked = lazyre.New("(?s)`(.*?)`")

// Fence implements agent.Fencer: the action is in backticks.
func (synapseMind2webPrompter) Fence() string { return "`" }

// ParseReply is extract_from_response(response, "`").
func (synapseMind2webPrompter) ParseReply(reply string) string {
	if m := backticked.FindStringSubmatch(reply); m != nil {
		return m[1]
	}
	return ""
}

func synapseMind2webBuilder(tr Trees, s envs.Suite, _ Options) (agent.Prompter, error) {
	t := tr[NameSynapse]
	pf := t.Py(synapseMind2web)
	if pf == nil {
		return nil, fmt.Errorf("%s: not read", synapseMind2web)
	}
	sys, ok := pf.Lookup("eval_sample", "sys_message")
	if !ok || sys.Kind != pysrc.List || len(sys.Items) != 1 {
		return nil, fmt.Errorf("%s: no one-message sys_message list in eval_sample", synapseMind2web)
	}
	content, ok := sys.Items[0].Get("content")
	if !ok || content.Kind != pysrc.Str || content.FString {
		return nil, fmt.Errorf("%s:%d: sys_message has no plain string content", synapseMind2web, sys.Line)
	}
	system := content.Str
	views, ok := s.(mind2webViews)
	if !ok {
		return nil, fmt.Errorf("suite %s cannot rebuild Mind2Web steps from its records", s.Name())
	}
	if sc, ok := s.(interface{ UseSynapseScoring() }); ok {
		// The reply is read and scored by Synapse's rule (extract, then
		// parse_act_str and the exact string) when its prompt runs.
		sc.UseSynapseScoring()
	}
	p := &prompter{
		label: fmt.Sprintf("%s@%.7s Mind2Web agent (trajectory prompt)", Synapse.Repository, synapseCommit),
		stop:  []string{"Task:", "obs:"},
	}
	p.build = func(in agent.PromptInput) ([]llm.Message, error) {
		shown, err := views.ShownSteps(in.Task)
		if err != nil {
			return nil, err
		}
		answered := 0
		for _, tn := range in.Turns {
			if tn.Role == "agent" {
				answered++
			}
		}
		if answered >= len(shown) {
			return nil, fmt.Errorf("mind2web %s: every shown step is answered", in.Task.ID)
		}
		cur := shown[answered]
		msgs := []llm.Message{{Role: "system", Content: system + rulesBlock(in)}}
		for _, ex := range in.Exemplars {
			msgs = append(msgs, ex.Messages...)
		}
		head := "Task: " + in.Task.Instruction + "\nTrajectory:\n"
		for i := 0; i < cur; i++ {
			obs, err := views.TopKObservation(in.Task, i, mind2web.PrevTopK)
			if err != nil {
				return nil, err
			}
			act, repr, err := views.TargetAction(in.Task, i)
			if err != nil {
				return nil, err
			}
			text := "Observation: `" + obs + "`"
			if i == 0 {
				text = head + text
			}
			msgs = append(msgs, llm.Message{Role: "user", Content: text},
				llm.Message{Role: "assistant", Content: "Action: `" + act + "` (" + repr + ")"})
		}
		obs, err := views.TopKObservation(in.Task, cur, views.TopK())
		if err != nil {
			return nil, err
		}
		text := "Observation: `" + obs + "`"
		if cur == 0 {
			text = head + text
		}
		return append(msgs, llm.Message{Role: "user", Content: text}), nil
	}
	return synapseMind2webPrompter{p}, nil
}
