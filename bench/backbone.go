package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/memharness/memharness/runlog"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memharness/memharness/bench/config"
	"github.com/memharness/memharness/envs"
	"github.com/memharness/memharness/envs/all"
	"github.com/memharness/memharness/envs/taubench"
	"github.com/memharness/memharness/lifelong"
	"github.com/memharness/memharness/llm"
	"github.com/memharness/memharness/llm/cache"
	"github.com/memharness/memharness/llm/embed"
	"github.com/memharness/memharness/llm/sim"
	"github.com/memharness/memharness/llm/tokens"
	"github.com/memharness/memharness/llm/tokens/hftok"
	"github.com/memharness/memharness/methods/agent"
	"github.com/memharness/memharness/methods/agent/lifemem"
	"github.com/memharness/memharness/methods/memstyle"
	"github.com/memharness/memharness/methods/pramem"
	"github.com/memharness/memharness/methods/predict"
)

// Environment variables read for a real endpoint. Keys are read here and
// handed to the client; they are never stored in a config, manifest or log.
const (
	envBaseURL = "OPENAI_BASE_URL" // one URL, or several separated by commas (read by bench/config)
	envAPIKey  = "OPENAI_API_KEY"
)

// backbone is the resolved model stack of a run.
type backbone struct {
	kind      string // "sim" or "openai"
	modelName string
	endpoints []string
	model     llm.Model // meter(cache(stack)) or meter(sim)
	meter     *llm.Meter
	// buildModel serves memory construction when the config names a
	// separate construction model (nil: the evaluation model builds too).
	buildModel     llm.Model
	buildMeter     *llm.Meter
	buildModelName string
	// assign and skill serve LifeMem's construction steps (lifelong path);
	// nil: the construction model builds.
	assign, skill stepModel
	// user plays simulated users (zero: the acting model).
	user     stepModel
	embedder llm.Embedder
	// embedderLabel names the embedder for the manifest; embedderWarning is
	// set when a real backbone retrieves with the hash embedder.
	embedderLabel, embedderWarning string
	tokens                         tokens.Counter
	// tokenizer names the counter for the manifest.
	tokenizer string
	cache     *cache.Cache
	caches    []*cache.Cache
	// retries follows live retries for the progress line (nil on sim).
	retries *retryWatch
	// budget guards eval.max_cost and eval.max_tokens below every response
	// cache, for every model of the run (nil: no ceiling).
	budget *llm.Budget
}

func (b *backbone) describe() string {
	if b.kind == "sim" {
		return "backbone sim (embedded heuristic reader, not an LLM)"
	}
	return fmt.Sprintf("backbone openai model %s at %s", b.modelName, strings.Join(b.endpoints, ", "))
}

func (b *backbone) close() {
	if b.cache != nil {
		b.cache.Close()
	}
	for _, c := range b.caches {
		c.Close()
	}
}

// BuiltinSimReaders are the embedded backbone's readers of every built-in
// kind's requests, each from the package of the method or environment whose
// hints it reads: the prediction path, the memory-system baselines, PraMem,
// the shared agent (with every environment's action syntax), LifeMem and
// τ-bench's simulated customer. moreActing adds what the acting reader
// knows of environments of one's own (envs.SimActing).
func BuiltinSimReaders(moreActing ...envs.SimActing) ([]sim.Reader, error) {
	agentReaders, err := agent.SimReaders(append(all.SimActing(), moreActing...)...)
	if err != nil {
		return nil, err
	}
	var out []sim.Reader
	for _, rs := range [][]sim.Reader{predict.SimReaders(), memstyle.SimReaders(), pramem.SimReaders(),
		agentReaders, lifemem.SimReaders(), taubench.SimReaders()} {
		out = append(out, rs...)
	}
	return out, nil
}

// simReaders is the readers registry the run's sim is built with.
func (k *Kinds) simReaders() (sim.Readers, error) {
	rs := []sim.Reader(nil)
	if k != nil {
		rs = k.SimReaders
	}
	if rs == nil {
		var err error
		if rs, err = BuiltinSimReaders(); err != nil {
			return sim.Readers{}, err
		}
	}
	return sim.NewReaders(rs...)
}

// ApproxTokenizer names the default token counter in manifests.
const ApproxTokenizer = "approx: int(1.5*CJK + 1.3*other/5), the release's fallback estimate"

