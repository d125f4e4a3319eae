package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"time"
)

// StackConfig describes a real-endpoint model: one model name served at one
// or more OpenAI-compatible base URLs. It is a plain struct so the YAML
// config layer can embed it; APIKey has no yaml/json name and is never
// printed (see String).
type StackConfig struct {
	BaseURLs []string `yaml:"base_urls" json:"base_urls"`
	// Weights optionally skews routing between BaseURLs (nil: equal).
	Weights []float64 `yaml:"weights,omitempty" json:"weights,omitempty"`
	Model   string    `yaml:"model" json:"model"`
	APIKey  string    `yaml:"-" json:"-"`
	// Timeout bounds one attempt (DefaultTimeout when zero).
	Timeout time.Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// MaxResponseBytes caps a response body (DefaultMaxResponseBytes when zero).
	MaxResponseBytes int64 `yaml:"max_response_bytes,omitempty" json:"max_response_bytes,omitempty"`
	// MaxRetries is the number of retries after the first attempt
	// (default 5; negative disables retries).
	MaxRetries int `yaml:"max_retries,omitempty" json:"max_retries,omitempty"`
	// Concurrency is the starting in-flight limit per endpoint (default 16);
	// MaxConcurrency its ceiling (default max(64, Concurrency)).
	Concurrency    int `yaml:"concurrency,omitempty" json:"concurrency,omitempty"`
	MaxConcurrency int `yaml:"max_concurrency,omitempty" json:"max_concurrency,omitempty"`
	// Prices, if set, price every live response of this stack (whatever
	// model name the server reports) into Usage.Cost.
	Prices *Prices `yaml:"prices,omitempty" json:"prices,omitempty"`
	// Params are defaults for fields a request leaves unset.
	Params Params `yaml:"params,omitempty" json:"params,omitempty"`
	// BreakAfter is how many consecutive connection failures of one endpoint
	// stop all its calls (DefaultBreakAfter when zero; see WithBreaker).
	BreakAfter int `yaml:"-" json:"-"`
	// RetrySeed seeds the backoff jitter.
	RetrySeed uint64 `yaml:"retry_seed,omitempty" json:"retry_seed,omitempty"`

	// Holds, when set, put each endpoint behind the prefix hold of its
	// server cache (see PrefixHolds; nil: calls are never held).
	Holds *PrefixHolds `yaml:"-" json:"-"`
	// NoMeter leaves out the usage meter.
	NoMeter bool `yaml:"-" json:"-"`
	// OnEvent is the internal meter's hook (progress display).
	OnEvent func(MeterEvent) `yaml:"-" json:"-"`
	// OnRetry is told of every retry as it happens, e.g. an outer Meter's
	// ObserveRetry when the caller meters above a cache.
	OnRetry func(RetryEvent) `yaml:"-" json:"-"`
	// HTTPClient overrides the shared transport.
	HTTPClient *http.Client `yaml:"-" json:"-"`
	// Sleep replaces real waits in retries and limiter pauses (tests).
	Sleep func(ctx context.Context, d time.Duration) error `yaml:"-" json:"-"`
}

// String describes the config without the API key.
func (c StackConfig) String() string {
	urls := make([]string, len(c.BaseURLs))
	for i, u := range c.BaseURLs {
		urls[i] = SanitizeURL(u)
	}
	return fmt.Sprintf("StackConfig{BaseURLs:%v Model:%s APIKey:%s Timeout:%s MaxRetries:%d Concurrency:%d MaxConcurrency:%d}",
		urls, c.Model, keyState(c.APIKey), c.Timeout, c.MaxRetries, c.Concurrency, c.MaxConcurrency)
}

// GoString keeps %#v from printing the key.
func (c StackConfig) GoString() string { return c.String() }

// LogValue keeps slog from printing the key.
func (c StackConfig) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Identity names an endpoint for cache keys and manifests: the base URL
// without credentials, a bar, and the model name.
func Identity(baseURL, model string) string { return SanitizeURL(baseURL) + "|" + model }

// Identities returns Identity for every base URL, in order.
func (c StackConfig) Identities() []string {
	ids := make([]string, len(c.BaseURLs))
	for i, u := range c.BaseURLs {
		ids[i] = Identity(u, c.Model)
	}
	return ids
}

// Stack is the assembled real-endpoint model:
//
//	defaults → Meter → prices → Router → per endpoint Hold(Retry(Breaker(Limiter(OpenAI))))
//
// Retry sits outside the limiter so a request sleeping in backoff holds no
// slot, and the limiter sees every attempt's 429/503 and Retry-After.
type Stack struct {
	top      Model
	defaults Params
	// Meter is nil when StackConfig.NoMeter is set.
	Meter *Meter
	// Limiters has one entry per base URL, in config order.
	Limiters []*Limiter
	Router   *Router
}

