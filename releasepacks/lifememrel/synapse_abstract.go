package lifememrel

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// Abstractors returns the sources' state abstractions for the suites that
// have one: MiniWoB++'s from Synapse (synapseAbstractor) when its pack is
// open.
func Abstractors(tr Trees, suites []envs.Suite) (map[string]agent.StateAbstractor, error) {
	out := map[string]agent.StateAbstractor{}
	for _, s := range suites {
		if s.Name() != miniwob.Name || tr[NameSynapse] == nil {
			continue
		}
		a, err := newSynapseAbstractor(tr[NameSynapse])
		if err != nil {
			return nil, fmt.Errorf("prompts: release: miniwob: %w", err)
		}
		out[s.Name()] = a
	}
	return out, nil
}

// synapseAbstractor is Agent.filter of synapse/agents/miniwob.py: for the
// families in ENV_TO_FILTER whose exemplar shows abstracted observations,
// one request made of the exemplar's filter prompt (if any), its demos'
// "State:\n<state>\nObservation:\n<obs>\n\n" pairs (those of the current
// step for trajectory exemplars) and "State:\n<state>\nObservation:".
//
// Where the exemplar asks for code (code_filter_prompt: the model writes
// Python that Synapse executes over the state), the harness never runs
// model-written code, so it takes the path Synapse falls back to when that
// code fails: the filter prompt with the demos, stop "Action:". An
// exemplar with a code prompt and no filter prompt (click-pie) gets the
// demos alone.
type synapseAbstractor struct {
	filtered []string
	demos    map[string]synapseEntry
}

func newSynapseAbstractor(t *Tree) (*synapseAbstractor, error) {
	pf := t.Py(synapseAgent)
	if pf == nil {
		return nil, fmt.Errorf("%s: not read", synapseAgent)
	}
	v, ok := pf.Lookup("", "ENV_TO_FILTER")
	if !ok || v.Kind != pysrc.List {
		return nil, fmt.Errorf("%s: no ENV_TO_FILTER list", synapseAgent)
	}
	a := &synapseAbstractor{demos: map[string]synapseEntry{}}
	for _, it := range v.Items {
		if it.Kind != pysrc.Str {
			return nil, fmt.Errorf("%s:%d: ENV_TO_FILTER holds a %s", synapseAgent, it.Line, it.Kind)
		}
		a.filtered = append(a.filtered, it.Str)
	}
	demos, err := readSynapseExemplars(t)
	if err != nil {
		return nil, err
	}
	a.demos = demos
	return a, nil
}

func (a *synapseAbstractor) Label() string {
	return fmt.Sprintf("%s@%.7s MiniWoB++ state abstraction", Synapse.Repository, synapseCommit)
}

// Applies: the family is filtered and its exemplar is of the obs_act or
// multi_obs_act kind (Synapse otherwise acts on the raw state).
func (a *synapseAbstractor) Applies(t envs.Task) bool {
	family := agent.MiniwobFamily(t)
	if !slices.Contains(a.filtered, family) {
		return false
	}
	e, ok := a.demos[synapseExemplarName(family)]
	return ok && len(e.Demo) > 0 && (e.Demo[0].Trajectory != nil || e.hasObs)
}

func (a *synapseAbstractor) Request(t envs.Task, step int, _ string, state string) ([]llm.Message, []string, error) {
	family := agent.MiniwobFamily(t)
	e, ok := a.demos[synapseExemplarName(family)]
	if !ok || len(e.Demo) == 0 {
		return nil, nil, fmt.Errorf("%s: no exemplar for %s", synapseExemplars, family)
	}
	var demo strings.Builder
	pair := func(st, obs string) { demo.WriteString("State:\n" + st + "\n" + "Observation:\n" + obs + "\n\n") }
	multi := e.Demo[0].Trajectory != nil
	var filter string
	var hasCode, hasFilter bool
	if multi {
		for _, d := range e.Demo {
			if step < len(d.Trajectory) && d.Trajectory[step].State != "" {
				pair(d.Trajectory[step].State, d.Trajectory[step].Obs)
			}
		}
		codes, err := stringList(e.CodeFilterPrompt)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %s: code_filter_prompt: %w", synapseExemplars, family, err)
		}
		if step < len(codes) && codes[step] != "" {
			hasCode = true
			filters, err := stringList(e.FilterPrompt)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %s: filter_prompt: %w", synapseExemplars, family, err)
			}
			if step < len(filters) {
				filter, hasFilter = filters[step], true
			}
		}
	} else {
		for _, d := range e.Demo {
			if d.State != "" {
				pair(d.State, d.Obs)
			}
		}
		var err error
		if _, hasCode, err = optString(e.CodeFilterPrompt); err != nil {
			return nil, nil, fmt.Errorf("%s: %s: code_filter_prompt: %w", synapseExemplars, family, err)
		}
		if filter, hasFilter, err = optString(e.FilterPrompt); err != nil {
			return nil, nil, fmt.Errorf("%s: %s: filter_prompt: %w", synapseExemplars, family, err)
		}
	}
	query := demo.String() + "State:\n" + state + "\nObservation:"
	stop := []string{"Action:", "Output:", "State:"}
	switch {
	case hasCode && hasFilter:
		query, stop = filter+query, []string{"Action:"}
	case !multi && hasFilter:
		query = filter + query
	}
	return []llm.Message{{Role: "user", Content: query}}, stop, nil
}

// optString reads an optional JSON string (absent or null: false).
func optString(raw json.RawMessage) (string, bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, err
	}
	return s, true, nil
}

// stringList reads an optional JSON list of strings.
func stringList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var out []string
	err := json.Unmarshal(raw, &out)
	return out, err
}
