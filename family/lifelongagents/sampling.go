package lifelongagents

import (
	"sort"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/runrecord"
)

// Sampling resolves the sampling of every agent request: the
// sources' code defaults under prompts: release (the LifeMem paper's
// acting temperature with lifelong.sampling_source: paper), the
// harness's own under prompts: own, then lifelong.sampling and
// sampling_env over them. It returns the origin of each (environment,
// purpose) too.
func Sampling(cfg *config.Config, lc lifelong.Config, envNames []string) (*agent.Sampling, map[string]map[string]string) {
	own := lifelong.OwnSampling(lc.Seed)
	var s *agent.Sampling
	var origin map[string]map[string]string
	if cfg.PromptsLabel() == config.PromptsRelease {
		s, origin = lifememrel.Sampling(envNames, lc.SamplingSource == lifelong.SamplingPaper, own)
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
