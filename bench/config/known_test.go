package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/methods/registry"
)

// TestLoadKnownKinds: a kind or environment a run's registries know
// validates; an unknown one is still placed at file:line and listed
// against what the registries know.
func TestLoadKnownKinds(t *testing.T) {
	const predictCfg = `name: k
task: movielens
dataset: {name: movielens, synthetic: {users: 4, movies: 100, seed: 1}}
backbone: {kind: sim}
methods:
  - {name: mine, kind: KIND}
`
	const lifememCfg = `name: k
task: lifemem
backbone: {kind: sim}
lifelong:
  envs: [toolqa, ENV]
  methods:
    - {name: mine, kind: KIND}
`
	type notesOptions struct {
		Keep int `yaml:"keep"`
	}
	notes := registry.Default()
	notes.Register(predict.Entry{Kind: "notes", Keys: []string{"history_tokens"}, Options: notesOptions{}})
	withNotes := Known{Methods: notes}
	tips := lifelong.DefaultMethods()
	tips.Register(agent.Entry{Kind: "tips", Options: notesOptions{}})
	withTips := Known{Lifelong: lifelong.Known{
		Methods: tips,
		Envs:    append(append(lifelong.PaperOrder(), lifelong.PaperOOD()...), "lamps"),
	}}
	tests := []struct {
		name, cfg string
		known     Known
		want      string // "" = valid
	}{
		{"registered prediction kind", strings.ReplaceAll(predictCfg, "KIND", "notes"), withNotes, ""},
		{"built-ins only", strings.ReplaceAll(predictCfg, "KIND", "notes"), Known{},
			`k.yaml:6: methods[0].kind: unknown method kind "notes" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`},
		{"typo lists the registered kind", strings.ReplaceAll(predictCfg, "KIND", "notse"), withNotes,
			`k.yaml:6: methods[0].kind: unknown method kind "notse" (want external, long_context, mcp_memory, mem0, memos, notes, pramem, proex, rag, summary, truncation)`},
		{"a kind's own option", strings.ReplaceAll(predictCfg, "kind: KIND", "kind: notes, keep: 20"), withNotes, ""},
		{"a kind's own option misspelt", strings.ReplaceAll(predictCfg, "kind: KIND", "kind: notes, kep: 20"), withNotes,
			`k.yaml:6: unknown field "kep" in methods[0] (did you mean "keep"?)`},
		{"a kind's own option ill-typed", strings.ReplaceAll(predictCfg, "kind: KIND", "kind: notes, keep: many"), withNotes,
			`k.yaml:6: methods[0].keep: cannot use "many" as an integer`},
		{"another kind's option", strings.ReplaceAll(predictCfg, "kind: KIND", "kind: truncation, keep: 20"), withNotes,
			`k.yaml:6: unknown field "keep" in methods[0]`},
		{"a shared key the kind does not read", strings.ReplaceAll(predictCfg, "kind: KIND", "kind: notes, top_k: 3"), withNotes,
			`methods[0].top_k: is not used by kind "notes"`},
		{"an agent kind's own option", strings.NewReplacer("KIND", "tips, keep: 3", "ENV", "lamps").Replace(lifememCfg), withTips, ""},
		{"an agent kind's own option misspelt", strings.NewReplacer("KIND", "tips, keeep: 3", "ENV", "lamps").Replace(lifememCfg), withTips,
			`k.yaml:7: unknown field "keeep" in lifelong.methods[0] (did you mean "keep"?)`},
		{"an agent knob the kind does not read", strings.NewReplacer("KIND", "synapse, tau: 0.5", "ENV", "lamps").Replace(lifememCfg), withTips,
			`lifelong.methods[0].tau: not read by kind synapse (only lifemem)`},
		{"registered agent kind and environment", strings.NewReplacer("KIND", "tips", "ENV", "lamps").Replace(lifememCfg), withTips, ""},
		{"agent built-ins only", strings.NewReplacer("KIND", "tips", "ENV", "lamps").Replace(lifememCfg), Known{},
			`lifelong.envs[1]: unknown environment "lamps"`},
		{"agent kind typo", strings.NewReplacer("KIND", "tipz", "ENV", "lamps").Replace(lifememCfg), withTips,
			`lifelong.methods[0].kind: "tipz" is not one of react, synapse, expel, autoskill, lifemem, external, mcp_memory, tips`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.yaml")
			if err := os.WriteFile(path, []byte(tc.cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Options{Getenv: noEnv, Known: tc.known}.Load(path, nil)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("want valid, got %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v\nwant an error containing %s", err, tc.want)
			}
		})
	}
}

