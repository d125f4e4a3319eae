package conversation_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family"
	"github.com/memharness/memharness/family/behavior"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/family/lifelongagents"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/releasepacks/memqarel"
	"github.com/memharness/memharness/reports/render"
	"github.com/memharness/memharness/runrecord"
)

// Stand-in packs: the sources' layout and variable names, our own text.
const (
	standinMem0Judge = "ACCURACY_PROMPT = \"\"\"\nSTANDIN-MEM0\nQ={question}\nG={gold_answer}\nA={generated_answer}\nReply {{\"label\": ...}}\n\"\"\"\n"
	standinMem0Utils = "def extract_json(text):\n    return text\n"
	standinLME       = `def get_anscheck_prompt(task, question, answer, response, abstention=False):
    if not abstention:
        if task in ['single-session-user', 'single-session-assistant', 'multi-session']:
            template = "STANDIN-FACT {}|{}|{}"
        elif task == 'temporal-reasoning':
            template = "STANDIN-TEMP {}|{}|{}"
        elif task == 'knowledge-update':
            template = "STANDIN-KU {}|{}|{}"
        elif task == 'single-session-preference':
            template = "STANDIN-PREF {}|{}|{}"
        else:
            raise NotImplementedError
    else:
        template = "STANDIN-ABS {}|{}|{}"
    prompt = template.format(question, answer, response)
    return prompt
`
)

// standinPacks writes both packs into dataDir as `bench data fetch` lays
// them out and returns their pins, with the stand-in Punkt package beside
// them (its pin: standinPunktPin) for LoCoMo's BLEU-1 under prompts: release.
func standinPacks(t *testing.T, dataDir string) (mem0, lme lifememrel.Source) {
	t.Helper()
	standinPunkt(t, dataDir)
	write := func(src *lifememrel.Source, path, text string) {
		full := filepath.Join(dataDir, src.Name, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(text))
		src.Files = append(src.Files, lifememrel.File{Path: path, Commit: strings.Repeat("0", 40), SHA256: hex.EncodeToString(sum[:]), Size: int64(len(text))})
	}
	mem0 = lifememrel.Source{Name: memqarel.NameMem0Eval, Repository: "example.com/standin-mem0"}
	lme = lifememrel.Source{Name: memqarel.NameLongMemEvalEval, Repository: "example.com/standin-lme"}
	write(&mem0, "evaluation/metrics/llm_judge.py", standinMem0Judge)
	write(&mem0, "mem0/memory/utils.py", standinMem0Utils)
	for path, text := range standinAnswerFiles {
		write(&mem0, path, text)
	}
	write(&lme, "src/evaluation/evaluate_qa.py", standinLME)
	return mem0, lme
}

// kindsWith are the built-in families with the conversational one reading
// the stand-in pins.
func kindsWith(t *testing.T, mem0, lme lifememrel.Source) *bench.Kinds {
	r := family.NewRegistry()
	conv := conversation.WithSources(memqarel.Packs{Mem0: mem0, LongMemEval: lme, Punkt: standinPunktPin(t)})
	for _, f := range []family.Family{behavior.New(), lifelongagents.New(), conv} {
		if err := r.Register(f); err != nil {
			t.Fatal(err)
		}
	}
	return &bench.Kinds{Families: r}
}

// recordingEndpoint answers questions with a fixed phrase and judges as
// each stand-in asks (mem0's JSON in a fence with prose around it, as
// extract_json must cut; LongMemEval's "Yes."), keeping every body.
type recordingEndpoint struct {
	mu     sync.Mutex
	bodies []map[string]any
}

func (e *recordingEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	e.bodies = append(e.bodies, body)
	e.mu.Unlock()
	content := bodyContent(body)
	reply := "the blue notebook"
	switch {
	case strings.HasPrefix(content, "\nSTANDIN-MEM0"):
		reply = "Reasoning first.\n```json\n{\"label\": \"CORRECT\"}\n```\nDone."
	case strings.HasPrefix(content, "STANDIN-"):
		reply = "Yes."
	case strings.Contains(content, "STANDIN-ANS"):
		reply = standinAnswerReply // mem0's answer templates
	case strings.Contains(content, "label"):
		reply = `{"label": "WRONG"}` // our own wordings (the compared judges)
	case strings.Contains(content, "yes or no"):
		reply = "no"
	}
	msg, _ := json.Marshal(reply)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":`+string(msg)+`}}],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`)
}

func bodyContent(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[len(msgs)-1].(map[string]any)
	s, _ := m["content"].(string)
	return s
}

