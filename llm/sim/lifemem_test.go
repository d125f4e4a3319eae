package sim

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/hint"
)

func TestActionVerb(t *testing.T) {
	cases := []struct{ in, want string }{
		{"go to countertop 1", "go"},
		{"Thought 1: find it.\nAction 1: Search[Alan Turing]", "search"},
		{"I need the table.\nLoadDB[coffee]", "loaddb"},
		{"[ToolSearcher(keywords='alarm')]", "toolsearcher"},
		{"Action:\n{\"name\": \"find_user_id_by_email\", \"arguments\": {}}", "find_user_id_by_email"},
		{"```python\nagent.click_xpath(\"//button\")\n```", "click_xpath"},
		{"Action: CLICK [12] (<button>)", "click"},
		{"think: first I should look at the shelf", "think"},
		{"Sure, I can help you with that order. Could you tell me your email address please?", "reply"},
		{"", "reply"},
	}
	for _, tc := range cases {
		if got := ActionVerb(tc.in); got != tc.want {
			t.Errorf("ActionVerb(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func lmTraj(label, env string, actions ...string) hint.LifeMemTrajectory {
	return hint.LifeMemTrajectory{Label: label, Env: env, Task: "task of " + label, Actions: actions}
}

var lmOpLine = regexp.MustCompile(`^(ADD \S+ to \S+|NEW \S+ with \S+)$`)

// lmExecution returns the operation lines, failing on anything else.
func lmExecution(t *testing.T, text string) []string {
	t.Helper()
	i, j := strings.Index(text, "<Execution>\n"), strings.Index(text, "</Execution>")
	if !strings.HasPrefix(text, "<Analysis>\n") || i < 0 || j < i {
		t.Fatalf("sections missing:\n%s", text)
	}
	lines := strings.Split(strings.TrimSpace(text[i+len("<Execution>\n"):j]), "\n")
	for _, l := range lines {
		if !lmOpLine.MatchString(l) {
			t.Errorf("bad operation line %q", l)
		}
	}
	return lines
}

func TestLifeMemAssign(t *testing.T) {
	h := hint.LifeMemAssign{
		Trajectories: []hint.LifeMemTrajectory{
			lmTraj("a1", "alfworld", "think: where", "go to desk 1", "take pen 1"),
			lmTraj("h1", "hotpotqa", "Action 1: Search[X]"),
			lmTraj("a2", "alfworld", "go to shelf 1"),
			lmTraj("t1", "toolqa", "LoadDB[coffee]"),
		},
		Candidates: []hint.LifeMemCluster{
			{Name: "db_lookups", Examples: []hint.LifeMemTrajectory{lmTraj("t0", "toolqa", "LoadDB[coffee]")}},
		},
	}
	got := lmExecution(t, lmAssign(h))
	want := []string{"NEW go_alfworld with a1", "NEW search_hotpotqa with h1", "ADD a2 to go_alfworld", "ADD t1 to db_lookups"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The first batch of a fresh memory has no candidates: NEW lines only.
	for _, l := range lmExecution(t, lmAssign(hint.LifeMemAssign{Trajectories: h.Trajectories})) {
		if strings.HasPrefix(l, "ADD") && !strings.Contains(l, "go_alfworld") {
			t.Errorf("fresh memory: %q adds to a cluster that does not exist", l)
		}
	}
}

func TestLifeMemSummary(t *testing.T) {
	h := hint.LifeMemSummary{Cluster: "c", Members: []hint.LifeMemTrajectory{
		lmTraj("a", "toolqa", "LoadDB[coffee]", "Finish[1]"), lmTraj("b", "toolqa", "LoadDB[coffee]")}}
	got := lmSummary(h)
	if !strings.HasPrefix(got, "This cluster is about toolqa tasks solved with loaddb, finish actions") || strings.Contains(got, "\n") {
		t.Errorf("summary %q", got)
	}
}

func TestLifeMemSplit(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		axes   int
		lo, hi int
	}{
		{"three directions", 30, 3, 3, 6},
		{"five directions", 40, 5, 3, 6},
		{"one direction still splits into the minimum", 12, 1, 3, 6},
		{"eight directions capped", 40, 8, 3, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hint.LifeMemSplit{Cluster: "big", MinClusters: tc.lo, MaxClusters: tc.hi}
			for i := range tc.n {
				v := make([]float32, 8)
				v[i%tc.axes] = 1
				v[(i+1)%8] += 0.01 * float32(i%3)
				m := lmTraj(fmt.Sprintf("m%d", i), "alfworld", "go to x")
				m.Task = fmt.Sprintf("topic%d item %d", i%tc.axes, i)
				m.Vector = v
				h.Members = append(h.Members, m)
			}
			lines := lmExecution(t, lmSplit(h))
			seen := map[string]bool{}
			clusters := map[string]bool{}
			news := true
			for _, l := range lines {
				f := strings.Fields(l)
				if f[0] == "NEW" {
					if !news {
						t.Errorf("NEW line %q after ADD lines", l)
					}
					clusters[f[1]] = true
					seen[f[3]] = true
					continue
				}
				news = false
				if !clusters[f[3]] {
					t.Errorf("%q adds to a cluster never created", l)
				}
				seen[f[1]] = true
			}
			if len(seen) != tc.n || len(lines) != tc.n {
				t.Errorf("%d members placed in %d lines, want %d", len(seen), len(lines), tc.n)
			}
			if len(clusters) < tc.lo || len(clusters) > tc.hi || clusters["big"] {
				t.Errorf("clusters %v", clusters)
			}
			if tc.axes >= 3 && tc.axes <= 6 && len(clusters) != tc.axes {
				t.Errorf("%d clusters for %d directions", len(clusters), tc.axes)
			}
		})
	}
}

func TestLifeMemRules(t *testing.T) {
	batch := []hint.LifeMemTrajectory{
		lmTraj("a", "toolqa", "LoadDB[coffee]", "SQLInterpreter[x]", "Finish[1]"),
		lmTraj("b", "toolqa", "LoadDB[coffee]", "SQLInterpreter[y]", "Finish[2]"),
		lmTraj("c", "toolqa", "LoadDB[coffee]", "Finish[3]"),
		lmTraj("d", "toolqa", "LoadDB[coffee]", "Finish[4]"),
		lmTraj("e", "toolqa", "Finish[5]"),
	}
	got := lmRules(hint.LifeMemRules{Trajectories: batch, MaxOps: 4, MaxRules: 20})
	lines := strings.Split(got, "\n")
	if len(lines) != 2 {
		t.Fatalf("rules answer:\n%s", got)
	}
	if !strings.HasPrefix(lines[0], "ADD 1: To finish in toolqa tasks, first loaddb then ") {
		t.Errorf("line %q", lines[0])
	}
	if task, steps, ok := hint.ParseWorkflow(lines[0]); !ok || task == "" || len(steps) < 2 {
		t.Errorf("no workflow in %q", lines[0])
	}
	// A listed rule with the same pattern is agreed with, not re-added.
	again := lmRules(hint.LifeMemRules{Rules: []string{strings.TrimPrefix(lines[0], "ADD 1: ")}, Trajectories: batch, MaxOps: 1, MaxRules: 20})
	if !strings.HasPrefix(again, "AGREE 1: ") || strings.Count(again, "ADD") != 1 {
		t.Errorf("second answer:\n%s", again)
	}
	// The rule cap holds.
	full := lmRules(hint.LifeMemRules{Rules: []string{"x", "y"}, Trajectories: batch, MaxOps: 4, MaxRules: 2})
	if strings.Contains(full, "ADD") {
		t.Errorf("answer exceeds MaxRules:\n%s", full)
	}
}

func TestLifeMemDispatch(t *testing.T) {
	s := New(Config{})
	for _, h := range []any{
		hint.LifeMemSummary{Cluster: "c"},
		&hint.LifeMemAssign{Trajectories: []hint.LifeMemTrajectory{lmTraj("a", "e", "go")}},
		&hint.LifeMemRules{},
		hint.LifeMemSplit{Members: []hint.LifeMemTrajectory{lmTraj("a", "e", "go")}},
	} {
		if _, err := s.Generate(context.Background(), llm.Request{Purpose: "lifemem.x", Hint: h}); err != nil {
			t.Errorf("%T: %v", h, err)
		}
	}
	var nilHint *hint.LifeMemAssign
	if _, err := s.Generate(context.Background(), llm.Request{Purpose: "lifemem.assign", Hint: nilHint}); err == nil {
		t.Error("nil hint answered")
	}
}