// TestSetKindOption: a kind's own option can be set from the command line
// (and so swept), and a misspelt one is reported at the flag.
func TestSetKindOption(t *testing.T) {
	type notesOptions struct {
		Keep int `yaml:"keep"`
	}
	reg := registry.Default()
	reg.Register(predict.Entry{Kind: "notes", Options: notesOptions{}})
	path := filepath.Join(t.TempDir(), "k.yaml")
	cfg := "name: k\ntask: movielens\ndataset: {name: movielens, synthetic: {users: 4, movies: 100, seed: 1}}\n" +
		"backbone: {kind: sim}\nmethods:\n  - {name: mine, kind: notes}\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Getenv: noEnv, Known: Known{Methods: reg}}
	c, err := o.Load(path, []string{"methods[0].keep=20"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := predict.OptionsOf[notesOptions](c.Methods[0])
	if err != nil || got.Keep != 20 {
		t.Errorf("keep = %d (%v), want 20 from --set", got.Keep, err)
	}
	_, err = o.Load(path, []string{"methods[0].kep=20"})
	want := `--set methods[0].kep=20: unknown field "kep" in methods[0] (did you mean "keep"?)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
	_, err = o.Load(path, []string{"methods[0].histroy_tokens=20"})
	if err == nil || !strings.Contains(err.Error(), `did you mean "history_tokens"?`) {
		t.Errorf("a misspelt shared key: %v", err)
	}
}

// TestSweepKindOption: a sweep varies a kind's own option like any key:
// one variant per value, named by it, each decoded by the kind; a misspelt
// option is reported at the sweep's line with the kind's own keys as
// suggestions, for prediction and agent kinds alike.
func TestSweepKindOption(t *testing.T) {
	type notesOptions struct {
		Keep int `yaml:"keep"`
	}
	reg := registry.Default()
	reg.Register(predict.Entry{Kind: "notes", Keys: []string{"history_tokens"}, Options: notesOptions{}})
	tips := lifelong.DefaultMethods()
	tips.Register(agent.Entry{Kind: "tips", Options: notesOptions{}})
	o := Options{Getenv: noEnv, Known: Known{Methods: reg, Lifelong: lifelong.Known{Methods: tips}}}
	const predictCfg = `name: k
task: movielens
dataset: {name: movielens, synthetic: {users: 4, movies: 100, seed: 1}}
backbone: {kind: sim}
methods:
  - {name: base, kind: truncation}
  - {name: mine, kind: notes, keep: 20}
sweep:
  grid:
    KEY: [10, 20, 40]
`
	const agentCfg = `name: k
task: lifemem
backbone: {kind: sim}
lifelong:
  envs: [toolqa]
  methods:
    - {name: mine, kind: tips}
sweep:
  grid:
    KEY: [1, 2]
`
	write := func(t *testing.T, body string) string {
		path := filepath.Join(t.TempDir(), "k.yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	keeps := func(t *testing.T, vs []Variant, of func(*Config) (int, error)) []string {
		var out []string
		for _, v := range vs {
			k, err := of(v.Config)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s:%d", v.Name, k))
		}
		return out
	}
	t.Run("prediction kind", func(t *testing.T) {
		vs, err := o.Expand(write(t, strings.ReplaceAll(predictCfg, "KEY", "methods[1].keep")), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := keeps(t, vs, func(c *Config) (int, error) {
			op, err := predict.OptionsOf[notesOptions](c.Methods[1])
			return op.Keep, err
		})
		if want := []string{"keep=10:10", "keep=20:20", "keep=40:40"}; !slices.Equal(got, want) {
			t.Errorf("variants %v, want %v", got, want)
		}
		hashes := map[string]bool{}
		for _, v := range vs {
			h, err := v.Config.Hash()
			if err != nil {
				t.Fatal(err)
			}
			hashes[h] = true
		}
		if len(hashes) != 3 {
			t.Errorf("%d distinct config hashes over 3 values of keep, want 3", len(hashes))
		}
	})
	t.Run("agent kind", func(t *testing.T) {
		vs, err := o.Expand(write(t, strings.ReplaceAll(agentCfg, "KEY", "lifelong.methods[0].keep")), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := keeps(t, vs, func(c *Config) (int, error) {
			op, err := agent.OptionsOf[notesOptions](c.Lifelong.Methods[0])
			return op.Keep, err
		})
		if want := []string{"keep=1:1", "keep=2:2"}; !slices.Equal(got, want) {
			t.Errorf("variants %v, want %v", got, want)
		}
	})
	for _, tc := range []struct{ name, cfg, key, want string }{
		{"misspelt prediction option", predictCfg, "methods[1].kep",
			`k.yaml:10: sweep key "methods[1].kep": unknown field "kep" in methods[1] (did you mean "keep"?)`},
		{"another kind's option", predictCfg, "methods[0].keep",
			`k.yaml:10: sweep key "methods[0].keep": unknown field "keep" in methods[0]`},
		{"ill-typed value", strings.ReplaceAll(predictCfg, "[10, 20, 40]", "[10, many]"), "methods[1].keep",
			`k.yaml:10: methods[1].keep: cannot use "many" as an integer`},
		{"misspelt agent option", agentCfg, "lifelong.methods[0].keeep",
			`k.yaml:10: sweep key "lifelong.methods[0].keeep": unknown field "keeep" in lifelong.methods[0] (did you mean "keep"?)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := o.Expand(write(t, strings.ReplaceAll(tc.cfg, "KEY", tc.key)), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v\nwant an error containing %s", err, tc.want)
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != 1 {
				t.Errorf("%d errors, want the one:\n%v", n, err)
			}
		})
	}
}
