package taubench

import (
	"context"
	"sort"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestOracleFixtures replays every official task's gold actions through
// envs.Check and expects reward 1; it also lists tasks whose gold actions
// themselves fail (inconsistent official data).
func TestOracleFixtures(t *testing.T) {
	for _, d := range []Domain{Retail, Airline} {
		t.Run(string(d), func(t *testing.T) {
			s := openFixture(t, d)
			res, err := envs.Check(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d tasks, passed %d, failed %d, %.2fs", res.Env, res.Tasks, res.Passed, res.Failed, res.Seconds)
			for _, id := range res.Failing {
				t.Errorf("%s: %s", id, res.Reasons[id])
			}
			// A failing gold write means the task's gold state is "nothing
			// changed there": the official data is inconsistent.
			bad := s.GoldErrors()
			ids := make([]string, 0, len(bad))
			for id := range bad {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			for _, id := range ids {
				t.Logf("inconsistent official task %s: %s", id, bad[id])
			}
			t.Logf("%s: %d tasks with a failing gold write", res.Env, len(bad))
		})
	}
}
