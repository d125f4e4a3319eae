package bench_test

// An external method that asks the model itself, through the run's model
// gateway: its calls are metered and recorded as the harness's own,
// attributed to the method, the user and the purpose it named; the user's
// API key never reaches it; a re-run pays for nothing again.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/runrecord"
)

// envRecordingSummarize is examples/summarize.py writing its environment
// to a file before its first summary.
const envRecordingSummarize = `
import json, os, sys
sys.path.insert(0, %q)
from summarize import Summarize
from memharness_method import serve

class Recording(Summarize):
    def prepare(self, user):
        with open(%q, "w") as f:
            json.dump(dict(os.environ), f)
        return super().prepare(user)

serve(Recording())
`

func TestExternalGatewayPythonSummarize(t *testing.T) {
	needPython(t)
	const userKey = "sk-the-users-own-key-never-for-a-child"
	t.Setenv("OPENAI_API_KEY", userKey)
	t.Setenv("OPENROUTER_API_KEY", userKey)
	examples, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	envFile := filepath.Join(tmp, "child.env.json")
	script := filepath.Join(tmp, "recording.py")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(envRecordingSummarize, examples, envFile)), 0o644); err != nil {
		t.Fatal(err)
	}
	config := table1With(t, map[string]any{"name": "summ", "kind": "external",
		"command": []any{"python3", script}, "options": map[string]any{"records": 30, "history_tokens": 2000}})
	cfgPath := filepath.Join(tmp, "table1.yaml")
	if err := os.WriteFile(cfgPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(out string) string {
		var o bytes.Buffer
		code := bench.Main(context.Background(), []string{"run", "-c", cfgPath, "--out", out},
			bench.IO{Out: &o, Err: &o})
		if code != 0 {
			t.Fatalf("bench run exit %d:\n%s", code, o.String())
		}
		return o.String()
	}
	out := t.TempDir()
	console := run(out)
	dir := filepath.Join(out, "table1")

	// The child had the gateway's URL and token, never the user's key.
	b, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatalf("the child wrote no environment: %v\n%s", err, console)
	}
	var childEnv map[string]string
	if err := json.Unmarshal(b, &childEnv); err != nil {
		t.Fatal(err)
	}
	for k, v := range childEnv {
		if strings.Contains(v, userKey) {
			t.Errorf("the child's %s holds the user's API key", k)
		}
	}
	if !strings.HasPrefix(childEnv["OPENAI_API_KEY"], "mh-") || !strings.HasPrefix(childEnv["OPENAI_BASE_URL"], "http://127.0.0.1:") {
		t.Errorf("the child was not given the gateway: OPENAI_API_KEY %q, OPENAI_BASE_URL %q", childEnv["OPENAI_API_KEY"], childEnv["OPENAI_BASE_URL"])
	}

	// usage.json counts the child's summaries under the purpose it named,
	// one per user, beside the harness's own predict calls.
	ub, err := os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var usage map[string]struct {
		Calls            int `json:"calls"`
		CompletionTokens int `json:"completion_tokens"`
	}
	if err := json.Unmarshal(ub, &usage); err != nil {
		t.Fatal(err)
	}
	users := len(samplesUsers(t, dir))
	if u := usage["summ.summarise"]; users == 0 || u.Calls != users || u.CompletionTokens == 0 {
		t.Errorf("usage summ.summarise %+v, want %d calls (one per user); usage.json:\n%s", u, users, ub)
	}
	if usage["predict"].Calls == 0 {
		t.Errorf("no predict calls in usage.json:\n%s", ub)
	}

	// The call record attributes each summary to the method and its user.
	var rec bytes.Buffer
	if code := bench.Main(context.Background(), []string{"calls", dir, "--json", "--purpose", "summ.summarise"},
		bench.IO{Out: &rec, Err: &rec}); code != 0 {
		t.Fatalf("bench calls exit %d:\n%s", code, rec.String())
	}
	var calls []struct {
		Purpose string `json:"purpose"`
		Unit    string `json:"unit"`
		Request struct {
			Affinity string `json:"affinity"`
		} `json:"request"`
	}
	dec := json.NewDecoder(&rec)
	for dec.More() {
		calls = append(calls, struct {
			Purpose string `json:"purpose"`
			Unit    string `json:"unit"`
			Request struct {
				Affinity string `json:"affinity"`
			} `json:"request"`
		}{})
		if err := dec.Decode(&calls[len(calls)-1]); err != nil {
			t.Fatalf("bench calls --json: %v", err)
		}
	}
	seen := map[string]bool{}
	for _, c := range calls {
		// The record's unit is what the call paid for: the method's saved
		// state of the user.
		if want := "checkpoints/" + c.Request.Affinity + "/external.summ."; c.Purpose != "summ.summarise" || !strings.Contains(c.Unit, want) {
			t.Errorf("a summary call of user %q is recorded as purpose %q unit %q, want summ.summarise, a unit with %s",
				c.Request.Affinity, c.Purpose, c.Unit, want)
		}
		seen[c.Request.Affinity] = true
	}
	if len(seen) != users {
		t.Errorf("summary calls for %d users, want %d: %v", len(seen), users, seen)
	}

	// A re-run resumes the finished run and pays for nothing.
	again := run(out)
	if !strings.Contains(again, " 0 live model calls") {
		t.Errorf("the re-run made live calls (want 0):\n%s", again)
	}
	if !strings.Contains(console, " live model calls") || strings.Contains(console, " 0 live model calls") {
		t.Errorf("the first run's final line:\n%s", console)
	}
}

// samplesUsers are the users a run's samples.jsonl answered.
func samplesUsers(t *testing.T, dir string) map[string]bool {
	t.Helper()
	samples, err := runrecord.ReadSamples(filepath.Join(dir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, s := range samples {
		out[s.User] = true
	}
	return out
}
