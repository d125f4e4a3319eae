package pramem

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseProposals(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"valid", "任务1：偏差\n【提议】 直播间 | add Pattern | 手工直播常送礼\n  【提议】  视频 | add Calibration | 别过度相信最近的点赞  \n", []string{"直播间 | add Pattern | 手工直播常送礼", "视频 | add Calibration | 别过度相信最近的点赞"}},
		{"none", "本轮无提议", nil},
		{"empty marker", "【提议】   \n【提议】x", []string{"x"}},
		{"mid-line marker ignored", "note: 【提议】 not at start\n", nil},
		{"truncated", "【提议】 直播间 | add Pat", []string{"直播间 | add Pat"}},
		{"think stripped", "<think>【提议】 hidden</think>【提议】 shown", []string{"shown"}},
		{"garbage", "\x00\xff}{", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseProposals(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseScenes(t *testing.T) {
	seven := `["a","b","c","d","e","f","g"]`
	tests := []struct {
		name, in string
		m        int
		want     []string
		ok       bool
	}{
		{"fenced", "Here:\n```json\n" + seven + "\n```", 7, []string{"a", "b", "c", "d", "e", "f", "g"}, true},
		{"unfenced", seven, 7, []string{"a", "b", "c", "d", "e", "f", "g"}, true},
		{"plain fence", "```\n" + seven + "\n```", 7, []string{"a", "b", "c", "d", "e", "f", "g"}, true},
		{"more than m", `["a","b","c"]`, 2, []string{"a", "b"}, true},
		{"too few", "```json\n[\"a\",\"b\"]\n```", 7, []string{"a", "b"}, false},
		{"truncated", "```json\n[\"a\",\"b\",\"c", 3, nil, false},
		{"garbage", "I cannot do that.", 7, nil, false},
		{"unescaped quote repaired", "```json\n[\"the \"best\" pan\", \"b\"]\n```", 2, []string{`the "best" pan`, "b"}, true},
		{"non-strings skipped", `["a", 3, null, "b"]`, 2, []string{"a", "b"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseScenes(tt.in, tt.m)
			if ok != tt.ok || !slices.Equal(got, tt.want) {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseJudges(t *testing.T) {
	tests := []struct {
		name, in    string
		n           int
		wantGen     Judgement
		wantPerturb Judgement
	}{
		{
			name: "fenced",
			in: "Verdicts:\n```json\n[{\"proposal_idx\":0,\"generalization_passed\":false,\"is_sensitive\":true,\"reason\":\"x\"}," +
				"{\"proposal_idx\":1,\"generalization_passed\":true,\"is_sensitive\":false,\"reason\":\"y\"}]\n```",
			n:           2,
			wantGen:     Judgement{Pass: []bool{false, true}, Parsed: true},
			wantPerturb: Judgement{Pass: []bool{true, false}, Parsed: true},
		},
		{
			name:        "unfenced, missing index defaults",
			in:          `[{"proposal_idx":1,"generalization_passed":false,"is_sensitive":true}]`,
			n:           3,
			wantGen:     Judgement{Pass: []bool{true, false, true}, Parsed: true, Defaulted: 2},
			wantPerturb: Judgement{Pass: []bool{false, true, false}, Parsed: true, Defaulted: 2},
		},
		{
			name:        "out of range ignored",
			in:          `[{"proposal_idx":7,"generalization_passed":false,"is_sensitive":true},{"proposal_idx":-1,"is_sensitive":true}]`,
			n:           1,
			wantGen:     Judgement{Pass: []bool{true}, Parsed: true, Defaulted: 1},
			wantPerturb: Judgement{Pass: []bool{false}, Parsed: true, Defaulted: 1},
		},
		{
			name:        "truncated",
			in:          "```json\n[{\"proposal_idx\":0,\"generalization_passed\":fal",
			n:           2,
			wantGen:     Judgement{Pass: []bool{true, true}},
			wantPerturb: Judgement{Pass: []bool{false, false}},
		},
		{
			name:        "garbage",
			in:          "no idea",
			n:           1,
			wantGen:     Judgement{Pass: []bool{true}},
			wantPerturb: Judgement{Pass: []bool{false}},
		},
		{
			name:        "reason with unescaped quotes repaired",
			in:          "```json\n[{\"proposal_idx\":0,\"generalization_passed\":false,\"is_sensitive\":true,\"reason\":\"names \"A\" only\"}]\n```",
			n:           1,
			wantGen:     Judgement{Pass: []bool{false}, Parsed: true},
			wantPerturb: Judgement{Pass: []bool{true}, Parsed: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.wantGen, ParseGeneralization(tt.in, tt.n)); d != "" {
				t.Errorf("generalization (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantPerturb, ParsePerturbationJudge(tt.in, tt.n)); d != "" {
				t.Errorf("perturbation judge (-want +got):\n%s", d)
			}
		})
	}
}

func TestParsePerturbations(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Perturbation
		ok       bool
	}{
		{"fenced", "```json\n[{\"perturbation_desc\":\"flip\",\"perturbation_details\":\"all likes removed\"}]\n```", []Perturbation{{"flip", "all likes removed"}}, true},
		{"unfenced object", `{"perturbation_desc":"flip","perturbation_details":"d"}`, []Perturbation{{"flip", "d"}}, true},
		{"empty list", "```json\n[]\n```", nil, false},
		{"truncated", "```json\n[{\"perturbation_desc\":\"fl", nil, false},
		{"garbage", "sorry", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParsePerturbations(tt.in)
			if ok != tt.ok || !cmp.Equal(got, tt.want) {
				t.Errorf("got %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseReview(t *testing.T) {
	tests := []struct {
		name, in string
		want     ExpMemory
		ok       bool
	}{
		{"fenced", "Decision: adopt one.\n```json\n{\"user_exp\":[\"a\"],\"model_exp\":[],\"proposal\":[\"p1\",\"p2\"]}\n```",
			ExpMemory{UserExp: []string{"a"}, ModelExp: []string{}, Proposal: []string{"p1", "p2"}}, true},
		{"unfenced", `{"user_exp":[],"model_exp":["b"],"proposal":[]}`, ExpMemory{UserExp: []string{}, ModelExp: []string{"b"}, Proposal: []string{}}, true},
		{"last fence wins", "```json\n{\"user_exp\":[\"old\"]}\n```\nrevised:\n```json\n{\"user_exp\":[\"new\"],\"model_exp\":[],\"proposal\":[]}\n```",
			ExpMemory{UserExp: []string{"new"}, ModelExp: []string{}, Proposal: []string{}}, true},
		{"missing key", "```json\n{\"user_exp\":[],\"model_exp\":[]}\n```", ExpMemory{}, false},
		{"truncated", "```json\n{\"user_exp\":[\"a\"],\"model_exp\":[", ExpMemory{}, false},
		{"garbage", "I would keep everything.", ExpMemory{}, false},
		{"non-string entries kept as JSON", `{"user_exp":[{"k":1}, "s"],"model_exp":null,"proposal":"one"}`,
			ExpMemory{UserExp: []string{`{"k":1}`, "s"}, ModelExp: []string{}, Proposal: []string{"one"}}, true},
		{"unescaped quote repaired", "```json\n{\"user_exp\":[\"likes \"cat\" videos\"],\"model_exp\":[],\"proposal\":[]}\n```",
			ExpMemory{UserExp: []string{`likes "cat" videos`}, ModelExp: []string{}, Proposal: []string{}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseReview(tt.in)
			if ok != tt.ok || !got.Equal(tt.want) {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestRepairJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "b"}`, `{"a": "b"}`},
		{`["say "hi" now"]`, `["say \"hi\" now"]`},
		{`{"k": "x "y"", "z": 1}`, `{"k": "x \"y\"", "z": 1}`},
		{`["a\"b"]`, `["a\"b"]`},
		{`"open`, `"open`},
		{``, ``},
	}
	for _, tt := range tests {
		if got := RepairJSON(tt.in); got != tt.want {
			t.Errorf("RepairJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzRepairJSON checks that the repair pass never panics, leaves valid JSON
// unchanged, and only ever adds backslashes.
func FuzzRepairJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `["x "y" z"]`, `{"k":[1,2,{"q":"\""}]}`, `"`, `\`, "```json\n[]\n```", `{"a":"b\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := RepairJSON(s)
		if json.Valid([]byte(s)) && got != s {
			t.Fatalf("valid JSON changed: %q -> %q", s, got)
		}
		// Removing the inserted backslashes gives the input back.
		i := 0
		for j := 0; j < len(got); j++ {
			if i < len(s) && got[j] == s[i] {
				i++
				continue
			}
			if got[j] != '\\' {
				t.Fatalf("repair changed more than quotes: %q -> %q", s, got)
			}
		}
		if i != len(s) {
			t.Fatalf("repair dropped input: %q -> %q", s, got)
		}
	})
}
