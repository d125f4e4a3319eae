package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	vs, err := Options{Getenv: noEnv}.Expand("testdata/sweep.yaml", []string{"dataset.max_users=3"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		c := v.Config
		if c.Sweep != nil {
			t.Errorf("%s: expanded config still has a sweep", v.Name)
		}
		if c.Dataset.MaxUsers != 3 {
			t.Errorf("%s: --set not applied: max_users = %d", v.Name, c.Dataset.MaxUsers)
		}
		got = append(got, fmt.Sprintf("%s model=%s ht=%d temp=%v",
			v.Name, c.Backbone.Model, c.Methods[1].HistoryTokens, *c.Backbone.Params.Temperature))
	}
	want := []string{
		"gpt-oss__history_tokens=4000__temperature=0 model=gpt-oss-120b ht=4000 temp=0",
		"gpt-oss__history_tokens=4000__temperature=0.7 model=gpt-oss-120b ht=4000 temp=0.7",
		"gpt-oss__history_tokens=16000__temperature=0 model=gpt-oss-120b ht=16000 temp=0",
		"gpt-oss__history_tokens=16000__temperature=0.7 model=gpt-oss-120b ht=16000 temp=0.7",
		"qwen__history_tokens=4000__temperature=0 model=qwen3.5-35b-a3b ht=4000 temp=0",
		"qwen__history_tokens=4000__temperature=0.7 model=qwen3.5-35b-a3b ht=4000 temp=0.7",
		"qwen__history_tokens=16000__temperature=0 model=qwen3.5-35b-a3b ht=16000 temp=0",
		"qwen__history_tokens=16000__temperature=0.7 model=qwen3.5-35b-a3b ht=16000 temp=0.7",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got)\n%s", diff)
	}

	// Variants are independent: every hash differs.
	hashes := map[string]bool{}
	for _, v := range vs {
		h, err := v.Config.Hash()
		if err != nil {
			t.Fatal(err)
		}
		hashes[h] = true
	}
	if len(hashes) != len(vs) {
		t.Errorf("%d distinct hashes for %d variants", len(hashes), len(vs))
	}

	// Load gives the base config and says a sweep exists.
	base, err := Options{Getenv: noEnv}.Load("testdata/sweep.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if base.Sweep == nil || base.Sweep.Len() != len(vs) {
		t.Errorf("base Sweep = %v, want Len %d", base.Sweep, len(vs))
	}
	if base.Backbone.Model != "sim" || base.Methods[1].HistoryTokens != 8000 {
		t.Errorf("base config got sweep values: model=%s ht=%d", base.Backbone.Model, base.Methods[1].HistoryTokens)
	}
}

func TestExpandNames(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"minimal", []string{""}},
		{"sweep_twomethods", []string{
			"methods0.history_tokens=1000__methods1.history_tokens=2000__base_urls=http_a_8000_v1_http_b_8000_v1",
			"methods0.history_tokens=1000__methods1.history_tokens=4000__base_urls=http_a_8000_v1_http_b_8000_v1",
		}},
	}
	for _, tt := range tests {
		vs, err := Options{Getenv: noEnv}.Expand("testdata/"+tt.file+".yaml", nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: names (-want +got)\n%s", tt.file, diff)
		}
	}
}

func TestExpandVariantsOnly(t *testing.T) {
	text := "methods: [{kind: rag}]\nsweep:\n  variants:\n    - {name: a, set: {seed: 1}}\n    - {name: b, set: {seed: 2}}\n"
	vs, err := Options{Getenv: noEnv}.Expand(writeConfig(t, text), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].Name != "a" || vs[0].Config.Seed != 1 || vs[1].Name != "b" || vs[1].Config.Seed != 2 {
		t.Errorf("got %+v", vs)
	}
}

