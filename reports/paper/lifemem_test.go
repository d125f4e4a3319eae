package paper

import (
	"math"
	"testing"

	"github.com/memharness/memharness/reports/unit"
)

func TestLifeMemAnchors(t *testing.T) {
	byLabel := map[string]LifeMemAnchor{}
	for _, a := range LifeMemAnchors() {
		if a.Key == "" || a.Label == "" || a.Source == "" || a.Unit == "" {
			t.Errorf("incomplete anchor %+v", a)
		}
		// Issue 37: OP and scores were in "score" and cluster sizes in
		// "trajectories", outside the vocabulary every other CSV uses.
		if !unit.Valid(a.Unit) {
			t.Errorf("%s: unit %q is not in the vocabulary %v", a.Label, a.Unit, unit.All())
		}
		if (a.Backbone == "") != (a.Model == "") {
			t.Errorf("%s: backbone %q without a model ID %q (or the reverse)", a.Label, a.Backbone, a.Model)
		}
		byLabel[a.Key+"/"+a.Method+"/"+a.Env+"/"+a.Backbone] = a
	}
	// App. C's example must be self-consistent: (75.00 − 77.08)/77.08 = −2.70 %.
	d := byLabel[AnchorDiag+"/Synapse/MiniWoB++/GPT-4o-mini"].Value
	f := byLabel[AnchorFinal+"/Synapse/MiniWoB++/GPT-4o-mini"].Value
	b := byLabel[AnchorBwTEnv+"/Synapse/MiniWoB++/GPT-4o-mini"].Value
	if got := 100 * (f - d) / d; math.Abs(got-b) > 0.005 {
		t.Errorf("MiniWoB example: %.4f from the scores, %.2f printed", got, b)
	}
	for _, k := range []string{"ReAct/GPT-4o-mini", "LifeMem/GPT-4o-mini", "ReAct/DeepSeek-v3.2-exp", "LifeMem/DeepSeek-v3.2-exp"} {
		found := false
		for _, a := range LifeMemAnchors() {
			if a.Key == AnchorAvgOP && a.Method+"/"+a.Backbone == k {
				found = true
			}
		}
		if !found {
			t.Errorf("Avg OP anchor %s missing", k)
		}
	}
	// A fresh slice each call: callers may not change the published values.
	LifeMemAnchors()[0].Value = -1
	if LifeMemAnchors()[0].Value == -1 {
		t.Error("LifeMemAnchors shares its slice")
	}
}
