// Package backbone opens the model stack a resolved config names: the sim
// backbone or OpenAI-compatible endpoints, with their response caches,
// meters, retries, the spending ceiling and the embedder. Every task family
// opens its run's models here.
package backbone

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/runrecord"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/batch"
	"github.com/memharness/memharness/llm/cache"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/llm/tokens/hftok"
)

// Environment variables read for a real endpoint. Keys are read here and
// handed to the client; they are never stored in a config, manifest or log.
const (
	EnvBaseURL = "OPENAI_BASE_URL" // one URL, or several separated by commas (read by bench/config)
	EnvAPIKey  = "OPENAI_API_KEY"
)

// Backbone is the resolved model stack of a run.
type Backbone struct {
	Kind      string // "sim" or "openai"
	ModelName string
	Endpoints []string
	Model     llm.Model // meter(cache(stack)) or meter(sim)
	Meter     *llm.Meter
	// buildModel serves memory construction when the config names a
	// separate construction model (nil: the evaluation model builds too).
	BuildModel     llm.Model
	BuildMeter     *llm.Meter
	BuildModelName string
	// assign and skill serve LifeMem's construction steps (lifelong path);
	// nil: the construction model builds.
	Assign, Skill StepModel
	// user plays simulated users (zero: the acting model).
	User     StepModel
	Embedder llm.Embedder
	// embedderLabel names the embedder for the manifest; embedderWarning is
	// set when a real backbone retrieves with the hash embedder.
	EmbedderLabel, EmbedderWarning string
	Tokens                         tokens.Counter
	// tokenizer names the counter for the manifest.
	Tokenizer string
	Cache     *cache.Cache
	Caches    []*cache.Cache
	// retries follows live retries for the progress line (nil on sim).
	Retries *RetryWatch
	// budget guards eval.max_cost and eval.max_tokens below every response
	// cache, for every model of the run (nil: no ceiling).
	Budget *llm.Budget
	// Batches are the provider-batch layers of the run's models
	// (backbone.batch; none when every call is live).
	Batches []*batch.Layer
	// Holds are the prefix holds of the run's server caches
	// (backbone.prefix_hold; nil when switched off).
	Holds  *llm.PrefixHolds
	runDir string
}

// HoldLine says how many live calls the prefix hold held back and for how
// long in all ("" when none was).
func (b *Backbone) HoldLine() string {
	s := b.Holds.Stats()
	if s.Held == 0 {
		return ""
	}
	return fmt.Sprintf("prefix hold: %d live calls waited for a call sharing a longer prompt prefix to be answered (%s in all; backbone.prefix_hold)",
		s.Held, s.Wait.Round(time.Millisecond))
}

func (b *Backbone) Describe() string {
	if b.Kind == "sim" {
		return "backbone sim (embedded heuristic reader, not an LLM)"
	}
	return fmt.Sprintf("backbone openai model %s at %s", b.ModelName, strings.Join(b.Endpoints, ", "))
}

func (b *Backbone) Close() {
	for _, l := range b.Batches {
		l.Close()
	}
	if b.Cache != nil {
		b.Cache.Close()
	}
	for _, c := range b.Caches {
		c.Close()
	}
}

// ApproxTokenizer names the default token counter in manifests.
const ApproxTokenizer = "approx: int(1.5*CJK + 1.3*other/5), the release's fallback estimate"

// Open builds the run's model stack for cfg; readers teach the embedded
// backbone the kinds' own requests (unused on an endpoint).
func Open(ctx context.Context, cfg *config.Config, getenv func(string) string, out string, warn io.Writer, readers sim.Readers) (*Backbone, error) {
	return OpenIn(ctx, cfg, getenv, out, out, warn, readers)
}