// Open builds the stack for cfg. Use OpenStack to reach its meter,
// limiters and router.
func Open(cfg StackConfig) (Model, error) {
	s, err := OpenStack(cfg)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// OpenStack builds the stack for cfg.
func OpenStack(cfg StackConfig) (*Stack, error) {
	if len(cfg.BaseURLs) == 0 {
		return nil, fmt.Errorf("llm: no base URLs configured (set OPENAI_BASE_URL or base_urls)")
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = NewHTTPClient(max(cfg.MaxConcurrency, cfg.Concurrency, 64))
	}
	s := &Stack{defaults: cfg.Params}
	onRetry := cfg.OnRetry
	if !cfg.NoMeter {
		// The meter wraps the router below; create it first so retries can
		// report to it, then attach the wrapped model.
		s.Meter = NewMeter(nil, cfg.OnEvent)
		onRetry = s.Meter.ObserveRetry
		if outer := cfg.OnRetry; outer != nil {
			onRetry = func(e RetryEvent) { s.Meter.ObserveRetry(e); outer(e) }
		}
	}
	attempts := 6
	switch {
	case cfg.MaxRetries < 0:
		attempts = 1
	case cfg.MaxRetries > 0:
		attempts = cfg.MaxRetries + 1
	}
	models := make([]Model, len(cfg.BaseURLs))
	names := make([]string, len(cfg.BaseURLs))
	for i, u := range cfg.BaseURLs {
		oa, err := NewOpenAI(EndpointConfig{
			BaseURL: u, Model: cfg.Model, APIKey: cfg.APIKey, Timeout: cfg.Timeout, HTTPClient: hc,
			MaxResponseBytes: cfg.MaxResponseBytes,
		})
		if err != nil {
			return nil, fmt.Errorf("llm: base_urls[%d]: %w", i, err)
		}
		lim := WithLimiter(oa, LimiterConfig{
			Initial: cfg.Concurrency, Max: cfg.MaxConcurrency, Sleep: cfg.Sleep,
		})
		s.Limiters = append(s.Limiters, lim)
		// The hold sits outside the retries: a call held behind another
		// goes once that one is answered or has failed for good.
		models[i] = cfg.Holds.Wrap(Identity(u, cfg.Model), WithRetry(WithBreaker(lim, oa.Endpoint(), cfg.BreakAfter), RetryPolicy{
			MaxAttempts: attempts, Seed: cfg.RetrySeed + uint64(i), Sleep: cfg.Sleep, OnRetry: onRetry,
		}))
		names[i] = oa.Endpoint()
	}
	r, err := NewWeightedRouter(models, names, cfg.Weights)
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	s.Router = r
	s.top = r
	if cfg.Prices != nil {
		s.top = WithPrices(r, PriceTable{cfg.Model: *cfg.Prices}, cfg.Model)
	}
	if s.Meter != nil {
		s.Meter.next = s.top
		s.top = s.Meter
	}
	return s, nil
}

// Generate fills unset parameters from the config's defaults and sends req.
func (s *Stack) Generate(ctx context.Context, req Request) (Response, error) {
	req.Params = MergeParams(req.Params, s.defaults)
	return s.top.Generate(ctx, req)
}

// MergeParams returns p with every unset field taken from defaults. Extra
// maps are merged key by key, p winning.
func MergeParams(p, defaults Params) Params {
	if p.Temperature == nil {
		p.Temperature = defaults.Temperature
	}
	if p.TopP == nil {
		p.TopP = defaults.TopP
	}
	if p.MaxTokens == 0 {
		p.MaxTokens = defaults.MaxTokens
	}
	if p.Seed == nil {
		p.Seed = defaults.Seed
	}
	if p.Stop == nil {
		p.Stop = defaults.Stop
	}
	if p.ReasoningEffort == "" {
		p.ReasoningEffort = defaults.ReasoningEffort
	}
	if len(defaults.Extra) > 0 {
		merged := maps.Clone(defaults.Extra)
		maps.Copy(merged, p.Extra)
		p.Extra = merged
	}
	return p
}

// MarshalJSON writes the config with credentials stripped from the URLs, so a
// run manifest can never carry a secret embedded in a base URL.
func (c StackConfig) MarshalJSON() ([]byte, error) { return json.Marshal(c.public()) }

// MarshalYAML does the same for YAML.
func (c StackConfig) MarshalYAML() (any, error) { return c.public(), nil }

// stackConfigFields has StackConfig's fields without its methods.
type stackConfigFields StackConfig

func (c StackConfig) public() stackConfigFields {
	p := stackConfigFields(c)
	p.APIKey = ""
	p.BaseURLs = make([]string, len(c.BaseURLs))
	for i, u := range c.BaseURLs {
		p.BaseURLs[i] = SanitizeURL(u)
	}
	return p
}
