package bench

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/runstore"
)

// callsByUnit reads a run's call record as unit → its calls, each as JSON
// of everything but the wall-clock figures and the send order's numbers
// (which no two runs share).
func callsByUnit(t *testing.T, dir string) map[string][]string {
	t.Helper()
	cr, err := runstore.OpenCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cr.Close()
	out := map[string][]string{}
	err = cr.Each(nil, func(c runstore.Call) error {
		if c.Exchange == nil {
			t.Errorf("%s call %d has no request/reply recorded", c.Unit, c.Index)
		}
		c.LatencyNS, c.WallNS, c.Content = 0, 0, nil
		c.SendSeq, c.AnsweredBeforeSend = 0, 0
		b, err := json.Marshal(struct {
			runstore.Call
			Ex any `json:"ex"`
		}{c, c.Exchange})
		out[c.Unit] = append(out[c.Unit], string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compareCallRecords checks that two runs recorded the same calls for the
// same units whose name starts with prefix (journal order may differ
// between a sharded and a single run).
func compareCallRecords(t *testing.T, a, b, prefix string) {
	t.Helper()
	x, y := callsByUnit(t, a), callsByUnit(t, b)
	for _, m := range []map[string][]string{x, y} {
		maps.DeleteFunc(m, func(u string, _ []string) bool { return !strings.HasPrefix(u, prefix) })
	}
	if len(x) == 0 {
		t.Errorf("%s recorded no calls", a)
	}
	for _, u := range slices.Sorted(maps.Keys(x)) {
		if !slices.Equal(x[u], y[u]) {
			seen := map[string]int{}
			for _, c := range y[u] {
				seen[c]++
			}
			var only []string
			for _, c := range x[u] {
				if seen[c] == 0 {
					only = append(only, c[:min(len(c), 300)])
				}
				seen[c]--
			}
			t.Errorf("calls of %s differ: %d vs %d; only in the first: %d, e.g. %v", u, len(x[u]), len(y[u]), len(only), only[:min(len(only), 3)])
			return
		}
	}
	for u := range y {
		if _, ok := x[u]; !ok {
			t.Errorf("%s: calls of %s only in the second run", b, u)
			return
		}
	}
}
