package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/internal/testfixture"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

const cfgTemplate = `name: NAME
task: TASK
seed: 42
dataset: {name: TASK}
backbone: {kind: KIND, model: m, max_retries: 0}
methods:
  - {name: full_context, kind: long_context}
  - {name: truncation, kind: truncation, history_tokens: BUDGET}
  - {name: rag_turns, kind: rag, retriever: bm25, top_k: 5}
report: {bootstrap: 50}
`

func writeConfig(t *testing.T, dir, task, kind, budget string) string {
	t.Helper()
	path := filepath.Join(dir, task+".yaml")
	r := strings.NewReplacer("NAME", task+"_test", "TASK", task, "KIND", kind, "BUDGET", budget)
	if err := os.WriteFile(path, []byte(r.Replace(cfgTemplate)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runBench(t *testing.T, ctx context.Context, cfg, out string, getenv func(string) string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := bench.Main(ctx, []string{"run", "-c", cfg, "--out", out}, bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv})
	return code, stdout.String() + stderr.String()
}

func readSamples(t *testing.T, runDir string) []runrecord.Sample {
	t.Helper()
	ss, err := runrecord.ReadSamples(filepath.Join(runDir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// meanScore is a method's mean of one score over its samples.
func meanScore(ss []runrecord.Sample, method, score string) float64 {
	sum, n := 0.0, 0
	for _, s := range ss {
		if v, ok := s.Scores[score]; ok && s.Method == method {
			sum += v
			n++
		}
	}
	return sum / float64(max(n, 1))
}

// TestRunsOnEmbeddedDefault runs both tasks twice on the sim backbone
// through the command line: every question is answered by every method
// and scored, the report names its choices, bench report rewrites it
// unchanged, and the second run's sample log and CSVs are byte-identical
// to the first's.
func TestRunsOnEmbeddedDefault(t *testing.T) {
	for _, tc := range []struct {
		task, budget, score string
		questions           int
	}{
		{"locomo", "1000", conversation.ScoreF1, 30},
		{"longmemeval", "400", conversation.ScoreJudge, 22},
	} {
		t.Run(tc.task, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, tc.task, "sim", tc.budget)
			var first map[string][]byte
			for i, out := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")} {
				if code, log := runBench(t, context.Background(), cfg, out, nil); code != 0 {
					t.Fatalf("run %d: exit %d:\n%s", i, code, log)
				}
				runDir := filepath.Join(out, tc.task+"_test")
				files := map[string][]byte{}
				for _, name := range []string{runrecord.SamplesFile, filepath.Join("report", conversation.MetricsFile), filepath.Join("report", conversation.IndexFile)} {
					b, err := os.ReadFile(filepath.Join(runDir, name))
					if err != nil {
						t.Fatal(err)
					}
					files[name] = b
				}
				if first == nil {
					first = files
					// bench report rewrites the same report from the log.
					var so, se bytes.Buffer
					if code := bench.Main(context.Background(), []string{"report", runDir}, bench.IO{Out: &so, Err: &se}); code != 0 {
						t.Fatalf("bench report: exit %d:\n%s%s", code, so.String(), se.String())
					}
					for _, name := range []string{filepath.Join("report", conversation.MetricsFile), filepath.Join("report", conversation.IndexFile)} {
						if b, err := os.ReadFile(filepath.Join(runDir, name)); err != nil || !bytes.Equal(b, files[name]) {
							t.Errorf("bench report rewrote %s differently (err %v)", name, err)
						}
					}
					ss := readSamples(t, runDir)
					if len(ss) != 3*tc.questions {
						t.Fatalf("%d samples, want %d", len(ss), 3*tc.questions)
					}
					for _, s := range ss {
						if _, ok := s.Scores[tc.score]; !ok || s.Error != "" {
							t.Fatalf("sample %s: no %s score (error %q)", s.ID, tc.score, s.Error)
						}
						if tc.task == "longmemeval" && s.Judge == "" {
							t.Fatalf("sample %s: no judge label", s.ID)
						}
						if _, ok := s.Scores[conversation.ScoreEvidenceRecall]; ok != (s.Method == "rag_turns") {
							t.Fatalf("sample %s: evidence recall present %v, want it for the retrieving method only", s.ID, ok)
						}
					}
					if tc.task == "locomo" {
						full, trunc := meanScore(ss, "full_context", tc.score), meanScore(ss, "truncation", tc.score)
						if !(full > trunc) {
							t.Errorf("full context F1 %.3f does not beat truncation's %.3f: early facts should be lost to the window", full, trunc)
						}
						if !bytes.Contains(files[filepath.Join("report", conversation.IndexFile)], []byte("adversarial (category 5) excluded from overall")) {
							t.Errorf("report title does not say whether adversarial questions count:\n%s", files[filepath.Join("report", conversation.IndexFile)])
						}
						if !bytes.Contains(files[filepath.Join("report", conversation.IndexFile)], []byte(render.MdText("; BLEU-1 tokens: nltk word_tokenize, untrained Punkt (own)"))) {
							t.Errorf("report title does not say how BLEU-1 tokenised:\n%s", files[filepath.Join("report", conversation.IndexFile)])
						}
					}
					var usage map[string]json.RawMessage
					b, _ := os.ReadFile(filepath.Join(runDir, runrecord.UsageFile))
					_ = json.Unmarshal(b, &usage)
					if _, ok := usage[conversation.PurposeAnswer]; !ok {
						t.Errorf("usage.json has no %s purpose: %s", conversation.PurposeAnswer, b)
					}
					if _, ok := usage["memqa.judge.longmemeval"]; ok != (tc.task == "longmemeval") {
						t.Errorf("usage.json judge purpose present %v on %s: %s", ok, tc.task, b)
					}
					continue
				}
				for name, b := range files {
					if !bytes.Equal(b, first[name]) {
						t.Errorf("%s differs between two runs of the same config", name)
					}
				}
			}
		})
	}
}

// fakeEndpoint is an OpenAI-compatible endpoint that answers every
// question "Not mentioned in the conversation" and records the prompts it
// was asked; stopAfter, when set, is called before the reply to that
// request (1-based), which then fails.
type fakeEndpoint struct {
	mu        sync.Mutex
	prompts   []string
	stopAfter int
	stop      func()
}

func (f *fakeEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &body); err != nil || len(body.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.prompts = append(f.prompts, body.Messages[len(body.Messages)-1].Content)
	n := len(f.prompts)
	f.mu.Unlock()
	if f.stop != nil && n == f.stopAfter {
		f.stop()
		http.Error(w, "going away", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Not mentioned in the conversation"}}],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`)
}

// TestResumeAsksOnlyUnanswered kills a LoCoMo run against an endpoint
// part-way (the questions in flight at the kill are lost with it), removes
// the response cache, and resumes: the resumed run asks only the questions
// the first left unanswered, and its sample log equals an uninterrupted
// run's.
func TestResumeAsksOnlyUnanswered(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "locomo", "openai", "1000")
	fake := &fakeEndpoint{}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	getenv := func(k string) string {
		if k == "OPENAI_BASE_URL" {
			return srv.URL
		}
		return ""
	}
	const total, killAt = 90, 40
	ctx, cancel := context.WithCancel(context.Background())
	fake.stopAfter, fake.stop = killAt, cancel
	out := filepath.Join(dir, "run")
	if code, log := runBench(t, ctx, cfg, out, getenv); code == 0 {
		t.Fatalf("the killed run exited 0:\n%s", log)
	}
	runDir := filepath.Join(out, "locomo_test")
	answered := len(readSamples(t, runDir))
	if answered < 1 || answered > killAt-1 {
		t.Fatalf("the killed run saved %d answers, want 1 to %d", answered, killAt-1)
	}
	if err := os.RemoveAll(filepath.Join(out, ".cache")); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	fake.prompts, fake.stop = nil, nil
	fake.mu.Unlock()
	if code, log := runBench(t, context.Background(), cfg, out, getenv); code != 0 {
		t.Fatalf("resume: exit %d:\n%s", code, log)
	}
	if got := len(fake.prompts); got != total-answered {
		t.Fatalf("the resumed run asked %d questions, want the %d unanswered", got, total-answered)
	}
	resumed, err := os.ReadFile(filepath.Join(runDir, runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole")
	if code, log := runBench(t, context.Background(), cfg, whole, getenv); code != 0 {
		t.Fatalf("uninterrupted run: exit %d:\n%s", code, log)
	}
	want, err := os.ReadFile(filepath.Join(whole, "locomo_test", runrecord.SamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stripTimes(t, resumed), stripTimes(t, want)) {
		t.Errorf("the resumed run's samples differ from an uninterrupted run's")
	}
}

// stripTimes drops the latency field, the one measurement a real
// endpoint's samples do not repeat.
func stripTimes(t *testing.T, b []byte) []byte {
	t.Helper()
	var out []byte
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "latency_ms")
		x, _ := json.Marshal(m)
		out = append(append(out, x...), '\n')
	}
	return out
}

// TestFetchedFile runs RAG over the sample of the real LoCoMo file: every
// question is answered, the file's digest is recorded, and a second run
// of the unchanged file is up to date.
func TestFetchedFile(t *testing.T) {
	fixture := filepath.Join(testfixture.Need(t, "memqa/locomo", "locomo10_first2.json"), "locomo10_first2.json")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "real.yaml")
	text := "name: real\ntask: locomo\nseed: 42\ndataset: {name: locomo, path: " + strconv.Quote(fixture) + "}\n" +
		"backbone: {kind: sim, model: m}\nmethods:\n  - {name: rag_turns, kind: rag, retriever: bm25, top_k: 5}\nreport: {bootstrap: 10}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, log := runBench(t, context.Background(), cfg, out, nil); code != 0 {
		t.Fatalf("exit %d:\n%s", code, log)
	}
	runDir := filepath.Join(out, "real")
	if n := len(readSamples(t, runDir)); n != 304 {
		t.Fatalf("%d samples, want the sample's 304 questions", n)
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.DatasetSHA256["locomo10_first2.json"] == "" {
		t.Errorf("manifest records no digest of the data: %v", man.DatasetSHA256)
	}
	if code, log := runBench(t, context.Background(), cfg, out, nil); code != 0 || !strings.Contains(log, "up to date") {
		t.Errorf("re-run of an unchanged file: exit %d, not up to date:\n%s", code, log)
	}
}

// TestErroredQuestionsCountedOnce: questions whose answer could not be had
// are counted as errored and not also taken off the answered ones (the
// final line once printed a negative count).
func TestErroredQuestionsCountedOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "longmemeval", "openai", "1000")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"context too long"}}`, http.StatusBadRequest)
	}))
	t.Cleanup(srv.Close)
	getenv := func(k string) string {
		if k == "OPENAI_BASE_URL" {
			return srv.URL
		}
		return ""
	}
	code, log := runBench(t, context.Background(), cfg, filepath.Join(dir, "out"), getenv)
	if code == 0 {
		t.Fatalf("a run whose every call failed exited 0:\n%s", log)
	}
	m := regexp.MustCompile(`(-?\d+)/(\d+) questions answered, (\d+) errored`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no count of answered and errored questions:\n%s", log)
	}
	if m[1] != "0" || m[3] == "0" {
		t.Errorf("%s/%s answered, %s errored; want 0 answered and every failed question errored:\n%s", m[1], m[2], m[3], log)
	}
}
