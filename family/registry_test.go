package family

import (
	"strings"
	"testing"

	"github.com/memharness/memharness/bench/config"
)

type tasksOnly struct {
	Family
	tasks map[string]config.TaskShape
}

func (f tasksOnly) Tasks() map[string]config.TaskShape { return f.tasks }

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	a := tasksOnly{tasks: map[string]config.TaskShape{"a": {}, "b": {Lifelong: true}}}
	if err := r.Register(a); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		reg     *Registry
		task    string
		wantErr string
	}{
		{"registered task", r, "b", ""},
		{"unknown task names the known ones", r, "c", `task "c": no family runs it (known: [a b])`},
		{"no registry", nil, "a", "no task families registered"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.reg.For(tc.task)
			if (err == nil) != (tc.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("For(%q) = %v, want %q", tc.task, err, tc.wantErr)
			}
		})
	}
	// A task is run by one family: a second claim leaves the first intact.
	if err := r.Register(tasksOnly{tasks: map[string]config.TaskShape{"b": {}, "d": {}}}); err == nil {
		t.Error("a second family for task b was accepted")
	}
	if got := r.Tasks(); len(got) != 2 || !got["b"].Lifelong {
		t.Errorf("tasks after a refused registration: %v", got)
	}
}
