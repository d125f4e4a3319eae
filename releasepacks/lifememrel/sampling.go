package lifememrel

import (
	"github.com/memharness/memharness/envs/alfworld"
	"github.com/memharness/memharness/envs/apibank"
	"github.com/memharness/memharness/envs/dbbench"
	"github.com/memharness/memharness/envs/mind2web"
	"github.com/memharness/memharness/envs/miniwob"
	"github.com/memharness/memharness/envs/scienceworld"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/envs/toolqa"
	"github.com/memharness/memharness/envs/webshop"
	"github.com/memharness/memharness/envs/wikienv"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
)

// setting is one purpose's sampling as a source's code sends it, and
// where that is read.
type setting struct {
	params llm.Params
	from   string
}

func temp(v float64) *float64 { return &v }

// Where each source sets its sampling. These are facts about the pinned
// code (numbers and stop strings, not prose), so they live here rather
// than being read at run time; the capture tests compare them with the
// bodies the sources' own code sends.
var (
	// τ-bench run.py: --temperature defaults to 0.0 and ChatReActAgent
	// passes only it to litellm; the user simulator passes nothing.
	tauAct      = setting{llm.Params{Temperature: temp(0)}, "source: tau-bench run.py --temperature default, chat_react_agent.py completion(temperature=)"}
	tauCustomer = setting{llm.Params{}, "source: tau-bench envs/user.py completion(model, provider, messages)"}
	// ExpeL models/llm.py: ChatOpenAI(temperature=0.0) (langchain 0.0.181,
	// whose body also carries its n=1 default; stream false and
	// max_tokens null are the server's defaults); the stop list is the
	// Prompter's (agent/react.py prompt_agent).
	expelAct = setting{llm.Params{Temperature: temp(0), Extra: map[string]any{"n": 1}}, "source: ExpeL models/llm.py ChatOpenAI(temperature=0.0), agent/react.py stop"}
	// LifelongAgentBench language_model_agent.yaml: inference_config_dict {}.
	dbAct = setting{llm.Params{}, "source: LifelongAgentBench configs/components/agents/language_model_agent.yaml inference_config_dict {}"}
	// Synapse run_miniwob.py / run_mind2web.py: --temperature 0.0; the
	// stop lists are the Prompters' and abstractor's.
	synapseAct = setting{llm.Params{Temperature: temp(0)}, "source: Synapse run_miniwob.py/run_mind2web.py --temperature default, utils/llm.py generate_response"}
	// The LifeMem release's own clients (get_response in each folder).
	toolqaAct = setting{llm.Params{Temperature: temp(0.3), MaxTokens: 512, Stop: []string{"Observation"}}, "source: LifeMem ToolQA/benchmark/ReAct/code/utils.py openai_chat"}
	sciAct    = setting{llm.Params{Temperature: temp(0.3)}, "source: LifeMem ScienceWorld/examples/llm.py openai_chat"}
	apiAct    = setting{llm.Params{Temperature: temp(0)}, "source: LifeMem api-bank/utils.py openai_chat"}
)

// actSettings are the acting settings per environment.
var actSettings = map[string]setting{
	taubench.NameRetail: tauAct, taubench.NameAirline: tauAct,
	wikienv.NameHotpotQA: expelAct, wikienv.NameFEVER: expelAct, alfworld.Name: expelAct, webshop.Name: expelAct,
	dbbench.Name: dbAct,
	miniwob.Name: synapseAct, mind2web.EnvName: synapseAct,
	toolqa.Name: toolqaAct, scienceworld.Name: sciAct, apibank.Name: apiAct,
}

// paperActTemperature is the acting temperature the LifeMem paper states
// for every backbone; --profile paper (sampling_source: paper) sends it
// in place of each source's code default.
const paperActFrom = "paper: LifeMem (acting temperature 0.3 for every backbone)"

var paperActTemperature = 0.3

// Sampling is the sources' sampling for the named environments (prompts:
// release), the paper's acting temperature where paper is set, with the
// origin of every (environment, purpose) for the manifest. The acting
// and customer settings are the environments' sources', read here; the
// other shared purposes' are the kinds' declarations (shared: the
// registered kinds' agent.Entry.Shared, the first of each purpose). An
// environment or purpose without a source keeps own's settings (and
// origin "own").
func Sampling(envNames []string, paper bool, own map[string]llm.Params, shared []llm.Purpose) (*agent.Sampling, map[string]map[string]string) {
	s := &agent.Sampling{ByPurpose: map[string]llm.Params{}, ByEnv: map[string]map[string]llm.Params{}}
	for k, v := range own {
		s.ByPurpose[k] = agent.CloneParams(v)
	}
	// Purposes that one source's code makes in every environment (ExpeL's
	// insight extraction, Synapse's abstraction, LifeMem's construction),
	// as their kinds declare them.
	global := map[string]setting{}
	for _, p := range shared {
		if _, seen := global[p.Name]; seen || p.Source == "" {
			continue
		}
		global[p.Name] = setting{p.Release, p.Source}
	}
	for p, st := range global {
		s.ByPurpose[p] = agent.CloneParams(st.params)
	}
	origin := map[string]map[string]string{}
	set := func(env, purpose string, st setting) {
		if s.ByEnv[env] == nil {
			s.ByEnv[env] = map[string]llm.Params{}
		}
		s.ByEnv[env][purpose] = agent.CloneParams(st.params)
		origin[env][purpose] = st.from
	}
	for _, env := range envNames {
		origin[env] = map[string]string{}
		for _, p := range agent.SamplePurposes() {
			origin[env][p] = "own"
			if st, ok := global[p]; ok {
				origin[env][p] = st.from
			}
		}
		act, ok := actSettings[env]
		if !ok {
			continue
		}
		if paper {
			act.params = agent.CloneParams(act.params)
			v := paperActTemperature
			act.params.Temperature = &v
			act.from = paperActFrom + "; rest " + act.from
		}
		set(env, agent.SampleAct, act)
		if env == taubench.NameRetail || env == taubench.NameAirline {
			set(env, agent.SampleCustomer, tauCustomer)
		}
	}
	return s, origin
}
