package backbone

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/sim"
)

// Judge is one grading model of a run (see config.Judge).
type Judge struct {
	// Model is metered, so every judge call is recorded in the call log
	// under its request's purpose; on an endpoint it is cached.
	Model llm.Model
	// Name is the model name the judge calls ("sim" on the embedded one).
	Name string
}

// OpenJudge opens the model that spec names beside the run's stack b. A
// "backbone" judge on the sim is the run's own model; on an endpoint it is
// the run's model at the run's endpoints, but with the judge's sampling
// only (the backbone's params never reach a judge request, which carries
// its source's own) and a cache file of its own. An "openai" judge has its
// own endpoints and model, checked before the run spends anything; a "sim"
// judge is the embedded heuristic judge whatever the backbone. Every judge
// sits under the run's spending ceiling.
func (b *Backbone) OpenJudge(ctx context.Context, cfg *config.Config, spec config.JudgeSpec, getenv func(string) string, out string,
	warn io.Writer, readers sim.Readers) (Judge, error) {
	kind := spec.Kind
	if kind == config.JudgeBackbone {
		if b.Kind == "sim" {
			return Judge{Model: llm.WithDefaults(b.Model, spec.Params), Name: b.ModelName}, nil
		}
		kind = "openai"
		if spec.Model == "" {
			spec.Model = b.ModelName
		}
		if len(spec.BaseURLs) == 0 {
			spec.BaseURLs = cfg.Backbone.BaseURLs
		}
	}
	switch kind {
	case "sim":
		sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Seed: uint64(cfg.Seed)}
		model := b.Holds.Wrap(sim.Name, sim.New(sc, readers))
		if p := PricesOf(cfg); p != nil {
			model = llm.WithPrices(model, llm.PriceTable{sim.Name: *p}, sim.Name)
		}
		return Judge{Model: llm.NewMeter(llm.WithDefaults(b.Budget.Wrap(model), spec.Params)), Name: sim.Name}, nil
	case "openai":
	default:
		return Judge{}, fmt.Errorf("judge kind %q: want backbone, sim or openai", spec.Kind)
	}
	if len(spec.BaseURLs) == 0 || spec.Model == "" {
		return Judge{}, fmt.Errorf("openai judge %s: needs judge.model and judge.base_urls (or an openai backbone to share them)", spec.Name)
	}
	if spec.Kind == "openai" {
		if err := probeEndpoints(ctx, spec.BaseURLs, getenv(EnvAPIKey), spec.Model, warn); err != nil {
			return Judge{}, fmt.Errorf("judge: %w", err)
		}
	}
	c := *cfg
	c.Backbone.Params = spec.Params
	c.Backbone.Model = spec.Model
	role := "judge"
	if spec.Name != "" {
		role += "-" + spec.Name
	}
	switch c.Backbone.Cache {
	case "off":
	case "":
		// Its own file: a judge with the answering model's name and
		// endpoints would otherwise share the answers' cache file.
		c.Backbone.Cache = filepath.Join(out, ".cache", "llm-"+role+"-"+shortHash(spec.Model)+".sqlite")
	default:
		c.Backbone.Cache += "." + role
	}
	onRetry := func(llm.RetryEvent) {}
	if b.Retries != nil {
		onRetry = b.Retries.Observe
	}
	// Its batches, where backbone.batch names its purposes, are journaled
	// apart from the answering model's (the role names them).
	m, cc, err := openaiStack(&c, spec.BaseURLs, spec.Model, getenv, out, onRetry, b.Budget, b.Holds, b.batchWrapper(ctx, cfg, getenv, b.runDir, warn, role))
	if err != nil {
		return Judge{}, fmt.Errorf("judge: %w", err)
	}
	if cc != nil {
		b.Caches = append(b.Caches, cc)
	}
	return Judge{Model: llm.NewMeter(m), Name: spec.Model}, nil
}
