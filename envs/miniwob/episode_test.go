package miniwob

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memharness/memharness/envs"
)

var checkoutDir = filepath.Join("testdata", "checkout")

func openTestCheckout(t *testing.T) *Suite {
	t.Helper()
	s, err := OpenConfig(checkoutDir, Config{LoadTimeout: 3 * time.Second, ActionTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func task(t *testing.T, s *Suite, page string) envs.Task {
	t.Helper()
	for _, tk := range s.Tasks() {
		if tk.Data.(taskData).Page == page {
			return tk
		}
	}
	t.Fatalf("no task for page %s", page)
	return envs.Task{}
}

func TestOpenCheckout(t *testing.T) {
	s := openTestCheckout(t)
	var ids []string
	for _, tk := range s.Tasks() {
		ids = append(ids, tk.ID)
	}
	want := "click-test/seed-0 hang-on-click/seed-0 hang-on-load/seed-0 throw-on-click/seed-0 throw-on-start/seed-0"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("tasks = %s\nwant %s", got, want)
	}
	skipped := s.Skipped()
	if len(skipped) != 1 {
		t.Fatalf("skipped = %v, want not-a-task.html", skipped)
	}
	for file, why := range skipped {
		if !strings.HasSuffix(file, "not-a-task.html") || why == "" {
			t.Errorf("skipped %s: %q", file, why)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	for _, tc := range []struct{ name, dir, want string }{
		{"missing", filepath.Join("testdata", "nope"), "no task pages found"},
		{"no pages", "testdata", "no task pages found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(tc.dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseTaskListErrors(t *testing.T) {
	pages := mountFS{prefix: "miniwob", fsys: must(t, EmbeddedConfig)(Config{}).pages.(mountFS).fsys}
	for _, tc := range []struct{ name, src, want string }{
		{"syntax", "{\n\"tasks\": [\n{\"page\": }\n]}", "tasks.json:3"},
		{"type", "{\"tasks\": [{\"page\": 3, \"seeds\": [1]}]}", "tasks.json:1"},
		{"unknown field", `{"tasks": [], "extra": 1}`, "unknown field"},
		{"missing page", `{"tasks": [{"page": "nope", "seeds": [1]}]}`, "tasks[0].page"},
		{"bad page", `{"tasks": [{"page": "../x", "seeds": [1]}]}`, "tasks[0].page"},
		{"no seeds", `{"tasks": [{"page": "click-button", "seeds": []}]}`, "tasks[0].seeds"},
		{"empty", `{"tasks": []}`, "no tasks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseTaskList("tasks.json", []byte(tc.src), pages)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func must(t *testing.T, f func(Config) (*Suite, error)) func(Config) *Suite {
	return func(c Config) *Suite {
		s, err := f(c)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// TestBrokenPages: a page that hangs or throws ends its episode with a clear
// error, and the suite keeps working afterwards.
func TestBrokenPages(t *testing.T) {
	needBrowser(t)
	s := openTestCheckout(t)
	ctx := context.Background()
	for _, tc := range []struct {
		page, want string
		atStart    bool
	}{
		{"hang-on-load", "did not respond", true},
		{"throw-on-start", "broken generator", true},
		{"hang-on-click", "did not respond", false},
		{"throw-on-click", "page threw", false},
	} {
		t.Run(tc.page, func(t *testing.T) {
			ep, err := s.NewEpisode(ctx, task(t, s, tc.page), envs.Options{})
			if tc.atStart {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("NewEpisode err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			_, err = ep.Step(ctx, `agent.click_xpath("//button[@id='subbtn']")`)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Step err = %v, want %q", err, tc.want)
			}
			if !ep.Done() || ep.Score() != 0 {
				t.Errorf("after failure: done=%v score=%v", ep.Done(), ep.Score())
			}
		})
	}
	// The suite still plays a healthy page after the broken ones.
	tr, err := envs.Run(ctx, s, task(t, s, "click-test"), envs.Replay([]string{`agent.click_xpath("//button[@id='subbtn']")`}), envs.Options{}, 0)
	if err != nil || tr.Score != 1 {
		t.Fatalf("healthy page after broken ones: score %v err %v end %s", tr.Score, err, tr.End)
	}
}

// TestGarbageAgent: 100 turns of garbage end cleanly with score 0.
func TestGarbageAgent(t *testing.T) {
	needBrowser(t)
	s := embedded(t, Config{MaxTurns: 100})
	garbage := []string{
		"", "hello", "```\nimport os\nos.system('rm -rf /')\n```", "agent.click_xpath(", "agent.eval(\"1\")",
		"agent.press(\"hyperdrive\")", "for _ in range(10**9):\n    agent.press('a')", "agent.click_xpath(\"//*[\")",
		"agent.click_xpath(\"//nothing-here\")", "\x00\xff\xfe", "agent.type(\"x\" + __import__('os').name)",
	}
	n := 0
	agent := envs.AgentFunc(func(context.Context, envs.Task, []envs.Turn) (string, error) {
		n++
		return garbage[n%len(garbage)], nil
	})
	tr, err := envs.Run(context.Background(), s, s.Tasks()[0], agent, envs.Options{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Score != 0 || tr.Steps != 100 || tr.Invalid != 100 {
		t.Fatalf("score %v steps %d invalid %d end %q", tr.Score, tr.Steps, tr.Invalid, tr.End)
	}
}

// TestTurnLimit: by default an episode allows its Synapse turn budget.
func TestTurnLimit(t *testing.T) {
	needBrowser(t)
	s := embedded(t, Config{})
	tk := task(t, s, "click-button")
	tr, err := envs.Run(context.Background(), s, tk, envs.Replay([]string{"nothing", "nothing"}), envs.Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Steps != 1 || tr.End != "done" || tr.Score != 0 {
		t.Fatalf("steps %d end %q score %v", tr.Steps, tr.End, tr.Score)
	}
}

// TestObservation: the first observation shows the utterance and #wrap, and
// a wrong answer ends the episode with a negative reward.
func TestObservation(t *testing.T) {
	needBrowser(t)
	s := embedded(t, Config{})
	ctx := context.Background()
	ep, err := s.NewEpisode(ctx, task(t, s, "enter-text"), envs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	obs := ep.Observation()
	for _, want := range []string{"Task: Enter \"", `<div id="wrap"`, `id="tt"`, "data-wob_ref"} {
		if !strings.Contains(obs, want) {
			t.Errorf("observation lacks %q:\n%s", want, obs)
		}
	}
	st, err := ep.Step(ctx, "```python\nagent.click_xpath(\"//input[@id='tt']\")\nagent.type(\"wrong\")\nagent.click_xpath(\"//*[@id='subbtn']\")\n```")
	if err != nil {
		t.Fatal(err)
	}
	if !st.Done || st.Reward >= 0 || ep.Score() != 0 || st.Info["reason"] != `typed "wrong"` {
		t.Fatalf("step = %+v score %v", st, ep.Score())
	}
}
