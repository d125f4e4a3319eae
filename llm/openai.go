package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultTimeout bounds one attempt when EndpointConfig.Timeout is zero.
const DefaultTimeout = 5 * time.Minute

// DefaultMaxResponseBytes caps a response body when
// EndpointConfig.MaxResponseBytes is zero: far above any real answer, far
// below what a runaway or hostile server can send.
const DefaultMaxResponseBytes = 1 << 20

// OversizeAnswer is the answer text of a response whose body exceeded the
// cap. It is a deliberately unparseable answer, so the sample is redrawn or
// ends invalid with this as its raw text, instead of storing megabytes.
const OversizeAnswer = "[answer discarded: the response body exceeded the size cap (backbone.max_response_bytes)]"

// EndpointConfig configures one OpenAI-compatible chat endpoint.
//
// APIKey is supplied by the caller (read from the environment); String,
// GoString and LogValue never print it, and it has no yaml/json name so it
// cannot end up in a manifest.
type EndpointConfig struct {
	// BaseURL is the API root, e.g. "http://localhost:8000/v1".
	BaseURL string `yaml:"base_url" json:"base_url"`
	// Model is the served model name sent in every request.
	Model  string `yaml:"model" json:"model"`
	APIKey string `yaml:"-" json:"-"`
	// Timeout bounds each attempt (DefaultTimeout when zero).
	Timeout time.Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// MaxResponseBytes caps a response body (DefaultMaxResponseBytes when zero).
	MaxResponseBytes int64 `yaml:"max_response_bytes,omitempty" json:"max_response_bytes,omitempty"`
	// HTTPClient overrides the transport (NewHTTPClient(64) when nil).
	HTTPClient *http.Client `yaml:"-" json:"-"`
}

// String describes the endpoint without its key.
func (c EndpointConfig) String() string {
	return fmt.Sprintf("EndpointConfig{BaseURL:%s Model:%s APIKey:%s Timeout:%s}",
		SanitizeURL(c.BaseURL), c.Model, keyState(c.APIKey), c.Timeout)
}

// GoString keeps %#v from printing the key.
func (c EndpointConfig) GoString() string { return c.String() }

// LogValue keeps slog from printing the key.
func (c EndpointConfig) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", SanitizeURL(c.BaseURL)),
		slog.String("model", c.Model),
		slog.String("api_key", keyState(c.APIKey)),
		slog.Duration("timeout", c.Timeout),
	)
}

func keyState(k string) string {
	if k == "" {
		return "[unset]"
	}
	return "[set]"
}

// SanitizeURL drops credentials, query and fragment from a URL so it can be
// logged, hashed into cache keys and written to run manifests.
func SanitizeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "[invalid-url]"
	}
	u.User = nil
	u.RawQuery = ""
	u.ForceQuery = false
	u.Fragment = ""
	return strings.TrimRight(u.String(), "/")
}

// NewHTTPClient returns a client whose transport keeps enough idle
// connections per host for conns concurrent requests; the default of 2 would
// make every extra request pay a new TCP handshake.
func NewHTTPClient(conns int) *http.Client {
	if conns < 1 {
		conns = 1
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = conns
	t.MaxIdleConns = max(t.MaxIdleConns, 2*conns)
	return &http.Client{Transport: t}
}

// OpenAI is a Model backed by one OpenAI-compatible chat completions endpoint.
// It makes exactly one attempt per call; wrap it with WithRetry.
type OpenAI struct {
	client   *openai.Client
	model    string
	endpoint string
	key      string
	timeout  time.Duration
	maxBody  int64
}

// NewOpenAI builds a client for one endpoint.
func NewOpenAI(cfg EndpointConfig) (*OpenAI, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("llm: endpoint base URL is empty")
	}
	if u, err := url.Parse(cfg.BaseURL); err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("llm: endpoint base URL %q is not an absolute URL", SanitizeURL(cfg.BaseURL))
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("llm: endpoint %s: model name is empty", SanitizeURL(cfg.BaseURL))
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = NewHTTPClient(64)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = cfg.BaseURL
	oc.HTTPClient = captureDoer{next: hc}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxBody := cfg.MaxResponseBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxResponseBytes
	}
	return &OpenAI{
		maxBody:  maxBody,
		client:   openai.NewClientWithConfig(oc),
		model:    cfg.Model,
		endpoint: SanitizeURL(cfg.BaseURL),
		key:      cfg.APIKey,
		timeout:  timeout,
	}, nil
}

// Endpoint returns the base URL without credentials.
func (o *OpenAI) Endpoint() string { return o.endpoint }

