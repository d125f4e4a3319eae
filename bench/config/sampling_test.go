package config

import (
	"strconv"
	"strings"
	"testing"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/predict"
)

// TestMethodSampling: under release a PraMem stage carries the release's
// cap as max_completion_tokens and nothing else, under own ours as
// max_tokens; a purpose set in the config wins and is named as such; a
// method whose purposes all run at server defaults keeps a nil map.
func TestMethodSampling(t *testing.T) {
	set := map[string]llm.Params{"pramem.review": {MaxTokens: 5}}
	tests := []struct {
		prompts, kind, purpose string
		set                    map[string]llm.Params
		want                   string // body keys, sorted
		from                   string
	}{
		{PromptsRelease, "pramem", "pramem.trial", nil, "max_completion_tokens=16000", FromSource},
		{PromptsOwn, "pramem", "pramem.trial", nil, "max_tokens=16000", FromOwn},
		{PromptsRelease, "pramem", "pramem.review", set, "max_tokens=5", FromConfig},
		{PromptsRelease, predict.KindSummary, "summary", nil, "temperature=0.3", FromSource},
		{PromptsRelease, predict.KindTruncation, "predict", nil, "", FromSource},
		{PromptsRelease, "mem0", "mem0.extract", nil, "", FromOwn},
	}
	for _, tt := range tests {
		t.Run(tt.prompts+"/"+tt.purpose, func(t *testing.T) {
			m := Known{}.MethodSampling(tt.prompts, tt.kind, tt.set)
			p, ok := m[tt.purpose]
			got := ""
			switch {
			case p.MaxTokens > 0:
				got = "max_tokens=" + itoa(p.MaxTokens)
			case p.Extra["max_completion_tokens"] != nil:
				got = "max_completion_tokens=" + itoa(p.Extra["max_completion_tokens"].(int))
			case p.Temperature != nil:
				got = "temperature=0.3"
			}
			if got != tt.want || (tt.want == "" && ok) || !(llm.Params{TopP: p.TopP, Seed: p.Seed, Stop: p.Stop}).IsZero() {
				t.Errorf("settings %+v (present %v), want %s", p, ok, tt.want)
			}
			if from := (Known{}).SamplingFrom(tt.prompts, tt.kind, tt.purpose, tt.set); from != tt.from {
				t.Errorf("from %s, want %s", from, tt.from)
			}
		})
	}
	if m := (Known{}).MethodSampling(PromptsRelease, predict.KindTruncation, nil); m != nil {
		t.Errorf("truncation sampling %v, want nil (server defaults)", m)
	}
	if set["pramem.trial"].MaxTokens != 0 || len(set) != 1 {
		t.Error("MethodSampling changed the config's map")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestSamplingUnknownPurpose: a purpose the kind never sends is an error,
// not a silent no-op.
func TestSamplingUnknownPurpose(t *testing.T) {
	cfg := defaults()
	cfg.fill(func(string) string { return "" })
	cfg.Methods = []predict.Spec{{Name: "t", Kind: predict.KindTruncation, Sampling: map[string]llm.Params{"pramem.trial": {MaxTokens: 1}}}}
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "methods[0].sampling.pramem.trial") {
		t.Fatalf("got %v, want an error on methods[0].sampling.pramem.trial", err)
	}
}
