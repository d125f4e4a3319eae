package mind2web

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var shownID = regexp.MustCompile(`id=(\d+)`)

// TestSynapseViews: the steps an episode shows are those the top-k cut
// keeps; a step's Synapse page holds its first positive and the k-1
// best-ranked negatives (every candidate for k < 0); the target action is
// Synapse's string.
func TestSynapseViews(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range s.Tasks() {
		r := task.Data.(*Record)
		shown, err := s.ShownSteps(task)
		if err != nil {
			t.Fatal(err)
		}
		for i := range r.Actions {
			if slices.Contains(shown, i) == slices.Contains(s.UnreachableSteps(task.ID), i) {
				t.Errorf("%s step %d: shown and unreachable disagree", task.ID, i)
			}
			a := r.Actions[i]
			for _, k := range []int{1, PrevTopK, DefaultTopK, -1} {
				obs, err := s.TopKObservation(task, i, k)
				if err != nil {
					t.Fatal(err)
				}
				ids := map[string]bool{}
				for _, m := range shownID.FindAllStringSubmatch(obs, -1) {
					ids[m[1]] = true
				}
				want := len(a.NegCandidates)
				if k >= 0 {
					want = min(k-1, want)
				}
				if len(a.PosCandidates) > 0 {
					want++
					if !ids[a.PosCandidates[0].BackendNodeID] {
						t.Errorf("%s step %d k=%d: the positive is not shown", task.ID, i, k)
					}
				}
				if len(ids) != want {
					t.Errorf("%s step %d k=%d: %d candidates shown, want %d:\n%s", task.ID, i, k, len(ids), want, obs)
				}
			}
			act, repr, err := s.TargetAction(task, i)
			if err != nil {
				t.Fatal(err)
			}
			wantAct := a.Operation.Op + " [" + a.PosCandidates[0].BackendNodeID + "]"
			if a.Operation.Op != "CLICK" {
				wantAct += " [" + a.Operation.Value + "]"
			}
			if act != wantAct || repr != r.ActionReprs[i] || strings.TrimSpace(repr) == "" {
				t.Errorf("%s step %d: target %q (%q), want %q", task.ID, i, act, repr, wantAct)
			}
		}
	}
	if _, err := s.TopKObservation(s.Tasks()[0], 99, 3); err == nil {
		t.Error("a step past the end was rendered")
	}
}