func openBackbone(ctx context.Context, cfg *config.Config, getenv func(string) string, out string, warn io.Writer, kinds *Kinds) (*backbone, error) {
	// config.Load has already resolved "auto", the endpoints and the model.
	b := &backbone{kind: cfg.Backbone.Kind, tokens: tokens.Approx{}, tokenizer: ApproxTokenizer}
	if p := cfg.Prompt.Tokenizer; p != "" {
		c, err := hftok.Load(p)
		if err != nil {
			return nil, fmt.Errorf("prompt.tokenizer: %w", err)
		}
		b.tokens, b.tokenizer = c, c.Label
	}
	budget, err := openBudget(cfg, b.tokens)
	if err != nil {
		return nil, err
	}
	b.budget = budget
	switch b.kind {
	case "sim":
		sc := sim.Config{Threshold: cfg.Backbone.Sim.Threshold, Latency: cfg.Backbone.Sim.Latency.Duration, Seed: uint64(cfg.Seed)}
		if cfg.Backbone.Sim.PersistentInvalidRate != nil {
			sc.PersistentInvalidRate = *cfg.Backbone.Sim.PersistentInvalidRate
		}
		b.modelName = sim.Name
		readers, err := kinds.simReaders()
		if err != nil {
			return nil, err
		}
		var model llm.Model = sim.New(sc, readers)
		// Prices apply on every backbone: a user sizing a paper run prices
		// the embedded default's tokens as the endpoint's would be.
		if p := pricesOf(cfg); p != nil {
			model = llm.WithPrices(model, llm.PriceTable{sim.Name: *p}, sim.Name)
		}
		b.meter = llm.NewMeter(b.budget.Wrap(model))
	case "openai":
		urls := cfg.Backbone.BaseURLs
		if len(urls) == 0 {
			return nil, fmt.Errorf("backbone openai: no endpoint: set %s or backbone.base_urls", envBaseURL)
		}
		b.modelName = cfg.Backbone.Model
		if b.modelName == "" {
			return nil, fmt.Errorf("backbone openai: no model: set backbone.model or OPENAI_MODEL")
		}
		// Endpoints are shown and recorded without credentials.
		for _, u := range urls {
			b.endpoints = append(b.endpoints, config.RedactURL(u))
		}
		if err := probeEndpoints(ctx, urls, getenv(envAPIKey), b.modelName, warn); err != nil {
			return nil, err
		}
		b.retries = newRetryWatch()
		model, c, err := openaiStack(cfg, urls, b.modelName, getenv, out, b.retries.observe, b.budget)
		if err != nil {
			return nil, err
		}
		b.cache = c
		if bm := cfg.Backbone.BuildModel; bm != "" && bm != b.modelName || len(cfg.Backbone.BuildBaseURLs) > 0 {
			burls := cfg.Backbone.BuildBaseURLs
			if len(burls) == 0 {
				burls = urls
			}
			bmodel := cfg.Backbone.BuildModel
			if bmodel == "" {
				bmodel = b.modelName
			}
			if !slices.Equal(burls, urls) || bmodel != b.modelName {
				if err := probeEndpoints(ctx, burls, getenv(envAPIKey), bmodel, warn); err != nil {
					return nil, fmt.Errorf("construction backbone: %w", err)
				}
			}
			built, bc, err := openaiStack(cfg, burls, bmodel, getenv, out, b.retries.observe, b.budget)
			if err != nil {
				return nil, fmt.Errorf("construction backbone: %w", err)
			}
			if bc != nil {
				b.caches = append(b.caches, bc)
			}
			b.buildMeter = llm.NewMeter(built)
			b.buildModel = b.buildMeter
			b.buildModelName = bmodel
		}
		b.meter = llm.NewMeter(model)
		for _, st := range []struct {
			into          *stepModel
			step          string
			model, effort string
		}{
			{&b.assign, "assign", cfg.Backbone.AssignModel, cfg.Backbone.AssignReasoningEffort},
			{&b.skill, "skill", cfg.Backbone.SkillModel, cfg.Backbone.SkillReasoningEffort},
			{&b.user, "user", cfg.Backbone.UserModel, ""},
		} {
			sm, err := openStepModel(cfg, b, urls, st.step, st.model, st.effort, getenv, out)
			if err != nil {
				return nil, err
			}
			*st.into = sm
		}
	default:
		return nil, fmt.Errorf("backbone.kind %q: want auto, sim or openai", b.kind)
	}
	b.model = b.meter

	switch cfg.Embedder.Kind {
	case "", "hash":
		b.embedder = embed.Memo(embed.Hash{Dim: cfg.Embedder.Dim})
		b.embedderLabel = fmt.Sprintf("hash bag-of-words (dim %d)", cfg.Embedder.Dim)
		if b.kind == "openai" {
			b.embedderWarning = hashEmbedderWarning(cfg.Embedder.Model)
		}
	case "openai":
		url := cfg.Embedder.BaseURL
		if url == "" {
			url = strings.TrimSpace(strings.Split(getenv(envBaseURL), ",")[0])
		}
		e, err := embed.NewOpenAI(embed.OpenAIConfig{BaseURL: url, Model: cfg.Embedder.Model, APIKey: getenv(envAPIKey)})
		if err != nil {
			return nil, err
		}
		b.embedder = embed.Memo(e)
		b.embedderLabel = "openai " + cfg.Embedder.Model
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

// stepModel is one construction step's model (zero: none configured).
type stepModel struct {
	model  llm.Model
	meter  *llm.Meter
	name   string
	effort string
}

// shortHash is the first 12 hex digits of the SHA-256 of s.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// constructionModels names the lifelong path's construction models when
// any differs from the acting one: "assign=M1 (low), skill=M2", or the one
// build model.
func (b *backbone) constructionModels() string {
	if b.assign.model == nil && b.skill.model == nil {
		return b.buildModelName
	}
	name := func(s stepModel) string {
		n := s.name
		if s.model == nil {
			n = b.buildModelName
			if n == "" {
				n = b.modelName
			}
		}
		if s.effort != "" {
			n += " (" + s.effort + ")"
		}
		return n
	}
	return "assign=" + name(b.assign) + ", skill=" + name(b.skill)
}

// lifelongMeters are the meters a lifelong run books usage from: the
// acting model's and every construction model's.
func (b *backbone) lifelongMeters() []lifelong.Snapshotter {
	out := []lifelong.Snapshotter{b.meter}
	for _, m := range []*llm.Meter{b.buildMeter, b.assign.meter, b.skill.meter, b.user.meter} {
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
func openStepModel(cfg *config.Config, b *backbone, urls []string, step, name, effort string,
	getenv func(string) string, out string) (stepModel, error) {
	if name == "" && effort == "" {
		return stepModel{}, nil
	}
	if name == "" {
		name = cfg.Backbone.BuildModel
	}
	if name == "" {
		name = b.modelName
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
	m, cc, err := openaiStack(&c, burls, name, getenv, out, b.retries.observe, b.budget)
	if err != nil {
		return stepModel{}, fmt.Errorf("%s model: %w", step, err)
	}
	if cc != nil {
		b.caches = append(b.caches, cc)
	}
	meter := llm.NewMeter(m)
	return stepModel{model: meter, meter: meter, name: name, effort: effort}, nil
}

// openaiStack builds defaults(cache(budget(stack))) for one model at some
// endpoints: the budget sits below the cache, so cached answers never meet
// a ceiling.
func openaiStack(cfg *config.Config, urls []string, modelName string, getenv func(string) string, out string, onRetry func(llm.RetryEvent),
	budget *llm.Budget) (llm.Model, *cache.Cache, error) {
	var cc *cache.Cache
	stack, err := llm.Open(llm.StackConfig{
		BaseURLs: urls, Model: modelName, APIKey: getenv(envAPIKey),
		Timeout: cfg.Backbone.Timeout.Duration, MaxRetries: cfg.Backbone.MaxRetries,
		MaxResponseBytes: cfg.Backbone.MaxResponseBytes, OnRetry: onRetry,
		Concurrency: cfg.Backbone.Concurrency, MaxConcurrency: cfg.Backbone.MaxConcurrency,
		Prices: pricesOf(cfg), RetrySeed: uint64(cfg.Seed),
		NoMeter: true, // the run's meter sits outside the cache, so it sees cached calls too
	})
	if err != nil {
		return nil, nil, err
	}
	model := budget.Wrap(stack)
	if cfg.Backbone.Cache != "off" {
		ids := make([]string, len(urls))
		for i, u := range urls {
			ids[i] = llm.Identity(u, modelName)
		}
		identity := strings.Join(ids, ",")
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

func pricesOf(cfg *config.Config) *llm.Prices {
	p := cfg.Backbone.Prices
	if p == nil {
		return nil
	}
	return &llm.Prices{PromptPer1M: p.PromptPer1M, CompletionPer1M: p.CompletionPer1M, CachedPromptPer1M: p.CachedPromptPer1M}
}

// gitCommit returns the harness checkout's commit, or "" outside a checkout.
func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
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

// stampEmbedder records the embedder in m and, when retrieving methods run
// on a real backbone with the hash embedder, warns on w and in m (reports
// carry it in their titles).
func (b *backbone) stampEmbedder(m *runlog.Manifest, retrieves bool, w io.Writer) {
	m.Embedder = b.embedderLabel
	if retrieves && b.embedderWarning != "" {
		m.EmbedderWarning = b.embedderWarning
		fmt.Fprintln(w, "warning: "+b.embedderWarning)
	}
}