// Generate sends one chat completion request.
func (o *OpenAI) Generate(ctx context.Context, req Request) (Response, error) {
	creq, patch, err := buildChatRequest(o.model, req)
	if err != nil {
		return Response{}, &Error{Kind: KindRequest, Endpoint: o.endpoint, msg: err.Error(), cause: err}
	}
	actx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	at := &attempt{patch: patch, maxBody: o.maxBody}
	actx = context.WithValue(actx, attemptKey{}, at)

	start := time.Now()
	cresp, err := o.client.CreateChatCompletion(actx, creq)
	lat := time.Since(start)
	if at.oversize {
		return Response{Text: OversizeAnswer, Latency: lat, Model: o.model, Endpoint: o.endpoint}, nil
	}
	if err != nil {
		return Response{Latency: lat, Endpoint: o.endpoint}, o.classify(ctx, err, at)
	}
	if len(cresp.Choices) == 0 {
		return Response{Latency: lat, Endpoint: o.endpoint}, &Error{
			Kind: KindDecode, Retryable: true, Endpoint: o.endpoint,
			msg: "response has no choices",
		}
	}
	msg := cresp.Choices[0].Message
	text, inline := SplitThink(msg.Content)
	server := msg.ReasoningContent
	if server == "" {
		server = reasoningField(at.body)
	}
	resp := Response{
		Text:      text,
		Content:   msg.Content,
		Reasoning: joinNonEmpty([]string{server, inline}, "\n"),
		Usage: Usage{
			PromptTokens:     cresp.Usage.PromptTokens,
			CompletionTokens: cresp.Usage.CompletionTokens,
		},
		Latency:  lat,
		Model:    cresp.Model,
		Endpoint: o.endpoint,
	}
	if d := cresp.Usage.PromptTokensDetails; d != nil {
		resp.Usage.CachedTokens = d.CachedTokens
	}
	if at.usageBad != "" {
		resp.Usage, resp.UsageEstimated = ownUsage(req, msg.Content), at.usageBad
	}
	if resp.Model == "" {
		resp.Model = o.model
	}
	return resp, nil
}

// reservedKeys may not be overridden through Params.Extra.
var reservedKeys = map[string]bool{"model": true, "messages": true, "stream": true}

// buildChatRequest maps a Request onto go-openai's struct plus a JSON patch of
// extra top-level fields. Temperature and top_p travel in the patch because
// go-openai's float32 fields with omitempty cannot send an explicit 0.
func buildChatRequest(model string, req Request) (openai.ChatCompletionRequest, []byte, error) {
	p := req.Params
	c := openai.ChatCompletionRequest{
		Model:    model,
		Messages: make([]openai.ChatCompletionMessage, len(req.Messages)),
	}
	for i, m := range req.Messages {
		c.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	extra := make(map[string]any, len(p.Extra)+2)
	for k, v := range p.Extra {
		if reservedKeys[k] {
			return c, nil, fmt.Errorf("params.extra may not set %q", k)
		}
		extra[k] = v
	}
	has := func(k string) bool { _, ok := extra[k]; return ok }
	if p.Temperature != nil && !has("temperature") {
		extra["temperature"] = *p.Temperature
	}
	if p.TopP != nil && !has("top_p") {
		extra["top_p"] = *p.TopP
	}
	if p.MaxTokens > 0 && !has("max_tokens") && !has("max_completion_tokens") {
		// OpenAI's reasoning models reject max_tokens.
		if isReasoningModel(model) {
			c.MaxCompletionTokens = p.MaxTokens
		} else {
			c.MaxTokens = p.MaxTokens
		}
	}
	if p.Seed != nil && !has("seed") {
		c.Seed = p.Seed
	}
	if len(p.Stop) > 0 && !has("stop") {
		c.Stop = p.Stop
	}
	if p.ReasoningEffort != "" && !has("reasoning_effort") {
		c.ReasoningEffort = p.ReasoningEffort
	}
	patch, err := encodePatch(extra)
	return c, patch, err
}

func isReasoningModel(m string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	return false
}

// encodePatch renders fields as `"k":v,...` in sorted key order, ready to be
// spliced into a JSON object.
func encodePatch(fields map[string]any) ([]byte, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b []byte
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(fields[k])
		if err != nil {
			return nil, fmt.Errorf("params.extra[%q]: %w", k, err)
		}
		b = append(b, kb...)
		b = append(b, ':')
		b = append(b, vb...)
	}
	return b, nil
}

// reasoningField reads a "reasoning" message field (newer vLLM releases use it
// instead of reasoning_content) from the raw body; most bodies lack it, so a
// substring test avoids a second decode.
func reasoningField(body []byte) string {
	if !bytes.Contains(body, []byte(`"reasoning"`)) {
		return ""
	}
	var r struct {
		Choices []struct {
			Message struct {
				Reasoning string `json:"reasoning"`
			} `json:"message"`
		} `json:"choices"`
	}
	if json.Unmarshal(body, &r) != nil || len(r.Choices) == 0 {
		return ""
	}
	return r.Choices[0].Message.Reasoning
}

// MarshalJSON writes the config without credentials (see StackConfig).
func (c EndpointConfig) MarshalJSON() ([]byte, error) { return json.Marshal(c.public()) }

// MarshalYAML does the same for YAML.
func (c EndpointConfig) MarshalYAML() (any, error) { return c.public(), nil }

type endpointConfigFields EndpointConfig

func (c EndpointConfig) public() endpointConfigFields {
	p := endpointConfigFields(c)
	p.APIKey = ""
	p.BaseURL = SanitizeURL(c.BaseURL)
	return p
}
