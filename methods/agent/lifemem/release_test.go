package lifemem

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// standinTemplates are our own stand-ins for the release's construction
// prompts, with the same fields in the same roles (the real ones are read
// from the pinned file by releasepacks/lifememrel, never stored here).
var standinTemplates = agent.Templates{Label: "stand-in", Text: map[string]string{
	tmplAssign:  "ASSIGN new={trajectories}\nknown={existing_clusters}\n{{literal braces}}",
	tmplSummary: "SUMMARY of {trajectories}\nbefore: {summary}",
	tmplSplit:   "SPLIT {cluster_id} ({summary})\n{examples}\nnot: `{old_cluster_id}`",
}}

// TestReleaseConstructionPrompts learns a stream that assigns, summarises
// and splits, once with the own wording and once with release templates:
// the memory must come out the same (the sim answers from the hint, which
// the templates do not change), and every construction request under the
// templates is one user message, the template filled with Python-printed
// arguments (golden file; -update rewrites it).
func TestReleaseConstructionPrompts(t *testing.T) {
	learn := func(prompts *agent.Prompts) (*recorder, Stats) {
		rec := &recorder{inner: newSim(sim.Config{})}
		m := newTest(t, Options{SplitSize: 10, SplitMRL: 0.95})
		env := testEnv(t, rec)
		env.Embedder = axisEmbedder{dim: 8}
		env.Prompts = prompts
		for stage := range 2 {
			var batch []agent.Trajectory
			for i := range 8 {
				tr := synthTraj("alfworld", stage*8+i)
				tr.Task = fmt.Sprintf("axis%d %s", i%3, tr.Task)
				if i == 0 {
					tr.Messages[1].Content += "\nit's a \"quoted\" step\t✓"
				}
				batch = append(batch, tr)
			}
			if err := m.Learn(context.Background(), env, batch); err != nil {
				t.Fatal(err)
			}
		}
		return rec, m.Stats()
	}
	_, own := learn(nil)
	rec, rel := learn(&agent.Prompts{Construction: map[string]agent.Templates{templatesKey: standinTemplates}})
	if fmt.Sprint(own.Sizes) != fmt.Sprint(rel.Sizes) || own.Counters != rel.Counters {
		t.Errorf("memory differs under release templates:\nown %v %+v\nrel %v %+v", own.Sizes, own.Counters, rel.Sizes, rel.Counters)
	}
	var b strings.Builder
	for _, p := range []string{opAssign, opSummary, opSplit} {
		reqs := rec.purposes("lifemem." + p)
		if len(reqs) == 0 {
			t.Fatalf("no %s request", p)
		}
		for i, q := range reqs {
			if len(q.Messages) != 1 || q.Messages[0].Role != "user" {
				t.Fatalf("%s %d: %d messages, want one user message", p, i, len(q.Messages))
			}
			fmt.Fprintf(&b, "=== %s %d (%s attempt %d)\n%s\n", p, i, q.SampleID, q.Attempt, q.Messages[0].Content)
		}
	}
	got := b.String()
	for _, want := range []string{
		`'task_id': 'alfworld_0', 'task': 'axis0 put a clean mug in countertop 1', 'messages': [{'role': 'user', 'content': 'put a clean mug`,
		`'content': 'go to countertop 1\nit\'s a "quoted" step\t✓'`,
		"{literal braces}",
		"known={}",
		"before: None",
		"'summary': 'This cluster is about",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("requests lack %q", want)
		}
	}
	golden := filepath.Join("testdata", "release_requests.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("requests differ from %s (rerun with -update and review the diff)", golden)
	}
}

// TestReleaseRequestErrors: a template without a field the call fills, or
// a missing template, fails the call with the template named.
func TestReleaseRequestErrors(t *testing.T) {
	bad := agent.Templates{Label: "broken", Text: map[string]string{tmplSummary: "{trajectories} {nope}"}}
	if _, err := releaseSummary(bad, LifeMemSummary{Cluster: "c"}, nil); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown field: err %v", err)
	}
	if _, err := releaseSplit(bad, LifeMemSplit{Cluster: "c"}, nil, nil); err == nil || !strings.Contains(err.Error(), tmplSplit) {
		t.Errorf("missing template: err %v", err)
	}
	if _, err := pysrc.Fields(standinTemplates.Text[tmplAssign]); err != nil {
		t.Fatal(err)
	}
}
