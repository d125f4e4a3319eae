package agent

import (
	"maps"
	"slices"

	"github.com/memharness/memharness/llm"
)

// Sampling purposes: the keys of lifelong.sampling, one per kind of
// request a method or an environment makes.
const (
	// SampleAct is every acting request (each environment's agent step).
	SampleAct = "act"
	// SampleCustomer is τ-bench's simulated customer.
	SampleCustomer = "customer"
	// SampleReflect is ExpeL's insight extraction.
	SampleReflect = "reflect"
	// SampleAbstract is Synapse's state abstraction.
	SampleAbstract = "abstract"
	// SampleConstruction is LifeMem's memory construction (assignment,
	// summaries, splits, skills).
	SampleConstruction = "construction"
	// SampleSkills is AutoSkill's skill extraction.
	SampleSkills = "skills"
)

// SamplePurposes lists the purposes in documentation order.
func SamplePurposes() []string {
	return []string{SampleAct, SampleCustomer, SampleReflect, SampleAbstract, SampleConstruction, SampleSkills}
}

// Sampling gives every request its sampling settings. Methods never set
// one themselves: the run resolves these from the sources (prompts:
// release), the paper (--profile paper) or the harness's own defaults
// (prompts: own), then the config's overrides. A nil *Sampling, or a
// purpose without an entry, sends none (the server's defaults).
type Sampling struct {
	// ByPurpose holds the settings of each purpose for every environment.
	ByPurpose map[string]llm.Params
	// ByEnv holds, per environment, the purposes whose settings differ
	// there (a source's own stop list, say); they replace ByPurpose's.
	ByEnv map[string]map[string]llm.Params
}

// For returns the settings of purpose in env, as a copy the caller may
// change (a Prompter's per-call stop list, a redraw's seed).
func (s *Sampling) For(purpose, env string) llm.Params {
	if s == nil {
		return llm.Params{}
	}
	p, ok := s.ByEnv[env][purpose]
	if !ok {
		p = s.ByPurpose[purpose]
	}
	return CloneParams(p)
}

// CloneParams copies p so that no pointer, slice or map is shared.
func CloneParams(p llm.Params) llm.Params {
	if p.Temperature != nil {
		v := *p.Temperature
		p.Temperature = &v
	}
	if p.TopP != nil {
		v := *p.TopP
		p.TopP = &v
	}
	if p.Seed != nil {
		v := *p.Seed
		p.Seed = &v
	}
	if p.Stop != nil {
		p.Stop = slices.Clone(p.Stop)
	}
	if p.Extra != nil {
		p.Extra = maps.Clone(p.Extra)
	}
	return p
}
