package trajectories_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memharness/memharness/datasets/trajectories"
	"github.com/memharness/memharness/internal/testfixture"
	"github.com/memharness/memharness/llm"
)

// lifememTags are the release's file tags the environments' entries
// declare (envs/all's TestFileTags checks the same table).
var lifememTags = trajectories.Tags{
	"lifelong": "dbbench", "lifelongagentbench": "dbbench", "lab": "dbbench", "db": "dbbench",
	"taubench": "taubench-retail", "tau": "taubench-retail", "tau-retail": "taubench-retail", "retail": "taubench-retail",
	"airline": "taubench-airline", "tau-airline": "taubench-airline",
	"sciworld": "scienceworld", "science": "scienceworld",
}

func TestEnvFromFile(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"train_toolqa.jsonl", "toolqa"},
		{"/data/lifemem/trainset/train_hotpotqa.jsonl", "hotpotqa"},
		{"train_lifelong.jsonl", "dbbench"},
		{"train_taubench.jsonl", "taubench-retail"},
		{"train_scienceworld.jsonl (prefix: first 7 messages of record 1)", "scienceworld"},
		{"samples.jsonl", ""},
		{"train_.jsonl", ""},
		{"train_x.json", ""},
	} {
		if got := trajectories.EnvFromFile(c.name, lifememTags); got != c.want {
			t.Errorf("EnvFromFile(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestRead(t *testing.T) {
	msgs := `[{"role":"user","content":"q"},{"role":"assistant","content":"Finish[a]"}]`
	for _, c := range []struct {
		name, env, in string
		want          []trajectories.Trajectory
		err           string
	}{
		{name: "generated ids", env: "toolqa",
			in: `{"task":"q","messages":` + msgs + "}\n\n" + `{"task":"r","messages":` + msgs + "}\n",
			want: []trajectories.Trajectory{
				{ID: "toolqa_000000", Env: "toolqa", Task: "q", Messages: []llm.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: "Finish[a]"}}, Success: true},
				{ID: "toolqa_000002", Env: "toolqa", Task: "r", Messages: []llm.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: "Finish[a]"}}, Success: true},
			}},
		{name: "own id, env and success", in: `{"task_id":"x_9","env":"lifelong","task":"","messages":` + msgs + `,"success":false}`,
			want: []trajectories.Trajectory{{ID: "x_9", Env: "dbbench", Task: "q", Messages: []llm.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: "Finish[a]"}}}}},
		{name: "env from source_file", in: `{"source_file":"train_apibank.jsonl","task":"t","messages":` + msgs + `}`,
			want: []trajectories.Trajectory{{ID: "apibank_000000", Env: "apibank", Task: "t", Messages: []llm.Message{{Role: "user", Content: "q"}, {Role: "assistant", Content: "Finish[a]"}}, Success: true}}},
		{name: "no env", in: `{"task":"t","messages":` + msgs + `}`, err: "f.jsonl:1: no environment"},
		{name: "bad json", env: "toolqa", in: "{\"task\":\"t\",\"messages\":" + msgs + "}\n{oops", err: "f.jsonl:2: not a trajectory object"},
		{name: "bad role", env: "toolqa", in: `{"task":"t","messages":[{"role":"tool","content":"x"}]}`, err: "f.jsonl:1: field messages[0].role"},
		{name: "no messages", env: "toolqa", in: `{"task":"t","messages":[]}`, err: "f.jsonl:1: field messages: empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := trajectories.Read(strings.NewReader(c.in), "f.jsonl", c.env, lifememTags)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	in := []trajectories.Trajectory{{ID: "a_1", Env: "webshop", Task: "buy <boots> & socks", Success: true, Difficulty: 2,
		Messages: []llm.Message{{Role: "user", Content: "obs"}, {Role: "assistant", Content: "click[Buy Now]"}}}}
	var buf bytes.Buffer
	if err := trajectories.Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	out, err := trajectories.Read(&buf, "mem", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip: %+v != %+v", out, in)
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "train_hotpotqa.jsonl")
	if err := os.WriteFile(path, []byte(`{"task":"q","messages":[{"role":"user","content":"q"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := trajectories.Load(path, "", lifememTags)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Env != "hotpotqa" || got[0].ID != "hotpotqa_000000" {
		t.Errorf("got %+v", got)
	}
	if _, err := trajectories.Load(filepath.Join(t.TempDir(), "missing.jsonl"), "x", nil); err == nil {
		t.Error("missing file: no error")
	}
}

// TestSharedSamples reads the LifeMem trainset lines transcribed into the
// shared fixtures (each names its source file, hence its environment).
func TestSharedSamples(t *testing.T) {
	path := filepath.Join(testfixture.Need(t, "envs/lifemem_trainset_samples", "samples.jsonl"), "samples.jsonl")
	trs, err := trajectories.Load(path, "", lifememTags)
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) != 9 {
		t.Fatalf("%d trajectories, want 9", len(trs))
	}
	envs := map[string]int{}
	for i, tr := range trs {
		envs[tr.Env]++
		if tr.Task == "" || len(tr.Messages) < 2 || !tr.Success {
			t.Errorf("line %d: %+v", i+1, tr)
		}
		if want := fmt.Sprintf("%s_%06d", tr.Env, i); tr.ID != want {
			t.Errorf("line %d: id %q, want %q", i+1, tr.ID, want)
		}
		if tr.Messages[1].Role != "assistant" {
			t.Errorf("line %d: second message is %q", i+1, tr.Messages[1].Role)
		}
	}
	for _, e := range []string{"toolqa", "apibank", "miniwob", "dbbench", "hotpotqa", "taubench-retail", "scienceworld", "mind2web"} {
		if envs[e] == 0 {
			t.Errorf("no %s trajectory (got %v)", e, envs)
		}
	}
}
