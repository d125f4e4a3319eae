package lifelong

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
)

func TestDecodeConfig(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the error; none means valid
	}{
		{"minimal gets defaults", "methods: [{name: react, kind: react}]\n", nil},
		{"unknown key", "methods: [{name: react, kind: react}]\nstreem: random\n", []string{"field streem not found"}},
		{"unknown method key", "methods: [{name: l, kind: lifemem, L: 10}]\n", []string{"methods[0].L: unknown field"}},
		{"bad stream", "stream: sorted\nmethods: [{name: r, kind: react}]\n", []string{`lifelong.stream: "sorted"`}},
		{"unknown env and duplicate", "envs: [alfworld, alfworld, nowhere]\nmethods: [{name: r, kind: react}]\n",
			[]string{`lifelong.envs[1]: "alfworld" is already listed in envs`, `lifelong.envs[2]: unknown environment "nowhere"`}},
		{"ood also in envs", "envs: [fever]\nood: [fever]\nmethods: [{name: r, kind: react}]\n", []string{`lifelong.ood[0]: "fever" is already listed in envs`}},
		{"max steps outside the run", "envs: [alfworld]\nmax_steps: {webshop: 3, alfworld: 0}\nmethods: [{name: r, kind: react}]\n",
			[]string{"max_steps.alfworld: 0", "max_steps.webshop: not an environment"}},
		{"no methods", "stream: random\n", []string{"lifelong.methods: empty"}},
		{"method problems", `methods:
  - {name: "", kind: react}
  - {name: a, kind: gpt}
  - {name: b, kind: synapse, tau: 0.9}
  - {name: b, kind: lifemem, tau: 1.5, split_size: 1}
  - {name: c, kind: react, top_k: 2}
  - {name: d, kind: lifemem, no_skills: true, no_trajectories: true}
`, []string{
			"methods[0].name", `methods[1].kind: "gpt"`, "methods[2].tau: not read by kind synapse (only lifemem)",
			`methods[3].name: "b" repeats methods[2]`, "methods[3].tau: 1.5", "methods[3].split_size: 1",
			"methods[4].top_k: not read by kind react", "methods[5].no_skills and no_trajectories",
		}},
		{"bad batch", "batch: -1\nmethods: [{name: r, kind: react}]\n", []string{"lifelong.batch: -1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := DecodeConfig(strings.NewReader(tc.src))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				if c.Stream != StreamSimilarity || len(c.Envs) != 10 || c.Batch != DefaultBatch {
					t.Errorf("defaults not applied: %+v", c)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// The paper configs must decode strictly, and every value their sweeps put
// into the lifelong block must validate too.
func TestPaperConfigs(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "configs", "paper", "lifemem_*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 5 {
		t.Fatalf("found %d lifemem configs, want 5", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			c, err := LoadConfigFile(p)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Sweep struct {
					Grid map[string][]any `yaml:"grid"`
				} `yaml:"sweep"`
			}
			if err := yaml.Unmarshal(src, &doc); err != nil {
				t.Fatal(err)
			}
			for key, vals := range doc.Sweep.Grid {
				if key != "lifelong.stream" {
					if strings.HasPrefix(key, "lifelong.") {
						t.Errorf("sweep key %s is not checked by this test", key)
					}
					continue
				}
				for _, v := range vals {
					c2 := c
					c2.Stream, _ = v.(string)
					if err := c2.Validate(); err != nil {
						t.Errorf("sweep value %v: %v", v, err)
					}
				}
			}
		})
	}
	if _, err := LoadConfigFile(filepath.Join("..", "configs", "paper", "omnibehavior_table1.yaml")); err == nil || !strings.Contains(err.Error(), "no lifelong: block") {
		t.Errorf("config without a lifelong block: err = %v", err)
	}
}

// PaperOrder and PaperOOD must name registered environments, in the
// registry's (stream) order.
func TestPaperNamesAreRegistered(t *testing.T) {
	var registered []string
	for _, e := range all.Entries() {
		registered = append(registered, e.Name)
	}
	for _, n := range append(PaperOrder(), PaperOOD()...) {
		if !slices.Contains(registered, n) {
			// The registry fills as environments land (alfworld, dbbench).
			t.Logf("environment %q is not registered yet (registered: %v)", n, registered)
		}
	}
	var inOrder []string
	for _, n := range registered {
		if slices.Contains(PaperOrder(), n) {
			inOrder = append(inOrder, n)
		}
	}
	want := slices.DeleteFunc(PaperOrder(), func(n string) bool { return !slices.Contains(registered, n) })
	if !slices.Equal(inOrder, want) {
		t.Errorf("registry order %v differs from the paper order %v", inOrder, want)
	}
}

func TestDescribeTestSet(t *testing.T) {
	c := Config{TestSize: map[string]int{"apibank": 262, "hotpotqa": 100, "dbbench": 50, "toolqa": 80}}
	cases := []struct {
		env            string
		n, whole       int
		official       bool
		status, inNote string
	}{
		{"apibank", 262, 300, true, "paper", "lv1-lv2-samples"},
		{"hotpotqa", 100, 7405, true, "assumed", "assumed"},
		{"dbbench", 50, 500, true, "config", "the paper gives no size"},
		{"scienceworld", 1819, 1819, true, "unknown", "not recoverable"},
		{"alfworld", 140, 140, true, "whole", "the paper's is 134"},
		{"toolqa", 60, 60, true, "paper", "only 60 tasks in the file"},
		{"apibank", 4, 9, false, "embedded", "(9 tasks), not the paper's tasks; lifelong.test_size keeps 4"},
	}
	paper := func(env string) envs.TestSetSize {
		e, err := all.Find(env)
		if err != nil {
			t.Fatal(err)
		}
		return e.PaperTestSize
	}
	cut := c
	cut.TasksPerEnv = 10
	if got := cut.DescribeTestSet("apibank", paper("apibank"), 262, 300, true); got.Tasks != 10 || !strings.Contains(got.Note, "only the first 10 of these 262") {
		t.Errorf("tasks_per_env cut: %+v", got)
	}
	for _, tc := range cases {
		got := c.DescribeTestSet(tc.env, paper(tc.env), tc.n, tc.whole, tc.official)
		if got.Status != tc.status || !strings.Contains(got.Note, tc.inNote) || got.Tasks != tc.n {
			t.Errorf("%s (%d of %d): %+v; want status %s, note with %q", tc.env, tc.n, tc.whole, got, tc.status, tc.inNote)
		}
	}
}
