package lifememrel

import (
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/scienceworld"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
	"github.com/memharness/memharness/methods/agent"
)

// parserOrigins says which source parser each environment's acting
// replies go through under prompts: release (the parity tests under
// testdata/parity compare them with the sources' on a committed corpus).
var parserOrigins = map[string]string{
	taubench.NameRetail:  "source: tau-bench chat_react_agent.py generate_next_step (envs/taubench.ParseAction)",
	taubench.NameAirline: "source: tau-bench chat_react_agent.py generate_next_step (envs/taubench.ParseAction)",
	wikienv.NameHotpotQA: "source: ExpeL prompts/hotpotQA.py LLM_PARSER",
	wikienv.NameFEVER:    "source: ExpeL prompts/hotpotQA.py LLM_PARSER",
	alfworld.Name:        "source: ExpeL prompts/alfworld.py LLM_PARSER",
	webshop.Name:         "source: ExpeL prompts/webshop.py LLM_PARSER",
	miniwob.Name:         "source: Synapse utils/llm.py extract_from_response",
	mind2web.EnvName:     "source: Synapse utils/llm.py extract_from_response",
	scienceworld.Name:    "source: LifeMem ScienceWorld/examples/llm.py process",
	apibank.Name:         "source: LifeMem api-bank/utils.py process",
}

// ParserOrigin is where env's replies of purpose are parsed: acting
// replies by the source's parser where the environment has a release
// Prompter and the parser is ported, else the harness's.
func ParserOrigin(env, purpose string, release bool) string {
	if purpose != agent.SampleAct || !release {
		return "own"
	}
	if o, ok := parserOrigins[env]; ok {
		return o
	}
	return "own"
}

// PromptOrigin is where env's prompt of purpose comes from.
func PromptOrigin(p *agent.Prompts, env, purpose string, release bool) string {
	if !release || p == nil {
		return "own"
	}
	switch purpose {
	case agent.SampleAct:
		if pr := p.Release[env]; pr != nil {
			return "source: " + pr.Label()
		}
	case agent.SampleCustomer:
		if env == taubench.NameRetail || env == taubench.NameAirline {
			return "source: tau-bench envs/user.py LLMUserSimulationEnv.build_system_prompt"
		}
	case agent.SampleAbstract:
		if a := p.Abstract[env]; a != nil {
			return "source: " + a.Label()
		}
	case agent.SampleConstruction:
		if t, ok := p.Construction["lifemem"]; ok {
			return "source: " + t.Label
		}
	}
	return "own"
}
