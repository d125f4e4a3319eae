package agent_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/methods/agent"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// pageSuite is a MiniWoB++-shaped environment without a browser: every
// page carries a script and whitespace an abstraction drops, and the
// episode takes two actions.
type pageSuite struct{}

func (pageSuite) Name() string { return "miniwob" }
func (pageSuite) Tasks() []envs.Task {
	return []envs.Task{
		{ID: "click-tab-2/seed-1", Env: "miniwob", Instruction: "MiniWoB++ click-tab-2, episode seed 1"},
		{ID: "click-button/seed-1", Env: "miniwob", Instruction: "MiniWoB++ click-button, episode seed 1"},
	}
}
func (pageSuite) MaxSteps() int { return 2 }
func (pageSuite) NewEpisode(context.Context, envs.Task, envs.Options) (envs.Episode, error) {
	return &pageEpisode{}, nil
}

type pageEpisode struct{ n int }

func page(n int) string {
	return "<div id=\"wrap\">\n  <script>var step = " + string(rune('0'+n)) + ";</script>\n  <a href=\"#tabs-2\">Tab 2</a> <span>Link</span>\n</div>"
}

func (e *pageEpisode) Observation() string {
	return "Task: Switch to tab 2 and click Link.\nObservation:\n" + page(0)
}
func (e *pageEpisode) Step(context.Context, string) (envs.Step, error) {
	e.n++
	return envs.Step{Observation: "Observation:\n" + page(e.n), Done: e.n >= 2}, nil
}
func (e *pageEpisode) Done() bool     { return e.n >= 2 }
func (e *pageEpisode) Score() float64 { return 0 }
func (e *pageEpisode) Close() error   { return nil }

// TestSynapseStateAbstraction: on a family Synapse filters, every page is
// abstracted once, by one model request, before the agent acts on it, and
// the acting request sees only abstracted pages; other families and other
// methods act on the raw page. The own abstraction request is a golden file.
func TestSynapseStateAbstraction(t *testing.T) {
	ctx := context.Background()
	s := pageSuite{}
	for _, tc := range []struct {
		kind, task string
		abstracts  int
	}{
		{"synapse", "click-tab-2/seed-1", 2},
		{"synapse", "click-button/seed-1", 0},
		{"expel", "click-tab-2/seed-1", 0},
	} {
		t.Run(tc.kind+"/"+tc.task, func(t *testing.T) {
			rec := &recorder{sim: newSim(sim.Config{})}
			m, err := agent.New(tc.kind, agent.Options{})
			if err != nil {
				t.Fatal(err)
			}
			env := agent.Env{Model: rec, Seed: 2, Dir: t.TempDir()}
			var task envs.Task
			for _, tk := range s.Tasks() {
				if tk.ID == tc.task {
					task = tk
				}
			}
			a, err := m.Agent(ctx, env, s, task)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := envs.Run(ctx, s, task, a, envs.Options{}, 0); err != nil {
				t.Fatal(err)
			}
			var abstracts, acts int
			for _, req := range rec.reqs {
				switch req.Purpose {
				case agent.PurposeAbstract:
					abstracts++
					h := req.Hint.(agent.StateAbstract)
					if h.Task != "Switch to tab 2 and click Link." || !strings.Contains(h.State, "<script>") {
						t.Errorf("abstraction hint %+v", h)
					}
					if abstracts == 1 {
						golden(t, "own-abstract-request.json", req.Messages)
					}
				case agent.PurposeAct:
					acts++
					h := req.Hint.(agent.Act)
					for _, tn := range h.Turns {
						raw := strings.Contains(tn.Text, "<script>")
						if raw == (tc.abstracts > 0) && tn.Role == "env" {
							t.Errorf("act request %d: page raw=%v:\n%s", acts, raw, tn.Text)
						}
					}
				}
			}
			if abstracts != tc.abstracts || acts != 2 {
				t.Errorf("%d abstraction and %d act requests; want %d and 2", abstracts, acts, tc.abstracts)
			}
		})
	}
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	b, _ := json.MarshalIndent(v, "", "  ")
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != string(b) {
		t.Errorf("differs from %s:\n%s", path, b)
	}
}

// everyFamily applies an abstraction to every task (the embedded MiniWoB++
// pages are of families Synapse does not filter).
type everyFamily struct{ agent.StateAbstractor }

func (everyFamily) Applies(envs.Task) bool { return true }

// TestSynapseAbstractionInBrowser plays the embedded MiniWoB++ suite in
// Chromium with Synapse abstracting every page (the sim backbone answers
// the abstraction offline): each page an agent acts on is abstracted
// exactly once, the acting requests see only abstracted pages (the raw
// pages break lines between tags; the sim's abstraction does not), and the
// episodes run to the end. Skipped without Chromium and the npm libraries.
func TestSynapseAbstractionInBrowser(t *testing.T) {
	ctx := context.Background()
	e, err := all.Find("miniwob")
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := s.(interface{ Close() error }); ok {
		t.Cleanup(func() { c.Close() })
	}
	if err := envs.CheckPrerequisites(s); err != nil {
		t.Skipf("miniwob: %v", err)
	}
	train, test, err := envs.EmbeddedExperience(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{sim: newSim(sim.Config{})}
	m, err := agent.New("synapse", agent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prompts := &agent.Prompts{Abstract: map[string]agent.StateAbstractor{"miniwob": everyFamily{agent.OwnAbstractor("miniwob")}}}
	env := agent.Env{Model: rec, Seed: 3, Dir: t.TempDir(), Prompts: prompts}
	if err := m.Learn(ctx, env, train); err != nil {
		t.Fatal(err)
	}
	solved, pages := 0.0, 0
	for _, task := range test {
		a, err := m.Agent(ctx, env, s, task)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := envs.Run(ctx, s, task, a, envs.Options{Seed: 1}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(tr.End, "error") {
			t.Errorf("%s: %s", task.ID, tr.End)
		}
		solved += tr.Score
		pages += tr.Steps // one page per action taken
	}
	abstracts := 0
	for _, req := range rec.reqs {
		switch req.Purpose {
		case agent.PurposeAbstract:
			abstracts++
			if !strings.Contains(req.Hint.(agent.StateAbstract).State, ">\n") {
				t.Errorf("the raw page has no line breaks between tags; the check below proves nothing")
			}
		case agent.PurposeAct:
			for _, tn := range req.Hint.(agent.Act).Turns {
				if tn.Role == "env" && strings.Contains(tn.Text, ">\n") {
					t.Errorf("an acting request saw a raw page:\n%.300s", tn.Text)
				}
			}
		}
	}
	if abstracts != pages {
		t.Errorf("%d abstraction requests for %d pages acted on", abstracts, pages)
	}
	t.Logf("%d test tasks, %.0f solved, %d pages abstracted", len(test), solved, abstracts)
}
