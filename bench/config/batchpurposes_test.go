package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBatchPurposes: each of backbone.batch.purposes must be a purpose a
// call of the run carries (the task's own, its methods' kinds', or a name
// under a gateway-serving method's prefix); a typo is reported at its
// line with the closest name.
func TestBatchPurposes(t *testing.T) {
	const (
		behavior = "task: movielens\nmethods:\n  - {kind: truncation}\n  - {kind: summary}\n  - {name: mine, kind: external, command: [./m]}\n"
		locomo   = "task: locomo\nmethods:\n  - {kind: mem0}\n"
		agents   = "task: lifemem\nlifelong:\n  envs: [alfworld, taubench-retail]\n  methods:\n    - {name: lm, kind: lifemem}\n    - {name: ex, kind: expel}\n"
	)
	tests := []struct {
		name, head string
		purposes   []string
		want       []string // each "line: message"; none: valid
	}{
		{"behaviour kinds' purposes", behavior, []string{"predict", "summary", "mine.extract"}, nil},
		{"typo", behavior, []string{"predict", "sumary"}, []string{
			`10: backbone.batch.purposes[1]: no call of task movielens and its methods has purpose "sumary" (did you mean "summary"?) (the run's purposes: predict, summary; or <name> after mine. for the calls a method's process names)`}},
		{"another method's prefix", behavior, []string{"other.extract", "mine."}, []string{
			`9: backbone.batch.purposes[0]: no call of task movielens and its methods has purpose "other.extract" (the run's purposes: predict, summary; or <name> after mine. for the calls a method's process names)`,
			`10: backbone.batch.purposes[1]: no call of task movielens and its methods has purpose "mine." (the run's purposes: predict, summary; or <name> after mine. for the calls a method's process names)`}},
		{"conversation task's own", locomo, []string{"memqa.answer", "memqa.judge.locomo", "mem0.extract"}, nil},
		{"the other benchmark's judge", locomo, []string{"memqa.judge.longmemeval"}, []string{
			`7: backbone.batch.purposes[0]: no call of task locomo and its methods has purpose "memqa.judge.longmemeval" (the run's purposes: mem0.extract, mem0.update, memqa.answer, memqa.judge.locomo, predict)`}},
		{"agent kinds' and the protocol's", agents, []string{"agent.act", "taubench.user", "lifemem.assign", "expel.rules"}, nil},
		{"a kind the run does not have", agents, []string{"lifemem.asign", "synapse.abstract"}, []string{
			`10: backbone.batch.purposes[0]: no call of task lifemem and its methods has purpose "lifemem.asign" (did you mean "lifemem.assign"?) (the run's purposes: agent.act, expel.rules, lifemem.assign, lifemem.rules, lifemem.split, lifemem.summary, taubench.user)`,
			`11: backbone.batch.purposes[1]: no call of task lifemem and its methods has purpose "synapse.abstract" (the run's purposes: agent.act, expel.rules, lifemem.assign, lifemem.rules, lifemem.split, lifemem.summary, taubench.user)`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.head + "backbone:\n  batch:\n    purposes:\n"
			for _, p := range tc.purposes {
				body += "      - " + p + "\n"
			}
			path := filepath.Join(t.TempDir(), "b.yaml")
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Options{Getenv: noEnv}.Load(path, nil)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			lines := make([]string, len(tc.want))
			for i, w := range tc.want {
				lines[i] = path + ":" + w
			}
			wantErr(t, err, lines...)
		})
	}
}

// TestCallPurposesTaskShapes: the built-in tasks' own purposes are
// listed whatever the methods.
func TestCallPurposesTaskShapes(t *testing.T) {
	for task, want := range map[string]string{
		"movielens": "", "locomo": "memqa.answer memqa.judge.locomo",
		"longmemeval": "memqa.answer memqa.judge.longmemeval", "lifemem": "agent.act taubench.user",
	} {
		names, open := Known{}.CallPurposes(&Config{Task: task})
		if got := strings.Join(names, " "); got != want || len(open) > 0 {
			t.Errorf("task %s: purposes %q, open %q; want %q and none open", task, got, open, want)
		}
	}
}
