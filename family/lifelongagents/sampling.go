package lifelongagents

import (
	"maps"
	"sort"
	"strings"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/runrecord"
)

// Sampling resolves the sampling of every agent request: the
// sources' code defaults under prompts: release (the LifeMem paper's
// acting temperature with lifelong.sampling_source: paper), the
// harness's own under prompts: own (the protocol's and the kinds' of reg,
// as their entries declare them), then lifelong.sampling and
// sampling_env over them. It returns the origin of each (environment,
// purpose) too.
func Sampling(cfg *config.Config, lc lifelong.Config, reg *lifelong.Methods, envNames []string) (*agent.Sampling, map[string]map[string]string) {
	shared := reg.SharedPurposes()
	own := agent.OwnSampling(lc.Seed, shared)
	var s *agent.Sampling
	var origin map[string]map[string]string
	if cfg.PromptsLabel() == config.PromptsRelease {
		s, origin = lifememrel.Sampling(envNames, lc.SamplingSource == lifelong.SamplingPaper, own, shared)
	} else {
		s = &agent.Sampling{ByPurpose: own}
		origin = map[string]map[string]string{}
		for _, env := range envNames {
			origin[env] = map[string]string{}
			for _, p := range agent.SamplePurposes() {
				origin[env][p] = "own"
			}
		}
	}
	lc.ApplyOverrides(s, envNames, origin)
	return s, origin
}

// agentProvenance says, per environment and stage, where the prompt, the
// sampling and the reply parser of the run's requests came from.
func agentProvenance(ps agentPromptsSetup, sampling map[string]map[string]string, envNames []string) map[string]runrecord.Provenance {
	out := map[string]runrecord.Provenance{}
	names := append([]string(nil), envNames...)
	sort.Strings(names)
	release := ps.label == config.PromptsRelease
	for _, env := range names {
		for _, purpose := range agent.SamplePurposes() {
			out[env+"/"+purpose] = runrecord.Provenance{
				Prompt:   lifememrel.PromptOrigin(ps.prompts, env, purpose, release),
				Sampling: sampling[env][purpose],
				Parser:   lifememrel.ParserOrigin(env, purpose, release && ps.prompts.Release[env] != nil),
			}
		}
	}
	return out
}

// withMethodSampling is methods with each one's Sampling filled with the
// defaults its kind's entry in reg declares for its own purposes
// (agent.Entry.Purposes) under the prompts setting, where the config sets
// none (lifelong.methods[].sampling wins); the specs are copies. A kind
// that declares none keeps its map as configured (nil for the built-ins).
func withMethodSampling(methods []lifelong.MethodSpec, reg *lifelong.Methods, prompts string) []lifelong.MethodSpec {
	out := make([]lifelong.MethodSpec, len(methods))
	for i, m := range methods {
		out[i] = m
		e, err := reg.Lookup(m.Kind)
		if err != nil {
			continue // validation has named it
		}
		var filled map[string]llm.Params
		for _, p := range e.Purposes {
			if _, ok := m.Sampling[p.Name]; ok {
				continue
			}
			v := p.Own
			if prompts == config.PromptsRelease {
				v = p.Release
			}
			if v.IsZero() {
				continue // the server's defaults: nothing to send
			}
			if filled == nil {
				filled = maps.Clone(m.Sampling)
				if filled == nil {
					filled = map[string]llm.Params{}
				}
			}
			filled[p.Name] = agent.CloneParams(v)
		}
		if filled != nil {
			out[i].Sampling = filled
		}
	}
	return out
}

// methodProvenance says, per method and call purpose of its kind's own
// (keyed as the prediction methods' are: "tips/write" for tips.write),
// where the request settings come from (the method's prompt and reply
// reading are its kind's own code).
func methodProvenance(methods []lifelong.MethodSpec, reg *lifelong.Methods, prompts string, out map[string]runrecord.Provenance) {
	for _, m := range methods {
		e, err := reg.Lookup(m.Kind)
		if err != nil {
			continue
		}
		for _, p := range e.Purposes {
			from := runrecord.FromOwn
			switch _, set := m.Sampling[p.Name]; {
			case set:
				from = runrecord.FromConfig
			case prompts == config.PromptsRelease && p.ReleaseFrom != "":
				from = p.ReleaseFrom
			}
			out[m.Name+"/"+strings.TrimPrefix(p.Name, m.Kind+".")] = runrecord.Provenance{Prompt: runrecord.FromOwn, Sampling: from, Parser: runrecord.FromOwn}
		}
	}
}
