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

// ProtocolPurposes are the shared purposes of every lifelong run whatever
// its methods: acting (each environment's agent step) and τ-bench's
// simulated customer. Their own defaults are the harness's: acting at 0.3
// (the LifeMem paper's temperature for every backbone) with a 512-token
// reply that stops before a made-up next user turn, the customer greedy.
// What each source sends for them under prompts release is the release
// pack's (releasepacks/lifememrel), per environment.
func ProtocolPurposes() []llm.Purpose {
	return []llm.Purpose{
		{Name: SampleAct, Own: llm.Params{Temperature: float(0.3), MaxTokens: 512, Stop: []string{"\nUser:"}}},
		{Name: SampleCustomer, Own: llm.Params{Temperature: float(0)}},
	}
}

// The shared purposes the baselines' own requests make (Entry.Shared).

// reflectPurpose is ExpeL's insight extraction: greedy, 1,024 tokens of
// ours; its code's ChatOpenAI(temperature=0.0) under release (langchain
// 0.0.181, whose body also carries its n=1 default).
func reflectPurpose() llm.Purpose {
	return llm.Purpose{Name: SampleReflect,
		Own:     llm.Params{Temperature: float(0), MaxTokens: 1024},
		Release: llm.Params{Temperature: float(0), Extra: map[string]any{"n": 1}},
		Source:  "source: ExpeL models/llm.py ChatOpenAI(temperature=0.0)"}
}

// abstractPurpose is Synapse's state abstraction: 0.3 and 2,048 tokens of
// ours; its runs' --temperature default under release (the stop lists are
// the abstractor's).
func abstractPurpose() llm.Purpose {
	return llm.Purpose{Name: SampleAbstract,
		Own:     llm.Params{Temperature: float(0.3), MaxTokens: 2048},
		Release: llm.Params{Temperature: float(0)},
		Source:  "source: Synapse run_miniwob.py --temperature default, agents/miniwob.py filter stop lists"}
}

// skillsPurpose is AutoSkill's skill extraction, greedy with 1,024 tokens;
// no source of the stream makes it, so release sends the same.
func skillsPurpose() llm.Purpose {
	return llm.Purpose{Name: SampleSkills, Own: llm.Params{Temperature: float(0), MaxTokens: 1024}}
}

func float(v float64) *float64 { return &v }

// OwnSampling is the harness's own sampling per purpose (prompts: own):
// the protocol's purposes and the shared ones the kinds declare (shared,
// in registry order: the first declaration of a purpose gives its
// defaults), each one that sends anything seeded with the run seed.
func OwnSampling(seed int64, shared []llm.Purpose) map[string]llm.Params {
	out := map[string]llm.Params{}
	for _, p := range append(ProtocolPurposes(), shared...) {
		if _, ok := out[p.Name]; ok {
			continue
		}
		v := CloneParams(p.Own)
		if !v.IsZero() {
			s := int(seed)
			v.Seed = &s
		}
		out[p.Name] = v
	}
	return out
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
