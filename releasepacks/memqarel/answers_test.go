package memqarel

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// Stand-in answer files: mem0's layout and names, our own text.
var standinAnswerFiles = map[string]string{
	ragPath: "from jinja2 import Template\nPROMPT = \"\"\"\nQ: {{QUESTION}}\nC: {{ CONTEXT }}\nShort:\n\"\"\"\n\n" +
		"class RAGManager:\n    def generate_response(self, question, context):\n        response = self.client.chat.completions.create(\n" +
		"            model=self.model,\n            messages=[\n                {\n                    \"role\": \"system\",\n" +
		"                    \"content\": \"Sys one. \"\n                    \"Sys two.\",\n                },\n" +
		"                {\"role\": \"user\", \"content\": prompt},\n            ],\n            temperature=0,\n        )\n",
	predictPath: "ANSWER_PROMPT = \"\"\"\n    FULL {{memories}}|{{question}}\n    \"\"\"\n",
	promptsPath: "ANSWER_PROMPT_GRAPH = \"\"\"{{speaker_1_graph_memories}}\"\"\"\n\nANSWER_PROMPT = \"\"\"\n    MEM {{speaker_1_user_id}} {{speaker_1_memories}}\n" +
		"    {{speaker_2_user_id}} {{speaker_2_memories}}\n    Q {{question}}\n    \"\"\"\n",
}

func standinAnswers(t *testing.T, files map[string]string) (string, lifememrel.Source) {
	t.Helper()
	dir := t.TempDir()
	src := lifememrel.Source{Name: NameMem0Eval, Repository: "example.com/standin"}
	for path, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(text))
		src.Files = append(src.Files, lifememrel.File{Path: path, Commit: strings.Repeat("0", 40), SHA256: hex.EncodeToString(sum[:]), Size: int64(len(text))})
	}
	return dir, src
}

func TestAnswerRequestsAsMem0Sends(t *testing.T) {
	dir, src := standinAnswers(t, standinAnswerFiles)
	a, err := OpenAnswers(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	zero := 0.0
	for _, tc := range []struct {
		name string
		req  func() (llm.Request, error)
		want []llm.Message
	}{
		{"rag", func() (llm.Request, error) { return a.RAGRequest("when?", "d | A: hi\n") }, []llm.Message{
			{Role: "system", Content: "Sys one. Sys two."},
			// Jinja drops the template's one trailing newline.
			{Role: "user", Content: "\nQ: when?\nC: d | A: hi\n\nShort:"}}},
		{"full", func() (llm.Request, error) { return a.FullContextRequest("who?", "all {{x}} turns") }, []llm.Message{
			{Role: "system", Content: "\n    FULL all {{x}} turns|who?\n    "}}},
		{"memories", func() (llm.Request, error) {
			return a.MemoriesRequest("what?", Speaker{Name: "Ann", Memories: []string{"likes \"tea\"", "café"}}, Speaker{Name: "Bo"})
		}, []llm.Message{{Role: "system", Content: "\n    MEM Ann [\n    \"likes \\\"tea\\\"\",\n    \"caf\\u00e9\"\n]\n    Bo []\n    Q what?\n    "}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := tc.req()
			if err != nil {
				t.Fatal(err)
			}
			if len(req.Messages) != len(tc.want) {
				t.Fatalf("messages %q, want %q", req.Messages, tc.want)
			}
			for i := range tc.want {
				if req.Messages[i] != tc.want[i] {
					t.Errorf("message %d:\n got %q\nwant %q", i, req.Messages[i], tc.want[i])
				}
			}
			if req.Params.Temperature == nil || *req.Params.Temperature != zero || req.Params.MaxTokens != 0 || req.Params.Extra != nil {
				t.Errorf("params %+v: want temperature 0 alone", req.Params)
			}
		})
	}
	if got := ReadAnswer(AnswerRAG, "  7 May \n"); got != "7 May" {
		t.Errorf("rag reply %q: want it stripped", got)
	}
	if got := ReadAnswer(AnswerFullContext, " 7 May\n"); got != " 7 May\n" {
		t.Errorf("predict reply %q: want it as sent", got)
	}
}

func TestAnswerTemplatesRefused(t *testing.T) {
	for name, edit := range map[string]func(map[string]string){
		"missing variable": func(f map[string]string) { f[predictPath] = "ANSWER_PROMPT = \"\"\"{{memories}}\"\"\"\n" },
		"statement": func(f map[string]string) {
			f[predictPath] = "ANSWER_PROMPT = \"\"\"{% if x %}{{memories}}{{question}}\"\"\"\n"
		},
		"filter":      func(f map[string]string) { f[predictPath] = "ANSWER_PROMPT = \"\"\"{{memories|e}}{{question}}\"\"\"\n" },
		"no system":   func(f map[string]string) { f[ragPath] = "PROMPT = \"\"\"{{CONTEXT}}{{QUESTION}}\"\"\"\n" },
		"file absent": func(f map[string]string) { delete(f, promptsPath) },
	} {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range standinAnswerFiles {
				files[k] = v
			}
			edit(files)
			dir, src := standinAnswers(t, files)
			if _, err := OpenAnswers(dir, src); err == nil {
				t.Fatal("opened")
			}
		})
	}
}

// TestAnswerTemplatesOfTheRealPack reads the pinned files from a fetched
// pack when MEMHARNESS_MEM0_EVAL names its folder.
func TestAnswerTemplatesOfTheRealPack(t *testing.T) {
	dir := os.Getenv("MEMHARNESS_MEM0_EVAL")
	if dir == "" {
		t.Skip("no fetched mem0-eval pack (set MEMHARNESS_MEM0_EVAL to the folder `bench data fetch mem0-eval` fills)")
	}
	a, err := OpenAnswers(dir, lifememrel.Source{})
	if err != nil {
		t.Fatal(err)
	}
	req, err := a.RAGRequest("q", "c")
	if err != nil || len(req.Messages) != 2 || !strings.HasSuffix(req.Messages[1].Content, ":") {
		t.Fatalf("rag request %q, %v", req.Messages, err)
	}
}