func (e *recordingEndpoint) take() []map[string]any {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.bodies
	e.bodies = nil
	return out
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestReleaseJudgesThroughTheRunPath runs LoCoMo and LongMemEval under
// prompts: release with stand-in packs in the data cache, against
// recording endpoints: every judge request reaching the endpoint is the
// body the source sends (mem0: one user message, temperature 0, a JSON
// response format and nothing else; LongMemEval: temperature 0,
// max_tokens 10, n 1), filled from the pack's text, and replies are read
// as the sources read them. LongMemEval's judge is a model of its own at
// its own endpoint, with a strict judge compared beside it.
func TestReleaseJudgesThroughTheRunPath(t *testing.T) {
	dataDir := t.TempDir()
	mem0, lme := standinPacks(t, dataDir)
	answers, judges := &recordingEndpoint{}, &recordingEndpoint{}
	aSrv, jSrv := httptest.NewServer(answers), httptest.NewServer(judges)
	t.Cleanup(aSrv.Close)
	t.Cleanup(jSrv.Close)
	getenv := func(k string) string {
		switch k {
		case "OPENAI_BASE_URL":
			return aSrv.URL
		case "MEMHARNESS_DATA":
			return dataDir
		}
		return ""
	}
	dir := t.TempDir()
	run := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", filepath.Join(dir, "out")},
			bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv, Kinds: kindsWith(t, mem0, lme)})
		if code != 0 {
			t.Fatalf("%s: exit %d:\n%s%s", name, code, stdout.String(), stderr.String())
		}
		return filepath.Join(dir, "out", name)
	}

	// LoCoMo: the backbone judges with mem0's text.
	runDir := run("loc", "name: loc\ntask: locomo\nprompts: release\nbackbone: {kind: openai, model: m, max_retries: 0}\n"+
		"methods: [{name: full, kind: long_context}]\nreport: {bootstrap: 10}\n")
	var judged int
	var sent []string
	for _, b := range answers.take() {
		c := bodyContent(b)
		sent = append(sent, c)
		if !strings.HasPrefix(c, "\nSTANDIN-MEM0") {
			continue
		}
		judged++
		if got := sortedKeys(b); !slices.Equal(got, []string{"messages", "model", "response_format", "temperature"}) {
			t.Fatalf("mem0 judge body keys %v, want messages, model, response_format, temperature: %v", got, b)
		}
		if b["temperature"] != float64(0) || b["model"] != "m" {
			t.Errorf("mem0 judge body: %v", b)
		}
		if rf, _ := json.Marshal(b["response_format"]); string(rf) != `{"type":"json_object"}` {
			t.Errorf("response_format %s", rf)
		}
		if msgs := b["messages"].([]any); len(msgs) != 1 || msgs[0].(map[string]any)["role"] != "user" {
			t.Errorf("mem0 judge messages %v", msgs)
		}
	}
	ss := readSamples(t, runDir)
	var want int
	for _, s := range ss {
		if s.Field == "5" {
			if _, ok := s.Scores["judge"]; ok || s.Judge != "" {
				t.Errorf("%s: category 5 judged (mem0's evals.py skips it)", s.ID)
			}
			continue
		}
		want++
		if s.Scores["judge"] != 1 || s.Judge != "correct" {
			t.Errorf("%s: judge %v %q, want 1 correct (the fenced JSON label)", s.ID, s.Scores["judge"], s.Judge)
		}
	}
	if judged != want || want == 0 {
		t.Errorf("%d mem0 judge requests, want one per question outside category 5 (%d)", judged, want)
	}
	// Every answer reached the judge as the pack's text filled in.
	contents := map[string]bool{}
	for _, s := range ss {
		if s.Field != "5" {
			contents["\nG="+s.Label+"\nA="+s.Pred+"\n"] = true
		}
	}
	for _, c := range sent {
		if strings.HasPrefix(c, "\nSTANDIN-MEM0\nQ=") {
			delete(contents, c[strings.Index(c, "\nG="):strings.Index(c, "Reply {")])
		}
	}
	if len(contents) > 0 {
		t.Errorf("%d answers never reached the judge as the pack's text filled in", len(contents))
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(man.Judges, []string{"backbone judge (release prompt)"}) {
		t.Errorf("manifest judges %v", man.Judges)
	}
	idx, _ := os.ReadFile(filepath.Join(runDir, "report", "index.md"))
	if !strings.Contains(strings.SplitN(string(idx), "\n", 2)[0], "graded by backbone judge (release prompt)") {
		t.Errorf("report title does not name the judge:\n%.300s", idx)
	}
	// BLEU-1 tokenised with the fetched Punkt package's model, and says so.
	tokens := "nltk word_tokenize, English Punkt of example.com/standin-nltk-data@" + strings.Repeat("0", 40) + " " + memqarel.PunktTabPath + " (english)"
	if man.BLEU1Tokens != tokens {
		t.Errorf("manifest bleu1_tokens %q, want %q", man.BLEU1Tokens, tokens)
	}
	if !strings.Contains(strings.SplitN(string(idx), "\n", 2)[0], render.MdText("BLEU-1 tokens: "+tokens)) {
		t.Errorf("report title does not name BLEU-1's tokenisation:\n%.500s", idx)
	}

	// LongMemEval: a judge model at its own endpoint, a strict one beside.
	runDir = run("lme", "name: lme\ntask: longmemeval\nprompts: release\nbackbone: {kind: openai, model: m, max_retries: 0}\n"+
		"judge: {kind: openai, model: judge-m, base_urls: ["+jSrv.URL+"], compare: [{name: strict, prompt: strict}]}\n"+
		"methods: [{name: full, kind: long_context}]\nreport: {bootstrap: 10}\n")
	for _, b := range answers.take() {
		if c := bodyContent(b); strings.HasPrefix(c, "STANDIN-") || strings.Contains(c, "yes or no") {
			t.Fatalf("a judge request reached the answering endpoint: %.200s", c)
		}
	}
	var release, strict int
	for _, b := range judges.take() {
		if b["model"] != "judge-m" {
			t.Errorf("judge body model %v, want judge-m", b["model"])
		}
		if got := sortedKeys(b); !slices.Equal(got, []string{"max_tokens", "messages", "model", "n", "temperature"}) {
			t.Fatalf("LongMemEval judge body keys %v: %v", got, b)
		}
		if b["temperature"] != float64(0) || b["max_tokens"] != float64(10) || b["n"] != float64(1) {
			t.Errorf("LongMemEval judge sampling: %v", b)
		}
		if strings.HasPrefix(bodyContent(b), "STANDIN-") {
			release++
		} else {
			strict++
		}
	}
	ss = readSamples(t, runDir)
	if release != len(ss) || strict != len(ss) {
		t.Errorf("%d release and %d strict judge requests, want one each per question (%d)", release, strict, len(ss))
	}
	for _, s := range ss {
		if s.Scores["judge"] != 1 || s.Scores["judge@strict"] != 0 {
			t.Errorf("%s: judge %v, judge@strict %v; want 1 (\"Yes.\") and 0 (\"no\")", s.ID, s.Scores["judge"], s.Scores["judge@strict"])
		}
	}
	man, err = runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(man.Judges, []string{"openai judge-m judge (release prompt)", "strict: openai judge-m judge (strict prompt)"}) {
		t.Errorf("manifest judges %v", man.Judges)
	}
}

