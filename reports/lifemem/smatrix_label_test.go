package lifemem

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/metrics"
)

// The S matrix says "score" where WebShop, scored by reward, is a column,
// and "success rate" where every column is a success rate.
func TestSMatrixLabelSaysRewardForWebShop(t *testing.T) {
	for _, tc := range []struct {
		envs []string
		want string
	}{
		{[]string{"alfworld", "webshop"}, "WebShop's mean reward"},
		{[]string{"alfworld", "toolqa"}, "Cells: success rate"},
	} {
		m := &lmMethod{Spec: lmMethodSpec{Name: "lifemem"}, Matrix: metrics.ScoreMatrix{S: [][]float64{{50}, {40, 30}}}}
		kinds := lmKinds{{Name: "alfworld", DisplayName: "ALFWorld"}, {Name: "webshop", DisplayName: "WebShop", Score: "mean reward"}, {Name: "toolqa"}}
		f, ok, err := lmHeatMap("cap", kinds, m, tc.envs, nil, "similarity")
		if err != nil || !ok {
			t.Fatalf("%v: ok %v, %v", tc.envs, ok, err)
		}
		if !strings.Contains(string(f.SVG), tc.want) {
			t.Errorf("%v: the figure does not say %q", tc.envs, tc.want)
		}
	}
}
