package lifemem

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/memharness/memharness/internal/pysrc"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// TestReleaseConstructionMatchesSource compares the assignment, summary
// and split requests built from the LifeMem release's memory/prompts.py
// with what Python's own .format calls print on the same inputs
// (testdata/capture/construction_capture.py, run with python3 against the
// pack; nothing of it is stored). MEMHARNESS_LIFEMEM_PACKS names a folder
// holding lifemem-release/ (a checkout or fetched copy at the pinned
// commit); MEMHARNESS_LIFEMEM_CAPTURES a scratch folder the inputs and the
// capture are written to. Skipped unless both are set.
func TestReleaseConstructionMatchesSource(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real pack and python capture)")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	pack := filepath.Join(packs, "lifemem-release")
	src, err := os.ReadFile(filepath.Join(pack, "memory", "prompts.py"))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := pysrc.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	tm := agent.Templates{Label: "release", Text: map[string]string{}}
	for _, n := range []string{tmplAssign, tmplSummary, tmplSplit} {
		v, ok := pf.Lookup("", n)
		if !ok || v.Kind != pysrc.Str {
			t.Fatalf("memory/prompts.py: no string %s", n)
		}
		tm.Text[n] = v.Str
	}

	// Inputs: three of our synthetic trajectories (quotes, backslashes,
	// tabs, non-ASCII added) in every role.
	trajs := []agent.Trajectory{synthTraj("alfworld", 0), synthTraj("apibank", 1), synthTraj("toolqa", 2)}
	trajs[0].Messages[1].Content += "\nit's a \"quoted\" step\t✓ \\ done"
	trajs[1].Messages[0].Content = "Ünïcode 咖啡 task with 'single' quotes"
	byID := map[string][]llm.Message{}
	for _, tr := range trajs {
		byID[tr.ID] = tr.Messages
	}
	view := func(tr agent.Trajectory) LifeMemTrajectory {
		return LifeMemTrajectory{Label: tr.ID, Env: tr.Env, Task: tr.Task}
	}
	asg := LifeMemAssign{
		Trajectories: []LifeMemTrajectory{view(trajs[0]), view(trajs[1])},
		Candidates: []LifeMemCluster{
			{Name: "tool_lookup", Summary: "This cluster is about tools.", Examples: []LifeMemTrajectory{view(trajs[2])}},
			{Name: "fresh", Examples: []LifeMemTrajectory{view(trajs[1]), view(trajs[0])}},
		},
	}
	sum := LifeMemSummary{Cluster: "tool_lookup", Members: asg.Trajectories}
	spl := LifeMemSplit{Cluster: "tool_lookup", Summary: "This cluster is about \"tools\".", Members: []LifeMemTrajectory{view(trajs[0]), view(trajs[1]), view(trajs[2])}}
	all := []string{"a_first", "fresh", "tool_lookup"}

	got := map[string]string{}
	put := func(name string, m []llm.Message, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = m[0].Content
	}
	m, err := releaseAssign(tm, asg, func(l string) []llm.Message { return byID[l] })
	put("assign", m, err)
	m, err = releaseSummary(tm, sum, [][]llm.Message{trajs[0].Messages, trajs[1].Messages})
	put("summary", m, err)
	m, err = releaseSplit(tm, spl, [][]llm.Message{trajs[0].Messages, trajs[1].Messages, trajs[2].Messages}, all)
	put("split", m, err)

	type jt struct {
		ID       string        `json:"id"`
		Task     string        `json:"task"`
		Messages []llm.Message `json:"messages"`
	}
	type jc struct {
		Name     string          `json:"name"`
		Summary  *string         `json:"summary"`
		Examples [][]llm.Message `json:"examples"`
	}
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	in := map[string]any{}
	var news []jt
	for _, v := range asg.Trajectories {
		news = append(news, jt{v.Label, v.Task, byID[v.Label]})
	}
	var cands []jc
	for _, c := range asg.Candidates {
		x := jc{Name: c.Name, Summary: opt(c.Summary)}
		for _, e := range c.Examples {
			x.Examples = append(x.Examples, byID[e.Label])
		}
		cands = append(cands, x)
	}
	in["assign"] = map[string]any{"new": news, "candidates": cands}
	in["summary"] = map[string]any{"members": [][]llm.Message{trajs[0].Messages, trajs[1].Messages}, "previous": opt(sum.Previous)}
	var members []jt
	for _, v := range spl.Members {
		members = append(members, jt{ID: v.Label, Messages: byID[v.Label]})
	}
	in["split"] = map[string]any{"cluster": spl.Cluster, "summary": spl.Summary, "members": members, "all_clusters": all}

	inPath, outPath := filepath.Join(caps, "construction_inputs.json"), filepath.Join(caps, "construction.json")
	b, err := json.MarshalIndent(in, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "capture", "construction_capture.py"), "--pack", pack, "--inputs", inPath, "--out", outPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("capture: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"assign", "summary", "split"} {
		if got[k] != want[k] {
			t.Errorf("%s differs from the release's .format:\n--- ours\n%s\n--- release\n%s", k, got[k], want[k])
		}
	}
}