// TestUnreadableJudgeReplyIsAnError: a mem0 judge reply its code cannot
// read (no JSON) fails the answer's sample, as the source's script stops
// there, and the run says so; nothing is counted as wrong.
func TestUnreadableJudgeReplyIsAnError(t *testing.T) {
	dataDir := t.TempDir()
	mem0, lme := standinPacks(t, dataDir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		reply := "the blue notebook"
		if strings.Contains(string(b), "STANDIN-MEM0") {
			reply = "CORRECT"
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`+reply+`"}}],"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8}}`)
	}))
	t.Cleanup(srv.Close)
	getenv := func(k string) string {
		switch k {
		case "OPENAI_BASE_URL":
			return srv.URL
		case "MEMHARNESS_DATA":
			return dataDir
		}
		return ""
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "loc.yaml")
	text := "name: loc\ntask: locomo\nprompts: release\nbackbone: {kind: openai, model: m, max_retries: 0}\nmethods: [{name: full, kind: long_context}]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := bench.Main(context.Background(), []string{"run", "-c", path, "--out", filepath.Join(dir, "out")},
		bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv, Kinds: kindsWith(t, mem0, lme)})
	if code == 0 || !strings.Contains(stderr.String(), "questions failed") {
		t.Fatalf("exit %d; want a failed run naming the failed questions:\n%s", code, stderr.String())
	}
	for _, s := range readSamples(t, filepath.Join(dir, "out", "loc")) {
		if s.Field == "5" {
			if s.Error != "" {
				t.Errorf("%s: category 5 (not judged) failed: %s", s.ID, s.Error)
			}
			continue
		}
		if !strings.Contains(s.Error, "judge reply unreadable") {
			t.Errorf("%s: error %q, want the unreadable judge reply", s.ID, s.Error)
		}
	}
}
