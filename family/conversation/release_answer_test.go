package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/bench"
	"github.com/memharness/memharness/family/conversation"
	"github.com/memharness/memharness/planner"
	"github.com/memharness/memharness/runrecord"
)

// Stand-in answer templates: mem0's files and variable names, our text.
var standinAnswerFiles = map[string]string{
	"evaluation/src/rag.py": "PROMPT = \"\"\"\nSTANDIN-ANS-RAG\nQ={{QUESTION}}\nC={{ CONTEXT }}\nEND\n\"\"\"\n\n" +
		"class RAGManager:\n    def generate_response(self, question, context):\n" +
		"        response = self.client.chat.completions.create(\n            model=self.model,\n            messages=[\n" +
		"                {\n                    \"role\": \"system\",\n                    \"content\": \"STANDIN-SYS one. \"\n" +
		"                    \"Two.\",\n                },\n                {\"role\": \"user\", \"content\": prompt},\n            ],\n" +
		"            temperature=0,\n        )\n",
	"evaluation/src/openai/predict.py": "ANSWER_PROMPT = \"\"\"\n    STANDIN-ANS-FULL\n    M={{memories}}\n    Q={{question}}\n    \"\"\"\n",
	"evaluation/prompts.py": "ANSWER_PROMPT = \"\"\"\n    STANDIN-ANS-MEM {{speaker_1_user_id}}={{speaker_1_memories}} " +
		"{{speaker_2_user_id}}={{speaker_2_memories}} Q={{question}}\n    \"\"\"\n",
}

// standinAnswerReply has white space around it and a second line, which
// mem0's code keeps (predict.py) or strips (rag.py), where our own
// wording keeps the first line.
const standinAnswerReply = " the blue notebook\nas said in session 2\n"

