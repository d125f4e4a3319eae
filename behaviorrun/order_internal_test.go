package behaviorrun

import (
	"testing"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/methods/predict"
)

// namedMethod is a method that only has a name (the order reads no more).
type namedMethod struct {
	predict.Method
	name string
}

func (m namedMethod) Name() string { return m.name }

// TestIssueOrderBatchedQuestionsDoNotWait: a follower held until its leader
// is answered is right for live calls, but a leader parked in a provider
// batch answers with its wave, so followers held until then would go in a
// second wave: with the questions batched no job waits, and the order is
// the same as live.
func TestIssueOrderBatchedQuestionsDoNotWait(t *testing.T) {
	var jobs []Job
	for _, m := range []string{"truncation", "rag"} {
		u := &unit{method: namedMethod{name: m}}
		for _, rec := range []int{1, 2} {
			jobs = append(jobs, Job{ID: m, Inst: &behavior.Instance{User: "u", Index: rec}, u: u})
		}
	}
	classes := map[string]string{"truncation": "h", "rag": "h"}
	for _, tc := range []struct {
		batched bool
		waits   int
	}{{false, 3}, {true, 0}} {
		live := issueOrder(jobs, 2, classes, false)
		got := issueOrder(jobs, 2, classes, tc.batched)
		waits := 0
		for k, j := range got {
			if j.wait != nil {
				waits++
			}
			if j.ID != live[k].ID || j.Inst != live[k].Inst {
				t.Errorf("batched=%v: job %d is %s record %d, live order has %s record %d", tc.batched, k, j.ID, j.Inst.Index, live[k].ID, live[k].Inst.Index)
			}
		}
		if waits != tc.waits {
			t.Errorf("batched=%v: %d jobs wait for another's answer, want %d", tc.batched, waits, tc.waits)
		}
	}
}