// OpenIn is Open for the run directory runDir, which keeps the journals
// of the run's provider batches (backbone.batch) in runDir/batches.
func OpenIn(ctx context.Context, cfg *config.Config, getenv func(string) string, out, runDir string, warn io.Writer, readers sim.Readers) (*Backbone, error) {
	// config.Load has already resolved "auto", the endpoints and the model.
	b := &Backbone{Kind: cfg.Backbone.Kind, Tokens: tokens.Approx{}, Tokenizer: ApproxTokenizer, runDir: runDir}
	if p := cfg.Prompt.Tokenizer; p != "" {
		c, err := hftok.Load(p)
		if err != nil {
			return nil, fmt.Errorf("prompt.tokenizer: %w", err)
		}
		b.Tokens, b.Tokenizer = c, c.Label
	}
	budget, err := OpenBudget(cfg, b.Tokens)
	if err != nil {
		return nil, err
	}
	b.Budget = budget
	if cfg.Backbone.HoldsPrefixes() {
		b.Holds = llm.NewPrefixHolds(cfg.Backbone.PrefixCacheTokens)
	}
	switch b.Kind {
	case "sim":
		sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Latency: cfg.Backbone.Sim.Latency.Duration, Seed: uint64(cfg.Seed)}
		if cfg.Backbone.Sim.PersistentInvalidRate != nil {
			sc.PersistentInvalidRate = *cfg.Backbone.Sim.PersistentInvalidRate
		}
		b.ModelName = sim.Name
		// The sim computes no prefix, yet it is held as a server would be,
		// so the embedded default sends in the order an endpoint gets.
		model := b.Holds.Wrap(sim.Name, sim.New(sc, readers))
		// Prices apply on every backbone: a user sizing a paper run prices
		// the embedded default's tokens as the endpoint's would be.
		if p := PricesOf(cfg); p != nil {
			model = llm.WithPrices(model, llm.PriceTable{sim.Name: *p}, sim.Name)
		}
		if model, err = b.batchLayer(ctx, cfg, model, sim.Name, sim.Name, "", nil, "", runDir, warn); err != nil {
			return nil, err
		}
		b.Meter = llm.NewMeter(b.Budget.Wrap(model))
	case "openai":
		urls := cfg.Backbone.BaseURLs
		if len(urls) == 0 {
			return nil, fmt.Errorf("backbone openai: no endpoint: set %s or backbone.base_urls", EnvBaseURL)
		}
		b.ModelName = cfg.Backbone.Model
		if b.ModelName == "" {
			return nil, fmt.Errorf("backbone openai: no model: set backbone.model or OPENAI_MODEL")
		}
		// Endpoints are shown and recorded without credentials.
		for _, u := range urls {
			b.Endpoints = append(b.Endpoints, config.RedactURL(u))
		}
		if err := probeEndpoints(ctx, urls, getenv(EnvAPIKey), b.ModelName, warn); err != nil {
			return nil, err
		}
		b.Retries = NewRetryWatch()
		model, c, err := openaiStack(cfg, urls, b.ModelName, getenv, out, b.Retries.Observe, b.Budget, b.Holds, b.batchWrapper(ctx, cfg, getenv, runDir, warn, ""))
		if err != nil {
			return nil, err
		}
		b.Cache = c
		if bm := cfg.Backbone.BuildModel; bm != "" && bm != b.ModelName || len(cfg.Backbone.BuildBaseURLs) > 0 {
			burls := cfg.Backbone.BuildBaseURLs
			if len(burls) == 0 {
				burls = urls
			}
			bmodel := cfg.Backbone.BuildModel
			if bmodel == "" {
				bmodel = b.ModelName
			}
			if !slices.Equal(burls, urls) || bmodel != b.ModelName {
				if err := probeEndpoints(ctx, burls, getenv(EnvAPIKey), bmodel, warn); err != nil {
					return nil, fmt.Errorf("construction backbone: %w", err)
				}
			}
			built, bc, err := openaiStack(cfg, burls, bmodel, getenv, out, b.Retries.Observe, b.Budget, b.Holds, b.batchWrapper(ctx, cfg, getenv, runDir, warn, ""))
			if err != nil {
				return nil, fmt.Errorf("construction backbone: %w", err)
			}
			if bc != nil {
				b.Caches = append(b.Caches, bc)
			}
			b.BuildMeter = llm.NewMeter(built)
			b.BuildModel = b.BuildMeter
			b.BuildModelName = bmodel
		}
		b.Meter = llm.NewMeter(model)
		for _, st := range []struct {
			into          *StepModel
			step          string
			model, effort string
		}{
			{&b.Assign, "assign", cfg.Backbone.AssignModel, cfg.Backbone.AssignReasoningEffort},
			{&b.Skill, "skill", cfg.Backbone.SkillModel, cfg.Backbone.SkillReasoningEffort},
			{&b.User, "user", cfg.Backbone.UserModel, ""},
		} {
			sm, err := openStepModel(ctx, cfg, b, urls, st.step, st.model, st.effort, getenv, out, warn)
			if err != nil {
				return nil, err
			}
			*st.into = sm
		}
	default:
		return nil, fmt.Errorf("backbone.kind %q: want auto, sim or openai", b.Kind)
	}
	b.Model = b.Meter

	switch cfg.Embedder.Kind {
	case "", "hash":
		b.Embedder = embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim})
		b.EmbedderLabel = fmt.Sprintf("hash bag-of-words (dim %d)", cfg.Embedder.Dim)
		if b.Kind == "openai" {
			b.EmbedderWarning = hashEmbedderWarning(cfg.Embedder.Model)
		}
	case "openai":
		url := cfg.Embedder.BaseURL
		if url == "" {
			url = strings.TrimSpace(strings.Split(getenv(EnvBaseURL), ",")[0])
		}
		e, err := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: url, Model: cfg.Embedder.Model, APIKey: getenv(EnvAPIKey)})
		if err != nil {
			return nil, err
		}
		b.Embedder = embed.Memo(e)
		b.EmbedderLabel = "openai " + cfg.Embedder.Model
	default:
		return nil, fmt.Errorf("embedder.kind %q: want hash or openai", cfg.Embedder.Kind)
	}
	return b, nil
}