// TestReleaseAnswerPromptsThroughTheRunPath runs LoCoMo under prompts:
// release with a stand-in mem0 pack in the data cache: every answer
// request reaching the endpoint is the body mem0's code sends for the
// method (full context: predict.py's template as one system message; RAG:
// rag.py's system message and PROMPT as the user message; temperature 0
// and nothing else), filled from the pack's text, and the reply is read as
// mem0 reads it. The manifest and the report title say which template
// each method used; under prompts: own the request is ours.
func TestReleaseAnswerPromptsThroughTheRunPath(t *testing.T) {
	dataDir := t.TempDir()
	mem0, lme := standinPacks(t, dataDir)
	answers := &recordingEndpoint{}
	srv := httptest.NewServer(answers)
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
	var runWith func(name, prompts, backbone, methods string) string
	run := func(name, prompts string) string {
		return runWith(name, prompts, "openai", "[{name: full, kind: long_context}, {name: rag, kind: rag, top_k: 3}]")
	}
	runWith = func(name, prompts, backbone, methods string) string {
		t.Helper()
		path := filepath.Join(dir, name+".yaml")
		text := "name: " + name + "\ntask: locomo\nprompts: " + prompts + "\nbackbone: {kind: " + backbone + ", model: m, max_retries: 0}\n" +
			"methods: " + methods + "\nreport: {bootstrap: 10}\n"
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

	runDir := run("rel", "release")
	var full, rag int
	for _, b := range answers.take() {
		msgs, _ := b["messages"].([]any)
		first, _ := msgs[0].(map[string]any)
		c0, _ := first["content"].(string)
		switch {
		case strings.HasPrefix(c0, "\n    STANDIN-ANS-FULL\n    M="):
			full++
			if len(msgs) != 1 || first["role"] != "system" {
				t.Errorf("full-context answer messages %v: want one system message", msgs)
			}
			// Jinja keeps the template's last line (no trailing newline).
			if !strings.HasSuffix(c0, "\n    Q="+questionOf(c0)+"\n    ") || !strings.Contains(c0, " | ") {
				t.Errorf("full-context prompt not filled as mem0 fills it: %.300q", c0)
			}
		case c0 == "STANDIN-SYS one. Two.":
			rag++
			second, _ := msgs[1].(map[string]any)
			c1, _ := second["content"].(string)
			if len(msgs) != 2 || second["role"] != "user" || !strings.HasPrefix(c1, "\nSTANDIN-ANS-RAG\nQ=") || !strings.HasSuffix(c1, "\nEND") {
				t.Errorf("rag answer messages %q", msgs)
			}
		default:
			continue
		}
		if got := sortedKeys(b); !slices.Equal(got, []string{"messages", "model", "temperature"}) {
			t.Errorf("answer body keys %v, want messages, model, temperature: %v", got, b)
		}
		if b["temperature"] != float64(0) {
			t.Errorf("answer temperature %v, want 0", b["temperature"])
		}
	}
	ss := readSamples(t, runDir)
	if full+rag != len(ss) || full != rag || full == 0 {
		t.Errorf("%d full-context and %d RAG answer requests for %d samples", full, rag, len(ss))
	}
	for _, s := range ss {
		want := standinAnswerReply // predict.py takes the content as is
		if s.Method == "rag" {
			want = strings.TrimSpace(standinAnswerReply) // rag.py strips it
		}
		if s.Pred != want || s.Raw != standinAnswerReply {
			t.Errorf("%s: pred %q raw %q, want pred %q", s.ID, s.Pred, s.Raw, want)
		}
	}
	man, err := runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.Prompts != "release" || !strings.HasPrefix(man.PromptsPack, "example.com/standin-mem0") {
		t.Errorf("manifest prompts %q pack %q", man.Prompts, man.PromptsPack)
	}
	if p := man.Provenance["rag/answer"]; p.Prompt != runrecord.FromSource || !strings.Contains(p.Note, "evaluation/src/rag.py PROMPT") {
		t.Errorf("rag provenance %+v", p)
	}
	if p := man.Provenance["full/answer"]; p.Sampling != runrecord.FromSource || !strings.Contains(p.Note, "evaluation/src/openai/predict.py ANSWER_PROMPT") {
		t.Errorf("full provenance %+v", p)
	}
	if len(man.PromptsSHA256) != 2 {
		t.Errorf("manifest prompt digests %v: want the two files used", man.PromptsSHA256)
	}
	idx, _ := os.ReadFile(filepath.Join(runDir, "report", "index.md"))
	if title := strings.SplitN(string(idx), "\n", 2)[0]; !strings.Contains(title, "answer prompts: mem0 release (full: evaluation/src/openai/predict.py, rag: evaluation/src/rag.py)") {
		t.Errorf("report title does not name the answer prompts: %s", title)
	}

	// Our own wording: no mem0 text in any answer request, first line read.
	runDir = run("own", "own")
	for _, b := range answers.take() {
		if c := bodyContent(b); strings.Contains(c, "STANDIN-ANS") || strings.Contains(c, "STANDIN-SYS") {
			t.Fatalf("prompts: own sent mem0's template: %.200q", c)
		}
	}
	for _, s := range readSamples(t, runDir) {
		if s.Pred != "the blue notebook" {
			t.Errorf("%s: own pred %q", s.ID, s.Pred)
		}
	}
	man, err = runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if man.PromptsLabel() != "own wording" || len(man.Provenance) != 0 {
		t.Errorf("own run manifest prompts %q provenance %v", man.PromptsLabel(), man.Provenance)
	}

	// The embedded sim runs the memories template too (Mem0-style memory:
	// prompts.py's ANSWER_PROMPT), reading what the prompt shows.
	runDir = runWith("sim", "release", "sim", "[{name: mem0, kind: mem0}, {name: full, kind: long_context}]")
	man, err = runrecord.ReadManifest(filepath.Join(runDir, runrecord.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if p := man.Provenance["mem0/answer"]; !strings.Contains(p.Note, "evaluation/prompts.py ANSWER_PROMPT") {
		t.Errorf("mem0 provenance %+v", p)
	}
	answered := 0
	for _, s := range readSamples(t, runDir) {
		if s.Error != "" {
			t.Fatalf("%s: %s", s.ID, s.Error)
		}
		if s.Pred != s.Raw {
			t.Errorf("%s: pred %q is not the reply %q as search.py takes it", s.ID, s.Pred, s.Raw)
		}
		if s.Pred != conversation.NotMentioned {
			answered++
		}
	}
	if answered == 0 {
		t.Error("the sim answered nothing under the release templates")
	}
	// The stored plan built the same release prompts (mem0's answer and
	// judge templates, the constructions, the judged answers rehearsed on
	// the sim): on the sim it is exact, and it models every call's prefix.
	var plan planner.Plan
	var usage map[string]runrecord.MethodUsage
	for file, v := range map[string]any{runrecord.PlanFile: &plan, runrecord.UsageFile: &usage} {
		b, err := os.ReadFile(filepath.Join(runDir, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	calls, prompt := 0, 0
	for _, u := range usage {
		calls, prompt = calls+u.Calls, prompt+u.PromptTokens
	}
	if plan.Calls != calls || plan.PromptTokens != prompt {
		t.Errorf("release plan: %d calls, %d prompt tokens; the run spent %d, %d", plan.Calls, plan.PromptTokens, calls, prompt)
	}
	// bench plan models every call's prompt prefix, release texts and all.
	var stdout, stderr bytes.Buffer
	if code := bench.Main(context.Background(), []string{"plan", "-c", filepath.Join(dir, "sim.yaml"), "--json"},
		bench.IO{Out: &stdout, Err: &stderr, Getenv: getenv, Kinds: kindsWith(t, mem0, lme)}); code != 0 {
		t.Fatalf("bench plan: exit %d:\n%s", code, stderr.String())
	}
	var whole planner.Plan
	if err := json.Unmarshal(stdout.Bytes(), &whole); err != nil {
		t.Fatal(err)
	}
	if pc := whole.PrefixCache; pc.ModelledTokens != prompt || len(pc.Unmodelled) > 0 || pc.Ideal == 0 || pc.HarnessOrder == 0 {
		t.Errorf("release plan's prefix model: %+v (want all %d prompt tokens modelled)", pc, prompt)
	}
}

// questionOf is the question a filled full-context stand-in asks.
func questionOf(prompt string) string {
	i := strings.LastIndex(prompt, "\n    Q=")
	return strings.TrimSuffix(prompt[i+len("\n    Q="):], "\n    ")
}
