package lifelong

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// Sampling sources under prompts: release.
const (
	SamplingCode  = "code"
	SamplingPaper = "paper"
)

// SharedPurposes are the shared purposes the registered kinds declare
// (agent.Entry.Shared), in registration order.
func (r *Methods) SharedPurposes() []llm.Purpose {
	var out []llm.Purpose
	for _, e := range r.Entries() {
		out = append(out, e.Shared...)
	}
	return out
}

// Overlay returns base with every key over sets replaced (a nil Stop
// keeps base's, an empty one sends none; Extra merges key by key).
func Overlay(base, over llm.Params) llm.Params {
	out := agent.CloneParams(base)
	o := agent.CloneParams(over)
	if o.Temperature != nil {
		out.Temperature = o.Temperature
	}
	if o.TopP != nil {
		out.TopP = o.TopP
	}
	if o.MaxTokens != 0 {
		out.MaxTokens = o.MaxTokens
	}
	if o.Seed != nil {
		out.Seed = o.Seed
	}
	if o.Stop != nil {
		out.Stop = o.Stop
		if len(o.Stop) == 0 {
			out.Stop = []string{}
		}
	}
	if o.ReasoningEffort != "" {
		out.ReasoningEffort = o.ReasoningEffort
	}
	for k, v := range o.Extra {
		if out.Extra == nil {
			out.Extra = map[string]any{}
		}
		out.Extra[k] = v
	}
	return out
}

// ApplyOverrides lays the config's sampling and sampling_env over s
// (resolved defaults), for the environments named, and marks every
// overridden purpose in origin ("config" wins the provenance).
func (c Config) ApplyOverrides(s *agent.Sampling, envNames []string, origin map[string]map[string]string) {
	if s.ByPurpose == nil {
		s.ByPurpose = map[string]llm.Params{}
	}
	if s.ByEnv == nil {
		s.ByEnv = map[string]map[string]llm.Params{}
	}
	mark := func(env, purpose string) {
		if origin[env] == nil {
			origin[env] = map[string]string{}
		}
		origin[env][purpose] = "own: config lifelong.sampling"
	}
	for purpose, over := range c.Sampling {
		s.ByPurpose[purpose] = Overlay(s.ByPurpose[purpose], over)
		for env, m := range s.ByEnv {
			if p, ok := m[purpose]; ok {
				m[purpose] = Overlay(p, over)
			}
			mark(env, purpose)
		}
		for _, env := range envNames {
			mark(env, purpose)
		}
	}
	for env, m := range c.SamplingEnv {
		for purpose, over := range m {
			if s.ByEnv[env] == nil {
				s.ByEnv[env] = map[string]llm.Params{}
			}
			base, ok := s.ByEnv[env][purpose]
			if !ok {
				base = s.ByPurpose[purpose]
			}
			s.ByEnv[env][purpose] = Overlay(base, over)
			mark(env, purpose)
		}
	}
}

// validateSampling names every unknown purpose or environment and every
// out-of-range setting of the sampling keys.
func validateSampling(c Config, known []string) []string {
	var errs []string
	purposes := agent.SamplePurposes()
	checkParams := func(field string, p llm.Params) {
		if p.Temperature != nil && (math.IsNaN(*p.Temperature) || *p.Temperature < 0 || *p.Temperature > 2) {
			errs = append(errs, fmt.Sprintf("%s.temperature: must be between 0 and 2, got %v", field, *p.Temperature))
		}
		if p.TopP != nil && (math.IsNaN(*p.TopP) || *p.TopP <= 0 || *p.TopP > 1) {
			errs = append(errs, fmt.Sprintf("%s.top_p: must be in (0, 1], got %v", field, *p.TopP))
		}
		if p.MaxTokens < 0 {
			errs = append(errs, fmt.Sprintf("%s.max_tokens: %d, want >= 0", field, p.MaxTokens))
		}
	}
	checkPurposes := func(field string, m map[string]llm.Params) {
		for _, k := range sortedKeys(m) {
			if !slices.Contains(purposes, k) {
				errs = append(errs, fmt.Sprintf("%s: unknown purpose %q (known: %s)", field, k, strings.Join(purposes, ", ")))
				continue
			}
			checkParams(field+"."+k, m[k])
		}
	}
	checkPurposes("sampling", c.Sampling)
	for _, e := range sortedKeys(c.SamplingEnv) {
		if !slices.Contains(known, e) {
			errs = append(errs, fmt.Sprintf("sampling_env: unknown environment %q (known: %s)", e, strings.Join(known, ", ")))
			continue
		}
		checkPurposes("sampling_env."+e, c.SamplingEnv[e])
	}
	switch c.SamplingSource {
	case "", SamplingCode, SamplingPaper:
	default:
		errs = append(errs, fmt.Sprintf("sampling_source: %q is not one of %s, %s", c.SamplingSource, SamplingCode, SamplingPaper))
	}
	return errs
}
