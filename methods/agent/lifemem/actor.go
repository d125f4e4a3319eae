package lifemem

import (
	"context"
	"errors"

	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/methods/agent"
)

// sharedActor acts through the agent prompt machinery every method shares
// (agent.NewAgent), so LifeMem differs from the baselines only in what
// experience it retrieves.
func (m *LifeMem) sharedActor(_ context.Context, env agent.Env, s envs.Suite, _ envs.Task, exp Experience) (envs.Agent, error) {
	if env.Model == nil {
		return nil, errors.New("lifemem: agent.Env.Model is nil")
	}
	pr, shots := env.Prompts.For(s.Name())
	return agent.NewAgent(agent.AgentConfig{
		Model:     env.Model,
		Suite:     s,
		Exemplars: exp.Exemplars,
		Rules:     exp.Rules,
		MaxRules:  m.opts.PromptRules,
		Sampling:  env.Sampling.For(agent.SampleAct, s.Name()),
		Method:    m.Name(),
		Prompter:  pr,
		FewShots:  shots,
	}), nil
}
