package lifememrel

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/lazyre"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

const (
	synapseAgent     = "synapse/agents/miniwob.py"
	synapseExemplars = "synapse/memory/miniwob/exemplars.json"
)

// synapseDemo is one exemplar of exemplars.json.
type synapseDemo struct {
	Task       string `json:"task"`
	State      string `json:"state"`
	Obs        string `json:"obs"`
	Act        string `json:"act"`
	Trajectory []struct {
		State string `json:"state"`
		Obs   string `json:"obs"`
		Act   string `json:"act"`
	} `json:"trajectory"`
}

type synapseEntry struct {
	Demo              []synapseDemo `json:"demo"`
	AblationActPrompt string        `json:"ablation_act_prompt"`
	hasAblationPrompt bool
	// CodeFilterPrompt and FilterPrompt are a string for single-step
	// exemplars and a list by step for trajectory ones (raw here).
	CodeFilterPrompt json.RawMessage `json:"code_filter_prompt"`
	FilterPrompt     json.RawMessage `json:"filter_prompt"`
	// hasObs: the first demo shows an abstracted observation ("obs"), so
	// the state abstraction can apply.
	hasObs bool
}

// synapseMiniwob is Synapse's MiniWoB++ agent (synapse/agents/miniwob.py)
// without its state abstraction (the --no_filter path): the system
// message of Agent.act, then the exemplar demos of the task's exemplar
// (exemplars.json, chosen by task name as without memory), then
// "Observation:\n<state>\nAction:". Single-step exemplars show state and
// act pairs and the agent sees only the current state; trajectory
// exemplars show whole episodes and the agent sees its own trajectory
// under "Task: …\nTrajectory:". Acts are fenced in ``` and the reply's
// first fenced block is the action. Retrieved trajectories (the methods'
// memory) are shown as trajectory demos instead of the task's exemplar.
//
// On the families Synapse filters, the agent abstracts each state first
// (synapseAbstractor) and the prompt then shows the exemplar's abstracted
// observations (PromptInput.Abstracted): Synapse's obs_act and
// multi_obs_act prompts. Elsewhere this is its state_act prompt.
type synapseMiniwob struct {
	*prompter
}

var fenced = lazyre.New("(?s)```(?:[a-zA-Z]*)\\n?(.*?)\\n?```")

// Fence implements agent.Fencer: actions come in a ``` block.
func (synapseMiniwob) Fence() string { return "```" }

// ParseReply is extract_from_response(response, "```").
func (synapseMiniwob) ParseReply(reply string) string {
	if m := fenced.FindStringSubmatch(reply); m != nil {
		return m[1]
	}
	return ""
}

// synapseExemplarName maps a task family to its exemplar as reset() does
// without memory.
func synapseExemplarName(page string) string {
	switch page {
	case "click-tab-2-hard":
		return "click-tab-2"
	case "email-inbox", "email-inbox-forward-nl", "email-inbox-forward-nl-turk":
		return "email-inbox-nl-turk"
	}
	return page
}

