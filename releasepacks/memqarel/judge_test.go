package memqarel

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/memharness/memharness/llm"
)

var update = flag.Bool("update", false, "rewrite testdata/own_templates.json (then rerun testdata/capture.py)")

// The goldens in testdata/golden/judges.json are written by
// testdata/capture.py, which runs mem0's evaluate_llm_judge and
// LongMemEval's evaluate_qa.py with a fake OpenAI client on
// testdata/judge_inputs.json: their bodies with our wording in place of
// theirs ("own") in full, with theirs ("release") as SHA-256 and length of
// each message, and their reading of a corpus of replies.

type judgeInputs struct {
	LoCoMo []struct {
		Question, Gold, Generated string
	} `json:"locomo"`
	LongMemEval []struct {
		QuestionType string          `json:"question_type"`
		QuestionID   string          `json:"question_id"`
		Question     string          `json:"question"`
		Answer       json.RawMessage `json:"answer"`
		Hypothesis   string          `json:"hypothesis"`
	} `json:"longmemeval"`
	LoCoMoReplies      []string `json:"locomo_replies"`
	LongMemEvalReplies []string `json:"longmemeval_replies"`
}

type judgeGolden struct {
	Mem0, LongMemEval struct {
		Release []map[string]any
		Own     []map[string]any
		Replies []struct {
			Label any
			Error string
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// pyStr is Python's str() of a JSON string or number as the judge script
// formats it.
func pyStr(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// TestOwnTemplatesFile keeps testdata/own_templates.json (what capture.py
// swaps in for the sources' texts) equal to Own().
func TestOwnTemplatesFile(t *testing.T) {
	own := Own()
	want := map[string]any{"locomo": own.mem0, "longmemeval": own.lme[:]}
	b, _ := json.MarshalIndent(want, "", " ")
	b = append(b, '\n')
	path := filepath.Join("testdata", "own_templates.json")
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(b) {
		t.Fatalf("%s differs from Own(): run go test -update, then testdata/capture.py", path)
	}
}

// wire sends each request through the OpenAI client to a local server and
// returns the bodies it received.
func wire(t *testing.T, model string, reqs []llm.Request) []map[string]any {
	t.Helper()
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(b, &body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"yes"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	m, err := llm.NewOpenAI(llm.EndpointConfig{BaseURL: srv.URL, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reqs {
		if _, err := m.Generate(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	return bodies
}

// digestMessages replaces each message's content by its SHA-256 and
// length in characters, as capture.py writes the release bodies.
func digestMessages(body map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range body {
		out[k] = v
	}
	var msgs []any
	for _, m := range body["messages"].([]any) {
		mm := m.(map[string]any)
		c := mm["content"].(string)
		sum := sha256.Sum256([]byte(c))
		msgs = append(msgs, map[string]any{"role": mm["role"], "content_sha256": hex.EncodeToString(sum[:]),
			"content_chars": float64(utf8.RuneCountInString(c))})
	}
	out["messages"] = msgs
	return out
}

func requests(t *testing.T, j *Judges, in judgeInputs) (loc, lme []llm.Request) {
	for _, c := range in.LoCoMo {
		r, err := j.LoCoMoRequest(c.Question, c.Gold, c.Generated)
		if err != nil {
			t.Fatal(err)
		}
		loc = append(loc, r)
	}
	for _, c := range in.LongMemEval {
		r, err := j.LongMemEvalRequest(c.QuestionType, c.QuestionID, c.Question, pyStr(c.Answer), c.Hypothesis)
		if err != nil {
			t.Fatal(err)
		}
		lme = append(lme, r)
	}
	return loc, lme
}

func compareBodies(t *testing.T, what string, got, want []map[string]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d bodies, golden %d", what, len(got), len(want))
	}
	for i := range got {
		// Round-trip both through JSON so numbers compare alike.
		var g, w any
		gb, _ := json.Marshal(got[i])
		wb, _ := json.Marshal(want[i])
		_ = json.Unmarshal(gb, &g)
		_ = json.Unmarshal(wb, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s %d:\n got  %s\n want %s", what, i, gb, wb)
		}
	}
}

func TestOwnWordingBodiesMatchSourcesCode(t *testing.T) {
	var in judgeInputs
	readJSON(t, filepath.Join("testdata", "judge_inputs.json"), &in)
	var g judgeGolden
	readJSON(t, filepath.Join("testdata", "golden", "judges.json"), &g)
	loc, lme := requests(t, Own(), in)
	compareBodies(t, "mem0 judge body", wire(t, Mem0JudgeModel, loc), g.Mem0.Own)
	compareBodies(t, "LongMemEval judge body", wire(t, LongMemEvalJudgeGPT4o, lme), g.LongMemEval.Own)
}

// TestReleaseBodiesMatchSourcesCode builds the requests from the pinned
// sources themselves when a copy is at hand (MEMHARNESS_MEMQA_RELEASE:
// the folder `bench data fetch mem0-eval` and `longmemeval-eval` fill,
// holding mem0-eval/ and longmemeval-eval/).
func TestReleaseBodiesMatchSourcesCode(t *testing.T) {
	root := os.Getenv("MEMHARNESS_MEMQA_RELEASE")
	if root == "" {
		t.Skip("needs the judges' pinned sources: set MEMHARNESS_MEMQA_RELEASE to the folder where 'bench data fetch mem0-eval' and 'bench data fetch longmemeval-eval' put them")
	}
	j, err := Open(filepath.Join(root, NameMem0Eval), filepath.Join(root, NameLongMemEvalEval))
	if err != nil {
		t.Fatal(err)
	}
	var in judgeInputs
	readJSON(t, filepath.Join("testdata", "judge_inputs.json"), &in)
	var g judgeGolden
	readJSON(t, filepath.Join("testdata", "golden", "judges.json"), &g)
	loc, lme := requests(t, j, in)
	var gl, gm []map[string]any
	for _, b := range wire(t, Mem0JudgeModel, loc) {
		gl = append(gl, digestMessages(b))
	}
	for _, b := range wire(t, LongMemEvalJudgeGPT4o, lme) {
		gm = append(gm, digestMessages(b))
	}
	compareBodies(t, "mem0 judge body (release)", gl, g.Mem0.Release)
	compareBodies(t, "LongMemEval judge body (release)", gm, g.LongMemEval.Release)
}

func TestRepliesReadAsSourcesRead(t *testing.T) {
	var in judgeInputs
	readJSON(t, filepath.Join("testdata", "judge_inputs.json"), &in)
	var g judgeGolden
	readJSON(t, filepath.Join("testdata", "golden", "judges.json"), &g)
	if len(g.Mem0.Replies) != len(in.LoCoMoReplies) || len(g.LongMemEval.Replies) != len(in.LongMemEvalReplies) {
		t.Fatal("reply goldens out of step with judge_inputs.json: rerun capture.py")
	}
	for i, reply := range in.LoCoMoReplies {
		want := g.Mem0.Replies[i]
		got, err := ReadLoCoMoVerdict(reply)
		switch {
		case want.Error != "":
			if !errors.Is(err, ErrJudgeReply) {
				t.Errorf("mem0 reply %q: got %v, %v; the source raises %s", reply, got, err, want.Error)
			}
		case err != nil:
			t.Errorf("mem0 reply %q: %v; the source reads label %v", reply, err, want.Label)
		case got != (want.Label == float64(1)):
			t.Errorf("mem0 reply %q: correct=%v; the source's label %v", reply, got, want.Label)
		}
	}
	for i, reply := range in.LongMemEvalReplies {
		if got, want := ReadLongMemEvalVerdict(reply), g.LongMemEval.Replies[i].Label == true; got != want {
			t.Errorf("LongMemEval reply %q: %v; the source reads %v", reply, got, want)
		}
	}
}

func TestExtractJSONShapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"```json\n{\"a\":1}\n```", "{\"a\":1}"},
		{"``` \n x \n ```", "x"},
		{"no fence {\"a\": {\"b\": 2}} tail }", "{\"a\": {\"b\": 2}} tail }"},
		{"plain", "plain"},
		{"} before {", "} before {"},
		{"```json```", ""},
	}
	for _, c := range cases {
		if got := ExtractJSON(c.in); got != c.want {
			t.Errorf("ExtractJSON(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLongMemEvalUnknownType(t *testing.T) {
	if _, err := Own().LongMemEvalRequest("open-domain", "q1", "q", "a", "r"); err == nil || !strings.Contains(err.Error(), "no prompt") {
		t.Errorf("unknown type: %v", err)
	}
	// Abstention never reads the type, as in the source.
	if _, err := Own().LongMemEvalRequest("open-domain", "q1_abs", "q", "a", "r"); err != nil {
		t.Errorf("abstention with an unknown type: %v", err)
	}
}
