package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// TestProgressLineOneInvalidCount (issue 25, point 3): the progress line
// once said "invalid=0 … invalid by purpose: mem0.extract 30/30 (100.0%)".
// Against a server whose every answer is unparsable, Mem0's extraction
// answers are all invalid: every progress line gives one invalid figure
// per purpose (answers over answers), the last one and the final line name
// mem0's construction purpose with all its answers invalid, and no line
// carries a second, contradicting count.
func TestProgressLineOneInvalidCount(t *testing.T) {
	var calls atomic.Int64
	srv := usageServer(t, "I cannot say.", `{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}`, &calls)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL + "/v1", "OPENAI_API_KEY": testKey, "OPENAI_MODEL": "fake-model"}
	cfg := filepath.Join(t.TempDir(), "mem0.yaml")
	os.WriteFile(cfg, []byte(strings.Replace(strings.Replace(twoMethodConfig, "KIND", "auto", 1),
		"  - {name: long_context, kind: long_context, history_tokens: 3000}", "  - {name: mem0, kind: mem0, history_tokens: 2000}", 1)), 0o644)
	var o, e bytes.Buffer
	Main(context.Background(), []string{"run", "-c", cfg, "--out", t.TempDir()}, IO{Out: &o, Err: &e, Getenv: func(k string) string { return env[k] }})
	log := e.String() + o.String()
	if calls.Load() == 0 {
		t.Fatalf("no calls:\n%s", log)
	}
	figure := regexp.MustCompile(`mem0\.[a-z_]+ (\d+)/(\d+) \(`)
	var last string
	for _, l := range strings.Split(log, "\n") {
		if !strings.Contains(l, "calls=") {
			continue
		}
		last = l
		if strings.Contains(l, "invalid=") || strings.Count(l, "invalid") != 1 {
			t.Errorf("progress line with more than one invalid figure: %s", l)
		}
	}
	if last == "" {
		t.Fatalf("no progress line:\n%s", log)
	}
	m := figure.FindStringSubmatch(last)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("last progress line does not give mem0's construction answers as all invalid: %s", last)
	}
	if !figure.MatchString(log[strings.LastIndex(log, last)+len(last):]) {
		t.Errorf("final line does not name mem0's invalid construction answers:\n%s", log)
	}
}
