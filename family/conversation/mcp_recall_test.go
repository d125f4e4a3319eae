package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/memqa"
	"github.com/memharness/memharness/datasets/synth"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/internal/lazyre"
	scoring "github.com/memharness/memharness/metrics/memqa"
)

// mcpRecallConfig runs the fake server twice: as it stores (mcp) and as a
// server that rewrites what it stores would answer (mcp_rw: every second
// record it returns without its tags).
const mcpRecallConfig = `name: NAME
task: TASK
seed: 42
dataset: {name: TASK}
backbone: {kind: sim, model: m, max_retries: 0}
methods:
  - name: mcp
    kind: mcp_memory
    top_k: 5
    memory_tokens: 2000
    server: {command: [BINARY], env: {VAR: "", LOGVAR: "LOG"}, call_timeout: 10s}
    write: {tool: remember, arguments: {user: "{user}", text: "{text}"}}
    search: {tool: recall, arguments: {user: "{user}", query: "{query}", k: "{k}"}, results: "memories[*]"}
  - name: mcp_rw
    kind: mcp_memory
    top_k: 5
    memory_tokens: 2000
    server: {command: [BINARY], env: {VAR: "", LOGVAR: "LOG"}, call_timeout: 10s}
    write: {tool: remember, arguments: {user: "{user}", text: "{text}"}}
    search: {tool: recall, arguments: {user: "{user}", query: "{query}", k: "{k}", rewrite: true}, results: "memories[*]"}
report: {bootstrap: 20}
`

// turnTagRe is a turn's tag in an item the harness wrote: LoCoMo's dia_id
// or, on LongMemEval, "S<session number>:<turn number>".
var turnTagRe = lazyre.New(`\[((?:D|S)\d+:\d+)\]`)

