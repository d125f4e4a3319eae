package lifelongagents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/memharness/memharness/family"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/releasepacks/lifememrel"
	"github.com/memharness/memharness/runrecord"
)

// ownFewShots is how many gold trajectories of an environment's embedded
// suite the own prompt shows as worked examples.
const ownFewShots = 2

// agentPromptsSetup is what prompts: own|release decided for a lifelong run.
type agentPromptsSetup struct {
	prompts *agent.Prompts
	label   string
	// pack names the sources read and the environments left on the
	// harness's own prompt; digests are the files' SHA-256 by
	// "<source>/<path>".
	pack    string
	digests map[string]string
	warning string
	// dataWarnings reach the console and the manifest (a τ-bench
	// tools_schema.json that differs from the pinned source's).
	dataWarnings []string
}

// lifelongPrompts builds the agent prompts of a lifelong run. Own: every
// environment's few-shots are gold replays of its embedded suite's first
// training tasks (our own data, same environment). Release: each
// environment with a source Prompter gets it, reading every needed source
// from prompt.release_dirs or the data cache; the others keep the own
// prompt and are named.
func lifelongPrompts(ctx context.Context, cfg *config.Config, getenv func(string) string, suites map[string]envs.Suite, reg *all.Registry) (agentPromptsSetup, error) {
	ps := agentPromptsSetup{label: cfg.PromptsLabel()}
	names := make([]string, 0, len(suites))
	for n := range suites {
		names = append(names, n)
	}
	sort.Strings(names)
	if ps.label != config.PromptsRelease {
		shots := map[string][]agent.Trajectory{}
		for _, n := range names {
			tr, err := embeddedFewShots(ctx, reg, n)
			if err != nil {
				return ps, err
			}
			shots[n] = tr
		}
		ps.prompts = &agent.Prompts{FewShots: shots}
		if cfg.Backbone.Kind == "openai" {
			ps.warning = "warning: prompts: own — the harness's own agent prompts, not the sources'; numbers are not comparable " +
				"with the LifeMem paper's (set prompts: release and fetch " + strings.Join(lifememrel.Needs(names), ", ") + ")"
		}
		return ps, nil
	}
	trees := lifememrel.Trees{}
	ps.digests = map[string]string{}
	var pins []string
	needs := lifememrel.Needs(names)
	// LifeMem's own construction calls read the release's memory/prompts.py.
	lifememBuild := usesLifeMem(cfg)
	if lifememBuild && !slices.Contains(needs, lifememrel.NameLifeMem) {
		needs = append(needs, lifememrel.NameLifeMem)
		sort.Strings(needs)
	}
	for _, n := range needs {
		src, _ := lifememrel.Find(n)
		dir := cfg.Prompt.ReleaseDirs[n]
		if dir == "" {
			dir = filepath.Join(family.DataCacheDir(getenv), n)
		}
		t, err := lifememrel.Open(dir, src)
		if err != nil {
			return ps, fmt.Errorf("prompts: release: %w", err)
		}
		trees[n] = t
		pins = append(pins, src.Pin())
		for p, d := range t.Digests {
			ps.digests[n+"/"+p] = d
		}
	}
	suiteList := make([]envs.Suite, 0, len(names))
	for _, n := range names {
		suiteList = append(suiteList, suites[n])
	}
	release, own, err := lifememrel.Prompters(trees, suiteList, lifememrel.Options{TauAct: cfg.Prompt.TauBenchAgent == "act"})
	if err != nil {
		return ps, err
	}
	for _, w := range lifememrel.ToolSchemaWarnings(trees, suiteList) {
		ps.dataWarnings = append(ps.dataWarnings, "prompts: release: "+w)
	}
	// τ-bench's customer speaks with its source's system prompt too.
	for _, su := range suiteList {
		cs, ok := su.(interface{ SetCustomerPrompt(func(string) string) })
		if !ok {
			continue
		}
		f, err := lifememrel.TauCustomerPrompt(trees)
		if err != nil {
			return ps, err
		}
		cs.SetCustomerPrompt(f)
	}
	// Synapse's state abstraction has its source's wording too.
	abstract, err := lifememrel.Abstractors(trees, suiteList)
	if err != nil {
		return ps, err
	}
	ps.prompts = &agent.Prompts{Release: release, Abstract: abstract}
	ps.pack = strings.Join(pins, ", ")
	if lifememBuild {
		tm, err := lifememrel.ConstructionTemplates(trees)
		if err != nil {
			return ps, fmt.Errorf("prompts: release: %w", err)
		}
		// Key: the lifemem method's name (its ablations share it).
		ps.prompts.Construction = map[string]agent.Templates{"lifemem": tm}
		ps.pack += "; LifeMem construction from " + tm.Label + " (training-line keys assumed)"
	}
	if len(own) > 0 {
		ps.pack += "; own prompts for " + strings.Join(own, ", ")
		ps.warning = "warning: prompts: release has no usable source assembly (none yet, or its source has no pinned digests) for " + strings.Join(own, ", ") +
			"; these environments keep the harness's own prompt (named in the titles)"
	}
	return ps, nil
}

// embeddedFewShots records gold replays of the first training tasks of
// env's embedded suite, found in reg.
func embeddedFewShots(ctx context.Context, reg *all.Registry, env string) ([]agent.Trajectory, error) {
	e, err := reg.Find(env)
	if err != nil {
		return nil, err
	}
	s, err := e.Embedded()
	if err != nil {
		return nil, fmt.Errorf("%s: few-shots: %w", env, err)
	}
	defer closeSuite(s)
	train, _ := envs.SplitEmbedded(s)
	if len(train) > ownFewShots {
		train = train[:ownFewShots]
	}
	tr, err := envs.Record(ctx, s, train)
	if err != nil {
		return nil, fmt.Errorf("%s: few-shots: %w", env, err)
	}
	return tr, nil
}

// stamp records the prompts in the manifest (titles read it).
func (ps agentPromptsSetup) stamp(m *runrecord.Manifest) {
	m.Prompts = ps.label
	m.PromptsPack = ps.pack
	m.DataWarnings = append(m.DataWarnings, ps.dataWarnings...)
	if len(ps.digests) > 0 {
		m.PromptsSHA256 = ps.digests
	}
}

// TrainFile is the environment's training file in dir: train_<name>.jsonl,
// else a name the release gives it (the entry's TrainFiles); the error
// lists every name tried.
func TrainFile(dir string, e envs.Entry) (string, error) {
	env := e.Name
	names := append([]string{"train_" + env + ".jsonl"}, e.TrainFiles...)
	for _, n := range names {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no training file for %s in %s (tried %s)", env, dir, strings.Join(names, ", "))
}

// RefusePartial stops a run on a real endpoint whose stream loses an
// environment (probe failed with cause), unless the config allows a
// partial stream: OP and BwT over fewer environments are other numbers.
func RefusePartial(backbone string, lc lifelong.Config, env string, cause error) error {
	if backbone != "openai" || lc.AllowPartialStream {
		return nil
	}
	return fmt.Errorf("%s cannot run here (%v): a run on a real endpoint needs every environment of its stream and OOD set; "+
		"fix that, or pass --allow-partial-stream to leave it out (the titles then name it)", env, cause)
}

// usesLifeMem reports whether a lifelong run has a LifeMem method, whose
// memory construction then reads the release's prompts.
func usesLifeMem(cfg *config.Config) bool {
	if cfg.Lifelong == nil {
		return false
	}
	for _, m := range cfg.Lifelong.Methods {
		if m.Kind == lifelong.KindLifeMem {
			return true
		}
	}
	return false
}
