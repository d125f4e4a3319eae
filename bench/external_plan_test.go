package bench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// `bench plan` of an external method that asks the model while building
// each user's memory (examples/summarize.py): the child keeps each user's
// state itself, so no rehearsed user's memory can stand in for another
// user's there. The plan rehearses every user of such a method on the sim,
// says so, and counts one summary call per user.
func TestExternalPlanRehearsesEveryUserOfAChildMethod(t *testing.T) {
	needPython(t)
	script, err := filepath.Abs("../examples/summarize.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "table1.yaml")
	if err := os.WriteFile(cfg, []byte(table1With(t, map[string]any{"name": "summ", "kind": "external",
		"command": []any{"python3", script}, "options": map[string]any{"records": 30, "history_tokens": 2000}})), 0o644); err != nil {
		t.Fatal(err)
	}
	out := benchMain(t, "plan", "-c", cfg)
	users := 0
	summaries := -1
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "summ" && f[1] == "summ.summarise" {
			summaries, _ = strconv.Atoi(f[2])
		}
		if i := strings.Index(line, "all "); i >= 0 && strings.Contains(line, "summ keeps its memory in its own process") {
			fmt.Sscanf(line[i:], "all %d", &users)
		}
	}
	if users == 0 {
		t.Fatalf("the plan does not say every user of the child's method was rehearsed:\n%s", out)
	}
	if summaries != users {
		t.Errorf("the plan counts %d summary calls for %d users (one each):\n%s", summaries, users, out)
	}
}