// probeEndpoints checks every endpoint with one cheap request before the
// run spends anything, so an unreachable server fails in seconds, not after
// minutes of retries.
func probeEndpoints(ctx context.Context, urls []string, key, model string, warn io.Writer) error {
	hc := llm.NewHTTPClient(1)
	for _, u := range urls {
		res, err := llm.Probe(ctx, hc, u, key, model, 10*time.Second)
		if err != nil {
			return fmt.Errorf("pre-flight check: %w", err)
		}
		if res.Warning != "" {
			fmt.Fprintf(warn, "warning: %s\n", res.Warning)
		}
	}
	return nil
}

// StepModel is one construction step's model (zero: none configured).
type StepModel struct {
	Model  llm.Model
	Meter  *llm.Meter
	Name   string
	Effort string
}

// shortHash is the first 12 hex digits of the SHA-256 of s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// ConstructionModels names the lifelong path's construction models when
// any differs from the acting one: "assign=M1 (low), skill=M2", or the one
// build model.
func (b *Backbone) ConstructionModels() string {
	if b.Assign.Model == nil && b.Skill.Model == nil {
		return b.BuildModelName
	}
	name := func(s StepModel) string {
		n := s.Name
		if s.Model == nil {
			n = b.BuildModelName
			if n == "" {
				n = b.ModelName
			}
		}
		if s.Effort != "" {
			n += " (" + s.Effort + ")"
		}
		return n
	}
	return "assign=" + name(b.Assign) + ", skill=" + name(b.Skill)
}

