package agent_test

import (
	"github.com/memharness/memharness/methods/agent"
	"reflect"
	"testing"
)

func TestWorkflowRoundTrip(t *testing.T) {
	for _, c := range []struct {
		task  string
		steps []string
	}{
		{"warm the water", []string{"go to lab", "activate burner"}},
		{`cancel order "#1"`, []string{"Action:\n{\"name\": \"cancel\", \"arguments\": {}}", "Done -> bye"}},
		{"one step", []string{"Finish[yes]"}},
	} {
		line := "3. " + agent.Workflow(c.task, c.steps) + " (learned)"
		task, steps, ok := agent.ParseWorkflow(line)
		if !ok || task != c.task || !reflect.DeepEqual(steps, c.steps) {
			t.Errorf("ParseWorkflow(%q) = %q, %q, %v", line, task, steps, ok)
		}
	}
}

func TestParseWorkflowGarbage(t *testing.T) {
	for _, line := range []string{
		"",
		"Always search before answering.",
		`For tasks like warm water, act in this order: "a"`,
		`For tasks like "warm water" do "a"`,
		`For tasks like "warm water", act in this order: a -> b`,
		`For tasks like "warm water", act in this order: "unterminated`,
	} {
		if _, _, ok := agent.ParseWorkflow(line); ok {
			t.Errorf("ParseWorkflow(%q) accepted", line)
		}
	}
}