func synapseMiniwobBuilder(tr Trees, s envs.Suite, _ Options) (agent.Prompter, error) {
	if ex, ok := s.(interface{ UseSynapseExec() }); ok {
		// The code ParseReply hands over runs as run_miniwob.py's exec
		// runs it.
		ex.UseSynapseExec()
	}
	t := tr[NameSynapse]
	system := ""
	for _, l := range t.Py(synapseAgent).LiteralsIn("Agent.act") {
		if strings.HasPrefix(l.Str, "You are a large language model") {
			system = l.Str
		}
	}
	if system == "" {
		return nil, fmt.Errorf("%s (Agent.act): no system message", synapseAgent)
	}
	demos, err := readSynapseExemplars(t)
	if err != nil {
		return nil, err
	}
	fence := func(act string) string { return "```\n" + act + "\n```" }
	obsMsg := func(s string) llm.Message {
		return llm.Message{Role: "user", Content: "Observation:\n" + s + "\nAction:"}
	}
	p := &prompter{
		label: fmt.Sprintf("%s@%.7s MiniWoB++ agent", Synapse.Repository, synapseCommit),
		stop:  []string{"Observation:"},
	}
	p.build = func(in agent.PromptInput) ([]llm.Message, error) {
		page, _, _ := strings.Cut(in.Task.ID, "/")
		task, state := splitMiniwobObs(in.Turns[0].Text)
		msgs := []llm.Message{{Role: "system", Content: system + rulesBlock(in)}}
		multi := true
		if len(in.Exemplars) > 0 {
			for _, ex := range in.Exemplars {
				msgs = append(msgs, llm.Message{Role: "user", Content: "Task: " + ex.Task + "\nTrajectory:"})
				for i, m := range ex.Messages {
					if i == 0 && m.Role == "user" {
						_, s := splitMiniwobObs(m.Content)
						msgs = append(msgs, obsMsg(s))
						continue
					}
					if m.Role == "assistant" {
						msgs = append(msgs, llm.Message{Role: "assistant", Content: fence(m.Content)})
					} else {
						_, s := splitMiniwobObs(m.Content)
						msgs = append(msgs, obsMsg(s))
					}
				}
			}
		} else if in.Abstracted {
			// The obs_act and multi_obs_act prompts: the exemplar's
			// abstracted observations, every demo.
			e, ok := demos[synapseExemplarName(page)]
			if !ok || len(e.Demo) == 0 {
				return nil, fmt.Errorf("%s: no exemplar for %s", synapseExemplars, page)
			}
			multi = e.Demo[0].Trajectory != nil
			for _, d := range e.Demo {
				if !multi {
					msgs = append(msgs, obsMsg(d.Obs), llm.Message{Role: "assistant", Content: fence(d.Act)})
					continue
				}
				msgs = append(msgs, llm.Message{Role: "user", Content: "Task: " + d.Task + "\nTrajectory:"})
				for _, st := range d.Trajectory {
					msgs = append(msgs, obsMsg(st.Obs), llm.Message{Role: "assistant", Content: fence(st.Act)})
				}
			}
		} else {
			e, ok := demos[synapseExemplarName(page)]
			if !ok || len(e.Demo) == 0 {
				return nil, fmt.Errorf("%s: no exemplar for %s", synapseExemplars, page)
			}
			multi = e.Demo[0].Trajectory != nil
			if !multi && e.hasAblationPrompt {
				msgs = append(msgs, llm.Message{Role: "user", Content: e.AblationActPrompt})
			}
			for _, d := range e.Demo {
				if !multi {
					if d.State != "" {
						msgs = append(msgs, obsMsg(d.State), llm.Message{Role: "assistant", Content: fence(d.Act)})
					}
					continue
				}
				complete := true
				for _, st := range d.Trajectory {
					complete = complete && st.State != ""
				}
				if !complete {
					continue
				}
				msgs = append(msgs, llm.Message{Role: "user", Content: "Task: " + d.Task + "\nTrajectory:"})
				for _, st := range d.Trajectory {
					msgs = append(msgs, obsMsg(st.State), llm.Message{Role: "assistant", Content: fence(st.Act)})
				}
			}
		}
		if multi {
			msgs = append(msgs, llm.Message{Role: "user", Content: "Task: " + task + "\nTrajectory:"})
			for i := 1; i+1 < len(in.Turns); i += 2 {
				_, prev := splitMiniwobObs(in.Turns[i-1].Text)
				msgs = append(msgs, obsMsg(prev), llm.Message{Role: "assistant", Content: fence(in.Turns[i].Text)})
			}
			_, state = splitMiniwobObs(in.Turns[len(in.Turns)-1].Text)
		} else {
			_, state = splitMiniwobObs(in.Turns[len(in.Turns)-1].Text)
		}
		return append(msgs, obsMsg(state)), nil
	}
	return synapseMiniwob{p}, nil
}

// splitMiniwobObs splits the harness's MiniWoB++ observation ("Task: …
// \nObservation:\n<html>" first, "Observation:\n<html>" or "Action failed:
// …\nObservation:\n<html>" after a step) into the utterance and the state:
// Synapse's prompt shows the state alone.
func splitMiniwobObs(obs string) (task, state string) {
	const marker = "Observation:\n"
	i := strings.LastIndex(obs, marker)
	if i < 0 {
		return "", obs
	}
	head, state := obs[:i], obs[i+len(marker):]
	if t, ok := strings.CutPrefix(head, "Task: "); ok {
		task = strings.TrimSuffix(t, "\n")
	}
	return task, state
}

// readSynapseExemplars reads memory/miniwob/exemplars.json by exemplar name.
func readSynapseExemplars(t *Tree) (map[string]synapseEntry, error) {
	raw, _ := t.Raw(synapseExemplars)
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%s: %w", synapseExemplars, err)
	}
	demos := map[string]synapseEntry{}
	for name, r := range entries {
		var e synapseEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", synapseExemplars, name, err)
		}
		var probe struct {
			Ablation *string          `json:"ablation_act_prompt"`
			Demo     []map[string]any `json:"demo"`
		}
		_ = json.Unmarshal(r, &probe)
		e.hasAblationPrompt = probe.Ablation != nil
		if len(probe.Demo) > 0 {
			_, e.hasObs = probe.Demo[0]["obs"]
		}
		demos[name] = e
	}
	return demos, nil
}
