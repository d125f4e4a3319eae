// Package llm is the only path from the harness to a language model.
//
// A model is a stack of small wrappers around one backend: for a real
// endpoint Meter(Cache(Budget(Router(Hold(Retry(Limiter(OpenAI))))))) — retries sit
// outside the limiter so a request waiting out a backoff holds no
// concurrency slot, the spending ceilings' Budget sits below the cache,
// which answers for free, and the prefix hold (see PrefixHolds) per
// endpoint, where calls go out — or Meter(Budget(Hold(Sim))) for the
// embedded heuristic reader (the Budget only when a ceiling is set). Methods see only the Model interface; HTTP,
// retries, rate limits and the response cache live here.
package llm

import (
	"context"
	"time"
)

// Message is one chat turn.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Params are the sampling parameters sent with a request. Nil pointers mean
// "server default" (the PraMem reference never sends a temperature).
type Params struct {
	// Temperature and TopP are sent when set (nil: the server's default).
	Temperature *float64 `json:"temperature,omitempty" yaml:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty" yaml:"top_p,omitempty"`
	// MaxTokens bounds the completion (0: the server's default).
	MaxTokens int `json:"max_tokens,omitempty" yaml:"max_tokens,omitempty"`
	// Seed is sent when set; servers that honour it sample reproducibly.
	Seed *int `json:"seed,omitempty" yaml:"seed,omitempty"`
	// Stop lists stop sequences.
	Stop []string `json:"stop,omitempty" yaml:"stop,omitempty"`
	// ReasoningEffort is sent as reasoning_effort when non-empty.
	ReasoningEffort string `json:"reasoning_effort,omitempty" yaml:"reasoning_effort,omitempty"`
	// Extra is merged into the request body (e.g. chat_template_kwargs for vLLM).
	Extra map[string]any `json:"extra,omitempty" yaml:"extra,omitempty"`
}

// IsZero is true when p sets nothing: a request with it runs at the
// server's defaults.
func (p Params) IsZero() bool {
	return p.Temperature == nil && p.TopP == nil && p.MaxTokens == 0 && p.Seed == nil && len(p.Stop) == 0 &&
		p.ReasoningEffort == "" && len(p.Extra) == 0
}

// Request is one generation request.
type Request struct {
	// Purpose names the call site ("predict", "summary", "pramem.reflect", ...).
	// It drives usage accounting and sim dispatch.
	Purpose  string
	Messages []Message
	Params   Params
	// SampleID is the stable ID of the sample this call serves; with Attempt it
	// makes repeated draws of the same prompt distinct in the cache.
	SampleID string
	// Unit names the answer this call is a draw of, for the invalid-answer
	// meter (PurposeStats.Units); empty means SampleID. It differs from
	// SampleID where several methods answer the same instance: SampleID
	// (which keys the cache and the sim's draws) is the instance, Unit the
	// method's sample, so each method's answers are counted on their own.
	// It never reaches an endpoint or the cache key.
	Unit string
	// Attempt counts retries of invalid outputs (0 for the first draw).
	Attempt int
	// Repeat is which of a sample's repeated draws (eval.repeats) this call
	// serves, 0 for the first: with SampleID and Attempt it keys the cache
	// and the sim's draws, and it is in the call record. Repeat 0 keys as
	// before repeats existed. See WithRepeat.
	Repeat int
	// Affinity routes the request to one endpoint (usually the user ID) so a
	// server's prefix cache is reused across that user's calls.
	Affinity string
	// Hint is a typed, structured view of the same request (see package hint),
	// read only by the sim backbone. It never reaches a real endpoint or the
	// cache key.
	Hint any
	// Accept reports whether a response is valid for its purpose. The cache
	// stores only accepted responses, so invalid outputs are redrawn on resume.
	// Nil accepts everything.
	Accept func(Response) bool
}

// Usage is the token and cost accounting of one call.
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	CachedTokens     int     `json:"cached_tokens,omitempty"`
	Cost             float64 `json:"cost,omitempty"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
		Cost:             u.Cost + o.Cost,
	}
}

// Response is the outcome of one call.
type Response struct {
	// Text is the answer with any <think> block removed (SplitThink): what
	// the harness's own parsers read.
	Text string
	// Content is the message content as the endpoint sent it, reasoning
	// blocks and surrounding whitespace included: what a source's own code
	// reads (see Reply). Empty where a backend or an old cache entry did not
	// record it.
	Content string
	// Reasoning holds the stripped <think> content or the server's reasoning channel.
	Reasoning string
	Usage     Usage
	// Cached is true when the response came from the on-disk cache.
	Cached  bool
	Latency time.Duration
	// Model and Endpoint identify who answered (no secrets).
	Model    string
	Endpoint string
	// Retries is how many transport-level retries this call needed.
	Retries int
	// Batch names the provider batch that answered the call ("" for a live
	// or cached call; see package llm/batch).
	Batch string
	// UsageEstimated says why Usage is the harness's own count rather than
	// the endpoint's (negative or absurd counts); "" for the endpoint's.
	UsageEstimated string
	// Params, when set, are the sampling parameters as sent after a layer
	// below the caller merged its defaults in (see WithDefaults), so the
	// call record shows what the endpoint received.
	Params *Params
}

// Reply is the reply as a source's own code reads it under prompts:
// release: the content as it came (the PraMem release's evaluator and
// LifelongAgentBench's _parse_agent_response read message.content with any
// <think> block in it). Where Content was not recorded it is Text; the two
// can then differ only where the content held a reasoning block, which
// every backend here records (see the cache's content column).
func (r Response) Reply() string {
	if r.Content != "" {
		return r.Content
	}
	return r.Text
}

// WithDefaults returns m with every unset parameter of a request taken
// from defaults (MergeParams); the response reports the merged parameters.
func WithDefaults(m Model, defaults Params) Model {
	return ModelFunc(func(ctx context.Context, req Request) (Response, error) {
		req.Params = MergeParams(req.Params, defaults)
		resp, err := m.Generate(ctx, req)
		resp.Params = &req.Params
		return resp, err
	})
}

// Model generates text.
type Model interface {
	Generate(ctx context.Context, req Request) (Response, error)
}

// Embedder maps texts to vectors.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// ModelFunc adapts a function to Model (handy in tests).
type ModelFunc func(ctx context.Context, req Request) (Response, error)

// Generate calls f.
func (f ModelFunc) Generate(ctx context.Context, req Request) (Response, error) { return f(ctx, req) }
