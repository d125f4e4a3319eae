package pramem

import (
	"fmt"
	"testing"

	"github.com/memharness/memharness/methods/predict"
)

// TestAblationWiring is the positive control for PraMem's switches on the
// embedded default (synthetic OmniBehavior users, sim backbone): every
// construction ablation must change the memory it builds, and every
// evaluation ablation the memory text the prompt shows. A switch that is
// not wired to anything fails here. The F1 change is printed beside each
// switch; where it is 0 the sim reader does not turn that memory difference
// into a different answer on these users (the memory still differs).
func TestAblationWiring(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 8 users × 20 rounds per variant")
	}
	sets, _ := omniUsers(t, 8, 20, 5)
	type variant struct {
		name string
		spec predict.PraMemSpec
		// eval marks switches that change what evaluation shows, not
		// what construction builds.
		eval bool
	}
	variants := []variant{
		{name: "full"},
		{name: "no_trial", spec: predict.PraMemSpec{NoTrial: true}},
		{name: "no_reflection", spec: predict.PraMemSpec{NoReflection: true}},
		{name: "no_consensus", spec: predict.PraMemSpec{NoConsensus: true}},
		{name: "no_groundedness", spec: predict.PraMemSpec{NoGroundedness: true}},
		{name: "no_generalization", spec: predict.PraMemSpec{NoGeneralization: true}},
		{name: "only_pattern", spec: predict.PraMemSpec{Sections: "pattern"}, eval: true},
		{name: "only_bias", spec: predict.PraMemSpec{Sections: "bias"}, eval: true},
	}
	type result struct {
		built, shown []string
		f1           float64
	}
	res := map[string]result{}
	st := newMemStore()
	for _, v := range variants {
		spec := v.spec
		spec.Rounds = 20
		m, err := New(predict.Spec{Kind: Kind, PraMem: &spec})
		if err != nil {
			t.Fatal(err)
		}
		s, mems := evaluate(t, m, simEnv(st), sets)
		var r result
		for _, mem := range mems {
			r.built = append(r.built, fmt.Sprint(mem.Meta["memory_json"]))
			r.shown = append(r.shown, mem.Text)
		}
		r.f1 = overallF1(s)
		res[v.name] = r
	}
	full := res["full"]
	for _, v := range variants[1:] {
		r := res[v.name]
		changed := 0
		for i := range r.built {
			a, b := r.built[i], full.built[i]
			if v.eval {
				a, b = r.shown[i], full.shown[i]
			}
			if a != b {
				changed++
			}
		}
		what := "built memory"
		if v.eval {
			what = "memory shown at evaluation"
		}
		t.Logf("%-18s %s differs for %d/%d users; Overall F1 %.2f (full %.2f, %+.2f)", v.name, what, changed, len(r.built), r.f1, full.f1, r.f1-full.f1)
		if changed == 0 {
			t.Errorf("%s: the %s is the full method's for every user: the switch is not wired", v.name, what)
		}
	}
}
