package taubench

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
)

// TestOracleEmbedded: every embedded task passes envs.Check, and, since we
// wrote the data, no gold action may fail.
func TestOracleEmbedded(t *testing.T) {
	for _, d := range []Domain{Retail, Airline} {
		t.Run(string(d), func(t *testing.T) {
			s, err := Embedded(d)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(s.Tasks()); n < 10 {
				t.Errorf("%d embedded tasks, want >= 10", n)
			}
			res, err := envs.Check(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s embedded: %d tasks, passed %d, failed %d", res.Env, res.Tasks, res.Passed, res.Failed)
			for _, id := range res.Failing {
				t.Errorf("%s: %s", id, res.Reasons[id])
			}
			for _, task := range s.Tasks() {
				r := task.Data.(*TaskRecord)
				_, outs := s.GoldState(r)
				for i, o := range outs {
					if strings.HasPrefix(o, "Error") || o == "None" {
						t.Errorf("%s: gold action %d (%s) fails: %s", task.ID, i, r.Actions[i].Name, o)
					}
				}
			}
		})
	}
}