func TestExpandErrors(t *testing.T) {
	tests := []struct {
		file string
		sets []string
		want []string
	}{
		{"sweep_badvalue", nil, []string{
			`sweep variant "top_k=many": testdata/sweep_badvalue.yaml:5: methods[0].top_k: cannot use "many" as an integer`,
		}},
		{"sweep_conflict", nil, []string{
			`testdata/sweep_conflict.yaml:9: variant "a" key methods[0] overlaps grid key methods[0].top_k (testdata/sweep_conflict.yaml:5)`,
		}},
		{"sweep", []string{"methods[1].history_tokens=3", "backbone.model=x"}, []string{
			`testdata/sweep.yaml:10: grid key methods[1].history_tokens is also set by --set methods[1].history_tokens=3`,
			`testdata/sweep.yaml:14: variant "gpt-oss" key backbone.model is also set by --set backbone.model=x`,
			`testdata/sweep.yaml:17: variant "qwen" key backbone.model is also set by --set backbone.model=x`,
		}},
		{"sweep", []string{"methods[1].kind=nope"}, []string{
			`sweep variant "gpt-oss__history_tokens=4000__temperature=0": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "gpt-oss__history_tokens=4000__temperature=0.7": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "gpt-oss__history_tokens=16000__temperature=0": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "gpt-oss__history_tokens=16000__temperature=0.7": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "qwen__history_tokens=4000__temperature=0": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "qwen__history_tokens=4000__temperature=0.7": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "qwen__history_tokens=16000__temperature=0": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
			`sweep variant "qwen__history_tokens=16000__temperature=0.7": --set methods[1].kind=nope: methods[1].kind: unknown method kind "nope" (want external, long_context, mcp_memory, mem0, memos, pramem, proex, rag, summary, truncation)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file+strings.Join(tt.sets, ","), func(t *testing.T) {
			vs, err := Options{Getenv: noEnv}.Expand("testdata/"+tt.file+".yaml", tt.sets)
			if vs != nil {
				t.Errorf("got variants along with the error")
			}
			wantErr(t, err, tt.want...)
		})
	}
}

func TestExpandInlineErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"empty sweep", "methods: [{kind: rag}]\nsweep: {}\n", []string{`CFG:2: sweep: is empty; give a grid or variants`}},
		{"grid value not a list", "methods: [{kind: rag}]\nsweep:\n  grid:\n    seed: 3\n", []string{
			`CFG:4: sweep.grid.seed: want a non-empty list of values, not "3"`,
		}},
		{"overlapping grid keys", "methods: [{kind: rag}]\nsweep:\n  grid:\n    backbone.params: [{}]\n    backbone.params.top_p: [0.5]\n", []string{
			`CFG:5: grid key backbone.params.top_p overlaps grid key backbone.params (CFG:4)`,
		}},
		{"same name twice", "methods: [{kind: rag}]\nsweep:\n  grid:\n    backbone.model: [a/b, a_b]\n", []string{
			`CFG: two sweep variants are both named "model=a_b"; make values or variant names distinct`,
		}},
		{"two sweeps", "methods: [{kind: rag}]\nsweep: {grid: {seed: [1]}}\nsweep: {grid: {seed: [2]}}\n", []string{
			`CFG:3: duplicate key "sweep" in the config (first at CFG:2)`,
		}},
		{"not a mapping", "methods: [{kind: rag}]\nsweep: [1]\n", []string{`CFG:2: sweep: want a mapping with grid and/or variants, not a list`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.text)
			_, err := Options{Getenv: noEnv}.Expand(path, nil)
			if err != nil {
				err = errorString(strings.ReplaceAll(err.Error(), path, "CFG"))
			}
			wantErr(t, err, tt.want...)
		})
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"gpt-oss-120b", "gpt-oss-120b"},
		{"http://a:8000/v1", "http_a_8000_v1"},
		{"0.7", "0.7"},
		{"", "empty"},
		{"中文", "empty"},
		{"a b", "a_b"},
		{"x/", "x"},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	long := joinName([]string{strings.Repeat("a", 100), strings.Repeat("b", 100)})
	if len(long) > 150 || !strings.HasPrefix(long, strings.Repeat("a", 100)) {
		t.Errorf("joinName long = %q (%d bytes)", long, len(long))
	}
}

// A grid that multiplies out past MaxVariants is refused before any
// variant is built (a million would exhaust memory).
func TestExpandRefusesHugeSweeps(t *testing.T) {
	var vals []string
	for i := range 100 {
		vals = append(vals, fmt.Sprint(1000+i))
	}
	list := "[" + strings.Join(vals, ", ") + "]"
	path := writeConfig(t, "methods: [{kind: rag}]\nsweep:\n  grid:\n    methods[0].history_tokens: "+list+
		"\n    methods[0].top_k: "+list+"\n    dataset.max_users: "+list+"\n")
	_, err := Options{Getenv: noEnv}.Expand(path, nil)
	if err == nil || !strings.Contains(err.Error(), "1000000 variants") || !strings.Contains(err.Error(), "sweep") {
		t.Errorf("a sweep of a million variants: %v", err)
	}
}
