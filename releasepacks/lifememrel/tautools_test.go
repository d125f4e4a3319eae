package lifememrel_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/internal/testfixture"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// TestTauToolsMatchSource compares the tool list the τ-bench Prompter
// shows (read from the pinned tool classes' get_info() dicts) with what
// τ-bench's own Python builds: MEMHARNESS_LIFEMEM_CAPTURES/tau_tools.json,
// written by testdata/capture/tau_tools_capture.py from
// MEMHARNESS_LIFEMEM_PACKS/tau-bench. It also checks that the release
// prompt of a suite opened from a folder without tools_schema.json (the
// layout 'bench data fetch taubench-retail' makes) carries that list.
func TestTauToolsMatchSource(t *testing.T) {
	packs, caps := os.Getenv("MEMHARNESS_LIFEMEM_PACKS"), os.Getenv("MEMHARNESS_LIFEMEM_CAPTURES")
	if packs == "" || caps == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS and MEMHARNESS_LIFEMEM_CAPTURES not set (real packs and python captures)")
	}
	raw, err := os.ReadFile(filepath.Join(caps, "sources", "tau_tools.json"))
	if err != nil {
		t.Skip("no sources/tau_tools.json capture (run testdata/capture/tau_tools_capture.py)")
	}
	var want map[string]string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameTauBench), lifememrel.TauBench)
	if err != nil {
		t.Fatal(err)
	}
	trees := lifememrel.Trees{lifememrel.NameTauBench: tr}
	for _, d := range []taubench.Domain{taubench.Retail, taubench.Airline} {
		got, names, err := lifememrel.TauTools(trees, string(d))
		if err != nil {
			t.Fatal(err)
		}
		if got != want[string(d)] {
			t.Errorf("%s: tools_info differs from the source's at byte %d (%d vs %d characters)", d, diffAt(got, want[string(d)]), len(got), len(want[string(d)]))
		}
		// The embedded suite has no tools_schema.json: the prompt must
		// carry the source's list all the same, and every tool be runnable.
		s := embeddedTau(t, d)
		ps, _, err := lifememrel.Prompters(trees, []envs.Suite{s}, lifememrel.Options{})
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := ps[s.Name()].Messages(firstInput(t, s))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(msgs[0].Content, "\n#Available tools\n"+want[string(d)]) {
			t.Errorf("%s: the system prompt does not carry the source's tool list", d)
		}
		if len(names) == 0 || len(lifememrel.ToolSchemaWarnings(trees, []envs.Suite{s})) != 0 {
			t.Errorf("%s: %d tools; a folder without tools_schema.json must raise no warning", d, len(names))
		}
	}
}

// TestTauToolSchemaWarning: a data folder whose tools_schema.json is the
// source's raises no warning; one that differs (here one description
// changed) is named, and the prompt still shows the source's list.
func TestTauToolSchemaWarning(t *testing.T) {
	packs := os.Getenv("MEMHARNESS_LIFEMEM_PACKS")
	if packs == "" {
		t.Skip("MEMHARNESS_LIFEMEM_PACKS not set (real packs)")
	}
	fix := testfixture.Need(t, "envs/taubench/airline", "tools_schema.json")
	tr, err := lifememrel.Open(filepath.Join(packs, lifememrel.NameTauBench), lifememrel.TauBench)
	if err != nil {
		t.Fatal(err)
	}
	trees := lifememrel.Trees{lifememrel.NameTauBench: tr}
	src, _, err := lifememrel.TauTools(trees, "airline")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	entries, _ := os.ReadDir(fix)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fix, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "tools_schema.json" {
			b = []byte(src) // the source's list, as the data would carry it
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same, err := taubench.OpenAirline(dir)
	if err != nil {
		t.Fatal(err)
	}
	if w := lifememrel.ToolSchemaWarnings(trees, []envs.Suite{same}); len(w) != 0 {
		t.Errorf("the source's own list raised %v", w)
	}
	changed := strings.Replace(src, "Book a reservation.", "Book a flight.", 1)
	if changed == src {
		t.Fatal("the source's list has no \"Book a reservation.\" to change")
	}
	if err := os.WriteFile(filepath.Join(dir, "tools_schema.json"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	diff, err := taubench.OpenAirline(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := lifememrel.ToolSchemaWarnings(trees, []envs.Suite{diff})
	if len(w) != 1 || !strings.Contains(w[0], "tools_schema.json differs") {
		t.Errorf("warnings %v, want one naming the difference", w)
	}
	ps, _, err := lifememrel.Prompters(trees, []envs.Suite{diff}, lifememrel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ps[diff.Name()].Messages(firstInput(t, diff))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msgs[0].Content, src) || strings.Contains(msgs[0].Content, "Book a flight.") {
		t.Error("the prompt does not show the source's tool list")
	}
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func embeddedTau(t *testing.T, d taubench.Domain) envs.Suite {
	t.Helper()
	s, err := taubench.Embedded(d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// firstInput is the first step of s's first task: its first observation.
func firstInput(t *testing.T, s envs.Suite) agent.PromptInput {
	t.Helper()
	task := s.Tasks()[0]
	ep, err := s.NewEpisode(context.Background(), task, envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	return agent.PromptInput{Task: task, Turns: []envs.Turn{{Role: "env", Text: ep.Observation()}}}
}
