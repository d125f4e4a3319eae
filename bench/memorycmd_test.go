package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memoryRun runs a small prediction config whose methods each build a
// different kind of memory, and returns its run directory.
func memoryRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mem.yaml")
	os.WriteFile(cfg, []byte(`name: mem
task: movielens
dataset: {name: movielens, max_users: 2, test_per_user: 3, synthetic: {users: 6, movies: 700, seed: 2}}
backbone: {kind: sim}
methods:
  - {name: truncation, kind: truncation, history_tokens: 4000}
  - {name: summary, kind: summary, history_tokens: 4000, chunk_tokens: 4096, summary_tokens: 500}
  - {name: rag, kind: rag, history_tokens: 4000, retriever: embedding, doc_size: 8, top_k: 3}
  - {name: mem0, kind: mem0}
  - {name: memos, kind: memos}
  - {name: proex, kind: proex}
  - {name: pramem, kind: pramem, pramem: {rounds: 3}}
report: {bootstrap: 20}
`), 0o644)
	if out, code := runCLI(t, "run", "-c", cfg, "--out", dir); code != 0 {
		t.Fatalf("run exit %d:\n%s", code, out)
	}
	return filepath.Join(dir, "mem")
}

func TestMemoryShowEveryMethod(t *testing.T) {
	run := memoryRun(t)
	out, errOut, code := runCLISplit(t, "memory", "show", run, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []struct {
		Method, Kind, Summary string
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	var names []string
	for _, m := range list {
		names = append(names, m.Method)
	}
	if got := strings.Join(names, ","); got != "mem0,memos,pramem,proex,rag,summary" {
		t.Errorf("methods with memory: %s (truncation keeps none)", got)
	}
	user := ""
	{
		ents, err := os.ReadDir(filepath.Join(run, "memory", "pramem"))
		if err != nil || len(ents) == 0 {
			t.Fatalf("no pramem memory files: %v", err)
		}
		user = strings.TrimSuffix(ents[0].Name(), ".json")
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"list", nil, 0, []string{"pramem", "experiences and", "bias alerts after 3 rounds", "stored units", "chosen profiles", "--method NAME"}},
		{"pramem users", []string{"--method", "pramem"}, 0, []string{"user", "bias alerts", user, "--user U"}},
		{"pramem one user", []string{"--method", "pramem", "--user", user}, 0,
			[]string{"round  1 (practice item", "round  3 (practice item", "Final memory:", "Experience (patterns of this user)",
				"Bias alerts (calibration for the model)", "Memory as the prompt shows it"}},
		{"mem0 one user", []string{"--method", "mem0", "--user", user}, 0, []string{"Stored units:", "Memory as the prompt shows it"}},
		{"memos one user", []string{"--method", "memos", "--user", user}, 0, []string{"Stored units:", "profile"}},
		{"proex one user", []string{"--method", "proex", "--user", user}, 0, []string{"Candidate profiles:", "acc"}},
		{"summary one user", []string{"--method", "summary", "--user", user}, 0, []string{"summary (kind summary)", "Memory as the prompt shows it"}},
		{"rag one user", []string{"--method", "rag", "--user", user}, 0, []string{"documents"}},
		{"unknown method", []string{"--method", "truncation"}, 1, []string{`method "truncation" has no memory here`, "mem0, memos"}},
		{"unknown user", []string{"--method", "mem0", "--user", "nobody"}, 1, []string{`no memory for user "nobody"`, user}},
		{"user without method", []string{"--user", user}, 1, []string{"--user needs --method"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runCLI(t, append([]string{"memory", "show", run}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}

	// One user's PraMem memory as JSON: the rounds and the final sections.
	out, _, code = runCLISplit(t, "memory", "show", run, "--method", "pramem", "--user", user, "--json")
	var d struct {
		Rounds []struct {
			Round      int
			Experience []string
			BiasAlerts []string `json:"bias_alerts"`
		}
		Final *struct {
			UserExp  []string `json:"user_exp"`
			ModelExp []string `json:"model_exp"`
		}
		Text string
	}
	if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if len(d.Rounds) != 3 || d.Final == nil || d.Text == "" {
		t.Fatalf("rounds %d, final %v, text %q", len(d.Rounds), d.Final, d.Text)
	}
	last := d.Rounds[len(d.Rounds)-1]
	if strings.Join(last.Experience, "\n") != strings.Join(d.Final.UserExp, "\n") || strings.Join(last.BiasAlerts, "\n") != strings.Join(d.Final.ModelExp, "\n") {
		t.Errorf("the last round's sections %v / %v differ from the final memory %v / %v", last.Experience, last.BiasAlerts, d.Final.UserExp, d.Final.ModelExp)
	}
}

// TestMemoryShowFlagsEmptyMemory: a user whose memory came out empty (every
// extraction answer unusable) is named in the method's summary line.
func TestMemoryShowFlagsEmptyMemory(t *testing.T) {
	run := memoryRun(t)
	files, _ := filepath.Glob(filepath.Join(run, "memory", "mem0", "*.json"))
	if len(files) == 0 {
		t.Fatal("no mem0 memory")
	}
	var mem map[string]any
	b, _ := os.ReadFile(files[0])
	json.Unmarshal(b, &mem)
	mem["text"], mem["tokens"] = "", 0
	b, _ = json.Marshal(mem)
	os.WriteFile(files[0], b, 0o644)
	user := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	out, code := runCLI(t, "memory", "show", run)
	if code != 0 || !strings.Contains(out, "EMPTY for 1 of 2 users ("+user+")") {
		t.Errorf("exit %d, empty memory not flagged:\n%s", code, out)
	}
	out, _ = runCLI(t, "memory", "show", run, "--method", "mem0", "--user", user)
	if !strings.Contains(out, "The memory is EMPTY") {
		t.Errorf("one user:\n%s", out)
	}
}
