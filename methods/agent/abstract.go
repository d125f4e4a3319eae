package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/llm"
)

// PurposeAbstract is the Purpose of Synapse's state-abstraction requests.
const PurposeAbstract = "synapse.abstract"

// StateAbstractor is Synapse's state abstraction for one environment: before
// each action, one model request rewrites the page's raw state into the
// short observation the acting prompt shows (synapse/agents/miniwob.py,
// Agent.filter). The reply is the observation.
type StateAbstractor interface {
	// Label names the abstraction's wording (own or a source's).
	Label() string
	// Applies reports whether t's pages are abstracted: Synapse abstracts
	// only the task families listed in its ENV_TO_FILTER, and only where
	// its exemplars show abstracted observations.
	Applies(t envs.Task) bool
	// Request is the abstraction request for the raw state of the
	// episode's step (0-based: the number of actions taken so far), given
	// the page's utterance, with its stop sequences.
	Request(t envs.Task, step int, utterance, state string) ([]llm.Message, []string, error)
}

// SynapseFilterFamilies are the MiniWoB++ task families whose states
// Synapse abstracts (ENV_TO_FILTER in synapse/agents/miniwob.py); every
// other family is shown raw.
var SynapseFilterFamilies = []string{
	"book-flight", "click-collapsible-2", "click-menu", "click-pie", "click-shape",
	"click-tab-2", "click-tab-2-hard", "count-shape", "email-inbox", "email-inbox-forward-nl",
	"email-inbox-forward-nl-turk", "email-inbox-nl-turk", "find-word", "grid-coordinate",
	"login-user-popup", "social-media", "social-media-some", "terminal", "tic-tac-toe",
	"use-autocomplete",
}

// MiniwobFamily is a MiniWoB++ task's family: its ID up to the first "/"
// ("click-tab-2/seed-3" → "click-tab-2").
func MiniwobFamily(t envs.Task) string {
	family, _, _ := strings.Cut(t.ID, "/")
	return family
}

// OwnAbstractor is the harness's own state abstraction (prompts: own): our
// wording and our own two solved examples, for the families Synapse
// abstracts. Only MiniWoB++ has one; Mind2Web's abstraction is the
// candidate pruning its environment already does.
func OwnAbstractor(env string) StateAbstractor {
	if env == miniwob.Name {
		return ownAbstractor{}
	}
	return nil
}

type ownAbstractor struct{}

func (ownAbstractor) Label() string { return "own state abstraction" }

func (ownAbstractor) Applies(t envs.Task) bool {
	return slices.Contains(SynapseFilterFamilies, MiniwobFamily(t))
}

// ownAbstractDemos are our own examples of a raw state and the observation
// kept from it.
var ownAbstractDemos = []struct{ task, state, obs string }{
	{
		task:  `Open the "Billing" section and press Save.`,
		state: `<div id="wrap"><div id="query">Open the "Billing" section and press Save.</div><div id="area"><div class="banner" style="height:40px"><img src="logo.png"></div><h3 class="sec" id="s1">Profile</h3><div class="body" style="display:none"><button id="save1">Save</button></div><h3 class="sec" id="s2">Billing</h3><div class="body" style="display:none"><button id="save2">Save</button></div></div></div>`,
		obs:   `<h3 id="s1">Profile</h3> (collapsed) <h3 id="s2">Billing</h3> (collapsed, holds <button id="save2">Save</button>)`,
	},
	{
		task:  `Type "orchid" in the search box and submit.`,
		state: `<div id="wrap"><div id="query">Type "orchid" in the search box and submit.</div><div id="area"><p class="hint">Results appear below.</p><form><input type="text" id="q" class="wide"><button type="submit" id="go">Search</button></form><ul id="results"></ul><footer>page 1</footer></div></div>`,
		obs:   `<input type="text" id="q"> <button id="go">Search</button>`,
	},
}

