package pramem

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/memharness/memharness/methods/predict"
)

// TestAcceptanceSynthOmniBehavior builds PraMem on synthetic OmniBehavior
// users with the sim backbone: Overall F1 beats truncation's, rises with
// the practice rounds evaluated (Figure 4), the snapshots of one build serve
// every eval_round, and the memory captures a planted long-range habit.
func TestAcceptanceSynthOmniBehavior(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 12 users × 80 rounds")
	}
	sets, truth := omniUsers(t, 12, 30, 3)
	trunc, err := predict.New(predict.Spec{Kind: predict.KindTruncation})
	if err != nil {
		t.Fatal(err)
	}
	ts, _ := evaluate(t, trunc, simEnv(nil), sets)
	base := overallF1(ts)

	st := newMemStore()
	f1 := map[int]float64{}
	var final []predict.Memory
	for _, r := range []int{80, 10, 40} { // the full build first: the others reuse its snapshots
		m, err := New(predict.Spec{Kind: Kind, PraMem: &predict.PraMemSpec{EvalRound: r}})
		if err != nil {
			t.Fatal(err)
		}
		cm := &countingModel{Model: simEnv(nil).Model}
		env := simEnv(st)
		env.Model = cm
		s, mems := evaluate(t, m, env, sets)
		f1[r] = overallF1(s)
		if r == 80 {
			final = mems
		} else if n := cm.calls["pramem.trial"]; n != 0 {
			t.Errorf("eval_round %d rebuilt memory (%d trial calls); it should read the shared checkpoints", r, n)
		}
		for _, mem := range mems {
			if got := mem.Meta["rounds"]; got != r {
				t.Errorf("eval_round %d: memory after %v rounds", r, got)
			}
		}
	}
	t.Logf("Overall F1: truncation %.2f; PraMem after 10/40/80 rounds %.2f / %.2f / %.2f", base, f1[10], f1[40], f1[80])
	if f1[80] <= base {
		t.Errorf("PraMem F1 %.2f is not above truncation's %.2f", f1[80], base)
	}
	if !(f1[10] <= f1[40] && f1[40] <= f1[80] && f1[10] < f1[80]) {
		t.Errorf("F1 does not rise with rounds: %v", f1)
	}

	captured := 0
	for i, mem := range final {
		h := truth.Users[i].Habit
		var em ExpMemory
		if err := json.Unmarshal([]byte(mem.Meta["memory_json"].(string)), &em); err != nil {
			t.Fatal(err)
		}
		for _, e := range em.UserExp {
			if strings.Contains(e, "["+h.Label+"]") && strings.Contains(e, "="+h.Value+":") {
				captured++
				if captured == 1 {
					t.Logf("%s planted habit %s/%s=%s -> %s; memory:\n%s", sets[i].User, h.Scene, h.Key, h.Value, h.Label, mem.Meta["memory_json"])
				}
			}
		}
	}
	if captured == 0 {
		t.Error("no memory captured its user's planted habit")
	}
}
