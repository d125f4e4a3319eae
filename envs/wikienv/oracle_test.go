package wikienv

import (
	"context"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/internal/testfixture"
)

// fixtureDir is the shared fixture folder for env name, relative to this
// package; tests skip when it is absent.
func fixtureDir(t testing.TB, name string) string {
	t.Helper()
	return testfixture.Need(t, "envs/"+name)
}

func TestOracle(t *testing.T) {
	tests := []struct {
		name  string
		open  func(t *testing.T) (*Suite, error)
		tasks int // minimum
	}{
		{"embedded hotpotqa", func(*testing.T) (*Suite, error) { return EmbeddedHotpotQA() }, 10},
		{"embedded fever", func(*testing.T) (*Suite, error) { return EmbeddedFEVER() }, 10},
		{"fixture hotpotqa", func(t *testing.T) (*Suite, error) { return OpenHotpotQA(fixtureDir(t, "hotpotqa")) }, 100},
		{"fixture fever", func(t *testing.T) (*Suite, error) { return OpenFEVER(fixtureDir(t, "fever")) }, 9999},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.open(t)
			if err != nil {
				t.Fatal(err)
			}
			res, err := envs.Check(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d tasks, %d passed, %d failed, %.2fs", tt.name, res.Tasks, res.Passed, res.Failed, res.Seconds)
			if res.Tasks < tt.tasks {
				t.Errorf("%d tasks, want at least %d", res.Tasks, tt.tasks)
			}
			for _, id := range res.Failing {
				t.Errorf("task %s fails: %s", id, res.Reasons[id])
			}
		})
	}
}

// TestOracleSearchesHit checks that every gold search opens a page and that
// gold plans fit the step limit, so the oracle exercises the docstore
// rather than passing on Finish alone.
func TestOracleSearchesHit(t *testing.T) {
	suites := []struct {
		name string
		open func(t *testing.T) (*Suite, error)
	}{
		{"embedded hotpotqa", func(*testing.T) (*Suite, error) { return EmbeddedHotpotQA() }},
		{"embedded fever", func(*testing.T) (*Suite, error) { return EmbeddedFEVER() }},
		{"fixture hotpotqa", func(t *testing.T) (*Suite, error) { return OpenHotpotQA(fixtureDir(t, "hotpotqa")) }},
	}
	for _, st := range suites {
		t.Run(st.name, func(t *testing.T) {
			s, err := st.open(t)
			if err != nil {
				t.Fatal(err)
			}
			searches, seen := 0, 0
			for _, task := range s.Tasks() {
				gold, err := s.Gold(task)
				if err != nil {
					t.Fatal(err)
				}
				if len(gold) > s.MaxSteps() {
					t.Errorf("%s: %d gold actions exceed %d steps", task.ID, len(gold), s.MaxSteps())
				}
				tr, err := envs.Run(context.Background(), s, task, envs.Replay(gold), envs.Options{}, 0)
				if err != nil {
					t.Fatal(err)
				}
				var obs strings.Builder
				for i, turn := range tr.Turns {
					if turn.Role != "env" || i == 0 {
						continue
					}
					obs.WriteString(turn.Text + "\n")
					if strings.HasPrefix(turn.Text, "Could not find") {
						t.Errorf("%s: a gold search failed: %s", task.ID, turn.Text)
					}
				}
				searches += len(gold) - 1
				if q, ok := task.Data.(*HotpotQA); ok && strings.Contains(NormalizeAnswer(obs.String()), NormalizeAnswer(q.Answer)) {
					seen++
				}
			}
			// Information only: how often the answer text is on screen
			// after the gold searches (the rest needs Lookup or reasoning,
			// e.g. yes/no comparisons).
			if s.Name() == NameHotpotQA {
				t.Logf("%s: %d gold searches; answer text visible in %d of %d tasks", st.name, searches, seen, len(s.Tasks()))
			} else {
				t.Logf("%s: %d gold searches", st.name, searches)
			}
		})
	}
}

func TestGarbageAgentEndsCleanly(t *testing.T) {
	for _, open := range []func() (*Suite, error){EmbeddedHotpotQA, EmbeddedFEVER} {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		garbage := []string{"\x00}{ rm -rf /", "Search[", "]]][[[", "Action 1:", "Lookup[]", strings.Repeat("Search[x]", 1000), "\xff\xfe", "Finish"}
		i := 0
		agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
			i++
			return garbage[i%len(garbage)], nil
		})
		tr, err := envs.Run(context.Background(), s, s.Tasks()[0], agent, envs.Options{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Steps != 100 || tr.Invalid != 100 || tr.Score != 0 || tr.End != "max_steps" {
			t.Errorf("%s: steps %d invalid %d score %v end %q", s.Name(), tr.Steps, tr.Invalid, tr.Score, tr.End)
		}
	}
}

func TestSuiteMetadata(t *testing.T) {
	h, err := EmbeddedHotpotQA()
	if err != nil {
		t.Fatal(err)
	}
	f, err := EmbeddedFEVER()
	if err != nil {
		t.Fatal(err)
	}
	if h.Name() != "hotpotqa" || h.MaxSteps() != 7 || f.Name() != "fever" || f.MaxSteps() != 4 {
		t.Errorf("names/steps: %s %d, %s %d", h.Name(), h.MaxSteps(), f.Name(), f.MaxSteps())
	}
	labels := map[string]int{}
	for _, task := range f.Tasks() {
		labels[task.Data.(*FEVER).Label]++
	}
	for _, l := range Labels() {
		if labels[l] < 3 {
			t.Errorf("embedded FEVER has %d %s claims", labels[l], l)
		}
	}
	// Tasks returns a copy: callers cannot reorder the suite.
	h.Tasks()[0].ID = "changed"
	if h.Tasks()[0].ID == "changed" {
		t.Error("Tasks exposes the suite's slice")
	}
}

// BenchmarkOracleFixtures times a full oracle check over both fixture
// suites (100 HotpotQA questions, 9,999 FEVER claims), loading included.
func BenchmarkOracleFixtures(b *testing.B) {
	hdir, fdir := fixtureDir(b, "hotpotqa"), fixtureDir(b, "fever")
	for b.Loop() {
		h, err := OpenHotpotQA(hdir)
		if err != nil {
			b.Fatal(err)
		}
		f, err := OpenFEVER(fdir)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []*Suite{h, f} {
			res, err := envs.Check(context.Background(), s)
			if err != nil || res.Failed > 0 {
				b.Fatalf("%s: %+v, %v", s.Name(), res, err)
			}
		}
	}
}
