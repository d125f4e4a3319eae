package external

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/memharness/memharness/datasets/behavior"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// schemas compiles docs/protocol's schemas, by file name less ".json".
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := filepath.Glob("../../docs/protocol/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in docs/protocol: %v", err)
	}
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		url := "file:///protocol/" + filepath.Base(f)
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = s
	}
	return out
}

// traffic records a session's lines, pairing each response with its
// request's method.
type traffic struct {
	mu     sync.Mutex
	lines  []string // "<method>.request" or "<method>.response", then the line
	method string
}

func (tr *traffic) tap(out bool, line []byte) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if out {
		var r struct{ Method string }
		_ = json.Unmarshal(line, &r)
		tr.method = r.Method
		tr.lines = append(tr.lines, r.Method+".request\t"+string(line))
		return
	}
	tr.lines = append(tr.lines, tr.method+".response\t"+string(bytes.TrimSpace(line)))
}

// yesModel answers every request "Yes".
type yesModel struct{ prompts []string }

func (m *yesModel) Generate(_ context.Context, req llm.Request) (llm.Response, error) {
	m.prompts = append(m.prompts, req.Messages[len(req.Messages)-1].Content)
	return llm.Response{Text: "Yes", Content: "Yes"}, nil
}

// promptMethod answers with a prompt of its own, then with its own
// answer, through the Python client of examples/.
const promptMethod = `
import sys
sys.path.insert(0, %q)
from memharness_method import Method, serve, prompt, answer

class M(Method):
    name = "asker"
    version = "2"
    def prepare(self, user):
        return {"memory": "%%d records" %% len(self.users[user]["records"]), "meta": {"seen": 1}}
    def predict(self, params):
        if params["instance"].endswith("/0/video_liked"):
            return prompt("Will the user like it? " + params["target"]["context"])
        return answer("Yes" if params["attempt"] > 0 else "unsure")

serve(M())
`

// Every message of a real session (the example truncation, and a method
// answering with its own prompts and answers, through the Python client)
// is valid under docs/protocol's schema for it.
func TestExternalPythonTrafficMatchesSchemas(t *testing.T) {
	python(t)
	sch := schemas(t)
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	asker := filepath.Join(dir, "asker.py")
	if err := os.WriteFile(asker, []byte(fmt.Sprintf(promptMethod, examples)), 0o644); err != nil {
		t.Fatal(err)
	}
	user := twoInstances()
	seen := map[string]bool{}
	for _, cmd := range [][]any{{"python3", filepath.Join(examples, "truncation.py")}, {"python3", asker}} {
		tr := &traffic{}
		session := func() *Method {
			m, err := New(predict.Spec{Name: "m", Kind: Kind, Options: map[string]any{"command": cmd, "chunk_records": 2}})
			if err != nil {
				t.Fatal(err)
			}
			x := m.(*Method)
			x.tap = tr.tap
			return x
		}
		model := &yesModel{}
		env := predict.Env{Model: model, Checkpoints: memCheckpoints{}}
		x := session()
		mem, err := x.PrepareUser(context.Background(), env, user)
		if err != nil {
			t.Fatal(err)
		}
		// The first instance in this session; the second in a resumed one,
		// which hands the saved state back.
		for i, inst := range user.Instances {
			if i == 1 {
				x.Close()
				x = session()
			}
			out, err := x.Predict(context.Background(), env, mem, inst)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Valid || out.Pred != "1" {
				t.Errorf("%v %s: %+v", cmd, inst.ID, out)
			}
		}
		if cmd[1] == asker {
			if mem.Text != "3 records" || predict.MetaInt(mem.Meta, "records") != 3 {
				t.Errorf("asker's memory: %+v", mem)
			}
			if len(model.prompts) != 1 || model.prompts[0] != "Will the user like it? another video" {
				t.Errorf("asker's own prompt did not reach the model as sent: %q", model.prompts)
			}
		}
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		for _, l := range tr.lines {
			name, line, _ := strings.Cut(l, "\t")
			s := sch[name]
			if s == nil {
				t.Errorf("no schema for %s: %s", name, line)
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(v); err != nil {
				t.Errorf("%s does not match docs/protocol/%s.json: %v\n%s", name, name, err, line)
			}
			seen[name] = true
		}
	}
	checkSeen(t, seen, behaviorMessages)
}

// The messages each family's traffic test checks; every schema in
// docs/protocol belongs to one of them.
var (
	behaviorMessages = []string{"init", "history", "prepare", "save", "load", "predict", "shutdown"}
	agentMessages    = []string{"init", "learn", "end_stage", "save", "load", "begin_task", "act", "end_task", "shutdown"}
)

// checkSeen fails for each request and response of names no traffic was
// checked against.
func checkSeen(t *testing.T, seen map[string]bool, names []string) {
	t.Helper()
	for _, name := range names {
		for _, dir := range []string{".request", ".response"} {
			if !seen[name+dir] {
				t.Errorf("no traffic checked against %s%s", name, dir)
			}
		}
	}
}

// Every schema of docs/protocol is one a traffic test checks.
func TestExternalEverySchemaIsChecked(t *testing.T) {
	known := map[string]bool{}
	for _, n := range append(append([]string{}, behaviorMessages...), agentMessages...) {
		known[n+".request"], known[n+".response"] = true, true
	}
	for name := range schemas(t) {
		if !known[name] {
			t.Errorf("docs/protocol/%s.json is checked by no traffic test", name)
		}
	}
}

// twoInstances is a user with three past records (two history chunks)
// and two test instances, the second with a test-window record before it.
func twoInstances() behavior.UserSet {
	ev := func(i int) behavior.Event {
		return behavior.Event{Time: fmt.Sprintf("t%d", i), Scene: "视频浏览", Context: fmt.Sprintf("video %d", i), Result: "watched",
			Attrs: map[string]string{"genre": "news"}, Outcomes: map[string]float64{"video_liked": 1}}
	}
	past := []behavior.Event{ev(1), ev(2), ev(3)}
	q := behavior.Question{Field: "video_liked", Kind: "binary", Label: "1"}
	return behavior.UserSet{User: "u1", Instances: []behavior.Instance{
		{ID: "ds/u1/0/video_liked", User: "u1", History: past, PracticeCut: 3, Target: behavior.Event{Time: "t4", Scene: "视频浏览", Context: "another video"}, Question: q},
		{ID: "ds/u1/1/video_liked", User: "u1", History: append(append([]behavior.Event{}, past...), ev(4)), PracticeCut: 3, Index: 1,
			Target: behavior.Event{Time: "t5", Scene: "视频浏览", Context: "a fifth video"}, Question: q},
	}}
}

// memCheckpoints keeps states in memory, as JSON.
type memCheckpoints map[string][]byte

func (c memCheckpoints) Load(user, name string, v any) (bool, error) {
	b, ok := c[user+"/"+name]
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(b, v)
}

func (c memCheckpoints) Save(user, name string, v any) error {
	b, err := json.Marshal(v)
	c[user+"/"+name] = b
	return err
}
