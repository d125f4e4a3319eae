package memstyle

import (
	"testing"
	"time"

	"github.com/memharness/memharness/methods/predict"
)

// TestCompareWithTruncation reports Table 1 figures (overall ACC/F1, mean
// of the scene means of the per-field figures) of each kind against the
// truncation baseline on a small synthetic seed (go test -v -run Compare),
// and checks the finding on it: every memory beats truncation on F1,
// because the memories carry the long-range habits and base rates that an
// 8K window misses.
func TestCompareWithTruncation(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	users := synthUsers(t, 20, 20, 7)
	var truncF1 float64
	for _, kind := range []string{predict.KindTruncation, KindMem0, KindMemOS, KindProEx} {
		start := time.Now()
		r := evaluate(t, predict.Spec{Kind: kind}, simEnv(), users)
		acc, f1 := r.table1()
		calls, tok := 0, 0
		for _, m := range r.mems {
			calls += m.Calls
			tok += m.Tokens
		}
		t.Logf("%-10s ACC %.1f F1 %.1f  (%d questions, %d construction calls, %d memory tokens/user, %v)",
			kind, acc, f1, len(r.labels), calls/len(users), tok/len(users), time.Since(start).Round(time.Millisecond))
		if kind == predict.KindTruncation {
			truncF1 = f1
		} else if f1 <= truncF1 {
			t.Errorf("%s F1 %.1f does not beat truncation's %.1f on this seed", kind, f1, truncF1)
		}
	}
}
