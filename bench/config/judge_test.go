package config

import (
	"reflect"
	"testing"
)

func TestJudgeErrors(t *testing.T) {
	tests := []struct {
		file string
		sets []string
		want []string
	}{
		{"judge_bad", nil, []string{
			`testdata/judge_bad.yaml:4: judge.kind: unknown value "opnai" (want backbone, sim, openai)`,
			`testdata/judge_bad.yaml:5: judge.prompt: unknown value "harsh" (want own, release, strict, lenient)`,
			`testdata/judge_bad.yaml:6: judge.params.temperature: must be between 0 and 2, got 3`,
			`testdata/judge_bad.yaml:8: judge.compare[0].name: every compared judge needs a name (it labels the sensitivity table)`,
			`testdata/judge_bad.yaml:8: judge.compare[0].model: is read only by an openai judge (kind is sim)`,
			`testdata/judge_bad.yaml:9: judge.compare[1].name: "a/b" is not a safe name (use letters, digits, '.', '_' and '-')`,
			`testdata/judge_bad.yaml:11: judge.compare[3].name: "lenient" names two compared judges`,
			`testdata/judge_bad.yaml:11: judge.compare[3].base_urls[0]: want an http(s) URL, got "ftp://x"`,
		}},
		{"minimal", []string{"judge.kind=sim"}, []string{
			`--set judge.kind=sim: judge: task movielens has no judge (the conversational-memory tasks locomo and longmemeval have one)`,
		}},
		{"minimal", []string{"judge.modle=x"}, []string{
			`--set judge.modle=x: unknown field "modle" in judge (did you mean "model"?)`,
		}},
		{"judge_ok", []string{"backbone.kind=sim", "backbone.base_urls=[]", "judge.model=", "judge.base_urls=[]"}, []string{
			`--set judge.model=: judge.model: an openai judge needs a model (the backbone is sim and names none to share)`,
			`--set judge.base_urls=[]: judge.base_urls: an openai judge needs base_urls (the backbone is sim and has none to share)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := Options{Getenv: noEnv}.Load("testdata/"+tt.file+".yaml", tt.sets)
			wantErr(t, err, tt.want...)
		})
	}
}

func TestJudgesResolve(t *testing.T) {
	cfg, err := Options{Getenv: noEnv}.Load("testdata/judge_ok.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.Judges()
	want := []JudgeSpec{
		{Kind: "openai", Model: "gpt-4o-2024-08-06", BaseURLs: []string{"http://judge.example/v1"}, Prompt: "release"},
		{Name: "mini", Kind: "openai", Model: "gpt-4o-mini-2024-07-18", BaseURLs: []string{"http://judge.example/v1"}, Prompt: "release"},
		{Name: "strict", Kind: "openai", Model: "gpt-4o-2024-08-06", BaseURLs: []string{"http://judge.example/v1"}, Prompt: "strict"},
		{Name: "sim", Kind: "sim", Prompt: "release"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Judges() =\n%+v\nwant\n%+v", got, want)
	}
	if l := got[0].Label(); l != "openai gpt-4o-2024-08-06 judge (release prompt)" {
		t.Errorf("label %q", l)
	}
	// Where a judge is served is outside the hash; its model is in it.
	h1, _ := cfg.Hash()
	cfg.Judge.BaseURLs = []string{"http://elsewhere.example/v1"}
	h2, _ := cfg.Hash()
	cfg.Judge.Compare[0].Model = "gpt-4o"
	h3, _ := cfg.Hash()
	if h1 != h2 || h2 == h3 {
		t.Errorf("hash: endpoint move changed it (%v) or model change did not (%v)", h1 != h2, h2 == h3)
	}
	// No judge section: the backbone judges in the prompts setting's wording.
	min, err := Options{Getenv: noEnv}.Load("testdata/minimal.yaml", []string{"prompts=release"})
	if err != nil {
		t.Fatal(err)
	}
	if js := min.Judges(); len(js) != 1 || js[0].Label() != "backbone judge (release prompt)" {
		t.Errorf("default judges %+v", js)
	}
}
