package pyrand

import (
	"fmt"
	"testing"
)

// The expected values were printed by CPython 3 (random.Random).
func TestMatchesCPython(t *testing.T) {
	r := New(42)
	got := []uint32{r.GetRandBits(32), r.GetRandBits(32), r.GetRandBits(32)}
	if fmt.Sprint(got) != "[2746317213 478163327 107420369]" {
		t.Errorf("getrandbits(32) x3 with seed 42 = %v", got)
	}
	// ReAct's and ExpeL's FEVER selection: Random(233).shuffle(range(7405)).
	idx := ShuffledRange(7405, 233)
	if fmt.Sprint(idx[:10]) != "[3687 6238 5388 3522 3824 2866 1551 2544 1557 5762]" || idx[99] != 3725 {
		t.Errorf("shuffle(range(7405)) with seed 233 starts %v, [99]=%d", idx[:10], idx[99])
	}
	// A seed wider than 32 bits.
	if got := ShuffledRange(10, 1<<40+5); fmt.Sprint(got) != "[1 2 3 6 7 0 5 4 9 8]" {
		t.Errorf("shuffle(range(10)) with seed 2**40+5 = %v", got)
	}
}
