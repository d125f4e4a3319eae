package scienceworld

import (
	"context"
	"testing"

	"github.com/memharness/memharness/envs"
)

func TestOracleFixtures(t *testing.T) {
	s := openFixtures(t)
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fixtures: %d tasks, %d passed, %d failed in %.3fs", res.Tasks, res.Passed, res.Failed, res.Seconds)
	if res.Tasks != 24 {
		t.Errorf("%d tasks, want 24 (14 + 10 variations)", res.Tasks)
	}
	for _, id := range res.Failing {
		t.Errorf("oracle failure %s: %s", id, res.Reasons[id])
	}
}

func TestOracleEmbedded(t *testing.T) {
	s := embedded(t)
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded: %d tasks, %d passed, %d failed", res.Tasks, res.Passed, res.Failed)
	if res.Tasks < 10 {
		t.Errorf("embedded suite has %d tasks, want >= 10", res.Tasks)
	}
	for _, id := range res.Failing {
		t.Errorf("oracle failure %s: %s", id, res.Reasons[id])
	}
}

// TestOracleStepLimit: LifeMem allows 35 agent actions; list the fixture
// variations whose gold path is longer (a gold-following agent fails them).
func TestOracleStepLimit(t *testing.T) {
	for _, s := range []*Suite{openFixtures(t), embedded(t)} {
		var over []string
		for _, task := range s.Tasks() {
			gold, err := s.Gold(task)
			if err != nil {
				t.Fatal(err)
			}
			if len(gold) > s.MaxSteps() {
				over = append(over, task.ID)
			}
		}
		t.Logf("%s: %d of %d gold paths exceed %d actions: %v", s.Name(), len(over), len(s.Tasks()), s.MaxSteps(), over)
	}
}

// BenchmarkOracleFixtures times the full oracle run over the fixtures.
func BenchmarkOracleFixtures(b *testing.B) {
	s := openFixtures(b)
	for b.Loop() {
		res, err := envs.Check(context.Background(), s)
		if err != nil || res.Failed != 0 {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
