package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
)

// agentParamsText renders sampling settings as a YAML flow mapping, in the
// request body's key order; seed reads "run seed" where it is the run's.
func agentParamsText(p llm.Params, runSeed int) string {
	var parts []string
	if p.Temperature != nil {
		parts = append(parts, "temperature: "+strconv.FormatFloat(*p.Temperature, 'g', -1, 64))
	}
	if p.TopP != nil {
		parts = append(parts, "top_p: "+strconv.FormatFloat(*p.TopP, 'g', -1, 64))
	}
	if p.MaxTokens != 0 {
		parts = append(parts, "max_tokens: "+strconv.Itoa(p.MaxTokens))
	}
	if p.Seed != nil {
		if *p.Seed == runSeed {
			parts = append(parts, "seed: the run seed")
		} else {
			parts = append(parts, "seed: "+strconv.Itoa(*p.Seed))
		}
	}
	if p.Stop != nil {
		var q []string
		for _, s := range p.Stop {
			q = append(q, strconv.Quote(s))
		}
		parts = append(parts, "stop: ["+strings.Join(q, ", ")+"]")
	}
	keys := make([]string, 0, len(p.Extra))
	for k := range p.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s: %v", k, p.Extra[k]))
	}
	if len(parts) == 0 {
		return "none sent"
	}
	return "`{" + strings.Join(parts, ", ") + "}`"
}

// writeAgentSampling documents the agent sampling keys (lifelong.sampling,
// sampling_env, sampling_source) with every default, from the tables the
// run resolves them from.
func writeAgentSampling(b *strings.Builder) {
	const seed = 987654321 // marks where the own settings take the run seed
	b.WriteString("\n## Agent sampling settings (`lifelong.sampling`, task lifemem)\n\n")
	b.WriteString("Every agent request's sampling comes from one table, per purpose and environment; methods set none\n")
	b.WriteString("themselves (a test fails if code under `methods/` does). `lifelong.sampling.<purpose>` overrides a\n")
	b.WriteString("purpose in every environment and `lifelong.sampling_env.<env>.<purpose>` in one, key by key over the\n")
	b.WriteString("defaults below (`stop: []` sends no stop list). Under `prompts: release` a Prompter's own stop list is\n")
	b.WriteString("sent unless the settings name one. `lifelong.sampling_source: paper` (set by `--profile paper`) sends the\n")
	b.WriteString("LifeMem paper's acting temperature, 0.3, in place of each source's code default. The manifest's\n")
	b.WriteString("`provenance` names, per environment and stage, the origin of the prompt, the sampling and the parser.\n")
	b.WriteString("The defaults of acting and the customer are the protocol's (`agent.ProtocolPurposes`); those of the other\n")
	b.WriteString("purposes are declared by the kind that makes them (`agent.Entry.Shared`), own and release alike, and the\n")
	b.WriteString("per-environment acting settings of each source are the LifeMem release pack's.\n\n")
	b.WriteString("| purpose | what | `prompts: own` |\n| :--- | :--- | :--- |\n")
	what := map[string]string{
		agent.SampleAct:          "every acting step",
		agent.SampleCustomer:     "τ-bench's simulated customer",
		agent.SampleReflect:      "ExpeL's insight extraction",
		agent.SampleAbstract:     "Synapse's state abstraction",
		agent.SampleConstruction: "LifeMem's memory construction",
		agent.SampleSkills:       "AutoSkill's skill extraction",
	}
	shared := lifelong.DefaultMethods().SharedPurposes()
	own := agent.OwnSampling(seed, shared)
	for _, p := range agent.SamplePurposes() {
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", p, what[p], agentParamsText(own[p], seed))
	}
	b.WriteString("\nUnder `prompts: release` (`sampling_source: code`); purposes not listed for an environment keep\n")
	b.WriteString("the `prompts: own` settings:\n\n| environment | purpose | settings | from |\n| :--- | :--- | :--- | :--- |\n")
	envNames := append(lifelong.PaperOrder(), lifelong.PaperOOD()...)
	sort.Strings(envNames)
	s, origin := lifememrel.Sampling(envNames, false, own, shared)
	for _, p := range agent.SamplePurposes() {
		// Purposes one source makes in every environment.
		if _, perEnv := s.ByEnv[envNames[0]][p]; perEnv || strings.HasPrefix(origin[envNames[0]][p], "own") {
			continue
		}
		fmt.Fprintf(b, "| every environment | `%s` | %s | %s |\n", p, agentParamsText(s.ByPurpose[p], seed), origin[envNames[0]][p])
	}
	for _, env := range envNames {
		for _, p := range agent.SamplePurposes() {
			if _, ok := s.ByEnv[env][p]; !ok {
				continue
			}
			fmt.Fprintf(b, "| %s | `%s` | %s | %s |\n", env, p, agentParamsText(s.For(p, env), seed), origin[env][p])
		}
	}
}
