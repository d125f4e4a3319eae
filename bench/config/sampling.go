package config

import (
	"maps"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
	"github.com/memharness/memharness/runlog"
)

// Where a request setting came from: runlog's names.
const (
	FromSource = runlog.FromSource
	FromOwn    = runlog.FromOwn
	FromConfig = runlog.FromConfig
)

// PurposeDefault is the default request settings of one call purpose of
// the prediction methods under each prompts setting. Methods hold no
// sampling value themselves: the bench fills methods[].sampling from here.
type PurposeDefault struct {
	Purpose string
	// Kinds are the method kinds that send it.
	Kinds []string
	// Release is what the source sends (prompts: release); Source says
	// where in the source it is set. Own is ours (prompts: own).
	Release, Own llm.Params
	Source       string
	// ReleaseFrom is FromSource, or FromOwn where the source has no such
	// call (the memory-system baselines are the harness's own).
	ReleaseFrom string
}

// PurposeDefaults lists every purpose, each call building fresh maps.
func PurposeDefaults() []PurposeDefault {
	predictKinds := MethodKinds()
	summaryT := 0.3
	out := []PurposeDefault{
		{Purpose: predict.PurposePredict, Kinds: predictKinds, ReleaseFrom: FromSource,
			Source: "model_caller.py: temperature commented out, no max_tokens for PraMem's questions (server defaults)"},
		{Purpose: predict.PurposeSummary, Kinds: []string{predict.KindSummary}, ReleaseFrom: FromSource,
			Release: llm.Params{Temperature: &summaryT}, Own: llm.Params{Temperature: &summaryT},
			Source: "config.py SUMMARY_CONFIG temperature (its summary_processor is not released)"},
	}
	for _, st := range pramem.Stages() {
		// The practice client sends the cap as max_completion_tokens and no
		// sampling field (z_5's --temperature is parsed, never sent).
		out = append(out, PurposeDefault{Purpose: pramem.Purpose(st), Kinds: []string{predict.KindPraMem}, ReleaseFrom: FromSource,
			Release: llm.Params{Extra: map[string]any{"max_completion_tokens": 16000}},
			Own:     llm.Params{MaxTokens: 16000},
			Source:  "z_5_practice_with_self_check.py --max_tokens default, sent by utils/use_my_api.py as max_completion_tokens"})
	}
	for _, p := range []struct{ purpose, kind string }{
		{"mem0.extract", predict.KindMem0}, {"mem0.update", predict.KindMem0},
		{"memos.extract", predict.KindMemOS}, {"memos.consolidate", predict.KindMemOS},
		{"proex.induce", predict.KindProEx}, {"proex.validate", predict.KindProEx},
	} {
		out = append(out, PurposeDefault{Purpose: p.purpose, Kinds: []string{p.kind}, ReleaseFrom: FromOwn,
			Source: "no released code (the memory-system baselines are the harness's): server defaults"})
	}
	return out
}

// MethodSampling is a method's sampling map with every default of its
// kind's purposes under prompts (PromptsRelease or PromptsOwn) filled in
// where set has no entry; set is not changed. Defaults with no setting at
// all are left out, so a method whose purposes all run at the server's
// defaults keeps a nil map.
func MethodSampling(prompts, kind string, set map[string]llm.Params) map[string]llm.Params {
	var out map[string]llm.Params
	if len(set) > 0 {
		out = maps.Clone(set)
	}
	for _, d := range PurposeDefaults() {
		if !contains(d.Kinds, kind) {
			continue
		}
		if _, ok := set[d.Purpose]; ok {
			continue
		}
		p := d.Own
		if prompts == PromptsRelease {
			p = d.Release
		}
		if isZeroParams(p) {
			continue
		}
		if out == nil {
			out = map[string]llm.Params{}
		}
		out[d.Purpose] = p
	}
	return out
}

// SamplingFrom says where the request settings of purpose come from for a
// method of kind with set as its methods[].sampling.
func SamplingFrom(prompts, kind, purpose string, set map[string]llm.Params) string {
	if _, ok := set[purpose]; ok {
		return FromConfig
	}
	if prompts != PromptsRelease {
		return FromOwn
	}
	for _, d := range PurposeDefaults() {
		if d.Purpose == purpose && contains(d.Kinds, kind) {
			return d.ReleaseFrom
		}
	}
	return FromOwn
}

// purposesOf lists the purposes a method kind sends.
func purposesOf(kind string) []string {
	var out []string
	for _, d := range PurposeDefaults() {
		if contains(d.Kinds, kind) {
			out = append(out, d.Purpose)
		}
	}
	return out
}

func sendsPurpose(kind, purpose string) bool { return contains(purposesOf(kind), purpose) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isZeroParams(p llm.Params) bool {
	return p.Temperature == nil && p.TopP == nil && p.MaxTokens == 0 && p.Seed == nil && len(p.Stop) == 0 &&
		p.ReasoningEffort == "" && len(p.Extra) == 0
}
