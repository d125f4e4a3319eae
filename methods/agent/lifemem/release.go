package lifemem

import (
	"fmt"
	"slices"

	"github.com/memharness/memharness/internal/pyfmt"
	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// Release template names (the LifeMem release's variables in
// memory/prompts.py); releasepacks/lifememrel checks each one's fields.
const (
	// templatesKey is the method name the release templates are kept
	// under in agent.Prompts.Construction (every ablation shares them).
	templatesKey = "lifemem"

	tmplAssign  = "cluster_trajectory"
	tmplSummary = "get_summary"
	tmplSplit   = "get_split"
)

// Under prompts: release each construction request is ONE user message:
// the release's template .format()ed with Python values, so lists and
// dicts appear as Python's str() prints them (build_memory.py,
// cluster_sqlite.py). Messages are shown whole, as the release does; the
// hint (and so the sim's answer) is the same as under own wording.
//
// Data shape: the release's training lines (train_<env>.jsonl) are not
// published; the code reads 'task_id', 'task' and 'messages' from them,
// so a new trajectory is shown as a dict of exactly those keys in that
// order -- an assumption, as are the message dicts' keys ('role',
// 'content'), which are what its agents write. Stored exemplars have the
// shape edit_memory.py writes: {'message': [...], 'id': ...}.

// pyMessages is a message list as the release stores it.
func pyMessages(msgs []llm.Message) []any {
	out := make([]any, len(msgs))
	for i, m := range msgs {
		out[i] = pyfmt.Dict{{Key: "role", Val: m.Role}, {Key: "content", Val: m.Content}}
	}
	return out
}

// pyNone is str(x) of an optional text: "None" when unset, as a fresh
// cluster's summary column is.
func pyNone(s string) string {
	if s == "" {
		return "None"
	}
	return s
}

func releaseRequest(t agent.Templates, name string, args map[string]string) ([]llm.Message, error) {
	tmpl, ok := t.Text[name]
	if !ok {
		return nil, fmt.Errorf("lifemem: release templates (%s) have no %s", t.Label, name)
	}
	s, err := pysrc.Format(tmpl, args)
	if err != nil {
		return nil, fmt.Errorf("lifemem: %s (%s): %w", name, t.Label, err)
	}
	return []llm.Message{{Role: "user", Content: s}}, nil
}

// releaseAssign is cluster_trajectory.format(trajectories=..., existing_clusters=...):
// the new trajectories as training lines, the candidates as
// {cluster_id: {'summary': ..., 'trajectories': [messages, ...]}}.
func releaseAssign(t agent.Templates, h LifeMemAssign, msgs func(label string) []llm.Message) ([]llm.Message, error) {
	trajs := make([]any, len(h.Trajectories))
	for i, v := range h.Trajectories {
		trajs[i] = pyfmt.Dict{{Key: "task_id", Val: v.Label}, {Key: "task", Val: v.Task}, {Key: "messages", Val: pyMessages(msgs(v.Label))}}
	}
	clusters := pyfmt.Dict{}
	for _, c := range h.Candidates {
		ex := make([]any, len(c.Examples))
		for i, e := range c.Examples {
			ex[i] = pyMessages(msgs(e.Label))
		}
		var summary any
		if c.Summary != "" {
			summary = c.Summary
		}
		clusters = append(clusters, pyfmt.Item{Key: c.Name, Val: pyfmt.Dict{{Key: "summary", Val: summary}, {Key: "trajectories", Val: ex}}})
	}
	return releaseRequest(t, tmplAssign, map[string]string{
		"trajectories":      pyfmt.Repr(trajs),
		"existing_clusters": pyfmt.Repr(clusters),
	})
}

// releaseSummary is get_summary.format(trajectories=[messages, ...], summary=...).
func releaseSummary(t agent.Templates, h LifeMemSummary, members [][]llm.Message) ([]llm.Message, error) {
	trajs := make([]any, len(members))
	for i, m := range members {
		trajs[i] = pyMessages(m)
	}
	return releaseRequest(t, tmplSummary, map[string]string{
		"trajectories": pyfmt.Repr(trajs),
		"summary":      pyNone(h.Previous),
	})
}

// releaseSplit is get_split.format(cluster_id=..., summary=...,
// examples=[{'message': ..., 'id': ...}, ...], old_cluster_id=[every
// cluster name]). The release lists the names in its table's order; here
// they are sorted (ours keeps no creation order across saves).
func releaseSplit(t agent.Templates, h LifeMemSplit, members [][]llm.Message, clusters []string) ([]llm.Message, error) {
	ex := make([]any, len(h.Members))
	for i, v := range h.Members {
		ex[i] = pyfmt.Dict{{Key: "message", Val: pyMessages(members[i])}, {Key: "id", Val: v.Label}}
	}
	names := slices.Clone(clusters)
	slices.Sort(names)
	return releaseRequest(t, tmplSplit, map[string]string{
		"cluster_id":     h.Cluster,
		"summary":        pyNone(h.Summary),
		"examples":       pyfmt.Repr(ex),
		"old_cluster_id": pyfmt.Repr(names),
	})
}
