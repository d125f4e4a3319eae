package mind2web

import (
	"fmt"
	"sort"

	"github.com/memharness/memharness/envs"
)

// PrevTopK is Synapse's previous_top_k_elements: earlier steps of the
// episode (and its memory's exemplars) show their page pruned around
// fewer candidates than the current step.
const PrevTopK = 3

// These views let a prompt rebuild an episode the way Synapse's Mind2Web
// agent (synapse/agents/mind2web.py, eval_sample) writes it, from the
// task's record rather than from the observations the episode sent.

// ShownSteps lists, in order, the gold steps an episode of t asks the
// agent to answer (those whose gold element is within the top k): the
// agent's n-th answer is for step ShownSteps[n].
func (s *Suite) ShownSteps(t envs.Task) ([]int, error) {
	r, err := s.record(t)
	if err != nil {
		return nil, err
	}
	var out []int
	for i := range r.Actions {
		if s.plan(r, i).reachable {
			out = append(out, i)
		}
	}
	return out, nil
}

// TopKObservation is step i's page as Synapse's get_top_k_obs prunes it:
// around the first positive candidate and the k-1 best-ranked negatives
// (stable in file order on equal ranks; k < 0 keeps every negative).
// Records keep no raw_html, so a step without a positive in cleaned_html
// shows its negatives alone (Synapse adds the target element from raw_html
// there).
func (s *Suite) TopKObservation(t envs.Task, i, k int) (string, error) {
	r, err := s.record(t)
	if err != nil {
		return "", err
	}
	if i < 0 || i >= len(r.Actions) {
		return "", fmt.Errorf("mind2web: %s: no step %d", t.ID, i)
	}
	a := &r.Actions[i]
	rk := rankStep(r, a, s.scores)
	var ids []string
	if len(a.PosCandidates) > 0 {
		ids = append(ids, a.PosCandidates[0].BackendNodeID)
	}
	negs := make([]string, len(a.NegCandidates))
	for j, c := range a.NegCandidates {
		negs[j] = c.BackendNodeID
	}
	sort.SliceStable(negs, func(x, y int) bool { return rk.rank[negs[x]] < rk.rank[negs[y]] })
	if k >= 0 && k-1 < len(negs) { // k < 0: every candidate, as the suite's TopK
		negs = negs[:max(k-1, 0)]
	}
	ids = append(ids, negs...)
	obs, _, err := observe(a.CleanedHTML, ids)
	if err != nil {
		return "", fmt.Errorf("mind2web: %s: step %d: %w", t.ID, i, err)
	}
	return obs, nil
}

// TargetAction is step i's gold action as Synapse's get_target_act writes
// it (`CLICK [id]`, `TYPE [id] [value]`, `SELECT [id] [value]`) and the
// step's action_repr.
func (s *Suite) TargetAction(t envs.Task, i int) (act, repr string, err error) {
	r, err := s.record(t)
	if err != nil {
		return "", "", err
	}
	if i < 0 || i >= len(r.Actions) {
		return "", "", fmt.Errorf("mind2web: %s: no step %d", t.ID, i)
	}
	return s.plan(r, i).gold.String(), r.ActionReprs[i], nil
}