// TestMCPEvidenceRecallFromTags: an MCP memory server's evidence recall is
// read from the turn tags the harness writes with each turn and that
// survive in the items a search returns. Against the fake server's own
// log of what each search returned, every question's recall is the
// benchmark's recall over the tagged turns (LoCoMo: evidence dia_ids;
// LongMemEval: has_answer turns) and its untagged share the items shown
// without a tag; a server that drops tags (mcp_rw) has untagged items,
// counted as retrieving nothing, so its recall is never above the
// verbatim server's.
func TestMCPEvidenceRecallFromTags(t *testing.T) {
	for _, task := range []string{"locomo", "longmemeval"} {
		t.Run(task, func(t *testing.T) {
			var ds memqa.Dataset
			var err error
			if task == "locomo" {
				ds, err = synth.GenerateLoCoMo(synth.LoCoMoConfig{Seed: 42})
			} else {
				ds, err = synth.GenerateLongMemEval(synth.LongMemEvalConfig{Seed: 42})
			}
			if err != nil {
				t.Fatal(err)
			}
			questions := map[string]memqa.Question{}
			convOf := map[string]memqa.Conversation{}
			for _, c := range ds.Conversations {
				for _, q := range c.Questions {
					questions[q.ID], convOf[q.ID] = q, c
				}
			}
			dir := t.TempDir()
			logPath := filepath.Join(dir, "searches.jsonl")
			cfg := filepath.Join(dir, "c.yaml")
			r := strings.NewReplacer("NAME", task+"_tags", "TASK", task, "BINARY", os.Args[0], "LOGVAR", fakeLogVar, "VAR", fakeServerVar, "LOG", logPath)
			if err := os.WriteFile(cfg, []byte(r.Replace(mcpRecallConfig)), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, log := runBench(t, context.Background(), cfg, dir, nil); code != 0 {
				t.Fatalf("exit %d:\n%s", code, log)
			}
			b, err := os.ReadFile(logPath)
			if err != nil {
				t.Fatal(err)
			}
			searches := map[string][]string{}
			for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
				var l recallLog
				if err := json.Unmarshal(line, &l); err != nil {
					t.Fatal(err)
				}
				searches[l.User+"\x00"+l.Query+"\x00"+strconv.FormatBool(l.Rewrite)] = l.Memories
			}
			untagged := map[string]float64{}
			recalls := map[string]map[string]float64{}
			for _, s := range readSamples(t, filepath.Join(dir, task+"_tags")) {
				if s.Error != "" {
					t.Fatalf("%s: %s", s.ID, s.Error)
				}
				qid := strings.TrimPrefix(s.ID, s.Method+"/")
				q, c := questions[qid], convOf[qid]
				shown, ok := searches[c.SampleID+"\x00"+q.Question+"\x00"+strconv.FormatBool(s.Method == "mcp_rw")]
				if !ok {
					t.Fatalf("%s: no search logged for it", s.ID)
				}
				shown = shown[:min(len(shown), 5)]
				wantRecall, wantUntagged, scored := expectedRecall(t, c, q, shown)
				got, has := s.Scores[conversation.ScoreEvidenceRecall]
				if has != scored || scored && math.Abs(got-wantRecall) > 1e-9 {
					t.Errorf("%s: evidence recall %v (recorded %v), want %v (recorded %v) from %q", s.ID, got, has, wantRecall, scored, shown)
				}
				if len(shown) > 0 && math.Abs(s.Scores[conversation.ScoreUntagged]-wantUntagged) > 1e-9 {
					t.Errorf("%s: untagged share %v, want %v", s.ID, s.Scores[conversation.ScoreUntagged], wantUntagged)
				}
				untagged[s.Method] += s.Scores[conversation.ScoreUntagged]
				if recalls[s.Method] == nil {
					recalls[s.Method] = map[string]float64{}
				}
				if has {
					recalls[s.Method][qid] = got
				}
			}
			if untagged["mcp"] != 0 || untagged["mcp_rw"] == 0 {
				t.Errorf("untagged shares summed: verbatim %v (want 0), rewriting %v (want > 0)", untagged["mcp"], untagged["mcp_rw"])
			}
			some := 0.0
			for qid, v := range recalls["mcp"] {
				some += v
				if recalls["mcp_rw"][qid] > v+1e-9 {
					t.Errorf("%s: the rewriting server's recall %v is above the verbatim one's %v", qid, recalls["mcp_rw"][qid], v)
				}
			}
			if some == 0 {
				t.Error("the verbatim server's searches recalled no evidence at all")
			}
			idx, err := os.ReadFile(filepath.Join(dir, task+"_tags", "report", "index.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(idx), "Items shown without a tag, mean share per question: mcp 0.0% (") || !strings.Contains(string(idx), ", mcp_rw ") {
				t.Error("the report does not say how many items carried no tag")
			}
		})
	}
}

// expectedRecall is a question's evidence recall over the turns tagged in
// the items shown (scored: whether the benchmark scores it), and the share
// of items with no tag.
func expectedRecall(t *testing.T, c memqa.Conversation, q memqa.Question, shown []string) (recall, untagged float64, scored bool) {
	t.Helper()
	var tags []string
	seen := map[string]bool{}
	for _, m := range shown {
		found := turnTagRe.FindAllStringSubmatch(m, -1)
		if len(found) == 0 {
			untagged++
		}
		for _, f := range found {
			if !seen[f[1]] {
				seen[f[1]] = true
				tags = append(tags, f[1])
			}
		}
	}
	if len(shown) > 0 {
		untagged /= float64(len(shown))
	}
	if len(c.Questions) > 0 && q.Category != 0 { // LoCoMo
		r, err := scoring.EvidenceRecall(q.Evidence, tags, true)
		if err != nil {
			t.Fatal(err)
		}
		return r, untagged, true
	}
	answers, found := 0, 0
	for _, s := range c.Sessions {
		for i, turn := range s.Turns {
			if turn.HasAnswer {
				answers++
				if seen["S"+strconv.Itoa(s.Number)+":"+strconv.Itoa(i+1)] {
					found++
				}
			}
		}
	}
	if answers == 0 {
		return 0, untagged, false
	}
	return float64(found) / float64(answers), untagged, true
}
