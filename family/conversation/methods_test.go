package conversation_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/runrecord"
)

// methodsConfig runs every kind the family adapts, on the embedded
// default of task, through the command line.
const methodsConfig = `name: NAME
task: TASK
seed: 42
dataset: {name: TASK}
backbone: {kind: sim, model: m, max_retries: 0}
methods:
  - {name: full_context, kind: long_context}
  - {name: truncation, kind: truncation, history_tokens: BUDGET}
  - name: truncation_py
    kind: external
    command: [python3, SCRIPT]
    options: {history_tokens: BUDGET}
  - {name: rag_sessions, kind: rag, retriever: bm25, top_k: 2, doc_size: 64}
  - {name: mem0, kind: mem0}
  - {name: memos, kind: memos}
  - {name: summary, kind: summary}
report: {bootstrap: 50}
`

// TestMethodsOnEmbeddedDefault: on both benchmarks' embedded defaults,
// full context scores at least truncation's; a Python external method
// (examples/truncation.py, the built-in truncation re-implemented over
// the protocol) gives the built-in truncation's answers question by
// question, and the manifest records it; RAG over sessions retrieves
// whole sessions and reports evidence recall; the Mem0- and MemOS-style
// memories build each conversation's memory once, on its first question
// (whose record carries the construction calls), and show memories only.
func TestMethodsOnEmbeddedDefault(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the external method is a Python script")
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "examples", "truncation.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ task, budget, score string }{
		{"locomo", "1000", conversation.ScoreF1},
		{"longmemeval", "400", conversation.ScoreJudge},
	} {
		t.Run(tc.task, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "c.yaml")
			r := strings.NewReplacer("NAME", tc.task+"_methods", "TASK", tc.task, "BUDGET", tc.budget, "SCRIPT", script)
			if err := os.WriteFile(cfg, []byte(r.Replace(methodsConfig)), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, log := runBench(t, context.Background(), cfg, dir, nil); code != 0 {
				t.Fatalf("exit %d:\n%s", code, log)
			}
			runDir := filepath.Join(dir, tc.task+"_methods")
			ss := readSamples(t, runDir)
			full, trunc := meanScore(ss, "full_context", tc.score), meanScore(ss, "truncation", tc.score)
			if full < trunc {
				t.Errorf("full context %s %.3f is below truncation's %.3f", tc.score, full, trunc)
			}
			pred := map[string]map[string]string{}
			for _, s := range ss {
				if s.Error != "" {
					t.Fatalf("sample %s: %s", s.ID, s.Error)
				}
				if pred[s.Method] == nil {
					pred[s.Method] = map[string]string{}
				}
				pred[s.Method][strings.TrimPrefix(s.ID, s.Method+"/")] = s.Pred
				if _, ok := s.Scores[conversation.ScoreEvidenceRecall]; ok != (s.Method == "rag_sessions") {
					t.Errorf("sample %s: evidence recall present %v, want it for the retrieving method only", s.ID, ok)
				}
			}
			if len(pred["truncation_py"]) == 0 || len(pred["truncation_py"]) != len(pred["truncation"]) {
				t.Fatalf("%d external answers, %d built-in", len(pred["truncation_py"]), len(pred["truncation"]))
			}
			for q, p := range pred["truncation"] {
				if pred["truncation_py"][q] != p {
					t.Errorf("question %s: external truncation answered %q, built-in %q", q, pred["truncation_py"][q], p)
				}
			}
			man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			if len(man.External) != 1 || man.External[0].Name != "truncation_py" || man.External[0].ScriptSHA256 == "" {
				t.Errorf("manifest records external methods %+v", man.External)
			}
			for _, m := range []string{"mem0", "memos", "summary"} {
				first := map[string]bool{}
				for _, s := range ss {
					if s.Method != m {
						continue
					}
					if !first[s.User] {
						first[s.User] = true
						if s.Calls <= 1+judgeCalls(tc.task) {
							t.Errorf("%s: the first question of %s made %d calls: no memory was built with it", m, s.User, s.Calls)
						}
					} else if s.Calls != 1+judgeCalls(tc.task) {
						t.Errorf("%s: %s made %d calls: the memory was built again", m, s.ID, s.Calls)
					}
					if s.HistoryRecords != 0 {
						t.Errorf("%s: %s showed %d turns, want memories only", m, s.ID, s.HistoryRecords)
					}
				}
			}
			// Sessions are wider than turns: RAG over two sessions shows
			// more turns per question than one turn each would.
			shown := map[string]int{}
			for _, s := range ss {
				shown[s.Method] += s.HistoryRecords
			}
			if shown["rag_sessions"] <= 2*len(pred["rag_sessions"]) {
				t.Errorf("RAG over sessions showed %d turns for %d questions: not whole sessions", shown["rag_sessions"], len(pred["rag_sessions"]))
			}
		})
	}
}

// judgeCalls is the judge calls a question makes besides its answer.
func judgeCalls(task string) int {
	if task == "longmemeval" {
		return 1
	}
	return 0
}