// LifelongMeters are the meters a lifelong run books usage from: the
// acting model's and every construction model's.
func (b *Backbone) LifelongMeters() []lifelong.Snapshotter {
	out := []lifelong.Snapshotter{b.Meter}
	for _, m := range []*llm.Meter{b.BuildMeter, b.Assign.Meter, b.Skill.Meter, b.User.Meter} {
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

// openStepModel opens the model of one construction step (or the
// simulated user) when the config names one or a reasoning effort for it:
// the step's model (default: the construction model, then the acting
// model) at the construction endpoints, with the effort as its only
// default parameter and its own cache file.
func openStepModel(ctx context.Context, cfg *config.Config, b *Backbone, urls []string, step, name, effort string,
	getenv func(string) string, out string, warn io.Writer) (StepModel, error) {
	if name == "" && effort == "" {
		return StepModel{}, nil
	}
	if name == "" {
		name = cfg.Backbone.BuildModel
	}
	if name == "" {
		name = b.ModelName
	}
	burls := cfg.Backbone.BuildBaseURLs
	if len(burls) == 0 {
		burls = urls
	}
	c := *cfg
	// The acting sampling parameters (temperature 0.3) are not the
	// construction calls' or the customer's: those send the API default,
	// plus the step's reasoning effort; server extras still apply.
	c.Backbone.Params = llm.Params{ReasoningEffort: effort, Extra: cfg.Backbone.Params.Extra}
	switch c.Backbone.Cache {
	case "off":
	case "":
		// Its own file, even when the step's model equals another's.
		c.Backbone.Cache = filepath.Join(out, ".cache", "llm-"+step+"-"+shortHash(name)+".sqlite")
	default:
		c.Backbone.Cache += "." + step
	}
	// A distinct default-parameter set shares no cache entries anyway, but
	// a model equal to the acting one would share its cache file.
	c.Backbone.Model = ""
	m, cc, err := openaiStack(&c, burls, name, getenv, out, b.Retries.Observe, b.Budget, b.Holds, b.batchWrapper(ctx, cfg, getenv, b.runDir, warn, step))
	if err != nil {
		return StepModel{}, fmt.Errorf("%s model: %w", step, err)
	}
	if cc != nil {
		b.Caches = append(b.Caches, cc)
	}
	meter := llm.NewMeter(m)
	return StepModel{Model: meter, Meter: meter, Name: name, Effort: effort}, nil
}

// openaiStack builds defaults(cache(budget(stack))) for one model at some
// endpoints: the budget sits below the cache, so cached answers never meet
// a ceiling.
func openaiStack(cfg *config.Config, urls []string, modelName string, getenv func(string) string, out string, onRetry func(llm.RetryEvent),
	budget *llm.Budget, holds *llm.PrefixHolds, batched batchWrap) (llm.Model, *cache.Cache, error) {
	var cc *cache.Cache
	stack, err := llm.Open(llm.StackConfig{
		BaseURLs: urls, Model: modelName, APIKey: getenv(EnvAPIKey),
		Timeout: cfg.Backbone.Timeout.Duration, MaxRetries: cfg.Backbone.MaxRetries,
		MaxResponseBytes: cfg.Backbone.MaxResponseBytes, OnRetry: onRetry,
		Concurrency: cfg.Backbone.Concurrency, MaxConcurrency: cfg.Backbone.MaxConcurrency,
		Prices: PricesOf(cfg), RetrySeed: uint64(cfg.Seed), Holds: holds,
		NoMeter: true, // the run's meter sits outside the cache, so it sees cached calls too
	})
	if err != nil {
		return nil, nil, err
	}
	ids := make([]string, len(urls))
	for i, u := range urls {
		ids[i] = llm.Identity(u, modelName)
	}
	identity := strings.Join(ids, ",")
	// The batch layer sits where the live client is: below the budget, so
	// a parked call holds its reservation, and below the cache, which
	// keeps its answers as it keeps live ones.
	below, err := batched(stack, modelName, identity, urls)
	if err != nil {
		return nil, nil, err
	}
	model := budget.Wrap(below)
	if cfg.Backbone.Cache != "off" {
		path := cfg.Backbone.Cache
		if path != "" && modelName != cfg.Backbone.Model {
			// One cache file holds one model: the construction model
			// gets its own file beside the configured one.
			path += ".build"
		}
		if path == "" {
			path = filepath.Join(out, ".cache", "llm-"+shortHash(identity)+".sqlite")
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, nil, err
		}
		c, err := cache.Open(path, identity)
		if err != nil {
			return nil, nil, err
		}
		cc = c
		model = c.Wrap(model)
	}
	// Default parameters are merged above the cache so that they are part
	// of every cache key.
	return llm.WithDefaults(model, cfg.Backbone.Params), cc, nil
}

// batchWrap puts a model's live stack behind its batch layer.
type batchWrap func(live llm.Model, modelName, identity string, urls []string) (llm.Model, error)

// batchWrapper is b.batchLayer for openaiStack.
// step names a construction step's own stack ("" for the others), whose
// batches are journaled apart even when its model is the acting one.
func (b *Backbone) batchWrapper(ctx context.Context, cfg *config.Config, getenv func(string) string, out string, warn io.Writer, step string) batchWrap {
	return func(live llm.Model, modelName, identity string, urls []string) (llm.Model, error) {
		return b.batchLayer(ctx, cfg, live, modelName, identity, step, urls, getenv(EnvAPIKey), out, warn)
	}
}

// PricesOf is the config's prices as the model layer takes them (nil: not
// priced).
func PricesOf(cfg *config.Config) *llm.Prices {
	p := cfg.Backbone.Prices
	if p == nil {
		return nil
	}
	return &llm.Prices{PromptPer1M: p.PromptPer1M, CompletionPer1M: p.CompletionPer1M, CachedPromptPer1M: p.CachedPromptPer1M}
}

// hashEmbedderWarning says that a real backbone's retrieval runs on the
// hash bag-of-words embedder: neighbour retrieval, LifeMem's split check
// (τ assumes MiniLM vectors) and every baseline's retrieval then differ
// from the papers'.
func hashEmbedderWarning(wanted string) string {
	if wanted == "" {
		wanted = "sentence-transformers/all-MiniLM-L6-v2"
	}
	return fmt.Sprintf("retrieval uses the hash bag-of-words embedder on a real backbone, not %s as in the papers; serve it on an OpenAI-compatible /embeddings endpoint (e.g. text-embeddings-inference) and set %s or embedder.base_url with embedder.kind auto or openai",
		wanted, config.EnvEmbeddingsURL)
}

// StampEmbedder records the embedder in m and, when retrieving methods run
// on a real backbone with the hash embedder, warns on w and in m (reports
// carry it in their titles).
func (b *Backbone) StampEmbedder(m *runrecord.Manifest, retrieves bool, w io.Writer) {
	m.Embedder = b.EmbedderLabel
	if retrieves && b.EmbedderWarning != "" {
		m.EmbedderWarning = b.EmbedderWarning
		fmt.Fprintln(w, "warning: "+b.EmbedderWarning)
	}
}

// StampSeeds records in m what is known of how the backbone's endpoints
// treat a request's seed (llm.SeedNote) and warns on w when one is known to
// drop it: repeated draws on it are independent, whatever seed they carry.
func (b *Backbone) StampSeeds(m *runrecord.Manifest, w io.Writer) {
	if b.Kind == "sim" {
		return
	}
	var notes []string
	for _, e := range b.Endpoints {
		note, ignored := llm.SeedNote(e, b.ModelName)
		if note == "" || slices.Contains(notes, note) {
			continue
		}
		notes = append(notes, note)
		if ignored {
			fmt.Fprintln(w, "warning: "+note)
		}
	}
	m.SeedNote = strings.Join(notes, "; ")
}

// OpenBudget is the run's spending guard (nil when the config sets no
// ceiling), counting prompts with the run's token counter.
func OpenBudget(cfg *config.Config, count tokens.Counter) (*llm.Budget, error) {
	b, err := llm.NewBudget(llm.Ceilings{
		MaxCost: cfg.Eval.MaxCost, MaxTokens: cfg.Eval.MaxTokens,
		CostName: "eval.max_cost", TokensName: "eval.max_tokens",
	}, PricesOf(cfg), count.Count)
	if err != nil {
		return nil, fmt.Errorf("eval ceilings: %w", err)
	}
	return b, nil
}