func (ownAbstractor) Request(_ envs.Task, _ int, utterance, state string) ([]llm.Message, []string, error) {
	var b strings.Builder
	b.WriteString("Rewrite a web page's state as a short observation for an agent that must act on the page. " +
		"Keep every element the task may need to click, read or type into, with what locates it (id, text, type); " +
		"drop layout, styling and whatever the task cannot need. Answer with the observation only.\n\n")
	for _, d := range ownAbstractDemos {
		fmt.Fprintf(&b, "Task: %s\nState:\n%s\nObservation:\n%s\n\n", d.task, d.state, d.obs)
	}
	fmt.Fprintf(&b, "Task: %s\nState:\n%s\nObservation:", utterance, state)
	return []llm.Message{{Role: "user", Content: b.String()}}, []string{"Action:", "State:"}, nil
}

// abstractingAgent abstracts each page once, when it is the current one,
// and hands the inner agent the episode with every page abstracted, as
// Synapse keeps the abstracted observations in its trajectory.
type abstractingAgent struct {
	inner       envs.Agent
	abs         StateAbstractor
	model       llm.Model
	params      llm.Params
	method, env string
	mu          sync.Mutex
	done        map[int]string // turn index → abstracted text
}

// abstracting wraps inner with abs for task t, or returns inner when abs
// does not apply to t.
func abstracting(inner envs.Agent, abs StateAbstractor, t envs.Task, model llm.Model, params llm.Params, method, env string) envs.Agent {
	if abs == nil || !abs.Applies(t) {
		return inner
	}
	return &abstractingAgent{inner: inner, abs: abs, model: model, params: params,
		method: method, env: env, done: map[int]string{}}
}

// splitPage cuts an observation at its last "Observation:\n": the text
// before (with the marker) and the page's raw state.
func splitPage(text string) (head, state string, ok bool) {
	const marker = "Observation:\n"
	i := strings.LastIndex(text, marker)
	if i < 0 {
		return "", "", false
	}
	return text[:i+len(marker)], text[i+len(marker):], true
}

// Act implements envs.Agent.
func (a *abstractingAgent) Act(ctx context.Context, t envs.Task, turns []envs.Turn) (string, error) {
	utterance := ""
	if len(turns) > 0 {
		if head, _, ok := splitPage(turns[0].Text); ok {
			utterance = strings.TrimSuffix(strings.TrimPrefix(head, "Task: "), "\nObservation:\n")
		}
	}
	out := slices.Clone(turns)
	step := 0
	for i, tn := range turns {
		if tn.Role == "agent" {
			step++
			continue
		}
		a.mu.Lock()
		text, seen := a.done[i]
		a.mu.Unlock()
		if !seen {
			head, state, ok := splitPage(tn.Text)
			if !ok {
				continue
			}
			obs, err := a.abstract(ctx, t, step, utterance, state)
			if err != nil {
				return "", err
			}
			text = head + obs
			a.mu.Lock()
			a.done[i] = text
			a.mu.Unlock()
		}
		out[i].Text = text
	}
	return a.inner.Act(ctx, t, out)
}

func (a *abstractingAgent) abstract(ctx context.Context, t envs.Task, step int, utterance, state string) (string, error) {
	msgs, stop, err := a.abs.Request(t, step, utterance, state)
	if err != nil {
		return "", fmt.Errorf("agent %s: %s/%s step %d: %s: %w", a.method, a.env, t.ID, step, a.abs.Label(), err)
	}
	// The abstraction's stop list is the abstractor's (Synapse's differs
	// per call); the rest of its sampling is the run's.
	params := CloneParams(a.params)
	if stop != nil {
		params.Stop = stop
	}
	resp, err := a.model.Generate(ctx, llm.Request{
		Purpose:  PurposeAbstract,
		Messages: msgs,
		Params:   params,
		SampleID: fmt.Sprintf("%s/%s/%s/%d/abstract", a.method, a.env, t.ID, step),
		Affinity: a.env + "/" + t.ID,
		Hint:     StateAbstract{Env: a.env, Task: utterance, State: state},
	})
	if err != nil {
		return "", fmt.Errorf("agent %s: %s/%s step %d: state abstraction: %w", a.method, a.env, t.ID, step, err)
	}
	return resp.Text, nil
}
