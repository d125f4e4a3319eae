package lifemem

import (
	"context"
	"fmt"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
	"regexp"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
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

func lmTraj(label, env string, actions ...string) LifeMemTrajectory {
	return LifeMemTrajectory{Label: label, Env: env, Task: "task of " + label, Actions: actions}
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
	web1 := lmTraj("w1", "webshop", "search[blue mug]", "click[B01]", "click[Buy Now]")
	web2 := lmTraj("w2", "webshop", "search[red kettle]", "click[Buy Now]")
	m2w := lmTraj("m1", "mind2web", "TYPE [11] [Eastport]", "CLICK [12]")
	hot := lmTraj("h1", "hotpotqa", "Action 1: Search[X]", "Action 2: Finish[Y]")
	tql := lmTraj("t1", "toolqa", "LoadDB[coffee]", "SQLInterpreter[SELECT 1]", "Finish[2]")
	// A cluster of Mind2Web clicks: its workflow is click_mind2web, the
	// step that completes it a click, as in WebShop.
	clicks := LifeMemCluster{Name: "page_clicks", Examples: []LifeMemTrajectory{
		lmTraj("e1", "mind2web", "CLICK [1]", "CLICK [2]"), lmTraj("e2", "mind2web", "CLICK [3]", "SELECT [4] [x]", "CLICK [5]"),
	}}
	alf := LifeMemCluster{Name: "go_alfworld", Examples: []LifeMemTrajectory{lmTraj("e3", "alfworld", "go to desk 1", "take pen 1")}}
	for _, c := range []struct {
		name  string
		batch []LifeMemTrajectory
		cands []LifeMemCluster
		want  []string
	}{
		{
			// One environment: the workflow (environment and first action)
			// tells the trajectories apart, so another environment's cluster
			// never fits.
			name:  "one environment, by workflow",
			batch: []LifeMemTrajectory{web1, web2},
			cands: []LifeMemCluster{clicks},
			want:  []string{"NEW search_webshop with w1", "ADD w2 to search_webshop"},
		},
		{
			name:  "one environment, its cluster shown",
			batch: []LifeMemTrajectory{lmTraj("a1", "alfworld", "think: where", "go to shelf 1", "take cup 1")},
			cands: []LifeMemCluster{clicks, alf},
			want:  []string{"ADD a1 to go_alfworld"},
		},
		{
			// Several environments: the step that completes a trajectory is
			// what they share, so the WebShop and Mind2Web trajectories join
			// the shown click cluster, and ToolQA joins the cluster HotpotQA
			// opened earlier in the same answer.
			name:  "mixed environments, by completing step",
			batch: []LifeMemTrajectory{web1, hot, m2w, tql, web2},
			cands: []LifeMemCluster{alf, clicks},
			want: []string{"ADD w1 to page_clicks", "NEW end_with_finish with h1", "ADD m1 to page_clicks",
				"ADD t1 to end_with_finish", "ADD w2 to page_clicks"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := lmExecution(t, lmAssign(LifeMemAssign{Trajectories: c.batch, Candidates: c.cands}))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			// Without candidates (a fresh memory) every line is a NEW or
			// joins a cluster created earlier in the answer.
			created := map[string]bool{}
			for _, l := range lmExecution(t, lmAssign(LifeMemAssign{Trajectories: c.batch})) {
				f := strings.Fields(l)
				switch {
				case f[0] == "NEW":
					created[f[1]] = true
				case !created[f[3]]:
					t.Errorf("fresh memory: %q adds to a cluster that does not exist", l)
				}
			}
		})
	}
}

func TestLifeMemSummary(t *testing.T) {
	h := LifeMemSummary{Cluster: "c", Members: []LifeMemTrajectory{
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
			h := LifeMemSplit{Cluster: "big", MinClusters: tc.lo, MaxClusters: tc.hi}
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
	batch := []LifeMemTrajectory{
		lmTraj("a", "toolqa", "LoadDB[coffee]", "SQLInterpreter[x]", "Finish[1]"),
		lmTraj("b", "toolqa", "LoadDB[coffee]", "SQLInterpreter[y]", "Finish[2]"),
		lmTraj("c", "toolqa", "LoadDB[coffee]", "Finish[3]"),
		lmTraj("d", "toolqa", "LoadDB[coffee]", "Finish[4]"),
		lmTraj("e", "toolqa", "Finish[5]"),
	}
	got := lmRules(LifeMemRules{Trajectories: batch, MaxOps: 4, MaxRules: 20})
	lines := strings.Split(got, "\n")
	if len(lines) != 2 {
		t.Fatalf("rules answer:\n%s", got)
	}
	if !strings.HasPrefix(lines[0], "ADD 1: To finish in toolqa tasks, first loaddb then ") {
		t.Errorf("line %q", lines[0])
	}
	if task, steps, ok := agent.ParseWorkflow(lines[0]); !ok || task == "" || len(steps) < 2 {
		t.Errorf("no workflow in %q", lines[0])
	}
	// A listed rule with the same pattern is agreed with, not re-added.
	again := lmRules(LifeMemRules{Rules: []string{strings.TrimPrefix(lines[0], "ADD 1: ")}, Trajectories: batch, MaxOps: 1, MaxRules: 20})
	if !strings.HasPrefix(again, "AGREE 1: ") || strings.Count(again, "ADD") != 1 {
		t.Errorf("second answer:\n%s", again)
	}
	// The rule cap holds.
	full := lmRules(LifeMemRules{Rules: []string{"x", "y"}, Trajectories: batch, MaxOps: 4, MaxRules: 2})
	if strings.Contains(full, "ADD") {
		t.Errorf("answer exceeds MaxRules:\n%s", full)
	}
}

func TestLifeMemDispatch(t *testing.T) {
	s := newSim(sim.Config{})
	for _, h := range []any{
		LifeMemSummary{Cluster: "c"},
		&LifeMemAssign{Trajectories: []LifeMemTrajectory{lmTraj("a", "e", "go")}},
		&LifeMemRules{},
		LifeMemSplit{Members: []LifeMemTrajectory{lmTraj("a", "e", "go")}},
	} {
		if _, err := s.Generate(context.Background(), llm.Request{Purpose: "lifemem.x", Hint: h}); err != nil {
			t.Errorf("%T: %v", h, err)
		}
	}
	var nilHint *LifeMemAssign
	if _, err := s.Generate(context.Background(), llm.Request{Purpose: "lifemem.assign", Hint: nilHint}); err == nil {
		t.Error("nil hint answered")
	}
}
