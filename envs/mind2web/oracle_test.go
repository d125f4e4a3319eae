package mind2web

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir holds the official data when the shared fixtures have it.
var fixtureDir = testfixture.Path("envs/mind2web")

func TestOracleFixtures(t *testing.T) {
	matches, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	more, _ := filepath.Glob(filepath.Join(fixtureDir, "test_task", "*.json"))
	if len(matches)+len(more) == 0 {
		t.Skip(testfixture.Message("envs/mind2web") + " (the fixture keeps only SOURCES.md: the release is not on GitHub; the oracle also runs on testdata and the embedded suite)")
	}
	s, err := Open(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, s)
	// Tasks with a step outside the top k cannot pass (Synapse's rule); every
	// other task must.
	st := s.Stats()
	if res.Failed != st.UnreachableTasks {
		t.Errorf("%d tasks failed, want exactly the %d with unreachable steps: %v", res.Failed, st.UnreachableTasks, res.Reasons)
	}
}

func TestOracleEmbedded(t *testing.T) {
	res := check(t, embeddedSuite(t))
	if res.Failed != 0 {
		t.Errorf("embedded oracle failures: %v", res.Reasons)
	}
}

func TestOracleTestdata(t *testing.T) {
	s, err := Open("testdata/release")
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, s)
	want := []string{"mh-test-museum-02", "mh-test-parcel-04"} // one unreachable step each
	got := append([]string(nil), res.Failing...)
	sort.Strings(got)
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("failing = %v, want %v", got, want)
	}
}

func check(t *testing.T, s *Suite) envs.CheckResult {
	t.Helper()
	res, err := envs.Check(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s oracle: %d tasks, %d passed, %d failed (%.3fs)", s.Name(), res.Tasks, res.Passed, res.Failed, res.Seconds)
	for _, id := range res.Failing {
		t.Logf("  failing %s: %s; unreachable steps (0-based, gold element outside the top %d): %v",
			id, res.Reasons[id], s.TopK(), s.UnreachableSteps(id))
	}
	if os.Getenv("MIND2WEB_VERBOSE") != "" {
		t.Logf("stats: %+v", s.Stats())
	}
	return res
}

func BenchmarkOracleEmbedded(b *testing.B) {
	s := embeddedSuite(b)
	for b.Loop() {
		if _, err := envs.Check(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOracleTestdata(b *testing.B) {
	s, err := Open("testdata/release")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := envs.Check(context.Background(), s); err != nil {
			b.Fatal(err)
		}
	}
}
